"""Each limit of docs/limits.md is enforced exactly where the page says: a value
at the limit is accepted, one past it is refused with a message naming the
limit (test_hostile_input.py covers the hostile cases far past the limits).

Content is loaded as few times as possible: the loader reports every problem
of a folder at once, so one broken copy checks several limits.
"""

import re

import pytest

from crisis.cli.saves import _scan
from crisis.content.loader import load_content
from crisis.content.yamlfile import Budget, ContentError, YamlFile, list_folder, read_text
from crisis.ruleset import limits
from crisis.ruleset.diagnostics import Diagnostic, RulesError, shown
from crisis.ruleset.reader import parse

from helpers import copy_content, replace_in
from crisis.interpreter.engine.program import program_of


def messages_of(root):
    try:
        load_content(root)
    except ContentError as error:
        return [d.message for d in error.diagnostics]
    return []


def yaml_problem(text):
    try:
        YamlFile("limits.yaml", text).load()
    except ContentError as error:
        return error.diagnostics[0].message
    return None


def lexicon():
    return load_content().definition.lexicon  # Fort Sumter's words


def rule_problem(text):
    try:
        parse(text, lexicon())
    except RulesError as error:
        return error.diagnostics[0].message
    return None


# ------------------------------------------------------------ YAML


def test_yaml_nesting_limit():
    # the top mapping, lists inside it, each level counted (a value at the bottom is a level too)
    inside = limits.MAX_YAML_DEPTH - 1
    assert yaml_problem("a: " + "[" * inside + "]" * inside) is None
    too_deep = yaml_problem("a: " + "[" * (inside + 1) + "]" * (inside + 1))
    assert too_deep == f"values are nested too deeply (more than {limits.MAX_YAML_DEPTH} levels)"


def test_yaml_alias_expansion_limit():
    # a list of 9 numbers repeated by aliases: 1 + 10 per copy + the loose numbers, counted before expanding
    copies = (limits.MAX_YAML_NODES - 1) // 10
    loose = limits.MAX_YAML_NODES - 1 - 10 * copies

    def text(extra):
        return "- &a [1,2,3,4,5,6,7,8,9]\n" + "- *a\n" * (copies - 1) + "- 0\n" * (loose + extra)
    assert yaml_problem(text(0)) is None
    assert yaml_problem(text(1)) == f"aliases expand this file beyond {limits.MAX_YAML_NODES:,} values"


def test_values_per_file_limit_without_aliases():
    assert yaml_problem("- a\n" * (limits.MAX_YAML_NODES - 1)) is None  # the list itself is a value
    assert yaml_problem("- a\n" * limits.MAX_YAML_NODES) == f"this file holds more than {limits.MAX_YAML_NODES:,} values"


def test_values_per_content_limit():
    per_file = limits.MAX_CONTENT_VALUES // 4  # at most the limit of one file
    copies = (per_file - 1) // 10
    text = "- &a [1,2,3,4,5,6,7,8,9]\n" + "- *a\n" * (copies - 1) + "- 0\n" * (per_file - 1 - 10 * copies)
    budget = Budget()
    for n in range(4):
        YamlFile(f"{n}.yaml", text).load(budget)
    assert budget.values == limits.MAX_CONTENT_VALUES
    with pytest.raises(ContentError, match=f"the content's files hold more than {limits.MAX_CONTENT_VALUES:,} values"):
        YamlFile("last.yaml", "a").load(budget)


def test_refused_files_count_towards_the_content_limit():
    budget = Budget()
    too_many = "- a\n" * limits.MAX_YAML_NODES
    for n in range(limits.MAX_CONTENT_VALUES // limits.MAX_YAML_NODES):
        with pytest.raises(ContentError, match="more than"):
            YamlFile(f"{n}.yaml", too_many).load(budget)
    with pytest.raises(ContentError, match="the content's files hold more than"):
        YamlFile("small.yaml", "a: 1").load(budget)


def test_number_length_limit_in_yaml_rules_and_saves():
    most = "9" * limits.MAX_NUMBER_DIGITS
    over = "1" + "0" * limits.MAX_NUMBER_DIGITS
    assert yaml_problem(f"a: {most}") is None and yaml_problem(f"a: -{most}") is None
    assert "too many digits" in yaml_problem(f"a: {over}")
    assert rule_problem(f"gain {most} VP") is None
    assert "too many digits" in rule_problem(f"gain {over} VP")
    assert _scan(f'{{"seed": {most}}}'.encode()) is None
    assert _scan(f'{{"seed": {over}}}'.encode()) == ("cli.save.long_number", 1)


# ------------------------------------------------------------ rules


def test_rule_nesting_limit():
    def nested(n):
        return "if " + "(" * n + "you control Texas" + ")" * n + ": gain 1 VP"
    assert rule_problem(nested(limits.MAX_RULE_DEPTH)) is None
    assert rule_problem(nested(limits.MAX_RULE_DEPTH + 1)) == (
        f"this rule is nested too deeply (more than {limits.MAX_RULE_DEPTH} levels)")


# ------------------------------------------------------------ saves


def test_save_nesting_limit():
    def nested(n):  # the save's own object is the first level
        return b'{"a": ' + b"[" * (n - 1) + b"]" * (n - 1) + b"}"
    assert _scan(nested(limits.MAX_SAVE_DEPTH)) is None
    assert _scan(nested(limits.MAX_SAVE_DEPTH + 1)) == ("cli.save.too_deep", 1)


def test_save_values_limit():
    def values(n):  # the save's own object, its key and its list are three values
        return b'{"a":\n[' + b",".join([b'"x"'] * (n - 3)) + b"]}"
    assert _scan(values(limits.MAX_SAVE_VALUES)) is None
    assert _scan(values(limits.MAX_SAVE_VALUES + 1)) == ("cli.save.too_many_values", 2)


# ------------------------------------------------------------ messages


def test_names_quoted_in_messages_are_shortened_past_the_limit():
    assert shown("x" * limits.MAX_SHOWN_CHARS) == "x" * limits.MAX_SHOWN_CHARS
    assert shown("x" * (limits.MAX_SHOWN_CHARS + 1)) == "x" * (limits.MAX_SHOWN_CHARS - 1) + "…"


def test_a_long_source_line_is_shown_around_the_column():
    line = "a" * 5000 + "HERE" + "b" * 5000
    text = Diagnostic(message="m", path="f.yaml", line=1, column=5001, width=4, source_line=line).format()
    quoted = [row for row in text.splitlines() if "HERE" in row]
    assert quoted and all(len(row) <= limits.MAX_SHOWN_LINE + 12 for row in text.splitlines())


# ------------------------------------------------------------ content folders


def test_entries_per_folder_limit(tmp_path):
    folder = tmp_path / "cards"
    folder.mkdir()
    for n in range(limits.MAX_FILES - 1):
        (folder / f"zz-{n:04}.yaml").write_text("")
    (folder / "notes.txt").write_text("")  # every entry counts, not only the files read
    assert len(list_folder(folder, tmp_path, ".yaml")) == limits.MAX_FILES - 1
    (folder / "zz-last.yaml").write_text("")
    with pytest.raises(ContentError, match=f"this folder has more than {limits.MAX_FILES:,} entries"):
        list_folder(folder, tmp_path, ".yaml")


def test_files_per_content_limit(tmp_path):
    (tmp_path / "a.yaml").write_text("a: 1\n")
    budget = Budget()
    for _ in range(limits.MAX_FILES):
        read_text(tmp_path / "a.yaml", tmp_path, budget)
    with pytest.raises(ContentError, match=f"the content has more than {limits.MAX_FILES:,} files"):
        read_text(tmp_path / "a.yaml", tmp_path, budget)


def test_content_bytes_limit(tmp_path):
    (tmp_path / "a.yaml").write_bytes(b"#" * (limits.MAX_CONTENT_BYTES // 4))
    budget = Budget()
    for _ in range(4):
        read_text(tmp_path / "a.yaml", tmp_path, budget)
    (tmp_path / "b.yaml").write_bytes(b"#")
    with pytest.raises(ContentError, match="add up to more than the limit of 4 MiB"):
        read_text(tmp_path / "b.yaml", tmp_path, budget)


def test_file_bytes_limit(tmp_path):
    (tmp_path / "a.yaml").write_bytes(b"#" * limits.MAX_FILE_BYTES)
    read_text(tmp_path / "a.yaml", tmp_path)
    (tmp_path / "a.yaml").write_bytes(b"#" * (limits.MAX_FILE_BYTES + 1))
    with pytest.raises(ContentError, match="larger than the limit of 1 MiB per file"):
        read_text(tmp_path / "a.yaml", tmp_path)


def set_state_numbers(root, shift):
    """Every number of state.yaml with a limit, set to its limit plus ``shift``."""
    state = root / "state.yaml"
    text = state.read_text(encoding="utf-8")
    most = limits.MAX_TOKENS + shift
    for old, new in (("  each side: 25", f"  each side: {most}"), ("  at most per place: 4", f"  at most per place: {most}"),
                     # at the limit the tokens add up (the pool holds those the track and boxes do not)
                     ("    pool: {words: [pool]}", f"    pool: {{words: [pool], start: {most - 25 if not shift else most}}}"),
                     ("      Escalation: {from: 10, to: 8, box: 2}", "      Escalation: {from: 10, to: 8, box: 2}"),
                     ("    to: 99\n", f"    to: {limits.MAX_COUNTER + shift}\n"),
                     ("game: fort-sumter", "game: " + "g" * (limits.MAX_NAME_CHARS + shift))):
        assert old in text, old
        text = text.replace(old, new, 1)
    state.write_text(text, encoding="utf-8")


def limit_messages(messages):
    """Messages about a limit of this file (those of the work of a rule are tests/test_rule_bound.py's)."""
    words = ("at most", "the limit", "1 to", "0 to", "nests placeholders", "cannot be a card id", "should be a whole")
    return [m for m in messages if any(w in m for w in words) and " in one run" not in m and " in one game" not in m]


def over_the_limits(tmp_path, build):
    """The messages for a copy of the content built one past its limits, after checking
    that the copy built exactly at them says nothing about a limit."""
    at = copy_content(tmp_path / "at")
    build(at, 0)
    assert limit_messages(messages_of(at)) == []
    over = copy_content(tmp_path / "over")
    build(over, 1)
    return messages_of(over)


def test_state_numbers_limits(tmp_path):
    found = over_the_limits(tmp_path, set_state_numbers)
    tokens = f"{limits.MAX_TOKENS:,}".replace(",", "")
    assert f"'each side' should be a whole number from 0 to {tokens}" in found
    assert f"'at most per place' should be a whole number from 1 to {tokens}" in found
    assert f"'start' should be a whole number from 0 to {tokens}" in found
    assert f"'to' should be a whole number from -{limits.MAX_COUNTER} to {limits.MAX_COUNTER}" in found
    assert f"the game's name must have 1 to {limits.MAX_NAME_CHARS} characters" in found


def test_track_length_limit(tmp_path):
    root = copy_content(tmp_path)
    replace_in(root / "state.yaml", "    spaces: 16", f"    spaces: {limits.MAX_TRACK_SPACES + 1}")
    assert f"'spaces' should be a whole number from 1 to {limits.MAX_TRACK_SPACES}" in messages_of(root)


def word(n):
    """A distinct name for the n-th added thing: names are letters only."""
    letters = ""
    while True:
        letters = "abcdefghijklmnopqrstuvwxyz"[n % 26] + letters
        n //= 26
        if not n:
            return letters


def add_board_parts(root, shift):
    """Groups, places, zones and markers up to their limits plus ``shift``."""
    state = root / "state.yaml"
    extra_groups = limits.MAX_GROUPS + shift - 4
    # the first extra group holds the extra places, so the places are counted even past the groups' limit
    places = limits.MAX_PLACES + shift - 12 - min(extra_groups - 1, limits.MAX_GROUPS - 5)
    rows = [f"    Extra: [{', '.join(f'Plain {word(i).title()}' for i in range(places))}]"]
    rows += [f"    Extra {word(g).title()}: [Lone {word(g).title()}]" for g in range(1, extra_groups)]
    replace_in(state, "    Public Opinion: [Newspapers, Abolitionists, Fire-Eaters]\n",
               "    Public Opinion: [Newspapers, Abolitionists, Fire-Eaters]\n" + "\n".join(rows) + "\n")
    # zones of one space each above Starting, the track and the tokens growing with them
    extra_zones = limits.MAX_ZONES + shift - 4
    zones = "".join(f"      Zone {word(z).title()}: {{from: {12 + z}, to: {12 + z}}}\n" for z in range(extra_zones))
    replace_in(state, "      Starting: {from: 15, to: 11}\n", "      Starting: {from: 11, to: 11}\n" + zones)
    replace_in(state, "    spaces: 16", f"    spaces: {12 + extra_zones}")
    replace_in(state, "  each side: 25", f"  each side: {12 + extra_zones + 9}")
    markers = "".join(f"  Marker {word(m).title()}:\n    blocks: [placement]\n" for m in range(limits.MAX_MARKERS + shift - 1))
    replace_in(state, "\nmarkers:\n", "\nmarkers:\n" + markers)


def test_board_size_limits(tmp_path):
    found = over_the_limits(tmp_path, add_board_parts)
    assert f"'groups' has {limits.MAX_GROUPS + 1} entries; at most {limits.MAX_GROUPS} are allowed" in found
    assert any(m.startswith("the map has") and m.endswith(f"the limit is {limits.MAX_PLACES}") for m in found)
    assert (f"'zones' of 'crisis track' has {limits.MAX_ZONES + 1} entries; at most {limits.MAX_ZONES} are allowed"
            in found)
    assert f"'markers' has {limits.MAX_MARKERS + 1} entries; at most {limits.MAX_MARKERS} are allowed" in found


def add_cards(root, shift):
    """Cards and their parts up to their limits plus ``shift`` (ids, values, catalog nesting)."""
    strategy = "".join(f"  - {{id: extra-{n}, value: 1, event_for: both, final_crisis: Armaments, "
                       f"provenance: authored}}\n" for n in range(limits.MAX_CARDS + shift - 41))
    objectives = "".join(f"  - {{id: extra-{n}, space: Texas, provenance: authored}}\n"
                         for n in range(limits.MAX_CARDS + shift - 12))
    (root / "cards" / "zz-many.yaml").write_text(
        f"strategy_cards:\n  - {{id: {'a' * (limits.MAX_NAME_CHARS + shift)}, value: {99 + shift}, "
        f"event_for: both, final_crisis: Armaments, provenance: authored}}\n{strategy}"
        f"objective_cards:\n{objectives}", encoding="utf-8")
    depth = limits.MAX_MESSAGE_DEPTH + shift
    with open(root / "locale" / "en" / "messages.yaml", "a", encoding="utf-8") as catalog:
        catalog.write(f"zz_deep: \"{'{n|' * depth}x{'}' * depth}\"\n")


def test_card_and_catalog_limits(tmp_path):
    found = over_the_limits(tmp_path, add_cards)
    assert f"more than {limits.MAX_CARDS:,} strategy cards: the limit" in found
    assert f"more than {limits.MAX_CARDS:,} objective cards: the limit" in found
    assert f"'{shown('a' * (limits.MAX_NAME_CHARS + 1))}' cannot be a card id" in found
    assert "a strategy card's value is at most 99" in found  # state.yaml: value: {type: number, from: 1, to: 99}
    assert f"message 'zz_deep' nests placeholders {limits.MAX_MESSAGE_DEPTH + 1} deep; " \
           f"at most {limits.MAX_MESSAGE_DEPTH}" in found


def test_rule_text_limit(tmp_path):
    root = copy_content(tmp_path)
    filler = "gain 1 VP\n" * (limits.MAX_RULE_CHARS // 10 + 1)
    (root / "cards" / "zz-long.yaml").write_text(
        "strategy_cards:\n  - id: long-rule\n    value: 2\n    event_for: both\n    final_crisis: Armaments\n"
        "    provenance: authored\n    event: |\n" + "".join("      " + line + "\n" for line in filler.splitlines()),
        encoding="utf-8")
    assert f"the content's rules add up to more than {limits.MAX_RULE_CHARS:,} characters" in messages_of(root)


# ------------------------------------------------------------ bots


def set_search_iterations(root, shift):
    path = root / "bots" / "search.yaml"
    text, count = re.subn(r"(?m)^iterations: *\d+", f"iterations: {limits.MAX_SEARCH_ITERATIONS + shift}",
                          path.read_text(encoding="utf-8"))
    assert count == 1
    path.write_text(text, encoding="utf-8")


def test_search_budget_limit_in_content(tmp_path):
    found = over_the_limits(tmp_path, set_search_iterations)
    assert f"iterations may be at most {limits.MAX_SEARCH_ITERATIONS:,} (docs/limits.md)" in found


def test_search_budget_limit_on_the_command_line():
    from crisis.content.bots import Budget
    assert Budget.parse(str(limits.MAX_SEARCH_ITERATIONS)).iterations == limits.MAX_SEARCH_ITERATIONS
    assert Budget.parse(f"{limits.MAX_SEARCH_MILLISECONDS}ms").milliseconds == limits.MAX_SEARCH_MILLISECONDS
    for past in (str(limits.MAX_SEARCH_ITERATIONS + 1), f"{limits.MAX_SEARCH_MILLISECONDS + 1}ms"):
        with pytest.raises(ValueError, match=f"at most {limits.MAX_SEARCH_ITERATIONS:,}"):
            Budget.parse(past)


# ------------------------------------------------------------ contractions (issue 18, item 4)


def with_contractions(tmp_path, pairs):
    """The shipped content with more Spanish contractions (YAML lines 'old: new', in order)."""
    root = copy_content(tmp_path)
    board = root / "locale" / "es" / "board.yaml"
    replace_in(board, '    " a el ": " al "\n',
               '    " a el ": " al "\n' + "".join(f'    "{old}": "{new}"\n' for old, new in pairs))
    return root


def test_contraction_growth_limit(tmp_path):
    # "ab" -> "abcd" doubles a text at most, and so does its capitalised pass: 4 times in all
    assert messages_of(with_contractions(tmp_path / "at", [("ab", "abcd")])) == []
    root = with_contractions(tmp_path / "past", [("ab", "abcd"), ("xyzzy", "xyzzyx")])
    (problem,) = messages_of(root)
    assert problem == f"the contractions could make a text 5.76 times longer " \
                      f"(at most {limits.MAX_CONTRACTION_GROWTH} times)"


def test_contraction_count_limit(tmp_path):
    shipped = 2
    pairs = [(f" w{n} ", f" v{n} ") for n in range(limits.MAX_CONTRACTIONS - shipped)]
    assert messages_of(with_contractions(tmp_path / "at", pairs)) == []
    found = messages_of(with_contractions(tmp_path / "past", pairs + [(" w ", " v ")]))
    assert found == [f"more than {limits.MAX_CONTRACTIONS:,} contractions in one language"]


def test_contractions_that_feed_each_other_are_refused_where_written(tmp_path, capsys):
    from crisis.cli.main import main
    e = "e" * 1000
    root = with_contractions(tmp_path, [("e", e), ("ee", e), ("eee", e)])
    for command in (["cards"], ["play", "--bots", "--seed", "1"], ["i18n", "check"]):  # each died or passed
        assert main(command + ["--content", str(root), "--lang", "es"]) == 1, command
        # (i18n check tells a translation's problems with its report, on standard output)
        said = capsys.readouterr()
        err = said.err + said.out if command[0] == "i18n" else said.err
        assert "MemoryError" not in err and "Traceback" not in err and "contraction" in err, (command, err)
    with pytest.raises(ContentError) as caught:
        load_content(root)
    lines = (root / "locale" / "es" / "board.yaml").read_text(encoding="utf-8").splitlines()
    assert [lines[d.line - 1][d.column - 1:].split(":")[0] for d in caught.value.diagnostics] == \
        ['"e"', '"ee"', '"eee"']
    assert all(d.path.endswith("board.yaml") for d in caught.value.diagnostics)


def test_an_empty_contraction_is_refused(tmp_path):
    assert messages_of(with_contractions(tmp_path, [("", "x")])) == \
        ["a contraction replaces some text: its key is empty"]


# ------------------------------------------------------------ the work of a rule (issue 18, item 2)


def rule_of_cost(steps):
    """A rule that asks nothing and costs exactly ``steps``: groups of nested 'for each player'
    around 'gain 1 VP' (a group k deep costs 2^(k+1) - 1), largest first."""
    groups = []
    while steps:
        depth = max(k for k in range(0, 40) if 2 ** (k + 1) - 1 <= steps)
        groups.append("\n".join("  " * i + "for each player:" for i in range(depth)) + "\n" + "  " * depth
                      + "gain 1 VP" if depth else "gain 1 VP")
        steps -= 2 ** (depth + 1) - 1
    return "\n".join(groups)


def test_rule_work_limit(tmp_path, content):
    # a procedure nothing carries out: the rule by itself (ruleset/bound.py)
    at = rule_of_cost(limits.MAX_RULE_WORK)
    for name, text, refused in (("at", at, False), ("past", at + "\ngain 1 VP", True)):
        root = copy_content(tmp_path / name)
        replace_in(root / "sequence.yaml", "  dimension scoring: gain 1 VP for each dimension you control\n",
                   "  dimension scoring: gain 1 VP for each dimension you control\n  designer check: |\n"
                   + "".join("    " + line + "\n" for line in text.splitlines()))
        found = messages_of(root)
        assert found == ([f"this rule can take up to {limits.MAX_RULE_WORK + 1:,} steps of work in one run; "
                          f"the limit is {limits.MAX_RULE_WORK:,}"] if refused else [])


def test_work_between_decisions_limit(content, monkeypatch):
    """At run time the engine counts a rule's work until the next decision: a rule within
    MAX_WORK_BETWEEN_DECISIONS runs, one step more stops it with an error naming the limit; and what
    it counts never exceeds the bound the check worked out (the stops in whole games, at the
    statement in its file: tests/test_work_budget.py)."""
    from crisis.interpreter.engine.game import Game
    from crisis.interpreter.engine.machine import Machine
    from crisis.interpreter.engine.ops import Ctx, RuleWorkError
    from crisis.ruleset.bound import RuleBound
    from helpers import resolved
    program = program_of(content)
    rule = resolved(content.definition, rule_of_cost(2 ** 11 - 1))  # 'for each player' 10 deep
    op = program.compiler.block(rule)
    start = Game.of(content, 1, log=False).position

    def run(budget):
        position = start.copy()
        machine = Machine(program, position, base=len(position.stack))
        machine.board.meter[0] = budget
        assert machine.start(op, Ctx(0, reason="a test")) is None
        return budget - machine.board.meter[0]
    counted = run(10 ** 9)
    # its 1,024 gains counted (at least one step for each two), within the bound the check worked out
    assert 2 ** 9 < counted <= RuleBound(content.definition, {}).run(rule) == 2 ** 11 - 1
    monkeypatch.setattr(limits, "MAX_WORK_BETWEEN_DECISIONS", counted)
    assert run(counted) == counted
    with pytest.raises(RuleWorkError) as caught:
        run(counted - 1)
    assert f"more than {counted:,} steps of work" in caught.value.diagnostics[0].message


def test_a_card_event_too_heavy_for_the_solo_opponent_to_try_is_named(tmp_path):
    # the Solo Opponent's turn asks whether the revealed card's event would place pieces, tries it
    # and carries it out: an event a quarter of the limit makes its turn too heavy
    from helpers import add_designer_card, designer_card
    root = copy_content(tmp_path)
    event = "|\n" + "".join("      " + line + "\n" for line in rule_of_cost(limits.MAX_RULE_WORK // 4).splitlines())
    add_designer_card(root, designer_card(event), "designer-card", "Heavy")
    with pytest.raises(ContentError) as caught:
        load_content(root)
    (problem,) = caught.value.diagnostics
    assert problem.path.endswith("overlay.yaml") and "steps of work in one run" in problem.message
    assert problem.hint.startswith(f"this rule tries and carries out card events, and the heaviest, "
                                   f"designer-card's, can take up to {limits.MAX_RULE_WORK // 4:,} steps")
