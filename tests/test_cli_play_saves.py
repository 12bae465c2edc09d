"""Saved games: written after every action, resumed after the process is
killed, refused when damaged or foreign, replayed from the start."""

import json
import re
import signal

import pytest

from crisis.ruleset import limits

from clirun import (DECISION_PROMPT, MOVE_DESTINATIONS, Session, answer_all, decision_kind, last_line, run_crisis,
                    run_main)
from crisis.interpreter.engine.program import program_of

DECIDED = DECISION_PROMPT[:-1]
WIDE = {"COLUMNS": "160"}  # long temporary paths on one line (wrapping has its own tests)


def saved(path):
    return json.loads(path.read_text(encoding="utf-8"))


def final_block(output: str) -> str:
    return output[output.rindex("Final score"):output.index("The whole game is saved")].strip()


def screen_core(screen: str) -> str:
    """The board, the tracks, the player's cards and the choices of a screen (not the recent log)."""
    start = screen.index("Political")
    recent = screen.index("Since your last turn:")
    question = screen.index("\n", screen.index("\n\n", recent) + 1)
    # what changed since the player's last turn is marked only when the player saw the turn before
    return re.sub(r"^•", " ", screen[start:recent] + screen[question:], flags=re.M)


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished game against the bot, and its saved file."""
    folder = tmp_path_factory.mktemp("finished")
    result = run_crisis("play", "--vs", "bot", "--seed", "13", "--save", "game.json", input="1\n" * 600, cwd=folder)
    assert result.returncode == 0, result.stderr
    return {"out": result.stdout, "file": folder / "game.json", "data": saved(folder / "game.json")}


def test_the_save_file_names_the_content_seed_options_controllers_and_actions(finished, content):
    data = finished["data"]
    assert data["format"] == "crisis-saved-game" and data["version"] == 3
    assert data["game"] == "fort-sumter" and data["content_digest"] == content.digest
    assert data["seed"] == 13 and data["options"] == {"event_discard": False}
    assert data["controllers"] == {"Unionist": "human", "Secessionist": "random"}
    assert all(isinstance(a, str) for a in data["actions"]) and len(data["actions"]) > 30
    assert not list(finished["file"].parent.glob(".*.tmp"))  # no temporary file left behind


def test_without_save_the_game_goes_to_a_new_file_named_from_the_date_and_seed(tmp_path):
    result = run_crisis("play", "--vs", "bot", "--seed", "77", input="1\n", cwd=tmp_path, env=WIDE)
    assert result.returncode == 3
    files = list(tmp_path.glob("*.json"))
    assert len(files) == 1 and re.fullmatch(r"fort-sumter-\d{8}-\d{6}-seed77\.json", files[0].name)
    assert f"The game is saved after every action in {files[0]}" in result.stdout
    assert saved(files[0])["actions"][0].startswith("keep ")  # the answer given was saved


def test_an_existing_file_is_never_overwritten_by_a_new_game(tmp_path):
    old = tmp_path / "mine.json"
    old.write_text("precious", encoding="utf-8")
    result = run_crisis("play", "--save", old, input="\n1\n", cwd=tmp_path)
    assert result.returncode == 2
    assert "already exists" in result.stderr and f"crisis resume {old}" in result.stderr
    assert old.read_text(encoding="utf-8") == "precious"


def test_a_game_killed_mid_game_resumes_where_it_was_and_plays_on_as_if_never_stopped(tmp_path):
    answers = 14
    # the same game, never interrupted
    whole = run_crisis("play", "--vs", "bot", "--seed", "31", "--save", "whole.json", input="1\n" * 600,
                       cwd=tmp_path)
    assert whole.returncode == 0
    session = Session("play", "--vs", "bot", "--seed", "31", "--save", "g.json", cwd=tmp_path)
    for _ in range(answers):
        session.prompt()
        session.send("1")
    screen = session.prompt()  # the command waits here when it is killed (at a whole screen)
    while MOVE_DESTINATIONS in screen:
        session.send("1")
        screen = session.prompt()
    actions = saved(tmp_path / "g.json")["actions"]
    session.kill()
    assert saved(tmp_path / "g.json")["actions"] == actions  # intact after SIGKILL
    assert actions == saved(tmp_path / "whole.json")["actions"][:len(actions)]

    resumed = Session("resume", "g.json", cwd=tmp_path)
    first = resumed.prompt()
    assert f"Resuming g.json: {len(actions)} actions replayed from seed 31." in first
    assert screen_core(first) == screen_core(screen)
    assert last_line(first) == last_line(screen)
    resumed.send("1")
    answer_all(resumed)
    assert resumed.wait() == 0
    assert saved(tmp_path / "g.json")["actions"] == saved(tmp_path / "whole.json")["actions"]
    assert final_block(resumed.output) == final_block(whole.stdout)


def test_ctrl_c_saves_and_says_how_to_resume(tmp_path):
    session = Session("play", "--vs", "bot", "--seed", "3", "--save", "g.json", cwd=tmp_path)
    for _ in range(3):
        session.prompt()
        session.send("1")
    session.prompt()
    session.proc.send_signal(signal.SIGINT)
    assert session.wait() == 130
    assert "Interrupted." in session.output and "Continue it with:  crisis resume g.json" in session.output
    assert "Traceback" not in session.stderr()
    assert len(saved(tmp_path / "g.json")["actions"]) >= 3
    again = run_crisis("resume", "g.json", input="quit\n", cwd=tmp_path)
    assert again.returncode == 0 and "Resuming g.json" in again.stdout


def test_a_finished_game_resumes_to_its_final_score(finished):
    result = run_crisis("resume", finished["file"].name, cwd=finished["file"].parent)
    assert result.returncode == 0
    assert final_block(result.stdout) == final_block(finished["out"])


def test_end_of_input_at_each_kind_of_decision_keeps_the_save_as_it_was(tmp_path, content):
    """Resume a hot-seat game at the first decision of each kind and end the input there."""
    session = Session("play", "--seed", "21", "--save", "g.json", cwd=tmp_path)
    answered = answer_all(session)
    assert session.wait() == 0
    data = saved(tmp_path / "g.json")
    firsts = {}
    for index, (kind, _) in enumerate(answered):
        firsts.setdefault(kind, index)
    assert {"keep_objective", "play_card", "place", "order"} <= set(firsts)
    for number, (kind, index) in enumerate(firsts.items()):
        path = tmp_path / f"{kind}.json"
        path.write_text(json.dumps(dict(data, actions=data["actions"][:index])), encoding="utf-8")
        run = run_crisis if number == 0 else run_main  # the real command once, then in the process
        result = run("resume", path.name, input="\n", cwd=tmp_path)  # Enter at the pass screen, then EOF
        assert result.returncode == 3, (kind, result.stderr)
        out = result.stdout
        assert decision_kind(out) == kind
        assert re.search(DECIDED + r"\n\nInput ended\.\nThe game is saved in", out, re.M), kind
        assert f"crisis resume {path.name}" in out
        assert saved(path)["actions"] == data["actions"][:index]


def test_a_game_played_on_a_content_folder_goes_on_with_the_command_it_prints(tmp_path):
    """A designer plays a copy of the game (--content): the command printed to go on names that copy
    (the shipped game's files would not replay it), and it resumes the game where it stopped; the
    shipped game's file, resumed on the copy, is told apart from a changed content."""
    import shlex
    from helpers import copy_content, replace_in
    folder = copy_content(tmp_path)
    replace_in(folder / "cards" / "strategy-both.yaml", "place 3 in Armaments spaces", "place 2 in Armaments spaces")
    played = run_main("play", "--content", str(folder), "--vs", "random", "--seed", "3", "--plain", "--save",
                      "g.json", input="1\nquit\n", cwd=tmp_path, env=WIDE)
    command = next(line for line in played.stdout.splitlines() + played.stderr.splitlines()
                   if "crisis resume" in line).split("crisis ", 1)[1]
    assert shlex.split(command) == ["resume", "--content", str(folder), "g.json"]
    resumed = run_main(*shlex.split(command), input="quit\n", cwd=tmp_path, env=WIDE)
    assert "other content" not in resumed.stdout + resumed.stderr and saved(tmp_path / "g.json")["actions"]
    assert resumed.returncode == played.returncode
    shipped = run_main("resume", "g.json", input="quit\n", cwd=tmp_path, env=WIDE)
    assert shipped.returncode != 0 and "If it was played with --content FOLDER, give that folder again" in shipped.stderr


# ------------------------------------------------------------ bad save files


def variants(data):
    """(name, file text, what the message says) for damaged and foreign files."""
    text = json.dumps(data)
    actions = list(data["actions"])
    broken = list(actions)
    broken[5] = "place Nowhere"
    yield "not json", "this is not a saved game\n", "is not a saved game: it is not valid JSON"
    yield "cut short", text[: len(text) // 2], "is not a saved game: it is not valid JSON"
    yield "empty", "", "it is not valid JSON"
    yield "another program's JSON", json.dumps({"name": "my notes", "items": [1, 2]}), "is not a saved game of crisis"
    yield "a list", json.dumps([1, 2, 3]), "is not a saved game of crisis"
    yield "newer format", json.dumps(dict(data, version=99)), "saved by a newer version of crisis"
    yield "another game", json.dumps(dict(data, game="twilight-struggle")), "is a saved game of 'twilight-struggle'"
    yield "other content", json.dumps(dict(data, content_digest="0123456789abcdef")), \
        "was saved with other content files than those in"
    yield "seed missing", json.dumps({k: v for k, v in data.items() if k != "seed"}), "its 'seed' entry"
    yield "options wrong", json.dumps(dict(data, options={"house_rule": True})), "its 'options.house_rule' entry"
    yield "unknown player", json.dumps(dict(data, controllers={"Unionist": "human", "Secessionist": "deep-blue"})), \
        "names a player 'deep-blue'"
    yield "a bot's budget past the limit", json.dumps(dict(data, controllers={
        "Unionist": "human", "Secessionist": f"search:{limits.MAX_SEARCH_ITERATIONS + 1}"})), \
        f"names a player 'search:{limits.MAX_SEARCH_ITERATIONS + 1}'"
    yield "actions not a list", json.dumps(dict(data, actions="keep everything")), "its 'actions' entry"
    yield "an action that does not replay", json.dumps(dict(data, actions=broken)), \
        "action 6 ('place Nowhere') is not legal at that point"
    yield "actions after the end", json.dumps(dict(data, actions=actions + ["done"])), \
        f"action {len(actions) + 1} comes after the end of the game"


@pytest.mark.parametrize("command", ["resume", "replay"])
def test_damaged_and_foreign_save_files_are_refused_with_a_clear_message(finished, tmp_path, command):
    for index, (name, text, message) in enumerate(variants(finished["data"])):
        path = tmp_path / "bad.json"
        path.write_text(text, encoding="utf-8")
        # in the process (a second or more saved per file); the first one through the real command
        run = run_crisis if index == 0 else run_main
        result = run(command, path, input="1\n" * 5, cwd=tmp_path)
        assert result.returncode == 1, name  # the file cannot be used: not a mistake in the command
        assert message in result.stderr, (name, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1, name
        assert "Traceback" not in result.stderr and result.stdout == "", name
        assert path.read_text(encoding="utf-8") == text, f"{name}: the file was changed"
    missing = run_crisis(command, tmp_path / "nothing.json")
    assert missing.returncode == 2 and "no such file" in missing.stderr


def test_a_changed_content_can_be_accepted_on_request(finished, tmp_path):
    data = dict(finished["data"], content_digest="0123456789abcdef")
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = run_crisis("replay", path, "--allow-changed-content", cwd=tmp_path)
    assert result.returncode == 0 and "Final score" in result.stdout


# -------------------------------------------------------------------- replay


def test_replay_shows_every_action_from_the_start_and_the_final_score(finished):
    result = run_crisis("replay", finished["file"].name, cwd=finished["file"].parent, env=WIDE)
    assert result.returncode == 0, result.stderr
    # an action line too long even for 160 columns, joined again
    out = re.sub(r"^(#\d+  .*)\n  (?=\S)", r"\1 ", result.stdout, flags=re.M)
    actions = finished["data"]["actions"]
    assert f"Replay of {finished['file'].name}: seed 13, {len(actions)} actions." in out
    numbered = re.findall(r"^#(\d+)  (Unionist|Secessionist): .*\[(.+)\]$", out, re.M)
    assert [int(n) for n, _, _ in numbered] == list(range(1, len(actions) + 1))
    assert [text for _, _, text in numbered] == actions  # a finished game shows even private choices
    assert out.index("Round 1 begins") < out.index("#1 ")
    assert final_block(out + "The whole game is saved") == final_block(finished["out"])


def test_replay_of_an_unfinished_game_keeps_private_choices_private(finished, tmp_path):
    data = finished["data"]
    path = tmp_path / "half.json"
    path.write_text(json.dumps(dict(data, actions=data["actions"][:10])), encoding="utf-8")
    result = run_crisis("replay", path, cwd=tmp_path, env=WIDE)
    assert result.returncode == 0
    out = result.stdout
    assert "The game is not finished: private choices are not shown." in out
    assert re.search(r"^#1  Unionist: a private choice$", out, re.M)
    assert "[keep " not in out
    # a card played is face up once played: its play is shown, as the log line after it says
    plays = [text for text in data["actions"][:10] if text.split()[0] in ("event", "value")]
    assert plays and all(f"[{text}]" in out for text in plays)
    assert "End of the saved actions (10): the game is not finished." in out
    assert f"crisis resume {path}" in out


def test_replay_step_shows_the_board_before_each_action_and_stops_on_q(finished):
    result = run_crisis("replay", finished["file"].name, "--step", input="\n\nq\n", cwd=finished["file"].parent)
    assert result.returncode == 0
    out = result.stdout
    assert re.findall(r"^#(\d+) ", out, re.M) == ["1", "2", "3"]
    assert out.count("Crisis track  ") == 3
    assert [int(n) for n in re.findall(r"^\[(\d+)/\d+\] Enter: next", out, re.M)] == [0, 1, 2]
    assert "Final score" not in out
    ended = run_crisis("replay", finished["file"].name, "--step", input="\n", cwd=finished["file"].parent)
    assert ended.returncode == 0 and "Traceback" not in ended.stderr  # end of input just stops


def test_a_save_from_before_card_by_card_orders_still_resumes_and_replays(finished, tmp_path, content):
    """Older saves hold each whole Final Crisis order as one action, `order a b c`."""
    from crisis.interpreter.engine.game import replay
    actions = finished["data"]["actions"]
    game = replay(program_of(content), 13, None, actions, content=content)
    orders = [[game.view.card_id("strategy cards", c) for c in game.view.pile("final crisis order", side)]
              for side in (0, 1)]
    old, folded = [], set()
    for text in actions:
        if text.startswith("order "):
            side = next(s for s in (0, 1) if text.split()[1] in orders[s])
            if side not in folded:
                folded.add(side)
                old.append("order " + " ".join(orders[side]))
            continue
        old.append(text)
    assert len(old) < len(actions)
    path = tmp_path / "old.json"
    path.write_text(json.dumps(dict(finished["data"], actions=old)), encoding="utf-8")
    result = run_crisis("resume", path, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert final_block(result.stdout) == final_block(finished["out"])
    result = run_crisis("replay", path, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert final_block(result.stdout + "The whole game is saved") == final_block(finished["out"])


def test_replay_step_goes_back_to_an_action_and_to_a_round(finished, content):
    data = finished["data"]
    from crisis.interpreter.engine.game import Game, Options, option_names
    game = Game.of(content, data["seed"], Options.from_dict(data["options"], option_names(program_of(content))), log=False)
    round_two = None
    for index, action in enumerate(data["actions"]):
        if game.view.counter("round") == 2 and round_two is None:
            round_two = index
        game.apply(action)
    result = run_crisis("replay", finished["file"].name, "--step", input="\n\nback\n7\nround 2\n-\nround 9\nq\n",
                        cwd=finished["file"].parent)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    positions = [int(n) for n in re.findall(r"^\[(\d+)/\d+\] Enter: next", out, re.M)]
    # a number is the game after that action, as --branch N (0: the start)
    assert positions == [0, 1, 2, 1, 7, round_two, round_two - 1, round_two - 1]
    assert "The game has no round '9'." in out
    # after a jump, the action the game is now after (and what it did), then the next one
    assert re.findall(r"^#(\d+) ", out, re.M)[:7] == ["1", "2", "3", "1", "2", "7", "8"]


def test_a_replays_help_and_a_bare_round_are_answered_not_refused(finished):
    from clirun import run_main
    result = run_main("replay", finished["file"].name, "--step", input="?\nround\nq\n", cwd=finished["file"].parent)
    out = result.stdout
    helped = out[out.index("> ?"):out.index("> round")]
    assert "Press Enter for the next action" in helped and "✗" not in helped
    assert "Which round? Type round and its number (round 2), or round final." in out
    assert "The game has no round ''" not in out


def test_a_new_game_branches_off_a_replay_in_a_new_file(finished, tmp_path):
    data = finished["data"]
    original = tmp_path / "game.json"
    original.write_text(json.dumps(data), encoding="utf-8")
    result = run_crisis("replay", original, "--branch", "10", "--save", tmp_path / "other.json", input="quit\n",
                        cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "A new game branched off after action 10" in result.stdout
    branch = saved(tmp_path / "other.json")
    assert branch["actions"] == data["actions"][:10] and branch["seed"] == data["seed"]
    assert branch["controllers"] == data["controllers"]
    assert saved(original) == data  # the replayed game is untouched
    # from the step mode: "branch" at the current action, in a file named after the original
    stepped = run_crisis("replay", original, "--step", input="\n\n\nbranch\nquit\n", cwd=tmp_path)
    assert stepped.returncode == 0, stepped.stderr
    assert saved(tmp_path / "game-branch3.json")["actions"] == data["actions"][:3]
    # the step mode's number then branch is --branch with that number: the same new game
    for number in ("0", "10", str(len(data["actions"]) - 1)):
        run_main("replay", original, "--branch", number, "--save", tmp_path / f"given{number}.json", input="quit\n",
                 cwd=tmp_path)
        result = run_main("replay", original, "--step", "--plain", input=f"{number}\nbranch\nquit\n", cwd=tmp_path)
        assert f"A new game branched off after action {number}," in result.stdout
        assert f"[{number}/{len(data['actions'])}] Enter: next" in result.stdout
        stepped = saved(tmp_path / f"game-branch{number}.json")
        assert stepped["actions"] == saved(tmp_path / f"given{number}.json")["actions"]
        assert stepped["actions"][:int(number)] == data["actions"][:int(number)]
    too_far = run_crisis("replay", original, "--branch", "9999", cwd=tmp_path)
    assert too_far.returncode == 2 and "There is no action 9999" in too_far.stderr


def test_a_hot_seat_game_keeps_its_seed_out_of_its_file_name(tmp_path):
    """Two players at one terminal are told the seed is shown when the game is over: the name of the
    file the game is saved in, printed at once, does not show it either (a game against a bot does)."""
    hot = run_main("play", "--seed", "34933", "--plain", input="quit\n", cwd=tmp_path, env=WIDE)
    assert "The seed is shown when the game is over" in hot.stdout and "34933" not in hot.stdout + hot.stderr
    (name,) = [path.name for path in tmp_path.glob("*.json")]
    assert "seed" not in name and saved(tmp_path / name)["seed"] == 34933
    (tmp_path / "bot").mkdir()
    against = run_main("play", "--vs", "random", "--seed", "34933", "--plain", input="quit\n", cwd=tmp_path / "bot",
                       env=WIDE)
    assert "seed34933" in against.stdout


def test_the_command_to_watch_a_game_again_is_never_broken_across_lines(finished, tmp_path):
    """At the end of a game on a narrow terminal the sentence wraps, the command does not (a
    command broken over two lines runs without its file when pasted)."""
    path = tmp_path / "a-game-saved-under-a-rather-long-name-for-a-narrow-terminal.json"
    path.write_text(finished["file"].read_text(encoding="utf-8"), encoding="utf-8")
    result = run_main("resume", path.name, cwd=tmp_path, env={"COLUMNS": "60"})
    assert result.returncode == 0
    last = [line for line in result.stdout.splitlines() if line.strip()][-1]
    assert last.strip() == f"crisis replay {path.name}"


@pytest.mark.parametrize("lang", ["en", "es"])
def test_replay_steps_fit_an_80_column_terminal_prompt_and_all(finished, lang):
    """The prompt of replay --step says every command (100 characters in English): it is broken
    between words like any line, the answer typed after its last piece."""
    result = run_main("replay", finished["file"].name, "--step", "--lang", lang, input="\n\nq\n",
                      cwd=finished["file"].parent, env={"COLUMNS": "80"})
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert sum(1 for line in lines if line.startswith("[2/")) == 1  # the prompt, at the third action


def test_a_finished_game_is_not_branched_off_after_its_last_action(finished, tmp_path):
    """Branching after the action that ended the game wrote a new file holding the same finished
    game: it is refused in one line, in --branch and in replay --step; an earlier action branches."""
    path = tmp_path / "done.json"
    path.write_text(finished["file"].read_text(encoding="utf-8"), encoding="utf-8")
    size = len(finished["data"]["actions"])
    refused = run_main("replay", path.name, "--branch", str(size), cwd=tmp_path, env=WIDE)
    assert refused.returncode == 2
    assert f"Action {size} ends the game: there is nothing to play on after it" in refused.stderr
    stepped = run_main("replay", path.name, "--step", input=f"{size}\nbranch\nq\n", cwd=tmp_path, env=WIDE)
    assert stepped.returncode == 0 and "there is nothing to play on after it" in stepped.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["done.json"]
    earlier = run_main("replay", path.name, "--branch", str(size - 1), input="quit\n", cwd=tmp_path, env=WIDE)
    assert "A new game branched off after action" in earlier.stdout


def test_a_hot_seat_game_resumed_or_replayed_says_the_seed_stays_hidden(tmp_path):
    """Until a hot-seat game is over its seed is not shown (it would tell the decks' order): the
    resume and replay lines say so in words, where they read 'replayed from seed ?'."""
    from clirun import run_main
    started = run_main("play", "--save", str(tmp_path / "hs.json"), "--seed", "3", input="\n1\n\nquit\n")
    assert started.returncode == 0, started.stderr
    wide = {"COLUMNS": "400"}
    resumed = run_main("resume", str(tmp_path / "hs.json"), input="quit\n", env=wide)
    first = resumed.stdout.splitlines()[0]
    assert first.endswith(": 1 action replayed (the seed is shown when the game is over).")
    replayed = run_main("replay", str(tmp_path / "hs.json"), "--step", input="q\n", env=wide)
    assert replayed.stdout.splitlines()[0].endswith("hs.json: 1 action.")


def test_a_replay_of_a_finished_game_shows_the_cards_of_piles_on_one_line(tmp_path, content):
    """Every side's piles in a finished game's replay are headed by the side's name; a pile the
    layout shows on one line (the set-aside cards) keeps its cards on that line."""
    import random
    from clirun import run_main
    from crisis.interpreter.engine.game import Game
    game, rng = Game(program_of(content), 5), random.Random(5)
    while game.decision is not None:
        game.apply(rng.choice(game.decision.actions))
    (tmp_path / "g.json").write_text(json.dumps({
        "format": "crisis-saved-game", "version": 2, "game": "fort-sumter", "content_digest": content.digest,
        "seed": 5, "options": {}, "controllers": {"Unionist": "human", "Secessionist": "human"},
        "created": "2026-11-29T00:00:00+00:00", "actions": list(game.history)}), encoding="utf-8")
    shown = run_main("replay", str(tmp_path / "g.json"), "--step", input="60\nq\n", env={"COLUMNS": "200"}).stdout
    aside = [line for line in shown.splitlines() if line.startswith("Unionist's set-aside cards")]
    assert aside and all(line.split(": ", 1)[1].strip() for line in aside)  # the cards, not a bare heading
    spanish = run_main("replay", str(tmp_path / "g.json"), "--step", "--lang", "es", input="60\nq\n",
                       env={"COLUMNS": "200"}).stdout
    assert "El Unionista, sus cartas apartadas: " in spanish and "El Unionista, su mano (" in spanish  # by number


def test_a_game_played_in_the_language_chosen_with_lang_is_resumed_and_replayed_in_it(tmp_path):
    """'Continúala con: crisis resume FILE' resumed a Spanish game in English: the save keeps the
    language chosen with --lang, and resume and replay speak it unless --lang says otherwise."""
    played = run_main("play", "--lang", "es", "--vs", "bot", "--seed", "3", "--save", "es.json", input="salir\n",
                      cwd=tmp_path, env=WIDE)
    assert "Continúala con:  crisis resume es.json" in played.stdout + played.stderr
    assert saved(tmp_path / "es.json")["language"] == "es"
    resumed = run_main("resume", "es.json", input="salir\n", cwd=tmp_path, env=WIDE)
    assert resumed.returncode == 0, resumed.stderr
    assert "Partida detenida." in resumed.stdout + resumed.stderr
    replayed = run_main("replay", "es.json", cwd=tmp_path, env=WIDE)
    assert replayed.returncode == 0 and "Unionista" in replayed.stdout and "Unionist " not in replayed.stdout
    # --lang wins, and the language then chosen is the one kept: here the one the command speaks alone
    english = run_main("resume", "--lang", "en", "es.json", input="quit\n", cwd=tmp_path, env=WIDE)
    assert "Continue it with:  crisis resume es.json" in english.stdout + english.stderr
    assert "language" not in saved(tmp_path / "es.json")
    again = run_main("resume", "es.json", input="quit\n", cwd=tmp_path, env=WIDE)
    assert "Stopping here." in again.stdout + again.stderr
    # a save that names no language, of this version or the one before, resumes as before
    played = run_main("play", "--vs", "bot", "--seed", "3", "--save", "g.json", input="quit\n", cwd=tmp_path)
    data = saved(tmp_path / "g.json")
    assert "language" not in data
    for version in (2, 3):  # a file of version 2, written before saves named a language
        (tmp_path / "g.json").write_text(json.dumps({**data, "version": version}), encoding="utf-8")
        result = run_main("resume", "g.json", input="quit\n", cwd=tmp_path)
        assert result.returncode == 0 and "Continue it with:  crisis resume g.json" in result.stdout + result.stderr
    spanish = run_main("resume", "g.json", input="salir\n", cwd=tmp_path, env={"LANG": "es_ES.UTF-8"})
    assert "Partida detenida." in spanish.stdout + spanish.stderr  # the environment's language, as ever
    for wrong in ("../../etc", 5):
        (tmp_path / "g.json").write_text(json.dumps({**data, "language": wrong}), encoding="utf-8")
        result = run_main("resume", "g.json", input="quit\n", cwd=tmp_path)
        assert result.returncode == 1 and "language" in result.stderr and "Traceback" not in result.stderr
    assert played.returncode == 0
