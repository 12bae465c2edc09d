"""The general front end bounds the work of every rule by itself (ruleset/bound.py,
docs/limits.md): what the old front end refuses for being too heavy (issue 18,
item 2), reading a game's definition alone refuses too, at the same place, and
rules that carry each other out in a circle are refused naming the circle.

Each case is read with ``read_game``: the definition alone, as a game written
only for the general engine is read, with none of the old loader's checks."""

import typing

import pytest
import yaml

from crisis.content.loader import default_content_dir, load_content, read_game
from crisis.content.yamlfile import ContentError
from crisis.ruleset import bound as B
from crisis.ruleset import limits
from crisis.ruleset import meaning as M

from helpers import add_designer_card, copy_content, designer_card, replace_in


def nested(levels, opener, body, sibling=None):
    """``levels`` blocks each inside the one before (``opener:``), ``body`` innermost; with ``sibling``,
    each level's block is followed by an ``or:`` holding it (as tests/test_rule_cost.py)."""
    lines, indent = [], ""
    for _ in range(levels):
        lines.append(indent + opener + ":")
        indent += "  "
    lines.append(indent + body)
    if sibling is not None:
        for level in reversed(range(levels)):
            lines += ["  " * level + "or:", "  " * (level + 1) + sibling]
    return "\n".join(lines)


def first_of_chain(levels):
    """A priority list whose first line is another priority list, ``levels`` deep."""
    lines, indent = [], ""
    for _ in range(levels):
        lines.append(indent + "first of:")
        indent += "  "
    lines.append(indent + "place 1 in any space")
    for level in reversed(range(levels)):
        lines += ["  " * level + "or:", "  " * (level + 1) + "gain 1 VP"]
    return "\n".join(lines)


def rule_of_cost(steps):
    """A rule that asks nothing and costs exactly ``steps`` (as tests/test_limits_enforced.py)."""
    groups = []
    while steps:
        depth = max(k for k in range(0, 40) if 2 ** (k + 1) - 1 <= steps)
        groups.append("\n".join("  " * i + "for each player:" for i in range(depth)) + "\n" + "  " * depth
                      + "gain 1 VP" if depth else "gain 1 VP")
        steps -= 2 ** (depth + 1) - 1
    return "\n".join(groups)


GOAL = "so that you gain control of Political:\n  move 8 tokens of either side within any spaces"
DIMENSION_SCORING = "  dimension scoring: gain 1 VP for each dimension you control\n"


def block(text, indent):
    return "|\n" + "".join(" " * indent + line + "\n" for line in text.splitlines())


def set_procedure(root, text):
    """sequence.yaml's 'dimension scoring' procedure as ``text``."""
    replace_in(root / "sequence.yaml", DIMENSION_SCORING, "  dimension scoring: " + block(text, 4))


def add_procedure(root, name, text):
    """A procedure of sequence.yaml that nothing carries out."""
    replace_in(root / "sequence.yaml", DIMENSION_SCORING, DIMENSION_SCORING + f"  {name}: " + block(text, 4))


def set_events(root, path, events):
    """The first events of a card file, rewritten."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    cards = [card for card in data["strategy_cards"] if card.get("event")]
    for card, event in zip(cards, events):
        card["event"] = event
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def general_problems(root):
    """What the general front end alone says about a content folder (nothing: an empty list)."""
    try:
        read_game(root)
    except ContentError as error:
        return error.diagnostics
    return []


def old_problems(root):
    try:
        load_content(root)
    except ContentError as error:
        return error.diagnostics
    return []


def text_at(d):
    return open(d.path, encoding="utf-8").read().splitlines()[d.line - 1][d.column - 1:]


def where(d):
    return d.path, d.line, d.column, d.message


# ------------------------------------------------------------ what the old front end refuses


@pytest.fixture(scope="module")
def heavy_root(tmp_path_factory):
    """The rules of issue 18 that hung a game, each written into a copy of the content."""
    root = copy_content(tmp_path_factory.mktemp("heavy"))
    set_procedure(root, nested(30, "for each player", "gain 1 VP"))
    set_events(root, root / "cards" / "strategy-both.yaml",
               [first_of_chain(24), GOAL, nested(16, "either", "gain 1 VP", sibling="lose 1 VP")])
    return root


def test_the_rules_that_hung_a_game_are_refused_by_the_general_front_end_alone(heavy_root):
    problems = general_problems(heavy_root)
    # each once, where it is written: not again in the rules that carry it out
    assert len(problems) == 4
    for d in problems:
        assert "steps of work in one run" in d.message
        assert d.message.endswith(f"the limit is {limits.MAX_RULE_WORK:,}")
        assert text_at(d).startswith(("for each player", "first of", "so that", "either", '"'))
    assert sorted({d.path.rsplit("/", 1)[-1] for d in problems}) == ["sequence.yaml", "strategy-both.yaml"]
    (procedure,) = [d for d in problems if d.path.endswith("sequence.yaml")]
    assert text_at(procedure) == "for each player:"
    assert "dimension scoring:" in open(procedure.path, encoding="utf-8").read().splitlines()[procedure.line - 2]


def test_a_card_event_is_refused_at_the_same_place_by_both_front_ends(heavy_root):
    old = {where(d) for d in old_problems(heavy_root) if d.path.endswith("strategy-both.yaml")}
    new = {where(d) for d in general_problems(heavy_root) if d.path.endswith("strategy-both.yaml")}
    assert len(old) == 3 and new == old


def test_too_many_decisions_are_refused_at_the_same_place_by_both_front_ends(tmp_path):
    root = copy_content(tmp_path)
    set_events(root, root / "cards" / "strategy-both.yaml", [nested(9, "for each player", "place 3 in any space")])
    (new,) = general_problems(root)
    assert new.message == "this rule can ask for up to 1,536 decisions in one run; the limit is 1,000"
    (old,) = old_problems(root)
    assert where(new) == where(old)


def test_the_limit_on_one_rule_is_exact(tmp_path):
    at = rule_of_cost(limits.MAX_RULE_WORK)
    for name, text, refused in (("at", at, False), ("past", at + "\ngain 1 VP", True)):
        root = copy_content(tmp_path / name)
        add_procedure(root, "designer check", text)
        found = [d.message for d in general_problems(root)]
        assert found == ([f"this rule can take up to {limits.MAX_RULE_WORK + 1:,} steps of work in one run; "
                          f"the limit is {limits.MAX_RULE_WORK:,}"] if refused else [])


def test_a_rule_past_the_limit_is_refused_once_where_it_is_written(tmp_path):
    # the step that carries it out is not refused again
    root = copy_content(tmp_path)
    set_procedure(root, rule_of_cost(limits.MAX_RULE_WORK + 1))
    (problem,) = general_problems(root)
    assert problem.path.endswith("sequence.yaml") and problem.message.startswith(
        f"this rule can take up to {limits.MAX_RULE_WORK + 1:,} steps of work")


def test_a_rule_at_the_limit_carried_out_for_each_player_is_too_heavy_where_it_is_carried_out(tmp_path):
    # the old front end counted only its rules, the sequence of play being the engine's; here the
    # step that carries the procedure out once for each player counts it twice
    root = copy_content(tmp_path)
    set_procedure(root, rule_of_cost(limits.MAX_RULE_WORK))
    (problem,) = general_problems(root)
    assert problem.path.endswith("sequence.yaml")
    assert text_at(problem) == "for each player: carry out the dimension scoring"
    assert problem.message.endswith(f"steps of work in one run; the limit is {limits.MAX_RULE_WORK:,}")


def test_a_card_event_too_heavy_for_the_overlay_to_try_is_named(tmp_path):
    # the overlay's turn asks whether the revealed card's event would place or remove pieces, tries
    # it and carries it out: an event a quarter of the limit makes that turn too heavy
    root = copy_content(tmp_path)
    event = block(rule_of_cost(limits.MAX_RULE_WORK // 4), 6)
    add_designer_card(root, designer_card(event), "designer-card", "Heavy")
    (problem,) = general_problems(root)
    assert problem.path.endswith("overlay.yaml") and "steps of work in one run" in problem.message
    assert problem.hint.startswith(f"this rule tries and carries out card events, and the heaviest, "
                                   f"designer-card's, can take up to {limits.MAX_RULE_WORK // 4:,} steps")
    assert text_at(problem).startswith("if the revealed card is Friendly")


def test_a_whole_game_past_the_limit_is_refused(tmp_path):
    # loops inside loops of the sequence of play, each pass light, a thousand million steps in all
    root = copy_content(tmp_path)
    replace_in(root / "sequence.yaml", "      if the round is 3 or the final crisis trigger holds: stop\n",
               "      repeat while the round is 3:\n        repeat while the round is 3:\n"
               "          repeat while the round is 3:\n            each player gains 1 VP\n"
               "      if the round is 3 or the final crisis trigger holds: stop\n")
    (problem,) = general_problems(root)
    assert problem.message.startswith("the sequence of play can take up to ")
    steps = int(problem.message.split("up to ")[1].split(" ")[0].replace(",", ""))
    assert steps > 3 * 1000 ** 3  # three rounds, each a thousand million passes
    assert problem.message.endswith(f"steps of work in one game; the limit is {limits.MAX_GAME_WORK:,}")
    # at the outermost of the three loops: the one that alone goes past the limit
    lines = open(problem.path, encoding="utf-8").read().splitlines()
    assert problem.path.endswith("sequence.yaml") and text_at(problem) == "repeat while the round is 3:"
    assert lines[problem.line].strip() == "repeat while the round is 3:" and lines[problem.line + 2].strip() == \
        "each player gains 1 VP"


# ------------------------------------------------------------ circles


FRIENDLY = "  Friendly:\n    card: the card is for you only\n"


def with_definitions(tmp_path, definitions):
    root = copy_content(tmp_path)
    replace_in(root / "solo" / "overlay.yaml", FRIENDLY, definitions)
    return root


def test_a_definition_that_uses_itself_is_refused_at_the_word(tmp_path):
    root = with_definitions(tmp_path, "  Friendly:\n    card: the card is Friendly\n")
    (problem,) = general_problems(root)
    assert problem.message == "the definition of Friendly uses Friendly itself"
    assert problem.path.endswith("overlay.yaml") and text_at(problem) == "Friendly"
    lines = open(problem.path, encoding="utf-8").read().splitlines()
    assert lines[problem.line - 1].strip() == "card: the card is Friendly"


def test_definitions_in_a_circle_are_refused_naming_the_circle(tmp_path):
    root = with_definitions(tmp_path, "  Friendly:\n    card: the card is for you only and the card is Hostile\n"
                                      "  Hostile:\n    card: the card is Loyal\n"
                                      "  Loyal:\n    card: the card is for you or the card is Friendly\n")
    (problem,) = general_problems(root)
    assert problem.message == "definitions use each other in a circle: Friendly -> Hostile -> Loyal -> Friendly"
    assert text_at(problem) == "Hostile"


def test_procedures_that_carry_each_other_out_are_refused_naming_the_circle(tmp_path):
    root = copy_content(tmp_path)
    replace_in(root / "sequence.yaml", "  final crisis start: remove the Peace Commissioner\n",
               "  final crisis start: |\n    remove the Peace Commissioner\n    carry out the final crisis start\n")
    (problem,) = general_problems(root)
    assert problem.message == "the procedure 'final crisis start' carries itself out"
    assert text_at(problem) == "carry out the final crisis start"
    root = copy_content(tmp_path / "two")
    set_procedure(root, "carry out the objective scoring")
    replace_in(root / "sequence.yaml", "  objective scoring: gain 1 VP for each revealed objective space you control\n",
               "  objective scoring: |\n    gain 1 VP for each revealed objective space you control\n"
               "    carry out the dimension scoring\n")
    problems = general_problems(root)
    assert [d.message for d in problems] == ["rules carry each other out in a circle: the procedure 'dimension "
                                             "scoring' -> the procedure 'objective scoring' -> the procedure "
                                             "'dimension scoring'"]


def test_a_card_event_that_carries_out_card_events_is_a_circle(tmp_path):
    root = copy_content(tmp_path)
    set_events(root, root / "cards" / "strategy-both.yaml", ["carry out the event of the card"])
    (problem,) = general_problems(root)
    assert problem.message == "the event of the strategy cards carries itself out"
    assert problem.path.endswith("strategy-both.yaml")


def test_a_definition_may_use_another_that_does_not_lead_back(tmp_path):
    root = with_definitions(tmp_path, "  Friendly:\n    card: the card is Loyal\n"
                                      "  Loyal:\n    card: the card is for you only\n")
    assert general_problems(root) == []


# ------------------------------------------------------------ what is accepted


HEAVY = [  # as heavy as the old limits allow (tests/test_bounded_play.py), accepted by both front ends
    nested(8, "for each player", "place 3 in any space"),
    "move 25 tokens of either side from any space to any space",
    "either:\n  place 4 in each space\nor:\n  remove all tokens of either side from any space",
    first_of_chain(8),
    nested(6, "either", "gain 1 VP", sibling="lose 1 VP"),
    "so that you gain control of Political:\n  move 2 tokens of either side within Political spaces",
]


def test_moderately_heavy_rules_are_accepted_by_both_front_ends(tmp_path):
    root = copy_content(tmp_path)
    for n, path in enumerate(sorted((root / "cards").glob("strategy-*.yaml"))):
        set_events(root, path, HEAVY[n:] + HEAVY[:n])
    assert general_problems(root) == []
    assert load_content(root).definition is not None


def test_the_shipped_rules_are_well_within_the_limits():
    definition = read_game(default_content_dir())
    costs = B.definition_costs(definition)
    rules = {label: cost for label, cost in costs.items() if label != "the whole game"}
    assert len(rules) > 60 and max(rules.values()) * 4 < limits.MAX_RULE_WORK
    # the pivotal step: the overlay's pivotal bonus for each pivotal space, for each player
    assert max(rules, key=rules.get) == "the step 'pivotal'" and max(rules.values()) == 20_683
    # the same figures as the old model's: the overlay's pivotal bonus (four goals, each searched)
    assert costs["the procedure 'pivotal bonus': pivotal bonus"] == 2_552
    assert max(cost for label, cost in costs.items() if "event of" in label) == 132
    assert costs["the whole game"] * 10 < limits.MAX_GAME_WORK


def test_the_toy_game_is_within_the_limits():
    from pathlib import Path
    definition = read_game(Path(__file__).resolve().parent / "data" / "three-crowns")
    assert B.definition_costs(definition)["the whole game"] < 10_000


def test_asking_whether_a_player_can_take_a_turn_is_counted_for_the_whole_turn(tmp_path):
    """Players alternating ask every statement of a turn whether it can act before skipping a
    player (C24), and the bound counts that question for the whole turn: a Skirmish turn that
    opens with its draw, then its step, is bounded as the shipped one (the step first, the draw
    in it), where counting the first statement alone left the step's question out of the first."""
    import shutil
    from pathlib import Path
    skirmish = Path(__file__).resolve().parent / "data" / "skirmish"
    bounds = []
    for name, move in (("draw-first", True), ("as-shipped", False)):
        folder = tmp_path / name
        shutil.copytree(skirmish, folder)
        sequence = folder / "sequence.yaml"
        text = sequence.read_text(encoding="utf-8")
        if move:  # the draw, cheap, made the turn's first statement, the turn's step after it
            text = text.replace("          draw 1 card from your deck into your hand\n", "", 1).replace(
                "        step turn:\n", "        draw 1 card from your deck into your hand\n        step turn:\n", 1)
        sequence.write_text(text, encoding="utf-8")
        bounds.append(B.definition_costs(read_game(folder))["the whole game"])
    assert abs(bounds[0] - bounds[1]) * 50 < bounds[1]  # the same statements asked, in either order


# ------------------------------------------------------------ the model covers every rule


def test_every_statement_and_condition_is_costed():
    source = open(M.__file__, encoding="utf-8").read()
    start = next(i for i, line in enumerate(source.splitlines()) if line.startswith("# ---") and
                 line.endswith(" statements"))
    statements = "\n".join(source.splitlines()[start:])
    names = [line.split("(")[0][len("class "):] for line in statements.splitlines() if line.startswith("class ")]
    assert set(names) - {"Block"} <= {cls.__name__ for cls in B.STATEMENTS}  # a block is costed as such
    assert set(typing.get_args(M.Condition)) == set(B.CONDITIONS)


def test_repeat_while_passes_are_the_engines():
    from crisis.interpreter.engine.sequence import MAX_REPEATS
    assert MAX_REPEATS == limits.MAX_REPEATS


def test_the_documented_whole_game_is_fort_sumters():
    import re
    from pathlib import Path
    doc = re.sub(r"\s+", " ", (Path(__file__).resolve().parents[1] / "docs" / "limits.md").read_text(encoding="utf-8"))
    costs = B.definition_costs(read_game(default_content_dir()))
    whole = costs["the whole game"]
    step = costs["the step 'pivotal'"]
    assert f"(Fort Sumter's heaviest: the pivotal step, {step:,})" in doc
    assert f"| `MAX_GAME_WORK` | {limits.MAX_GAME_WORK:,} | {whole:,} |" in doc
    assert f"(Fort Sumter's: {whole:,} steps)" in doc
