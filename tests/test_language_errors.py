"""What a designer sees when a rule is wrong: position, line, caret, expected, suggestion.

The rules are read as a strategy card's event of Fort Sumter is (its words, and what a card's
rule may refer to: content/definition.py's card_slot)."""

import pytest

from crisis.content.definition import card_slot
from crisis.ruleset.diagnostics import RulesError, Source
from crisis.ruleset.reader import parse
from crisis.ruleset.resolver import Resolver, Slot


@pytest.fixture(scope="module")
def definition(content):
    return content.definition


@pytest.fixture(scope="module")
def lexicon(definition):
    return definition.lexicon


def parse_block(text, lexicon, source=None):
    return parse(text, lexicon, "block", source)


def syntax_error(text, lexicon):
    with pytest.raises(RulesError) as caught:
        parse_block(text, lexicon, Source(text=text, path="card.yaml"))
    (diagnostic,) = caught.value.diagnostics
    return diagnostic


SYNTAX = [
    # text, line, column, message, part of "expected", hint
    ("plase 3 in Fort Sumter", 1, 1, "unknown word 'plase'", "'place'", "did you mean 'place'?"),
    ("Place 3 in Fort Sumter", 1, 1, "unexpected name 'Place'", "'remove'",
     "keywords are written in lowercase: did you mean 'place'?"),
    ("place three in Fort Sumter", 1, 7, "unknown word 'three'", "a number", "write numbers as digits: did you mean '3'?"),
    ("gain 1 vp", 1, 8, "unknown word 'vp'", "'VP'", "did you mean 'VP'?"),
    ("if you control Fort Sumter\n  gain 1 VP", 1, 27, "unexpected end of line", "':'", None),
    ("place 2 in Washington;", 1, 22, "unexpected character ';'", "the end of the line", None),
    ("gain 1 VP\n  lose 1 VP", 2, 3, "unexpected indentation", None, None),
    ("either:\n  gain 1 VP\n or:\n  lose 1 VP", 3, 2, "this line's indentation matches no enclosing block",
     "the indentation of an earlier line", None),
    ("place up to", 1, 12, "unexpected end of line", "a number", None),
    # keywords are whole words: a longer word is unknown, read whole (issue 17, item 13)
    ("place 1 in Texas\nreveale the top card of the strategy deck", 2, 1, "unknown word 'reveale'", "'reveal'",
     "did you mean 'reveal'?"),
    ("placed 1 in Texas", 1, 1, "unknown word 'placed'", "'place'", "did you mean 'place'?"),
    ("gain 1 VP for each spaced you control", 1, 20, "unknown word 'spaced'", "'space'", "did you mean 'space'?"),
    ("place 1 at Texas", 1, 9, "unexpected word 'at'", "'in'", None),
    # a folded rule's two lines read as one, a name misspelt at its end: 'Fort' begins a name of
    # the game, never 'for' misspelt
    ("place 3 in Washington place 3 in Fort Sumtr", 1, 23, "unexpected word 'place'", None, None),
    # a thing's name in state.yaml where rules use its words ('plays' is called 'played cards')
    ("if you have at least 2 plays: gain 1 VP", 1, 24, "unexpected word 'plays'", None,
     "rules call the counter 'plays' by its words in state.yaml: did you mean 'played cards'?"),
    ("gain 1 VP for each plays", 1, 20, "unexpected word 'plays'", None,
     "rules call the counter 'plays' by its words in state.yaml: did you mean 'played cards'?"),
]


@pytest.mark.parametrize("text,line,column,message,expected,hint", SYNTAX, ids=[s[0] for s in SYNTAX])
def test_syntax_error_points_at_the_problem(lexicon, text, line, column, message, expected, hint):
    d = syntax_error(text, lexicon)
    assert (d.path, d.line, d.column, d.message) == ("card.yaml", line, column, message)
    if expected:
        assert expected in d.expected
    assert d.hint == hint


def test_syntax_error_format_quotes_the_line_with_a_caret(lexicon):
    report = syntax_error("place 3 in Fort Sumter\nplase 1 in Texas", lexicon).format()
    assert report.splitlines() == [
        "card.yaml:2:1: error: unknown word 'plase'",
        "    2 | plase 1 in Texas",
        "      | ^~~~~",
        report.splitlines()[3],
        "  did you mean 'place'?",
    ]
    assert report.splitlines()[3].startswith("  expected: ")


def test_positions_are_translated_into_the_yaml_file(lexicon):
    # rule text taken from a block scalar that starts on file line 8, indented 6
    file_lines = tuple(["x"] * 7 + ["    event: |", "      place 3 in Fort Sumter", "      plase 1"])
    source = Source(text="place 3 in Fort Sumter\nplase 1", path="cards/x.yaml", file_lines=file_lines,
                    line_offset=8, column_offsets=(6,))
    with pytest.raises(RulesError) as caught:
        parse_block(source.text, lexicon, source)
    d = caught.value.diagnostics[0]
    assert (d.line, d.column, d.source_line) == (10, 7, "      plase 1")


@pytest.fixture(scope="module")
def checker(definition):
    return Resolver(definition.schema, definition.declarations, definition.lexicon)


@pytest.fixture(scope="module")
def event(definition):
    """Where a strategy card's event is read."""
    return card_slot(definition.schema, definition.schema.card_kind("strategy cards"), "event")


def check(checker, text, slot=None):
    slot = slot or card_slot(checker.schema, checker.schema.card_kind("strategy cards"), "event")
    return checker.block(parse_block(text, checker.lexicon), slot, Source(text=text, path="card.yaml"))[1]


CHECKS = [
    ("place 3 in Fort Sumpter", 1, 12, "unknown space 'Fort Sumpter'", "did you mean 'Fort Sumter'?"),
    ("place 3 in Political", 1, 12, "'Political' is a dimension, not a space",
     "to mean every space of the dimension, write 'Political spaces'"),
    ("place 3 in Fort Sumter spaces", 1, 12, "'Fort Sumter' is a space, not a dimension",
     "'Fort Sumter' is in the Armaments dimension"),
    ("remove 1 opponent token from Politcal spaces", 1, 30, "unknown dimension 'Politcal'", "did you mean 'Political'?"),
    ("place 2 Unionst tokens in Texas", 1, 9, "unknown side 'Unionst'", "did you mean 'Unionist'?"),
    ("place the Peace Comissioner in any space", 1, 11, "unknown marker 'Peace Comissioner'",
     "did you mean 'Peace Commissioner'?"),
    ("move 2 from your Starting box to your pool", 1, 18, "the Starting zone has no box", None),
    ("if your Tenson zone is breached: gain 1 VP", 1, 9, "unknown zone 'Tenson'", "did you mean 'Tension'?"),
    ("place 1 in this dimension", 1, 12, "'this dimension' means nothing in a strategy card event",
     "'this dimension' is known in the body of a 'for each' over spaces (the dimension of the space), and in a "
     "procedure carried out for a card that has a dimension field ('carry out ... for CARD')"),
    ("place 1 in it", 1, 12, "'it' and 'there' refer to the space tested in a 'where' clause",
     "name the space instead"),
    ("place 0 in Texas", 1, 7, "a count of 0 does nothing", None),
    ("place 30 in Texas", 1, 7, "no side has 30 tokens", None),
    ("place up to 2 in each Texas", 1, 7, "'each' needs an exact count per space", None),
    ("place 2 in your pool", 1, 12, "tokens are placed on map spaces here, not in 'your pool'",
     "to take tokens from or to a holder, use 'move'"),
    ("move 2 of your tokens from the opponent's pool to Texas", 1, 28, "your tokens can only be in your holders",
     "a pool, crisis track or box always belongs to the owner of the tokens in it"),
    ("move 2 from your pool to your Escalation box", 1, 26,
     "'your Escalation box' is never a destination: pieces only ever leave it",
     "its pieces go to their owner's holder when its zone is entered; nothing puts them back"),
    ("move 1 from Texas to Washington or your crisis track above your Tension zone", 1, 36,
     "'your crisis track above your Tension zone' is never a destination: pieces only ever leave it",
     "to put pieces back on a track, name the whole crisis track: they fill its lowest empty spaces"),
    ("place a token in Texas", 1, 7, "'a' and 'an' count no tokens: one token is written '1 token'",
     "'a' and 'an' pick one card or one place of several; they never count"),
    ("gain 1 VP for each revealed objective space you control", 1, 20,
     "no objective cards are revealed during a strategy card event",
     "revealed objective cards are known only while they are face up"),
]


@pytest.mark.parametrize("text,line,column,message,hint", CHECKS, ids=[c[0] for c in CHECKS])
def test_checker_names_the_problem_and_suggests(checker, text, line, column, message, hint):
    diagnostics = check(checker, text)
    assert len(diagnostics) == 1, [d.message for d in diagnostics]
    d = diagnostics[0]
    assert (d.line, d.column, d.message, d.hint) == (line, column, message, hint)


def test_checker_reports_every_problem_not_just_the_first(checker):
    found = check(checker, "place 3 in Fort Sumpter\nremove 1 token from Texass\nif you control Politcal: gain 1 VP")
    assert [(d.line, d.message) for d in found] == [
        (1, "unknown space 'Fort Sumpter'"),
        (2, "unknown space 'Texass'"),
        (3, "unknown space or dimension 'Politcal'"),
    ]


def test_context_words_are_fine_where_the_slot_binds_them(checker):
    bonus = Slot("the pivotal bonus", this_group=True, this_space=True)
    assert check(checker, "move up to 2 tokens of either side within this dimension", bonus) == []
    objective = card_slot(checker.schema, checker.schema.card_kind("objective cards"), "event")
    assert check(checker, "place 1 in this space", objective) == []


def test_where_may_say_it(checker):
    assert check(checker, "place 1 in spaces where nobody controls it and you have no tokens there") == []


def test_conditions_are_checked_too(checker, event):
    _, diagnostics = checker.condition(parse("you control Fort Sumtr", checker.lexicon, "condition_rule"), event)
    assert [d.message for d in diagnostics] == ["unknown space or dimension 'Fort Sumtr'"]


def test_expected_lists_the_known_names(checker):
    (d,) = check(checker, "place 1 in Nowhere")
    assert d.expected.startswith("a space: Washington, Montgomery, Springfield")
    assert d.hint is None


def test_an_unknown_word_is_read_whole_not_as_a_keyword_it_starts_with(lexicon):
    d = syntax_error("attach 1 in Texas", lexicon)
    assert (d.line, d.column, d.width, d.message) == (1, 1, 6, "unknown word 'attach'")
    assert "'place'" in d.expected


def test_sources_and_destinations_that_play_carries_out_are_fine(checker):
    assert check(checker, "move 2 from your Escalation box to your pool") == []
    assert check(checker, "move 1 from your crisis track above your Tension zone to Texas") == []
    assert check(checker, "move 1 from your pool to your crisis track") == []


def test_two_steps_of_one_name_are_refused_at_the_second(tmp_path):
    """A step is named by the log, the layout, the bots' evaluation and a scenario's 'phase': a
    second step of the same name is an error at its name, saying where the first is."""
    from helpers import copy_content, replace_in
    from crisis.content.loader import load_content
    from crisis.content.yamlfile import ContentError
    root = copy_content(tmp_path)
    sequence = root / "sequence.yaml"
    replace_in(sequence, "    step round end:", "    step deal:")
    lines = sequence.read_text(encoding="utf-8").split("\n")
    first, second = [number for number, line in enumerate(lines, 1) if line.strip() == "step deal:"]
    with pytest.raises(ContentError) as caught:
        load_content(root)
    (problem,) = caught.value.diagnostics
    assert problem.message.startswith(f"there is already a step named 'deal' (line {first})")
    assert problem.path.endswith("sequence.yaml") and problem.line == second
    assert problem.column == lines[second - 1].index("deal") + 1 and problem.width == len("deal")


def test_an_unknown_word_for_a_thing_near_none_lists_the_game_s_words_for_things(lexicon):
    """'add 1 to the fervour' in a game with no fervour: no keyword is offered as the word meant (it
    could not stand there: 'place' was), but the game's words for things, one for each, in the
    order state.yaml declares them."""
    d = syntax_error("add 1 to the fervour", lexicon)
    assert d.message == "unknown word 'fervour'" and d.column == 14
    assert d.hint.startswith("not a word of this game; its words for things are 'VP', ")
    assert "'played cards'" in d.hint and "'place'" not in d.hint and "did you mean" not in d.hint
