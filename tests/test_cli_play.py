"""Playing at the terminal: `crisis play` (hot seat) and `crisis play --vs bot`,
driven through standard input as a person would, checking what is printed."""

import json
import re

import pytest

from clirun import (MOVE_DESTINATIONS, PASS_PROMPT, DECISION_PROMPT, Session, answer_all, board_of, decision_kind, last_line,
                    run_crisis, run_main)
from crisis.interpreter.engine.game import Game, Options, option_names, replay as replay_actions
from crisis.interpreter.engine.program import program_of

SIDES = ("Unionist", "Secessionist")
# prompts as they appear in a transcript, followed by the echoed answer
DECIDED = DECISION_PROMPT[:-1]
PASSED = PASS_PROMPT[:-1]
ERROR = "✗ "


def saved(path):
    return json.loads(path.read_text(encoding="utf-8"))


def options_of(content, data) -> Options:
    return Options.from_dict(data["options"], option_names(program_of(content)))


def replay(content, data) -> Game:
    """The game a save holds, played again on the engine."""
    return replay_actions(program_of(content), data["seed"], options_of(content, data), data["actions"], content=content)


def started(content, data) -> Game:
    return Game.of(content, data["seed"], options_of(content, data))


def cards(game, pile: str, side: int):
    """The ids of the cards in one of a side's piles."""
    kind = "objective cards" if pile.startswith("objective") else "strategy cards"
    return [game.view.card_id(kind, card) for card in game.view.pile(pile, side)]


def vp(game, side: int) -> int:
    return game.view.counter("VP", side)


def final_block(output: str) -> str:
    return output[output.rindex("Final score"):output.index("The whole game is saved")].strip()


def winner_line(output: str) -> str:
    """The winner, as the final score's headline names him ("Secessionist wins, 5 VP to 4.")."""
    return re.findall(r"^(Unionist|Secessionist) wins, \d+ VP to \d+\.$", output, re.M)[-1]


@pytest.fixture(scope="module")
def hot_seat_game(tmp_path_factory):
    """A whole hot-seat game, every decision answered with its first choice."""
    folder = tmp_path_factory.mktemp("hotseat")
    session = Session("play", "--seed", "21", "--save", "game.json", cwd=folder)
    answered = answer_all(session)
    code = session.wait()
    return {"code": code, "output": session.output, "answered": answered, "file": folder / "game.json",
            "stderr": session.stderr()}


def test_a_whole_hot_seat_game_ends_with_the_score_broken_down_and_the_winner(hot_seat_game, content):
    output = hot_seat_game["output"]
    assert hot_seat_game["code"] == 0, hot_seat_game["stderr"]
    # the seed (which with the actions tells the deck) is kept for the end of a hot-seat game
    assert "Two players at one terminal (hot seat). The seed is shown when the game is over." in output
    assert "Seed 21" not in output and output.count("21") == output[output.rindex("Final score"):].count("21")
    assert "The game's seed was 21." in final_block(output) or "The game's seed was 21." in output
    block = final_block(output)
    for side in SIDES:
        assert re.search(rf"^{side}: \d+ VP$", block, re.M)
    assert block.count("VP before the final scoring:") == 2
    for label in ("Crisis dimensions: +", "Fort Sumter: +", "Token pool: +"):
        assert block.count(label) == 2, label
    # what is printed is what the engine says about the saved game
    data = saved(hot_seat_game["file"])
    game = replay(content, data)
    assert game.over
    assert winner_line(output) == SIDES[game.result.winner]
    for side, name in enumerate(SIDES):
        assert f"{name}: {vp(game, side)} VP" in block
    assert len(data["actions"]) == len(hot_seat_game["answered"])
    assert data["controllers"] == {"Unionist": "human", "Secessionist": "human"}
    # every kind of decision that always happens was asked at the terminal
    kinds = {kind for kind, _ in hot_seat_game["answered"]}
    assert {"keep_objective", "play_card", "place", "order"} <= kinds


def test_the_terminal_is_passed_and_cleared_whenever_the_other_player_must_choose(hot_seat_game):
    output = hot_seat_game["output"]
    events = []
    for line in output.splitlines():
        if re.match(PASSED, line):
            events.append(("pass", line.split(":")[0]))
        elif re.match(DECIDED, line):
            events.append(("decide", line.split(" ")[0]))
    holder = None
    passes = 0
    for kind, side in events:
        if kind == "pass":
            holder = side
            passes += 1
        else:
            assert side == holder, "a player was asked to choose without the terminal being passed to him"
    assert passes >= 12  # at least one per card play of each player
    # a move chosen as "from" then "to" asks twice for one decision
    follow_ups = output.count(MOVE_DESTINATIONS)
    assert sum(1 for kind, _ in events if kind == "decide") - follow_ups == len(hot_seat_game["answered"])
    # after the first one, a pass screen clears what was on the screen before it and after it
    # (on a pipe: a separator line); between the two, only what the last turn did (public) is shown
    separator = "=" * 72
    starts = [m.start() for m in re.finditer("Pass the terminal to the ", output)]
    assert len(starts) == passes
    for start in starts[1:]:
        cleared = output.rindex(separator, 0, start)
        between = output[cleared + len(separator):start]
        assert "Your hand" not in between and "[" not in between
        assert re.fullmatch(r"\s*(What the \w+ player's turn did:\n( • .*\n(   .*\n)*)+\n)?─+\n", between), between
        after = output[start:].split("press Enter when you are ready> \n", 1)[1]
        assert after.lstrip("\n").startswith(separator)


def test_taking_back_at_the_pass_prompt_hands_the_terminal_back_first(tmp_path, content):
    """'undo' at the prompt for the next player takes the last action back, but what it was (an
    objective kept in secret) and the previous player's cards are shown only once the terminal
    is passed back to that player and Enter is pressed."""
    from clirun import run_main
    result = run_main("play", "--seed", "5", "--save", tmp_path / "g.json", input="\n1\nundo\n\nquit\n",
                      env={"COLUMNS": "80"})
    assert result.returncode == 0, result.stderr
    out = result.stdout
    asked = out.index("Secessionist: press Enter when you are ready> undo")
    handed_back = out.index("Pass the terminal to the Unionist player.", asked)
    until_enter = out[asked:out.index("Unionist: press Enter when you are ready>", handed_back)]
    assert "The Unionist player's last action is taken back." in until_enter
    assert "Taken back" not in until_enter and "Your hand" not in until_enter and "Keep " not in until_enter
    assert "Taken back: Keep " in out[handed_back:]  # on the Unionist's own screen


def test_only_the_acting_player_sees_his_hand_and_objective(hot_seat_game, content):
    data = saved(hot_seat_game["file"])
    game = started(content, data)
    for (kind, screen), action in zip(hot_seat_game["answered"], data["actions"]):
        me = game.decision.player
        other = 1 - me
        assert f"Your hand ({SIDES[me]}" in screen or not cards(game, "hand", me)
        assert f"Your hand ({SIDES[other]}" not in screen
        for card in cards(game, "hand", other) + cards(game, "set aside", other) + cards(game, "final crisis order", other):
            assert f"[{card}]" not in screen, "the other player's card is shown"
        for card in cards(game, "objective offer", other) + cards(game, "objective", other):
            title = content.catalog("en").text(f"objectives.{card}.title")
            assert f"{title}: space" not in screen, "the other player's objective is shown"
        for card in cards(game, "hand", me):
            assert f"[{card}]" in screen, "the player's own card is missing"
        game.apply(action)


@pytest.fixture(scope="module")
def bot_game(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bot")
    result = run_crisis("play", "--vs", "bot", "--side", "secession", "--seed", "8", "--save", "bot.json",
                        input="1\n" * 600, cwd=folder)
    return {"result": result, "file": folder / "bot.json"}


def test_a_whole_game_against_the_bot(bot_game, content):
    result = bot_game["result"]
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "You play the Secessionist; a bot that picks random legal moves plays the Unionist. Seed 8." in out
    prompts = re.findall(DECIDED, out, re.M)
    assert prompts and all(side == "Secessionist" for side, _ in prompts)
    assert "Pass the terminal" not in out
    data = saved(bot_game["file"])
    assert data["controllers"] == {"Unionist": "random", "Secessionist": "human"}
    game = replay(content, data)
    assert game.over and winner_line(out) == SIDES[game.result.winner]
    # the bot's moves are in the saved actions but were never asked at the terminal
    assert len(data["actions"]) > len(prompts)


def test_the_bots_hand_is_never_printed(bot_game, content):
    out = bot_game["result"].stdout
    data = saved(bot_game["file"])
    game = started(content, data)
    catalog, schema = content.catalog("en"), program_of(content).schema
    bot_cards, set_aside = set(), set()
    for action in data["actions"] + [None]:
        bot_cards.update(cards(game, "hand", 0) + cards(game, "set aside", 0) + cards(game, "final crisis order", 0))
        set_aside.update(cards(game, "set aside", 0))
        if action is not None:
            game.apply(action)
    assert bot_cards
    for card in bot_cards:
        assert f"[{card}]" not in out
    # cards the bot kept for the Final Crisis are named only once they are revealed there
    before_final_crisis = out.split("The Final Crisis begins.")[0]
    names = set(catalog.name("markers", m.name) for m in schema.markers) | set(
        catalog.name("spaces", s) for s in schema.map.places)
    for card in set_aside:
        title = catalog.text(f"cards.{card}.title")
        if title not in names:
            assert title not in before_final_crisis


def winner_texts(content, game, lang: str):
    """The ways the end of a game could name the winner: the final score's headline, the log's
    last line and a line of its own."""
    from crisis.cli.text import Presenter
    show = Presenter(content, content.catalog(lang))
    w, score = game.result.winner, [vp(game, side) for side in (0, 1)]
    name = show.side(program_of(content).schema.sides[w])
    other = show.side(program_of(content).schema.sides[1 - w])
    headline = show.catalog.text("cli.result.headline", winner=name, vp=score[w], other=other, other_vp=score[1 - w])
    return headline, show.log_line(game.log[-1]), show.catalog.text("result.winner", side=name)


def check_winner_named_once(out: str, content, game, lang: str) -> None:
    headline, over, alone = winner_texts(content, game, lang)
    lines = [line.strip() for line in out.splitlines()]
    assert lines.count(headline) == 1 and over not in out and alone not in lines


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_winner_is_named_once_at_the_end_of_a_game(bot_game, content, lang, tmp_path):
    from crisis.interpreter.players.registry import RandomBot
    game = Game.of(content, 5)  # crisis play --bots: two random bots, each from the seed
    bots = [RandomBot(5, 0), RandomBot(5, 1)]
    while not game.over:
        game.apply(bots[game.decision.player].choose(game, game.decision))
    check_winner_named_once(run_main("play", "--bots", "--seed", "5", "--lang", lang).stdout, content, game, lang)
    data = saved(bot_game["file"])  # a game played at the terminal, and watched again
    game = replay(content, data)
    if lang == "en":
        check_winner_named_once(bot_game["result"].stdout.split("Since your last turn:")[-1], content, game, lang)
    watched = run_main("replay", bot_game["file"], "--lang", lang, env={"COLUMNS": "200"})
    check_winner_named_once(watched.stdout, content, game, lang)


def test_the_side_is_matched_from_the_start_of_its_name_and_a_wrong_one_is_refused(tmp_path):
    good = run_crisis("play", "--vs", "bot", "--side", "UNION", "--seed", "2", input="quit\n", cwd=tmp_path)
    assert good.returncode == 0, good.stderr
    assert "You play the Unionist; a bot that picks random legal moves plays the Secessionist." in good.stdout
    bad = run_crisis("play", "--vs", "bot", "--side", "confederacy", cwd=tmp_path)
    assert bad.returncode == 2
    assert "'confederacy' is not a side of this game" in bad.stderr and "Traceback" not in bad.stderr
    lonely = run_crisis("play", "--side", "union", cwd=tmp_path)
    assert lonely.returncode == 2 and "use it with --vs bot" in lonely.stderr


# ------------------------------------------------------------------ bad input


def assert_refused_once(reply: str, sent: str, prompt: str, reason: str = ""):
    """The reply to bad input: the input echoed, one reason (broken to the screen's width), the
    same prompt again."""
    lines = reply.split("\n")
    assert lines[0] == sent, reply
    assert lines[1].startswith(ERROR), reply
    assert all(line.startswith("  ") for line in lines[2:-1]), f"expected one reason, got:\n{reply}"
    assert reason in " ".join(line.strip() for line in lines[1:-1]), reply
    assert lines[-1] == prompt


def test_bad_input_at_every_kind_of_prompt_gets_one_line_and_the_same_prompt(tmp_path):
    session = Session("play", "--seed", "21", "--save", "g.json", cwd=tmp_path)
    tested, keep_text = set(), None
    pass_tested = False
    while True:
        out = session.prompt()
        if out is None or not out.endswith("> "):
            break
        prompt = last_line(out)
        if re.match(PASS_PROMPT, prompt):
            if not pass_tested:
                pass_tested = True
                for bad in ("xyzzy", "1"):
                    session.send(bad)
                    assert_refused_once(session.prompt(), bad, prompt, "Press Enter")
                # help is there at any prompt (the welcome says so): here it says what the prompt
                # waits for, and is no mistake
                session.send("?")
                helped = session.prompt().split("\n")
                assert helped[0] == "?" and not helped[1].startswith(ERROR), helped
                assert "Press Enter" in helped[1] and helped[-1] == prompt, helped
            session.send("")
            continue
        kind = decision_kind(out)
        if kind not in tested:
            tested.add(kind)
            n = int(re.match(DECISION_PROMPT, prompt).group(2))
            if kind == "keep_objective":
                keep_text = re.search(r"^ +1  (keep \S+)", out, re.M).group(1)
            illegal = keep_text if re.search(r"^ +\d+  done ", out, re.M) else "done"
            for bad, reason in (("xyzzy", "is not one of the choices now"),
                                (str(n + 1), f"There is no choice {n + 1}"), ("0", "There is no choice 0"),
                                (illegal, "is not one of the choices now"), ("", "Nothing was typed"),
                                ("card", "Which card?"), ("card no-such-card", "There is no card called"),
                                ("card -1", "There is no choice -1"),
                                ("rules no-such-topic", "There is no rules topic")):
                session.send(bad)
                assert_refused_once(session.prompt(), bad, prompt, reason)
        session.send("1")
    assert session.wait() == 0
    assert pass_tested
    assert {"keep_objective", "play_card", "place", "order"} <= tested


def test_end_of_input_at_a_decision_saves_and_says_how_to_resume(tmp_path):
    result = run_crisis("play", "--vs", "bot", "--seed", "4", "--save", "g.json", input="1\n1\n", cwd=tmp_path)
    assert result.returncode == 3
    lines = result.stdout.rstrip("\n").splitlines()
    assert lines[-3:] == ["Input ended.", "The game is saved in g.json", "Continue it with:  crisis resume g.json"]
    assert "Traceback" not in result.stderr
    assert len(saved(tmp_path / "g.json")["actions"]) >= 2


def test_end_of_input_at_the_pass_screen_saves_and_exits_non_zero(tmp_path):
    result = run_crisis("play", "--seed", "4", "--save", "g.json", input="\n1\n", cwd=tmp_path)
    assert result.returncode == 3
    assert re.search(PASSED + r"\n\nInput ended\.", result.stdout, re.M)
    assert "crisis resume g.json" in result.stdout
    assert saved(tmp_path / "g.json")["actions"] == [re.search(r"^ +1  (keep \S+)", result.stdout, re.M).group(1)]


# ----------------------------------------------------------------- commands


def test_help_card_rules_and_log_answer_without_taking_an_action(tmp_path):
    session = Session("play", "--vs", "bot", "--seed", "6", "--save", "g.json", cwd=tmp_path)
    first = session.prompt()
    prompt = last_line(first)
    card_id = re.search(r"\[([a-z0-9-]+)\]  ·  value", first).group(1)
    session.send("?")
    reply = session.prompt()
    assert "Keep one of the objective cards dealt to you" in reply and reply.endswith(prompt)
    assert "saved after every action in g.json" in reply
    session.send(f"card {card_id}")
    reply = session.prompt()
    assert re.search(rf"^\S.* \[{card_id}\]  ·  value \d", reply, re.M) and reply.endswith(prompt)
    session.send("card 2")
    reply = session.prompt()
    assert "objective card for" in reply and reply.endswith(prompt)
    session.send("rules")
    reply = session.prompt()
    for topic in ("goal", "round", "cards", "zones", "pivotal", "final", "end"):
        assert re.search(rf"^  {topic}: ", reply, re.M), topic
    session.send("rules zone")
    reply = session.prompt()
    assert "zones: the crisis track" in reply and "breach" in reply
    session.send("log")
    reply = session.prompt()
    assert "The whole log:" in reply and "Round 1 begins" in reply
    session.send("board")
    assert "Crisis track" in session.prompt()
    session.send("quit")
    assert session.prompt() is not None
    assert session.wait() == 0
    assert saved(tmp_path / "g.json")["actions"] == []  # none of this was an action
    assert "Stopping here." in session.output and "crisis resume g.json" in session.output


def test_a_choice_may_be_typed_in_the_notation(tmp_path):
    session = Session("play", "--vs", "bot", "--seed", "6", "--save", "g.json", cwd=tmp_path)
    out = session.prompt()
    second = re.search(r"^ +2  (keep \S+)", out, re.M).group(1)
    session.send("  " + second.upper().replace(" ", "   ") + " ")
    session.prompt()
    session.send("quit")
    session.wait()
    assert saved(tmp_path / "g.json")["actions"][0] == second


# ---------------------------------------------------------------------- undo


def first_hand_with_a_big_card(content):
    """A seed whose first Unionist hand holds a card of value 2 or more (to place two tokens)."""
    for seed in range(1, 200):
        game = Game.of(content, seed)
        hand = game.view.pile("hand", 0)
        values = [game.view.field("strategy cards", c, "value") for c in hand]
        if max(values) >= 2:
            card = next(c for c in hand if game.view.field("strategy cards", c, "value") >= 2)
            return seed, game.view.card_id("strategy cards", card)
    raise AssertionError("no seed found")


def test_undo_takes_back_a_token_but_not_a_card_that_was_revealed(tmp_path, content):
    seed, card = first_hand_with_a_big_card(content)
    session = Session("play", "--vs", "bot", "--seed", seed, "--save", "g.json", cwd=tmp_path)
    session.prompt()
    session.send("1")  # keep an objective
    session.prompt()
    session.send(f"value {card}")
    before = session.prompt()
    assert decision_kind(before) == "place"
    board_before = board_of(before)
    question_before = re.search(r"^Unionist: place a token.*$", before, re.M).group(0)
    place = re.search(r"^ +1  (place .+?)  ", before, re.M).group(1).strip()
    session.send("1")
    after = session.prompt()
    assert board_of(after) != board_before
    actions = saved(tmp_path / "g.json")["actions"]
    assert actions[-1] == place
    session.send("undo")
    undone = session.prompt()
    assert undone.splitlines()[1].startswith("Taken back: Place a token in")
    assert board_of(undone) == board_before
    assert re.search(r"^Unionist: place a token.*$", undone, re.M).group(0) == question_before
    assert saved(tmp_path / "g.json")["actions"] == actions[:-1]
    # the card itself has been seen: it cannot be taken back
    session.send("undo")
    reply = session.prompt()
    assert_refused_once(reply, "undo", last_line(undone), "Cannot undo: something hidden or random has come out")
    assert saved(tmp_path / "g.json")["actions"] == actions[:-1]
    session.close_input()
    assert session.wait() == 3


def test_undo_in_hot_seat_needs_the_other_player_not_to_have_acted(tmp_path):
    session = Session("play", "--seed", "5", "--save", "g.json", cwd=tmp_path)
    for answer in ("", "1", "", "1", ""):  # both keep an objective
        session.prompt()
        session.send(answer)
    out = session.prompt()
    assert decision_kind(out) == "play_card"
    session.send("undo")
    assert_refused_once(session.prompt(), "undo", last_line(out),
                        "Cannot undo: the Secessionist player has acted since your last action.")
    # play cards until the terminal must go to the other player; then the last token can still be taken back
    session.send("1")
    while True:
        out = session.prompt()
        if re.match(PASS_PROMPT, last_line(out)):
            break
        session.send("1")
    actions = saved(tmp_path / "g.json")["actions"]
    session.send("undo")
    reply = session.prompt()
    # whoever has the terminal now may be the Secessionist: it goes back to the Unionist first
    assert "The Unionist player's last action is taken back." in reply and "Taken back" not in reply
    assert last_line(reply) == "Unionist: press Enter when you are ready> "
    session.send("")
    reply = session.prompt()
    assert "Taken back: Place a token in" in reply
    assert re.match(r"^Unionist \[1-\d+\]> $", last_line(reply))  # the Unionist chooses again
    assert saved(tmp_path / "g.json")["actions"] == actions[:-1]
    session.send("quit")
    assert session.wait() == 0


def test_undo_against_the_bot_also_takes_back_the_bots_moves_since(tmp_path):
    session = Session("play", "--vs", "bot", "--seed", "9", "--save", "g.json", cwd=tmp_path)
    first = session.prompt()
    assert decision_kind(first) == "keep_objective"
    session.send("1")
    out = session.prompt()
    assert decision_kind(out) == "play_card"
    kept = saved(tmp_path / "g.json")["actions"]
    assert len(kept) == 2  # mine, then the bot's
    session.send("undo")
    reply = session.prompt()
    assert re.match(r"undo\nTaken back: Keep .+ \(and the bot's action after it\)\.\n", reply)
    assert decision_kind(reply) == "keep_objective"
    assert saved(tmp_path / "g.json")["actions"] == []
    session.send("2")
    session.prompt()
    again = saved(tmp_path / "g.json")["actions"]
    assert again[0] != kept[0] and again[0] == re.search(r"^ +2  (keep \S+)", first, re.M).group(1)
    session.send("quit")
    assert session.wait() == 0


def test_an_unknown_bot_is_refused(tmp_path):
    result = run_crisis("play", "--vs", "deep-blue", cwd=tmp_path)
    assert result.returncode == 2
    assert "There is no bot called 'deep-blue': choose one of bot, heuristic, random, search." in result.stderr
    assert not list(tmp_path.iterdir())  # no game file was started
    misspelt = run_main("play", "--vs", "serch", cwd=tmp_path)
    assert misspelt.returncode == 2 and "Did you mean 'search'?" in misspelt.stderr
    assert not list(tmp_path.iterdir())


def test_play_against_a_search_bot_with_its_budget(tmp_path):
    """``--vs search:N`` sets the bot's thinking per decision; the game saves it and resumes
    with it; a budget that is not one is refused before the game starts."""
    game = run_main("play", "--vs", "search:2", "--side", "union", "--seed", "3", "--save", "g.json",
                    input="quit\n", cwd=tmp_path)
    assert game.returncode in (0, 3), game.stderr
    assert "2 iterations per decision" in " ".join(game.stdout.split())
    saved = json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))
    assert saved["controllers"]["Secessionist"] == "search:2"
    again = run_main("resume", "g.json", input="quit\n", cwd=tmp_path)
    assert again.returncode in (0, 3), again.stderr
    assert "Traceback" not in again.stderr
    for setting, says in (("search:fast", "not a search budget"), ("random:3", "'random' takes no setting"),
                          ("clever:3", "There is no bot called 'clever:3'")):
        refused = run_main("play", "--vs", setting, "--seed", "3", cwd=tmp_path)
        assert refused.returncode == 2 and says in refused.stderr, (setting, refused.stderr)
    # the reason is in the player's language too, numbers included
    spanish = run_main("play", "--vs", "search:200000", "--lang", "es", cwd=tmp_path)
    assert spanish.returncode == 2 and "no es un presupuesto de búsqueda" in spanish.stderr
    assert "como mucho 100.000)" in spanish.stderr and "is not" not in spanish.stderr


@pytest.mark.parametrize("lang, typed, said", [
    ("en", "rules tokns", "Did you mean 'tokens'?"),
    ("en", "rules foo", None),  # nothing close: no guess at all, least of all a name the list never shows
    ("es", "reglas fichs", "¿Querías decir «fichas»?"),
])
def test_a_rules_topic_is_guessed_by_the_name_the_list_shows(tmp_path, lang, typed, said):
    from clirun import run_main
    result = run_main("play", "--seed", "5", "--vs", "heuristic", "--lang", lang, "--save", tmp_path / "g.json",
                      input=f"{typed}\nquit\n", env={"COLUMNS": "100"})
    reply = " ".join(result.stdout[result.stdout.index(typed):].split())
    if said is None:
        assert "Did you mean" not in reply.split("> quit")[0]
    else:
        assert said in reply
