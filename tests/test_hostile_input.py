"""Hostile content and saved games: each case of issue 12 ends in a clear,
located error (or a bounded game), quickly, never a traceback, a hang or a
read outside the content folder.

Every test here runs under ``bounded()``: a case that hangs or loops fails
after a few seconds instead of stopping the suite.
"""

import contextlib
import json
import os
import pickle
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from crisis.cli import saves
from crisis.cli.main import main
from crisis.content.loader import load_content
from crisis.content.yamlfile import ContentError
from crisis.ruleset import limits, reader
from crisis.interpreter.engine.program import program_of

from clirun import run_crisis
from helpers import copy_content, designer_card, line_of, replace_in


@contextlib.contextmanager
def bounded(seconds=10):
    """Fail instead of hanging: the alarm interrupts Python loops and blocking opens."""
    def stop(signum, frame):
        raise TimeoutError(f"took more than {seconds} s")
    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def problems(root):
    with bounded():
        with pytest.raises(ContentError) as caught:
            load_content(root)
    return caught.value.diagnostics


def report(root):
    with bounded():
        with pytest.raises(ContentError) as caught:
            load_content(root)
    return caught.value.report()


def one(diagnostics, words):
    found = [d for d in diagnostics if words in d.message]
    assert found, f"no problem says {words!r}: {[d.message for d in diagnostics]}"
    return found[0]


def add_card(root, event, name="zz-hostile.yaml"):
    path = root / "cards" / name
    path.write_text(designer_card(event), encoding="utf-8")
    return path


def block(text, indent=6):
    return "|\n" + "".join(" " * indent + line + "\n" for line in text.splitlines())


# ------------------------------------------------------------ YAML and files


def test_a_control_character_is_a_located_error_not_a_traceback(tmp_path):
    root = copy_content(tmp_path)
    path = add_card(root, "gain 1 VP  # a bell \x07 here")
    d = one(problems(root), "control character")
    assert "U+0007" in d.message
    assert (d.line, d.column) == where(path.read_text(encoding="utf-8"), "\x07") == (7, 32)
    assert "\x07" not in d.format()


def test_a_number_of_5000_digits_in_yaml_is_refused_before_conversion(tmp_path):
    root = copy_content(tmp_path)
    replace_in(root / "state.yaml", "    to: 3\n", "    to: " + "9" * 5000 + "\n")
    d = one(problems(root), "too many digits")
    assert (d.line, d.column) == (line_of(root / "state.yaml", "    to: 99999"), 9)
    assert len(d.format()) < 1000


def test_a_number_of_5000_digits_in_a_rule_is_refused_before_conversion(tmp_path):
    root = copy_content(tmp_path)
    add_card(root, "gain " + "7" * 5000 + " VP")
    d = one(problems(root), "too many digits")
    assert (d.line, d.column) == (7, 17)


@pytest.mark.parametrize("name, rule", [
    ("1,000 brackets", "if " + "(" * 1000 + "you control Texas" + ")" * 1000 + ": gain 1 VP"),
    ("490 and", "if " + " and ".join(["you control Texas"] * 491) + ": gain 1 VP"),
    ("490 or", "if " + " or ".join(["you control Texas"] * 491) + ": gain 1 VP"),
    ("489 not", "if " + "not " * 489 + "you control Texas: gain 1 VP"),
    ("246 nested if", block("\n".join("  " * i + "if you control Texas:" for i in range(246))
                            + "\n" + "  " * 246 + "gain 1 VP")),
])
def test_deeply_nested_rules_are_refused_before_recursion(tmp_path, name, rule):
    root = copy_content(tmp_path)
    add_card(root, rule if rule.startswith("|") else json.dumps(rule))
    d = one(problems(root), "nested too deeply")
    assert d.path.endswith("zz-hostile.yaml") and d.line >= 7


def test_deeply_nested_yaml_is_refused_before_recursion(tmp_path):
    root = copy_content(tmp_path)
    (root / "cards" / "zz-deep.yaml").write_text("strategy_cards: " + "[" * 5000 + "]" * 5000 + "\n")
    d = one(problems(root), "nested too deeply")
    assert d.line == 1


@pytest.mark.parametrize("text", [
    "strategy_cards: " + "{a: " * 3000 + "1" + "}" * 3000 + "\n",
    "strategy_cards:\n" + "".join(" " * i + "- \n" for i in range(1, 1200)),
    "- " * 2000 + "x\n",
])
def test_nesting_is_refused_in_the_projects_words_whichever_yaml_parser_the_machine_has(tmp_path, monkeypatch, text):
    """libyaml has a nesting limit of its own in some releases, worded its own way; the
    refusal must be the same on every machine, with or without libyaml."""
    from crisis.content import yamlfile
    root = copy_content(tmp_path)
    (root / "cards" / "zz-deep.yaml").write_text(text)
    with_libyaml = one(problems(root), "nested too deeply")
    monkeypatch.setattr(yamlfile, "_BoundedLoader", yamlfile._PlainBoundedLoader)
    pure_python = one(problems(root), "nested too deeply")
    assert (with_libyaml.line, with_libyaml.column) == (pure_python.line, pure_python.column)


def test_a_yaml_syntax_error_is_still_located_after_the_second_reading(tmp_path):
    root = copy_content(tmp_path)
    (root / "cards" / "zz-broken.yaml").write_text("strategy_cards:\n  - id: x\n    name: [unclosed\n")
    d = one(problems(root), "not valid YAML")
    assert d.path.endswith("zz-broken.yaml") and d.line is not None


def test_alias_expansion_is_bounded(tmp_path):
    root = copy_content(tmp_path)
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]
    (root / "cards" / "zz-laughs.yaml").write_text("\n".join(lines) + "\n")
    with bounded(5):
        d = one(problems(root), "aliases")
    assert d.path.endswith("zz-laughs.yaml")


def test_a_self_referring_alias_is_an_error(tmp_path):
    root = copy_content(tmp_path)
    (root / "cards" / "zz-loop.yaml").write_text("strategy_cards: &x [*x]\n")
    one(problems(root), "nested too deeply")


def test_a_content_folder_that_is_a_symlink_loop_is_a_clean_error(tmp_path):
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    d = one(problems(loop), "loop of symbolic links")
    assert d.path.endswith("loop")


def test_a_content_file_that_is_a_symlink_loop_is_a_clean_error(tmp_path):
    root = copy_content(tmp_path)
    (root / "cards" / "zz-loop.yaml").symlink_to(root / "cards" / "zz-loop.yaml")
    one(problems(root), "loop of symbolic links")


def test_a_link_to_the_zero_device_is_not_read(tmp_path):
    root = copy_content(tmp_path)
    (root / "cards" / "zz-zero.yaml").symlink_to("/dev/zero")
    with bounded(5):
        d = one(problems(root), "outside the content folder")
    assert d.path.endswith("zz-zero.yaml")


def test_a_fifo_content_file_is_refused_without_waiting(tmp_path):
    root = copy_content(tmp_path)
    os.mkfifo(root / "cards" / "zz-fifo.yaml")
    with bounded(5):
        d = one(problems(root), "not a regular file")
    assert d.path.endswith("zz-fifo.yaml")


def test_a_link_to_a_system_file_is_neither_read_nor_quoted(tmp_path):
    secret = tmp_path / "outside" / "passwd"
    secret.parent.mkdir()
    secret.write_text("root:x:0:0:root:/root:/bin/bash\n")
    root = copy_content(tmp_path)
    (root / "cards" / "zz-passwd.yaml").symlink_to(secret)
    (root / "cards" / "zz-etc.yaml").symlink_to("/etc/passwd")
    text = report(root)
    assert "outside the content folder" in text
    assert "root:" not in text and "/bin/" not in text


def test_a_symlink_inside_the_folder_is_followed(tmp_path):
    root = copy_content(tmp_path)
    (root / "cards" / "objectives.yaml").rename(root / "objective-cards.txt")
    (root / "cards" / "objectives.yaml").symlink_to(root / "objective-cards.txt")
    assert len(load_content(root).cards("objective cards").ids) == 12


def test_a_cards_folder_linked_outside_is_not_followed(tmp_path):
    root = copy_content(tmp_path)
    (root / "cards").rename(tmp_path / "elsewhere")
    (root / "cards").symlink_to(tmp_path / "elsewhere")
    one(problems(root), "outside the content folder")


def test_a_file_over_the_size_limit_is_refused_before_it_is_parsed(tmp_path):
    root = copy_content(tmp_path)
    (root / "cards" / "zz-big.yaml").write_text("# x\n" * (limits.MAX_FILE_BYTES // 4 + 1))
    with bounded(5):
        d = one(problems(root), "larger than")
    assert d.path.endswith("zz-big.yaml")


def test_the_content_as_a_whole_has_a_size_limit(tmp_path):
    root = copy_content(tmp_path)
    chunk = "# x\n" * (limits.MAX_FILE_BYTES // 4 - 16)
    for n in range(limits.MAX_CONTENT_BYTES // limits.MAX_FILE_BYTES + 1):
        (root / "cards" / f"zz-{n:02}.yaml").write_text(chunk)
    with bounded(20):
        one(problems(root), "add up to more than")


# ------------------------------------------------------------ the game's numbers


@pytest.mark.parametrize("file, old, new, words, where", [
    ("state.yaml", "    spaces: 16", "    spaces: 1000000000", "too many digits", "state.yaml"),
    ("state.yaml", "    spaces: 16", "    spaces: 100000000", "'spaces' should be a whole number from 1 to 1000",
     "state.yaml"),
    ("state.yaml", "  each side: 25", "  each side: 100000000", "'each side' should be a whole number from 0 to 1000",
     "state.yaml"),
    ("state.yaml", "  at most per place: 4", "  at most per place: 100000000",
     "'at most per place' should be a whole number from 1 to 1000", "state.yaml"),
    ("sequence.yaml", "each player draws 4 cards", "each player draws 1000000000 cards", "too many digits",
     "sequence.yaml"),
    ("sequence.yaml", "each player draws 4 cards", "each player draws 100000000 cards", "steps of work in one run",
     "sequence.yaml"),
    # the rounds and the plays of a round: the whole game is bounded, at the loop (ruleset/bound.py)
    ("state.yaml", "    to: 3\n", "    to: 100000\n", "steps of work in one game", "sequence.yaml"),
    ("sequence.yaml", "until each has 3 played cards", "until each has 100000000 played cards",
     "steps of work in one game", "sequence.yaml"),
])
def test_game_numbers_have_limits_checked_before_play(tmp_path, file, old, new, words, where):
    root = copy_content(tmp_path)
    replace_in(root / file, old, new)
    d = one(problems(root), words)
    assert d.path.endswith(where)
    if where == "state.yaml":
        assert d.source_line.strip().startswith(new.strip()[:8])


def test_nested_for_each_player_is_bounded_by_the_work_of_one_effect(tmp_path):
    root = copy_content(tmp_path)
    text = "\n".join("  " * i + "for each player:" for i in range(16)) + "\n" + "  " * 16 + "place 1 in any space"
    add_card(root, block(text))
    d = one(problems(root), "decisions")
    assert d.path.endswith("zz-hostile.yaml") and d.line == 8


# ------------------------------------------------------------ messages


def test_positions_after_a_yaml_error_in_state_yaml_do_not_claim_it_is_empty(tmp_path):
    root = copy_content(tmp_path)
    replace_in(root / "state.yaml", "    to: 3\n", "    to: [3\n")
    found = problems(root)
    assert not any("empty" in d.message for d in found)
    assert any("not valid YAML" in d.message for d in found)


@pytest.mark.parametrize("name", ["sequence.yaml", "state.yaml"])
def test_an_empty_definition_file_names_its_path_and_reason(tmp_path, name):
    root = copy_content(tmp_path)
    (root / name).write_text("# nothing yet\n")
    d = one(problems(root), "empty")
    assert d.path.endswith(name) and d.message == f"{name} is empty"


@pytest.mark.parametrize("text", ["# the rows are still to come\n", "!!map {}\n", ""])
def test_a_solo_aid_with_nothing_in_it_is_an_error_at_its_start_not_a_traceback(tmp_path, text):
    """A comment alone (a file cut short), a refused tag or no text: the aid's missing entries are
    reported at 1:1 of the file (tools/fuzz_inputs.py found an AttributeError here)."""
    root = copy_content(tmp_path)
    (root / "solo" / "aid-unionist.yaml").write_text(text)
    found = [d for d in problems(root) if d.path.endswith("aid-unionist.yaml")]
    assert found
    missing = [d for d in found if "has no 'side'" in d.message]
    assert [(d.line, d.column) for d in missing] == [(1, 1)]


@pytest.mark.parametrize("number, message", [(".nan", "not a finite number"), (".inf", "not a finite number"),
                                             ("-.inf", "not a finite number"), ("2.5e+9", "too large")])
def test_a_number_that_is_not_finite_or_too_large_is_refused_where_it_stands(tmp_path, number, message):
    """A bot's weight of .nan or .inf turned every judgement into NaN or infinity; content's
    numbers lie within the whole numbers' nine digits."""
    root = copy_content(tmp_path)
    replace_in(root / "bots" / "evaluation.yaml", "  your VP: 1.0\n", f"  your VP: {number}\n")
    d = one(problems(root), message)
    assert d.path.endswith("evaluation.yaml") and (d.line, d.column) == (
        line_of(root / "bots" / "evaluation.yaml", f"  your VP: {number}"), 12)
    assert "999,999,999" in d.message


def test_name_errors_in_state_yaml_have_a_line(tmp_path):
    root = copy_content(tmp_path)
    replace_in(root / "state.yaml", "sides: [Unionist, Secessionist]", "sides: [unionist, Secessionist]")
    d = one(problems(root), "is not a name for a side")
    assert (d.line, d.column) == (line_of(root / "state.yaml", "sides: [unionist"), 9)


def test_an_unreadable_locale_folder_is_an_error_not_an_empty_catalog(tmp_path, monkeypatch):
    root = copy_content(tmp_path)
    spanish = root / "locale" / "es"
    real_scandir = os.scandir

    def scandir(path="."):
        if Path(path) == spanish:
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)
    monkeypatch.setattr(os, "scandir", scandir)
    d = one(problems(root), "cannot read this folder")
    assert d.path.endswith("locale/es")


def test_a_megabyte_name_is_not_echoed_in_full(tmp_path):
    root = copy_content(tmp_path)
    replace_in(root / "state.yaml", "sides: [Unionist, Secessionist]", "sides: [U" + "x" * 1_000_000 + ", Secessionist]")
    text = report(root)
    assert len(text) < 2000 and "…" in text


def test_text_from_content_prints_no_control_characters(tmp_path):
    root = copy_content(tmp_path)
    replace_in(root / "locale" / "en" / "messages.yaml", '"The Final Crisis begins."',
               '"The Final Crisis \\e]0;pwned\\a begins."')
    d = one(problems(root), "control character")
    assert "\x1b" not in d.format() and d.path.endswith("messages.yaml")


def test_a_deeply_nested_message_is_refused_before_it_is_formatted(tmp_path):
    root = copy_content(tmp_path)
    replace_in(root / "locale" / "en" / "messages.yaml", '"The Final Crisis begins."',
               '"' + "{n|" * 2000 + "x" + "|y}" * 2000 + '"')
    d = one(problems(root), "nests placeholders 2000 deep")
    assert d.path.endswith("messages.yaml")


# ------------------------------------------------------------ positions in YAML


def where(text, word):
    index = text.index(word)
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


POSITION_CASES = {
    "folded block": ">\n      place 1 in Texas\n\n      place 1 in Texsa\n",
    "folded block, more indented": ">\n      place 1 in Texas\n        # note\n      place 1 in Texsa\n",
    "literal block with an indentation indicator": "|2\n        # an indented comment\n      place 1 in Texsa\n",
    "multi-line plain scalar": "place 1 in Texas\n      or Fort Sumter or Texsa\n",
    "double quoted with escapes": '"gain 1 VP\\n\\x70lace 1 in \\u0054exas or Texsa"\n',
    "double quoted over lines": '"gain 1 VP\n\n      place 1 in Texas \\\n      or Texsa"\n',
    "single quoted over lines": "'gain 1 VP # it''s\n\n      place 1 in Texsa'\n",
}


@pytest.mark.parametrize("style", list(POSITION_CASES))
def test_rule_positions_are_right_in_every_yaml_scalar_style(tmp_path, style):
    root = copy_content(tmp_path)
    path = add_card(root, POSITION_CASES[style])
    d = one(problems(root), "unknown space")
    text = path.read_text(encoding="utf-8")
    assert (d.line, d.column) == where(text, "Texsa"), style
    assert d.source_line[d.column - 1:].startswith("Texsa")


@pytest.mark.parametrize("separator", ["\u0085", "\u2028", "\u2029"])
def test_positions_are_right_after_unicode_line_separators(tmp_path, separator):
    root = copy_content(tmp_path)
    path = root / "cards" / "zz-hostile.yaml"
    card = designer_card("place 1 in Texsa").replace("    value: 2\n", f'    note: "one{separator}two"\n    value: 2\n')
    path.write_text(f"# one{separator}\n# two{separator}\n" + card, encoding="utf-8")
    d = one(problems(root), "unknown space")
    assert (d.line, d.column) == where(path.read_text(encoding="utf-8"), "Texsa")
    yaml_error = root / "cards" / "zz-broken.yaml"
    yaml_error.write_text(f"# a{separator}\nstrategy_cards: [\n", encoding="utf-8")
    d = one(problems(root), "not valid YAML")
    assert d.path.endswith("zz-broken.yaml") and d.line == 3


# ------------------------------------------------------------ saves


@pytest.fixture
def save_data(content):
    return saves.SavedGame(game=content.game, digest=content.digest, seed=1,
                           options={"event_discard": False},
                           controllers={side: "human" for side in content.sides}).to_json()


def read_save(path, content):
    with bounded(5):
        return saves.read(path, content, known_controllers={"random"})


def refused(path, content):
    with pytest.raises(saves.SaveProblem) as caught:
        read_save(path, content)
    return caught.value


@pytest.mark.parametrize("change, field", [
    ({"options": {"event_discard": "yes"}}, "options.event_discard"),
    ({"options": {"event_discard": 1}}, "options.event_discard"),
    ({"options": {"event_discard": False, "house_rule": True}}, "options.house_rule"),
    ({"version": 0}, "version"),
    ({"version": -1}, "version"),
    ({"version": True}, "version"),
])
def test_save_options_and_version_are_validated(tmp_path, content, save_data, change, field):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(dict(save_data, **change)))
    problem = refused(path, content)
    assert problem.key == "cli.save.damaged" and problem.params["field"] == field


def test_options_are_validated_from_the_contents_optional_rules(content):
    """A save's options are the content's optional rules (on or off) and the solo game's side and
    level: a new optional rule in content is validated with no change to the save reader."""
    from crisis.interpreter.engine.game import option_names
    names = option_names(program_of(content))
    assert names == ("event_discard",)
    assert saves.bad_option({"event_discard": True, "solo": "Unionist", "difficulty": "hard"}, names) is None
    assert saves.bad_option({"solo": None}, names) is None
    assert saves.bad_option({"house_rule": True}, names + ("house_rule",)) is None
    for bad in ({"solo": 1}, {"difficulty": True}, {"event_discard": 0}, {"event_discard": "yes"},
                {"house_rule": True}):
        assert saves.bad_option(bad, names) is not None, bad


def test_an_old_save_without_newer_options_still_loads(tmp_path, content, save_data):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(dict(save_data, options={})))
    assert read_save(path, content).options == {}


@pytest.mark.parametrize("name, text, key", [
    ("nested 2000 deep", '{"format": "crisis-saved-game",\n "x": ' + "[" * 2000 + "]" * 2000 + "}", "cli.save.too_deep"),
    ("5000-digit number", '{"format": "crisis-saved-game",\n "seed": ' + "9" * 5000 + "}", "cli.save.long_number"),
    ("not a number", '{"format": "crisis-saved-game",\n "version": NaN}', "cli.save.not_json"),
])
def test_a_hostile_save_is_a_clean_error(tmp_path, content, name, text, key):
    path = tmp_path / "game.json"
    path.write_text(text)
    problem = refused(path, content)
    assert problem.key == key, name
    assert problem.params.get("line", 2) == 2


def test_a_fifo_save_is_refused_without_waiting(tmp_path, content):
    path = tmp_path / "game.json"
    os.mkfifo(path)
    assert refused(path, content).key == "cli.save.unreadable"


def test_a_save_over_the_size_limit_is_refused(tmp_path, content, save_data):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(dict(save_data, created="x" * limits.MAX_SAVE_BYTES)))
    assert refused(path, content).key == "cli.save.unreadable"


def test_control_characters_from_a_save_are_printed_escaped(tmp_path, save_data):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(dict(save_data, actions=["\x1b]0;pwned\x07\x1b[2J"])))
    result = run_crisis("resume", path, cwd=tmp_path, timeout=60)
    assert result.returncode == 1, result.stderr
    assert "\x1b" not in result.stderr and "\x07" not in result.stderr
    assert "\\x1b]0;pwned\\x07" in result.stderr


def test_the_default_save_name_is_a_safe_slug_of_the_game_name(tmp_path):
    folder = tmp_path / "here"
    folder.mkdir()
    path = saves.default_path(folder, "../../x\x1b/ é", 7)
    assert path.parent == folder
    assert path.name.startswith("x-e-") and path.name.endswith("-seed7.json")
    assert saves.default_path(folder, "...", 7).name.startswith("game-")


def test_a_content_game_name_cannot_place_a_save_elsewhere(tmp_path):
    root = copy_content(tmp_path)
    replace_in(root / "state.yaml", "game: fort-sumter", 'game: "../../escaped"')
    play = tmp_path / "a" / "b"
    play.mkdir(parents=True)
    result = run_crisis("play", "--content", root, "--seed", "3", input="", cwd=play, timeout=60)
    assert result.returncode == 3, result.stderr
    (saved,) = play.iterdir()
    assert saved.name.startswith("escaped-")
    assert not list(tmp_path.glob("escaped*"))


def test_a_temporary_file_left_by_a_killed_write_is_cleaned_up_by_the_next_save(tmp_path, save_data):
    path = tmp_path / "game.json"
    script = ("import os, signal, sys; from pathlib import Path; from crisis.cli import saves; "
              "saves.os.replace = lambda *a: os.kill(os.getpid(), signal.SIGKILL); "
              "saves.write_atomic(Path(sys.argv[1]), {'a': 1})")
    killed = subprocess.run([sys.executable, "-c", script, str(path)], timeout=60)
    assert killed.returncode == -signal.SIGKILL
    stale = [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert stale, "the killed write left no temporary file (the test needs one)"
    saves.write_atomic(path, save_data)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


# ------------------------------------------------------------ the grammar cache


class _Planted:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.mkdir, (self.marker,))


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache folder for this test; the parser forgets the tables it had."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("CRISIS_NO_CACHE", raising=False)
    reader._lark.cache_clear()
    yield tmp_path / "cache" / "crisis"
    reader._lark.cache_clear()


def parse_block(text):
    return reader.parse(text, None)


def test_a_planted_grammar_cache_cannot_run_code(tmp_path, cache):
    cache.mkdir(parents=True, mode=0o700)
    marker = tmp_path / "code-ran"
    payload = pickle.dumps(_Planted(str(marker)))
    for name in ("grammar.lark-cache", "grammar-cache.json"):
        (cache / name).write_bytes(b"0" * 64 + b"\n" + payload)
    assert parse_block("place 1 in Texas")
    assert not marker.exists()
    assert not (cache / "grammar.lark-cache").exists()  # the old pickle is removed, never read


def test_the_grammar_cache_is_private_checked_and_used(cache, monkeypatch):
    parse_block("place 1 in Texas")
    (written,) = cache.iterdir()
    assert cache.stat().st_mode & 0o777 == 0o700
    assert written.stat().st_mode & 0o777 == 0o600
    head, _, body = written.read_bytes().partition(b"\n")
    json.loads(body)  # data, not code
    # the tables come from the file: building them again is not needed
    reader._lark.cache_clear()
    with monkeypatch.context() as patched:
        patched.setattr(reader, "Lark", _NoBuilding)
        assert parse_block("place 1 in Texas")
    # a damaged file (its digest no longer matches) is built again, never decoded
    damaged = head + b"\n" + body.replace(b'"', b"'", 1)
    written.write_bytes(damaged)
    reader._lark.cache_clear()
    assert parse_block("place 1 in Texas")
    rebuilt = written.read_bytes()
    assert rebuilt != damaged
    json.loads(rebuilt.partition(b"\n")[2])


class _NoBuilding(reader.Lark):
    def __init__(self, *args, **kwargs):
        raise AssertionError("the grammar was built again instead of loaded from the cache")


def test_a_cache_folder_others_can_write_is_not_used(cache):
    cache.mkdir(parents=True)
    os.chmod(cache, 0o777)
    assert parse_block("place 1 in Texas")
    assert not list(cache.iterdir())


# ------------------------------------------------------------ the command line


@pytest.mark.parametrize("setup", ["control character", "deep brackets", "fifo", "loop"])
def test_check_reports_hostile_content_in_words_with_status_1(tmp_path, capsys, setup):
    root = copy_content(tmp_path)
    if setup == "control character":
        add_card(root, "gain 1 VP \x01")
    elif setup == "deep brackets":
        add_card(root, json.dumps("if " + "(" * 1000 + "you control Texas" + ")" * 1000 + ": gain 1 VP"))
    elif setup == "fifo":
        os.mkfifo(root / "cards" / "zz-fifo.yaml")
    else:
        (root / "cards" / "zz-loop.yaml").symlink_to(root / "cards" / "zz-loop.yaml")
    with bounded():
        assert main(["check", "--content", str(root)]) == 1
    err = capsys.readouterr().err
    assert ": error: " in err.splitlines()[0] and "zz-" in err.splitlines()[0]


def test_playing_on_broken_content_is_status_1_not_a_usage_error(tmp_path):
    root = copy_content(tmp_path)
    add_card(root, "gain 1 VP \x01")
    result = run_crisis("play", "--bots", "--content", root, timeout=60)
    assert result.returncode == 1 and "control character" in result.stderr


def test_scenario_files_of_the_content_are_read_like_content(tmp_path, content):
    from crisis.interpreter.designer.scenario import run_file
    root = copy_content(tmp_path)
    fifo, passwd = root / "scenarios" / "zz-fifo.yaml", root / "scenarios" / "zz-passwd.yaml"
    os.mkfifo(fifo)
    passwd.symlink_to("/etc/passwd")
    loaded = load_content(root)
    program = program_of(loaded)
    with bounded(5):
        (waiting,) = run_file(program, loaded.root, fifo)
        (outside,) = run_file(program, loaded.root, passwd)
    assert "not a regular file" in waiting.diagnostics[0].message
    assert "outside the content folder" in outside.diagnostics[0].message
    assert "root:" not in outside.diagnostics[0].format()


def test_the_lang_option_cannot_name_a_catalog_outside_the_content(tmp_path):
    from crisis.cli import words
    evil = tmp_path / "x"
    evil.mkdir()
    (evil / "cli.yaml").write_text('cli:\n  args:\n    description: "planted"\n', encoding="utf-8")
    up = os.path.relpath(evil, words.embedded_locale_dir())
    catalog = words.cli_catalog(["--lang", up, "--help"])
    assert catalog.lang == "en" and catalog.raw("cli.args.description") != "planted"
