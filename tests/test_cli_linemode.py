"""The line mode (pipes, scripts, screen readers): the whole feed since your last turn, the
end of each round, lines broken between words at any width, names typed by their start,
messages that stay readable, and the command line's own details."""

import json
import os
import random
import re
import subprocess
import sys

import pytest

from clirun import Session, run_crisis, run_main
from crisis.cli.text import Presenter
from crisis.cli import saves
from crisis.cli.session import GameSession
from crisis.interpreter.engine.game import Game, Options, option_names, replay as replay_actions
from crisis.interpreter.engine.program import program_of

NEW = " • "


def saved(path):
    return json.loads(path.read_text(encoding="utf-8"))


def options_of(content, data) -> Options:
    return Options.from_dict(data["options"], option_names(program_of(content)))


def replay(content, data) -> Game:
    """The game a save holds, played again on the engine."""
    return replay_actions(program_of(content), data["seed"], options_of(content, data), data["actions"], content=content)


def screens(output: str):
    """The decision screens of a transcript (each ends with the prompt line answered)."""
    return re.split(r"^\S+ \[1-\d+\]> .*$", output, flags=re.M)[:-1]


def big_card(screen: str) -> str:
    """A card of the hand worth 2 or more, played for its value (to place more than one token)."""
    return re.search(r"^ +\d+  value (\S+) +Play .* for its value \([2-9]\)", screen, re.M).group(1)


@pytest.fixture(scope="module")
def wide_bot_game(tmp_path_factory):
    folder = tmp_path_factory.mktemp("feed")
    result = run_crisis("play", "--vs", "bot", "--seed", "13", "--save", "g.json", input="1\n" * 600, cwd=folder,
                        env={"COLUMNS": "160"})
    assert result.returncode == 0, result.stderr
    return result.stdout, saved(folder / "g.json")


def test_the_feed_holds_everything_since_your_last_turn_and_nothing_twice(wide_bot_game, content):
    out, data = wide_bot_game
    game = replay(content, data)
    every = Presenter(content, content.catalog("en")).log_lines(game.log)
    fed = []
    for screen in screens(out):
        if "Since your last turn:" not in screen:
            continue  # the second step of a move: the same decision
        feed = screen.split("Since your last turn:\n", 1)[1]
        fed += [line[len(NEW):] for line in feed.splitlines() if line.startswith(NEW)]
    final = out[out.rindex("Since your last turn:"):]
    fed += [line[len(NEW):] for line in final.splitlines() if line.startswith(NEW)]
    assert "earlier line" not in out  # no cap
    # the whole log, in order, each line once: own card effects and the bot's alike; but its last
    # line, who won, which the final score under it says (the winner is named once)
    assert game.log[-1].key == "log.game_over" and fed == every[:-1]


def test_the_end_of_each_round_gets_its_own_summary_with_vp_before_and_after(wide_bot_game, content):
    out, data = wide_bot_game
    game = replay(content, data)
    for round_number in (1, 2, 3):
        if f"Round {round_number}: all cards are played" not in "\n".join(
                Presenter(content, content.catalog("en")).log_lines(game.log)):
            continue
        block = out[out.index(f"End of round {round_number}\n"):]
        block = block[:block.index("\n\n")]
        assert "gains" in block or "bonus" in block or "reveals" in block
        for side in ("Unionist", "Secessionist"):
            assert re.search(rf"^{side}: \d+ VP before, \d+ VP now$", block, re.M)
    assert "End of round 1" in out


def test_the_final_result_names_the_winner_and_his_vp_first(wide_bot_game, content):
    out, data = wide_bot_game
    game = replay(content, data)
    sides = ("Unionist", "Secessionist")
    w = game.result.winner
    vp = [game.view.counter("VP", side) for side in (0, 1)]
    headline = f"{sides[w]} wins, {vp[w]} VP to {vp[1 - w]}."
    block = out[out.rindex("Final score"):]
    assert block.splitlines()[1] == headline
    assert block.index(f"{sides[w]}: ") < block.index(f"{sides[1 - w]}: ")


def round_ends_expected(content, data, catalog):
    """round: (the lines of its end, from the last card play to the next round or the Final
    Crisis, each side's VP before it and after it), from the saved game played again (a side's VP
    counted from what it starts with: the Solo Opponent's level)."""
    game = Game.of(content, data["seed"], options_of(content, data))
    vp = [game.view.counter("VP", side) for side in (0, 1)]
    for action in data["actions"]:
        game.apply(action)
    show, sides = Presenter(content, catalog), program_of(content).schema.sides
    automa = game.automa.side if game.automa is not None else None
    ends = ("pivotal", "scoring", "round end")  # the steps of a round after its card play
    out, current = {}, None
    for entry in game.log:
        if current and (entry.key == "log.game_over" or (entry.key == "log.step" and entry.params["step"] not in ends)):
            number, before, entries = current
            out[number] = ([show.log_line(e) for e in show.shown(entries, automa)], before, tuple(vp))
            current = None
        if entry.key == "log.step" and entry.params["step"] == "pivotal":
            current = (entry.params["counters"]["round"], tuple(vp), [])
        elif current:
            current[2].append(entry)
        if entry.key == "log.counter" and entry.params["counter"] == "VP":
            vp[sides.index(entry.params["side"])] += entry.params["n"]
    return out


def check_round_ends(out: str, content, data, catalog) -> int:
    """Each round's end is shown once, after its scoring: every line of it, and the true VP."""
    shown = 0
    sides = [Presenter(content, catalog).side(side) for side in program_of(content).schema.sides]
    for number, (lines, before, after) in round_ends_expected(content, data, catalog).items():
        title = catalog.text("cli.round_end.title", round=number)
        assert out.count(title + "\n") == 1, title
        block = out[out.index(title + "\n"):]
        block = block[:block.index("\n\n")].splitlines()
        assert " ".join(block[1:-2]).split() == " ".join(lines).split()  # (broken between words at the width)
        assert block[-2:] == [catalog.text("cli.round_end.vp", side=sides[i], before=before[i], after=after[i])
                              for i in (0, 1)]
        shown += 1
    return shown


def test_a_round_end_is_shown_after_its_scoring_with_the_true_vp(wide_bot_game, content):
    out, data = wide_bot_game
    assert check_round_ends(out, content, data, content.catalog("en")) == 3


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_solo_round_end_counts_from_the_solo_opponents_starting_vp(tmp_path, content, lang):
    result = run_main("play", "--plain", "--solo", "--side", "union", "--difficulty", "challenge", "--seed", "3",
                      "--save", "solo.json", "--lang", lang, input="1\n" * 900, cwd=tmp_path, env={"COLUMNS": "160"})
    assert result.returncode == 0, result.stderr
    data = saved(tmp_path / "solo.json")
    assert check_round_ends(result.stdout, content, data, content.catalog(lang)) == 3


def feed_of(screen: str, heading: str = "Since your last turn:") -> list:
    """The entries of the last feed in a transcript."""
    feed = screen[screen.rindex(heading) + len(heading):].split("\n\n", 1)[0]
    return [line for line in feed.splitlines() if re.match(r" \S ", line)]  # (" • ", or " o " in ASCII)


def test_after_resume_or_branch_the_feed_starts_at_the_players_last_turn(tmp_path, content):
    first = run_main("play", "--plain", "--vs", "bot", "--seed", "13", "--save", "g.json", input="1\n" * 45,
                     cwd=tmp_path, env={"COLUMNS": "160"})
    assert first.returncode == 3  # the input ended: saved
    left = feed_of(first.stdout)  # what was new at the decision the game was left at
    data = saved(tmp_path / "g.json")
    game = replay(content, data)
    assert left and len(left) < len(game.log)
    resumed = run_main("resume", "--plain", "g.json", input="quit\n", cwd=tmp_path, env={"COLUMNS": "160"})
    assert feed_of(resumed.stdout) == left
    branched = run_main("replay", "g.json", "--branch", len(data["actions"]), "--save", "b.json", input="quit\n",
                        cwd=tmp_path, env={"COLUMNS": "160"})
    assert feed_of(branched.stdout) == left


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_consequence_is_a_clause_without_a_full_stop_inside_the_line(tmp_path, content, lang):
    show = Presenter(content, content.catalog(lang))
    session = GameSession(content, show, 13, Options(), [saves.HUMAN, saves.HUMAN], tmp_path / "g.json")
    entered = 0
    while entered < 3:  # (the first choice each time, until a few steps enter a zone of the track)
        decision = session.decision
        for action in decision.actions:
            said = "; ".join(session.consequences(decision, action, short=True))
            if said and content.catalog(lang).raw("cli.consequence.zone_entered").split("{")[0] in said:
                entered += 1
                assert not re.search(r"\.\W*(;|$)", said), said
        session.game.apply(decision.actions[0])


def test_the_choices_say_what_a_step_does_without_stray_punctuation(wide_bot_game):
    out, _ = wide_bot_game
    said = [line for line in out.splitlines() if "when the play ends: " in line]
    assert said and ".;" not in out and not any(line.rstrip().endswith("pool.") for line in said)


def costly_event(content, lang, folder, name="e.json"):
    """A game at a card play where playing an event would enter one of the player's zones of the
    track (found by random play from seed 1), saved with that player at this terminal against a
    bot: (the session, the event's action)."""
    show = Presenter(content, content.catalog(lang))
    probe = GameSession(content, show, 1, Options(), [saves.HUMAN, saves.HUMAN], folder / name)
    rng = random.Random(1)
    while True:
        decision = probe.decision
        costly = [a for a in decision.actions if decision.kind == "play_card" and probe.warnings(decision, a)]
        if costly:
            break
        probe.game.apply(rng.choice(decision.actions))
    controllers = [saves.HUMAN if side == decision.player else "random" for side in (0, 1)]
    session = GameSession(content, show, 1, Options(), controllers, folder / name, probe.game.history)
    session.save()
    return session, costly[0]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_an_event_says_what_it_would_cost_before_it_is_played_and_a_script_is_not_asked(tmp_path, content, lang):
    session, event = costly_event(content, lang, tmp_path)
    said = session.warnings(session.decision, event)
    zones = tuple(session.c.text(key, zone="", side="", you="yes", effect="").split("  ")[0]
                  for key in ("cli.consequence.zone_entered", "cli.consequence.zone_entered_maybe"))
    assert any(line.startswith(zones) for line in said)  # a zone of the player's track is entered
    played = len(session.game.history)
    result = run_main("resume", "--plain", "--lang", lang, "e.json", input=event.text + "\nquit\n", cwd=tmp_path,
                      env={"COLUMNS": "400"})
    menu = result.stdout[:result.stdout.index("> " + event.text + "\n")]
    shown = session.show.notation(session.game, event)
    row = menu[re.search(rf"^ +\d+  {re.escape(shown)} ", menu, re.M).start():]
    row = re.split(r"\n +\d+  |\n\S", row)[0]  # (its line and the lines it is broken onto)
    assert " ".join(row.split()).endswith(" ".join("; ".join(said).split()))  # in the choices, before the prompt
    assert saved(tmp_path / "e.json")["actions"][played] == event.text  # typed once, played: no question


# ----------------------------------------------------------------- widths


def first_screens(columns: int, lang: str, tmp_path):
    result = run_main("play", "--vs", "bot", "--seed", "3", "--save", f"w{columns}{lang}.json", "--lang", lang,
                      input="1\nvalue\n1\n1\nquit\n", cwd=tmp_path, env={"COLUMNS": str(columns)})
    assert result.returncode == 0, result.stderr
    return result.stdout


def parts(out: str):
    """The hand, the feed and the choices of each screen, with spacing made plain."""
    found = []
    for screen in screens(out):
        for start, end in (("Your hand", "Since your last turn"), ("Since your last turn", None),
                           ("Tu mano", "Desde tu último turno"), ("Desde tu último turno", None)):
            if start in screen:
                piece = screen[screen.index(start):screen.index(end) if end and end in screen else None]
                found.append(" ".join(piece.split()))
    return found


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_line_fits_60_80_and_120_columns_without_breaking_a_word(tmp_path, lang):
    reference = parts(first_screens(160, lang, tmp_path))
    assert len(reference) >= 4
    for columns in (60, 80, 120):
        out = first_screens(columns, lang, tmp_path)
        too_long = [line for line in out.splitlines() if len(line) > columns]
        assert not too_long, (columns, too_long[:3])
        # broken only between words: the same words in the same order as on a wide screen
        assert parts(out) == reference, columns


def test_the_hot_seat_hand_over_on_a_pipe_fits_60_columns(tmp_path):
    # on a pipe a new player's screen starts below a line of "=" (nothing can be wiped): it was
    # 72 wide whatever the terminal
    result = run_main("play", "--seed", "3", "--save", "h.json", input="\n1\n\n1\nquit\n", cwd=tmp_path,
                      env={"COLUMNS": "60"})
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert any(set(line) == {"="} for line in lines)  # the hand-over was reached
    assert [line for line in lines if len(line) > 60] == []


def test_the_board_takes_two_columns_at_80_and_one_at_60(tmp_path):
    wide = first_screens(80, "en", tmp_path)
    narrow = first_screens(60, "en", tmp_path)
    assert re.search(r"^Political +Secession$", wide, re.M)
    assert re.search(r"^Political$", narrow, re.M) and re.search(r"^Secession$", narrow, re.M)
    board = wide[wide.index("Political"):wide.index("Crisis track")]
    assert len(board.splitlines()) <= 12  # with the header, tracks and choices it fits 80x24 and more


# ----------------------------------------------------------------- typing


def test_a_card_or_a_space_may_be_typed_by_the_start_of_its_name(tmp_path, content):
    session = Session("play", "--vs", "bot", "--seed", "3", "--save", "g.json", cwd=tmp_path, env={"COLUMNS": "160"})
    out = session.prompt()
    session.send("keep fir")  # keep fire-eaters
    out = session.prompt()
    assert saved(tmp_path / "g.json")["actions"][0] == "keep fire-eaters"
    card = big_card(out)
    session.send("value " + card[:4])
    out = session.prompt()
    assert saved(tmp_path / "g.json")["actions"][-1] == f"value {card}"
    assert "place a token" in out
    session.send("place fort")  # Fort Pickens or Fort Sumter: ask for more
    reply = session.prompt()
    assert "is the start of 2 choices (place Fort Pickens, place Fort Sumter)" in reply
    session.send("place fort s")
    session.prompt()
    assert saved(tmp_path / "g.json")["actions"][-1] == "place Fort Sumter"
    session.send("plase springfeld")
    reply = session.prompt()
    assert "Did you mean 'place Springfield'" in reply
    session.send("quit")
    assert session.wait() == 0


def test_a_suggestion_numbers_the_choices_on_the_screen_in_a_move_of_two_steps(tmp_path):
    """Where a move is chosen in two steps (where the token comes from, then where it goes), the
    menu lists sources, not every move: a suggestion's number and the range told are the menu's,
    and a move meant is suggested by its text (typing it takes it), never by a number that
    stands for another choice."""
    typed = ["1"] * 14 + ["moev Unionist Montgomery to Springfield", "dne", "foo", "quit"]
    result = run_main("play", "--seed", "5", "--vs", "heuristic", "--save", tmp_path / "g.json",
                      input="\n".join(typed) + "\n", env={"COLUMNS": "100"})
    out = result.stdout
    menu = out[:out.index("> moev")].rsplit("move a token, or stop", 1)[1]
    lines = re.findall(r"^ +(\d+)  (\S+(?: \S+)*?)  ", menu, re.M)
    assert any(text.startswith("from ") for _, text in lines), menu  # the menu of sources
    done = next(number for number, text in lines if text == "done")
    replies = " ".join(out[out.index("> moev"):].split())  # the messages as said, lines joined
    assert "Did you mean 'move Unionist Montgomery to Springfield'? (Type it" in replies
    assert f"Did you mean 'done' (choice {done})?" in replies
    assert f"type a number from 1 to {len(lines)} or" in replies


def test_a_message_is_repeated_at_the_bottom_of_the_next_screen(tmp_path, content):
    session = Session("play", "--vs", "bot", "--seed", "3", "--save", "g.json", cwd=tmp_path)
    session.prompt()
    session.send("1")
    out = session.prompt()
    session.send(f"value {big_card(out)}")
    session.prompt()
    session.send("1")
    session.prompt()
    session.send("undo")
    reply = session.prompt()
    bottom = reply[reply.rindex("Since your last turn:"):]
    assert "Taken back: Place a token in" in bottom  # just above the choices, not above the board
    session.send("quit")
    assert session.wait() == 0


def test_spanish_command_words_are_shown_and_both_languages_understood(tmp_path):
    session = Session("play", "--vs", "bot", "--lang", "es", "--seed", "3", "--save", "g.json", cwd=tmp_path,
                      env={"COLUMNS": "160"})
    out = session.prompt()
    assert "? ayuda   carta NOMBRE   registro   reglas   tablero   deshacer   salir" in out
    for word, answer in (("ayuda", "Conserva una de las cartas de objetivo"), ("reglas", "Resúmenes de las reglas"),
                         ("registro", "El registro completo"), ("rules", "Resúmenes de las reglas")):
        session.send(word)
        assert answer in session.prompt(), word
    session.send("salir")
    assert session.prompt() is not None
    assert session.wait() == 0


# ------------------------------------------------------------ the command


def test_version_and_help_in_english_and_spanish():
    version = run_crisis("--version")
    assert version.returncode == 0 and re.fullmatch(r"crisis \d+\.\d+\.\d+\S*\n", version.stdout)
    english = run_crisis("--help")
    assert english.returncode == 0 and "usage: crisis" in english.stdout and "continue a saved game" in english.stdout
    spanish = run_crisis("--help", env={"LANG": "es_ES.UTF-8"})
    assert "uso: crisis" in spanish.stdout and "continuar una partida guardada" in spanish.stdout
    assert "mostrar esta ayuda y salir" in spanish.stdout and "show this" not in spanish.stdout
    bad = run_crisis("replay", "g.json", "--branch", "x", "--lang", "es")  # argparse's own words, translated
    assert bad.returncode == 2 and "valor int no válido: 'x'" in bad.stderr


def eval_free_list(printed: str) -> list:
    """The module names of a printed sorted list, read without eval."""
    return [name.strip().strip("'") for name in printed.strip("[]").split(",") if name.strip()]


def test_help_does_not_load_the_engine(tmp_path):
    """Nor, once its words are cached, the YAML library (most of what --help cost)."""
    code = ("import sys\nfrom crisis.cli.main import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith(('crisis.interpreter', 'crisis.ruleset', "
            "'crisis.content.loader', 'lark', 'yaml'))))")
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path))
    first = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert "'yaml'" in first.stdout  # the catalog read, and cached
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    loaded = eval_free_list(result.stdout.strip().splitlines()[-1])
    # where the cache folder is (a few lines of os and stat) is all --help may take from the language's package
    assert set(loaded) <= {"crisis.ruleset", "crisis.ruleset.cachefolder"}, loaded


def test_the_cached_command_line_words_follow_their_file(tmp_path, monkeypatch):
    from crisis.cli import words
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    catalog = tmp_path / "en" / "cli.yaml"
    catalog.parent.mkdir()
    catalog.write_text('cli:\n  hello: "Hello"\n', encoding="utf-8")
    assert words._read(catalog.parent) == {"cli.hello": "Hello"}
    cached = tmp_path / "cache" / "crisis" / "cli-en.json"
    assert cached.is_file() and cached.stat().st_mode & 0o077 == 0
    catalog.write_text('cli:\n  hello: "Hello again"\n', encoding="utf-8")  # edited: read again
    assert words._read(catalog.parent) == {"cli.hello": "Hello again"}
    # the cache is checked as every cache of the tool is: a planted or edited file is read as nothing
    import hashlib
    import os
    form, key, _ = cached.read_bytes().split(b"\n", 1)[0].split(b" ")

    def headed(body: bytes) -> bytes:
        return b" ".join([form, key, hashlib.sha256(body).hexdigest().encode()]) + b"\n" + body
    planted = {"wrong types": headed(b'{"cli.hello": 5}'), "not json": headed(b"not json"),
               "a list": headed(b"[]"), "edited body": headed(b'{"cli.hello": "Hi"}').replace(b"Hi", b"Yo"),
               "no header": b'{"cli.hello": "Planted"}'}
    for what, body in planted.items():
        cached.write_bytes(body)
        os.chmod(cached, 0o600)
        assert words._read(catalog.parent) == {"cli.hello": "Hello again"}, what
    cached.write_bytes(headed(b'{"cli.hello": "Readable by others"}'))
    os.chmod(cached, 0o644)  # another user could have written it
    assert words._read(catalog.parent) == {"cli.hello": "Hello again"}
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_bytes(headed(b'{"cli.hello": "Through a link"}'))
    os.chmod(elsewhere, 0o600)
    cached.unlink()
    cached.symlink_to(elsewhere)
    assert words._read(catalog.parent) == {"cli.hello": "Hello again"}


def test_spanish_numbers_have_a_decimal_comma(tmp_path):
    result = run_crisis("sim", "--games", "20", "--lang", "es")
    assert re.search(r"\(\d+,\d%\), PV finales de media \d+,\d\d", result.stdout)
    assert re.search(r"20 partidas en \d+,\d\d s", result.stdout)


# ------------------------------------------------------------------ help


def help_screens(out: str) -> list:
    """What each ``?`` printed (up to the next prompt), with spacing made plain."""
    pieces = re.split(r"^\S+ \[1-\d+\]> \?$", out, flags=re.M)[1:]
    return [" ".join(re.split(r"^\S+ \[1-\d+\]> ", piece, maxsplit=1, flags=re.M)[0].split()) for piece in pieces]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_help_says_the_step_or_the_card_a_decision_is_part_of(tmp_path, content, lang):
    c = content.catalog(lang)
    result = run_main("play", "--vs", "bot", "--seed", "3", "--save", "g.json", "--lang", lang, "--plain",
                      input="1\n?\n1\n?\nquit\n", cwd=tmp_path, env={"COLUMNS": "120"})
    assert result.returncode == 0, result.stderr
    at_turn, at_placement = help_screens(result.stdout)[:2]
    # the turn of the card play, not the deal that began the round
    turn = c.text("cli.help.cause", line=c.text("cli.help.part.step.turn", round=1))
    assert " ".join(turn.split()) in at_turn
    assert c.text("log.step.deal", round=1) not in at_turn
    # a token placed for a card's value (the first choice) is part of that card's play
    game = replay(content, saved(tmp_path / "g.json"))
    played = next(e for e in reversed(game.log) if e.key == "log.play")
    line = Presenter(content, c).log_line(played)
    assert " ".join(c.text("cli.help.cause", line=line).split()) in at_placement


@pytest.mark.parametrize("lang", ["en", "es"])
def test_help_names_a_step_the_catalog_has_no_words_for_by_its_name(tmp_path, lang):
    from crisis.cli.info import catalog_keys
    from crisis.content.loader import load_content
    from crisis.content.games import game_path
    content = load_content(game_path("civil-war-card-game"))
    c = content.catalog(lang)
    result = run_main("play", "--game", "civil-war-card-game", "--vs", "bot", "--seed", "1", "--save", "c.json",
                      "--lang", lang, "--plain", input="1\n1\n1\n?\nquit\n", cwd=tmp_path, env={"COLUMNS": "120"})
    assert result.returncode == 0, result.stderr
    shown = help_screens(result.stdout)[0]
    steps = [key.split(".", 1)[1] for key in catalog_keys(c) if key.startswith("steps.")]
    said = [" ".join(c.text("cli.help.cause", line=c.text("cli.help.part_step", step=c.name("steps", step))).split())
            for step in steps]
    assert any(line in shown for line in said), shown


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_score_a_zones_effect_says_is_not_said_twice_in_an_events_preview(tmp_path, content, lang):
    """An event that breaches a zone whose effect costs VP ("then lose 1 VP") says that loss once."""
    show = Presenter(content, content.catalog(lang))
    vp = re.compile(rf"\b{re.escape(content.catalog(lang).name('counters', 'VP'))}\b")
    seen = 0
    for seed in range(1, 12):
        session = GameSession(content, show, seed, Options(), [saves.HUMAN, saves.HUMAN], tmp_path / f"{seed}.json")
        rng = random.Random(seed)
        while not session.game.over and seen < 3:
            decision = session.decision
            for action in decision.actions if decision.kind == "play_card" else ():
                found = session._play_found(decision, action)
                if found and found.entered and any(found.score[decision.player]):
                    said = "; ".join(session.consequences(decision, action, short=True))
                    assert len(vp.findall(said)) == 1, said
                    seen += 1
            session.game.apply(rng.choice(decision.actions))
        if seen >= 3:
            break
    assert seen


def test_the_command_to_continue_is_never_broken_over_two_lines(tmp_path):
    """A narrow terminal breaks long lines between words; 'crisis resume FILE' broken so would run
    without its file when pasted: it gets a line of its own, whole."""
    folder = tmp_path / "a-folder-with-a-rather-long-name-for-saved-games"
    folder.mkdir()
    save = folder / "game.json"
    result = run_main("play", "--plain", "--seed", "3", "--save", save, input="quit\n", env={"COLUMNS": "60"})
    assert result.returncode in (0, 3), result.stderr
    command = f"crisis resume {save}"
    assert len(command) > 60
    assert any(line.strip() == command for line in result.stdout.splitlines()), result.stdout[-300:]


@pytest.mark.parametrize("game", ["fort-sumter", "civil-war-card-game"])
def test_the_helps_example_of_typing_short_is_an_action_of_the_game_and_plays_it(tmp_path, game):
    """Help's example of an action typed by its start comes from the decision's own actions (it
    named Fort Sumter's "value fox" in every game), and typing it plays the action it names."""
    save = tmp_path / "g.json"
    start = ("play", "--game", game, "--vs", "heuristic", "--seed", "7", "--save", save)
    shown = run_main(*start, input="?\nquit\n", env={"COLUMNS": "200"}).stdout
    example = re.search(r"; (\S+ \S+) is enough for (\S+ \S+(?: \S+)*?) if no other", shown)
    assert example is not None and "value fox" not in shown, shown
    short, full = example.groups()
    assert full.startswith(short)
    assert re.search(rf"^\s+\d+\s+{re.escape(full)}\s", shown, re.M)  # one of the choices listed
    actions_before = len(saves.parse(save)["actions"])
    run_main("resume", save, input=f"{short}\nquit\n", env={"COLUMNS": "200"})
    assert saves.parse(save)["actions"][actions_before] == full


def test_a_move_that_changes_two_spaces_hands_names_each_space(tmp_path, content):
    """The menu line of a move names both its ends: what changes hands is said of each space by
    name ('... loses control of Washington; you lose control of Montgomery'), where a placement's
    one space is left to the line."""
    from crisis.interpreter.preview import preview
    show = Presenter(content, content.catalog("en"))
    places = content.definition.schema.map.places
    checked = 0
    for seed in range(1, 30):
        session = GameSession(content, show, seed, Options(), [saves.HUMAN, saves.HUMAN], tmp_path / f"{seed}.json")
        while session.decision is not None and checked < 3:
            decision = session.decision
            for action in decision.actions:
                found = preview(session.game, decision, action) if action.kind in ("move", "place") else None
                if not found or not found.spaces:
                    continue
                said = "; ".join(session.consequences(decision, action, short=True))
                named = [show.space(places[place]) for place, _, _ in found.spaces]
                if len(found.spaces) == 2:
                    assert all(f"control of {name}" in said for name in named), said
                    checked += 1
                else:
                    assert not any(f"control of {name}" in said for name in named), said
            session.game.apply(decision.actions[-1])
        if checked >= 3:
            break
    assert checked >= 3


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_whole_turn_with_nothing_to_choose_is_said_once_in_the_feed(tmp_path, lang):
    """A side that can pay for nothing (no farm in the Civil War Card Game) takes turns without a
    prompt: the feed says of each such turn of yours that you had nothing to choose, once, and
    of none in which you chose."""
    from crisis.content.loader import load_content
    from crisis.content.games import game_path
    content = load_content(game_path("civil-war-card-game"))
    from crisis.cli.session import TURN_WITHOUT_CHOICE, rounds_of
    from crisis.interpreter.engine.board import LogEntry
    said = Presenter(content, content.catalog(lang)).log_line(LogEntry(TURN_WITHOUT_CHOICE, {"side": "North"}))
    counter = rounds_of(program_of(content)).turn_counter
    # seed 5: the North, played by the person, draws no farm: after its set-up choice it is never asked
    result = run_main("play", "--game", "civil-war-card-game", "--vs", "random", "--seed", "5", "--save", "c.json",
                      "--lang", lang, "--plain", input="1\n" * 40, cwd=tmp_path, env={"COLUMNS": "200"})
    assert result.returncode == 0, result.stderr
    game = replay(content, saved(tmp_path / "c.json"))
    ended = [e for e in game.log if e.key == "log.counter" and e.params.get("side") == "North"
             and e.params.get("n", 0) > 0 and e.params.get("counter") == counter]
    asked = sum(1 for _ in screens(result.stdout))
    assert asked == 1 and len(ended) >= 5
    assert result.stdout.count(said) == len(ended)


def test_no_turn_is_said_to_be_without_choice_where_every_turn_asks(tmp_path):
    """In Fort Sumter every turn is a card played: no such line, in a whole game against a bot."""
    from crisis.content.loader import load_content
    from crisis.content.games import game_path
    content = load_content(game_path("fort-sumter"))
    c = content.catalog("en")
    result = run_main("play", "--vs", "random", "--seed", "3", "--save", "f.json", "--plain", input="1\n" * 200,
                      cwd=tmp_path, env={"COLUMNS": "200"})
    assert result.returncode == 0, result.stderr
    assert "nothing to choose" not in result.stdout
    assert c.raw("log.turn_without_choice")
