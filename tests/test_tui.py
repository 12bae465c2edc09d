"""The full-screen interface, driven headless through Textual's pilot as a player would:
whole games (hot seat, against a bot), undo, resume after a kill, replay back and forth
and a branch, the end-of-round and final screens, at 80x24 and at a large size, in English
and Spanish.  Each whole game is played once (module fixtures) and looked at by several tests."""

import asyncio
import json
import re
import threading
from pathlib import Path

import pytest
from textual.geometry import Region

from crisis.cli import info, saves
from crisis.cli.board import Screen
from crisis.cli.session import GameSession, KnownBots, Replay, session_for
from crisis.cli.terminal import Style
from crisis.cli.text import Presenter
from crisis.cli.tui.app import ConfirmScreen, GameApp, InfoScreen, PassScreen, farewell
from crisis.cli.tui.paragraphs import Paragraphs
from crisis.interpreter.engine.game import Game, Options, option_names, replay as replay_actions
from crisis.interpreter.players.registry import Controller
from crisis.interpreter.engine.program import program_of


def replay(content, data) -> Game:
    """The game a save holds, played again on the engine."""
    options = Options.from_dict(data["options"], option_names(program_of(content)))
    return replay_actions(program_of(content), data["seed"], options, data["actions"], content=content)


def value_of(session, action) -> int:
    """The value of the card an action plays."""
    return session.game.view.field("strategy cards", action.a, "value")

ANSI = re.compile(r"\x1b\[[0-9;]*m")
SIDES = ("Unionist", "Secessionist")


def plain(text) -> str:
    return ANSI.sub("", text if isinstance(text, str) else text.plain)


def panes(app) -> dict:
    """What each pane of the main screen shows, as plain text."""
    return {name: plain(value) for name, value in app._shown.items()}


def new_session(content, tmp_path, lang="en", controllers=(saves.HUMAN, saves.HUMAN), seed=21, name="g.json"):
    show = Presenter(content, content.catalog(lang))
    return GameSession(content, show, seed, Options(), list(controllers), tmp_path / name)


async def play_through(app, pilot, keys=12, limit=2000):
    """Answer everything with the first choice (ready at a pass screen, close at an info screen)
    until the game is over and its last screens are closed; what was seen, in order.

    The first ``keys`` answers are keys pressed through the pilot; after that (to keep a whole
    game to seconds) each answer goes to the handler Enter calls, the screen is redrawn at each
    pass or info screen and every few decisions."""
    seen = []
    for step in range(limit):
        await bot_moved(app, pilot)
        top = app.screen
        if isinstance(top, PassScreen):
            seen.append(("pass", plain(top.body), dict(panes(app))))
        elif isinstance(top, InfoScreen):
            seen.append(("info", plain(top.body), None))
        elif app.session.over:
            await pilot.pause()
            return seen
        else:
            seen.append(("decision", None, dict(panes(app))))
        if step < keys:
            # Enter at a pass or info screen; at a decision, down to the first choice, then Enter
            await pilot.press(*(["enter"] if top is not app.screen_stack[0] else ["down", "enter"]))
        elif isinstance(top, PassScreen):
            top.action_ready()
            await settle(pilot, lambda: app.screen is not top and not app.hidden)
        elif isinstance(top, InfoScreen):
            top.action_close()
            await settle(pilot, lambda: app.screen is not top)
        else:
            app.take("1")
            if step % 20 == 0:
                await pilot.pause()
        # the terminal changes hands: the pass screen is on its way
        await settle(pilot, lambda: not app.hidden or app.session.over or isinstance(app.screen, PassScreen))
    raise AssertionError("the game did not end")


async def settle(pilot, done, tries=50):
    """Let the interface handle what is pending (a screen opened or closed) until ``done()``."""
    for _ in range(tries):
        for _ in range(100):  # most often a few turns of the loop are enough: no frame drawn
            if done():
                return
            await asyncio.sleep(0)
        await pilot.pause()
    raise AssertionError(f"the interface did not get there: {pilot.app.screen_stack}, {pilot.app.hidden}")


async def bot_moved(app, pilot):
    """Wait for the bot's move (worked out in a thread) to be taken, if a bot is thinking."""
    if app.thinking is not None:
        await settle(pilot, lambda: app.thinking is None)


def run(coroutine):
    return asyncio.run(coroutine)


# ---------------------------------------------------------------- hot seat


@pytest.fixture(scope="module")
def hot_seat(content, tmp_path_factory):
    folder = tmp_path_factory.mktemp("tui-hotseat")
    session = new_session(content, folder)
    app = GameApp(session=session)
    result = {}

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            result["first"] = dict(panes(app)), app.screen
            result["seen"] = await play_through(app, pilot)
            result["final"] = dict(panes(app))
            board, tracks = app.query_one("#board"), app.query_one("#tracks")
            result["regions"] = (board.region, tracks.region, app.query_one("#left").region)

    run(main())
    result["session"] = session
    result["data"] = json.loads(session.path.read_text(encoding="utf-8"))
    return result


def test_a_whole_hot_seat_game_in_80x24(hot_seat, content):
    data = hot_seat["data"]
    game = replay(content, data)
    assert game.over and hot_seat["session"].over
    decisions = [s for s in hot_seat["seen"] if s[0] == "decision"]
    # a move chosen as "from" then "to" is two menus for one action
    assert len(decisions) >= len(data["actions"])
    final = hot_seat["final"]["question"]
    w = game.result.winner
    vp = [game.view.counter("VP", side) for side in (0, 1)]
    assert f"{SIDES[w]} wins, {vp[w]} VP to {vp[1 - w]}." in final
    assert final.index(f"{SIDES[w]}: {vp[w]} VP") < final.index(f"{SIDES[1 - w]}: ")
    assert "The game's seed was 21." in final  # kept for the end in hot seat
    # the winner named once: not by the log's last line in the feed above the score, nor under it
    over = Presenter(content, content.catalog("en")).log_line(game.log[-1])
    assert not any(over in shown for shown in hot_seat["final"].values())
    assert final.count(f"{SIDES[w]} wins") == 1


def test_the_board_and_the_tracks_fit_80x24(hot_seat):
    board, tracks, left = hot_seat["regions"]
    assert board.height >= 16 and tracks.height >= 3
    assert tracks.y + tracks.height <= left.y + left.height  # the tracks are on screen, not scrolled away
    lines = next(shown for kind, _, shown in hot_seat["seen"] if kind == "decision")["board"].splitlines()
    assert len(lines) == 16 and max(len(line) for line in lines) <= left.width


def test_the_terminal_is_passed_with_nothing_private_on_screen(hot_seat):
    passes = [s for s in hot_seat["seen"] if s[0] == "pass"]
    assert len(passes) >= 12
    for _, body, shown in passes:
        assert "Pass the terminal to the" in body
        assert not any(shown.get(name) for name in ("hand", "hand-left", "hand-right", "preview"))
    # after the first, the pass screen says what the last turn did (public) before the next player looks
    assert sum("What the" in body for _, body, _ in passes) >= len(passes) - 2
    assert isinstance(hot_seat["first"][1], PassScreen)  # even the first turn starts behind it


def test_each_round_ends_with_its_own_screen_and_the_game_with_the_score(hot_seat):
    infos = [body for kind, body, _ in hot_seat["seen"] if kind == "info"]
    for number in (1, 2):
        block = next(b for b in infos if b.startswith(f"End of round {number}"))
        for side in SIDES:
            assert re.search(rf"^{side}: \d+ VP before, \d+ VP now$", block, re.M)
    final = infos[-1] if infos[-1].startswith("Final score") else next(b for b in infos if "Final score" in b)
    assert "VP before the final scoring" in final and "crisis replay" in final


def check_round_windows(seen, content, data, catalog, players: int) -> None:
    """Each round's end has one window for each player at the terminal, opened once it is over:
    every line of it, and the VP each side had before it and has after its scoring."""
    from test_cli_linemode import round_ends_expected
    bodies = [body for kind, body, _ in seen if kind == "info"]
    sides = [Presenter(content, catalog).side(side) for side in program_of(content).schema.sides]
    expected = round_ends_expected(content, data, catalog)
    assert len(expected) == 3
    for number, (lines, before, after) in expected.items():
        title = catalog.text("cli.round_end.title", round=number)
        windows = [body.splitlines() for body in bodies if body.startswith(title + "\n")]
        assert len(windows) == players and all(window == windows[0] for window in windows), title
        assert " ".join(windows[0][1:-2]).split() == " ".join(lines).split()
        assert windows[0][-2:] == [catalog.text("cli.round_end.vp", side=sides[i], before=before[i], after=after[i])
                                   for i in (0, 1)]


def test_a_round_end_window_opens_after_its_scoring_with_the_true_vp(hot_seat, bot_game, content):
    check_round_windows(hot_seat["seen"], content, hot_seat["data"], content.catalog("en"), players=2)
    data = json.loads(bot_game["session"].path.read_text(encoding="utf-8"))
    check_round_windows(bot_game["seen"], content, data, content.catalog("es"), players=1)


def test_the_feed_shows_everything_since_the_players_last_turn(hot_seat):
    decisions = [shown for kind, _, shown in hot_seat["seen"] if kind == "decision"]
    feeds = [shown["feed"] for shown in decisions]
    assert all(feed.startswith("Since your last turn:") for feed in feeds)
    assert any(feed.count(" • ") > 8 for feed in feeds)  # a whole round's end, the other's card: no cap


# ---------------------------------------------------------------- against a bot, in Spanish, large


@pytest.fixture(scope="module")
def bot_game(content, tmp_path_factory):
    folder = tmp_path_factory.mktemp("tui-bot")
    session = new_session(content, folder, lang="es", controllers=("random", saves.HUMAN), seed=8)
    app = GameApp(session=session)
    result = {}

    async def main():
        async with app.run_test(size=(160, 50)) as pilot:
            result["first"] = dict(panes(app))
            result["wide"] = app.query_one("#cards").display and not any(
                app.query_one(name).display for name in ("#hand-left", "#hand-right"))
            result["seen"] = await play_through(app, pilot)
            result["final"] = dict(panes(app))

    run(main())
    result["session"] = session
    return result


def test_a_whole_game_against_the_bot_in_spanish_on_a_large_screen(bot_game, content):
    session = bot_game["session"]
    assert session.over and bot_game["wide"]  # the cards have a column of their own
    first = bot_game["first"]
    assert "Tu mano (Secesionista" in first["hand"] and "Desde tu último turno:" in first["feed"]
    assert "Ronda 1/3" in first["header"]
    seen = bot_game["seen"]
    assert not any(kind == "pass" for kind, _, _ in seen)  # one person: no hand-over screens
    assert any(body.startswith("Fin de la ronda 1") for kind, body, _ in seen if kind == "info")
    assert "Gana " in bot_game["final"]["question"] and "Puntuación final" in bot_game["final"]["question"]
    assert "semilla" not in bot_game["final"]["question"]  # against a bot the seed was shown from the start
    # the game over, every side's cards are shown, the other side's hidden ones too
    assert "Unionista" in bot_game["final"]["hand"] and "Secesionista" in bot_game["final"]["hand"]


# ---------------------------------------------------------------- undo, consequences, typing


def test_undo_takes_back_a_token_and_says_so_on_screen(content, tmp_path):
    session = new_session(content, tmp_path, controllers=(saves.HUMAN, "random"), seed=3)

    async def main():
        app = GameApp(session=session)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("down", "enter")  # keep an objective
            await bot_moved(app, pilot)
            card = next(c for c in app.menu if c.action is not None and c.action.kind == "value"
                        and value_of(session, c.action) >= 2)
            await pilot.press(*("value " + card.notation.split()[1][:5]), "enter")  # typed by its start
            assert session.game.history[-1] == card.notation
            before = panes(app)["board"]
            await pilot.press("down")  # the first choice: its consequences show under the list
            assert "→ you take control of" in panes(app)["preview"]  # the highlighted choice's consequence
            await pilot.press("enter")
            await bot_moved(app, pilot)
            assert panes(app)["board"] != before
            actions = list(session.game.history)
            await pilot.press("ctrl+z")
            assert panes(app)["board"] == before
            assert "Taken back: Place a token in" in plain(app.query_one("#message").content)
            assert json.loads(session.path.read_text())["actions"] == actions[:-1]

    run(main())


def test_a_game_killed_mid_game_resumes_at_the_same_decision(content, tmp_path):
    session = new_session(content, tmp_path, controllers=(saves.HUMAN, "random"), seed=31)
    shown = {}

    async def first():
        app = GameApp(session=session)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(6):
                await pilot.press("down", "enter")
                await bot_moved(app, pilot)
            shown["question"], shown["menu"] = panes(app)["question"], [c.notation for c in app.menu]
        # leaving the context without quitting is the process being killed: the file is all there is

    run(first())
    data = saves.read(session.path, content, {"random": None})
    resumed = session_for(content, session.show, session.path, data)

    async def second():
        app = GameApp(session=resumed)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            if resumed.two_step(resumed.decision) and shown["menu"] and not shown["menu"][0].startswith("from"):
                await pilot.press("down", "enter")  # the kill came at a move's second step
            assert panes(app)["question"] == shown["question"]
            assert [c.notation for c in app.menu] == shown["menu"]

    run(second())


# ---------------------------------------------------------------- a bot that takes its time


class GatedBot(Controller):
    """A bot that answers (its first legal action) only when the test lets it: a slow search
    bot without the wait."""

    def __init__(self):
        self.gate, self.asked = threading.Event(), threading.Event()

    def choose(self, game, decision):
        self.asked.set()
        assert self.gate.wait(30)
        self.gate.clear()
        return decision.actions[0]


def test_a_bot_thinks_while_the_screen_stays_live_and_quitting_meanwhile_keeps_the_game(content, tmp_path):
    session = new_session(content, tmp_path, controllers=("random", saves.HUMAN), seed=8)
    bot = session.bots[0] = GatedBot()
    app = GameApp(session=session)

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, bot.asked.is_set)  # the Unionist bot is asked first, in a thread
            await pilot.pause()
            assert app.thinking is not None and app.menu == []
            assert "Unionist is thinking" in " ".join(panes(app)["question"].split())
            assert app.query_one("#choices").option_count == 0
            await pilot.press("1", "enter", "ctrl+z")  # nothing typed or undone is taken for the bot's side
            assert session.game.history == [] and "is thinking" in plain(app.query_one("#message").content)
            await pilot.press("f2")  # the screen answers meanwhile
            assert isinstance(app.screen, InfoScreen)
            await pilot.press("escape")
            bot.gate.set()
            await bot_moved(app, pilot)
            assert len(session.game.history) == 1
            assert json.loads(session.path.read_text())["actions"] == session.game.history
            for _ in range(10):  # the person answers until the bot is asked again
                bot.asked.clear()
                await pilot.press("down", "enter")
                if app.thinking is not None:
                    break
                await bot_moved(app, pilot)
            await settle(pilot, bot.asked.is_set)
            before = list(session.game.history)
            await pilot.press("ctrl+q")  # stop while the bot thinks
            bot.gate.set()  # its late answer is not taken
            await pilot.pause()
        assert session.game.history == before and "crisis resume" in app.outcome
        assert json.loads(session.path.read_text())["actions"] == before

    run(main())


# ---------------------------------------------------------------- replay


def test_replay_steps_forward_and_back_jumps_and_branches(hot_seat, content, tmp_path):
    data = hot_seat["data"]
    original = tmp_path / "game.json"
    original.write_text(json.dumps(data), encoding="utf-8")
    show = Presenter(content, content.catalog("en"))
    saved = saves.read(original, content, {})
    watched = Replay(content, show, saved, original)

    async def main():
        app = GameApp(replay=watched)
        async with app.run_test(size=(120, 40)) as pilot:
            assert "Replay: 0 of" in panes(app)["header"]
            await pilot.press("right", "right", "right", "left")
            assert watched.position == 2 and "#3 " in panes(app)["question"]
            await pilot.press("7", "enter")  # the game after action 7, as --branch 7 starts it
            assert watched.position == 7 and "Replay: 7 of" in panes(app)["header"] and "#8 " in panes(app)["question"]
            await pilot.press(*"round 2", "enter")
            assert watched.rounds[watched.position][0] == 2 and watched.rounds[watched.position - 1][0] == 1
            await pilot.press("end")
            assert "Final score" in panes(app)["question"]  # a finished game: its result at the end
            await pilot.press(*"10", "enter", *"branch", "enter")  # typed: after action 10, as --branch 10
            assert app.session is not None and app.replay is None
            branch = json.loads((tmp_path / "game-branch10.json").read_text())
            assert branch["actions"] == data["actions"][:10]
            assert "place" in panes(app)["question"] or "objective" in panes(app)["question"] \
                or app.screen is not app.screen_stack[0]

    run(main())


def replay_of(data, content, folder) -> Replay:
    """A replay, in English, of a saved game's data (written to a file in ``folder``)."""
    original = folder / "game.json"
    original.write_text(json.dumps(data), encoding="utf-8")
    return Replay(content, Presenter(content, content.catalog("en")), saves.read(original, content, {}), original)


def test_replay_words_are_typed_whole_and_no_letter_branches_at_once(hot_seat, content, tmp_path):
    """'b' alone branched off into a new file at once, and typing 'back' left 'ack': the words
    are typed whole now, and branching is only ever the word 'branch'."""
    watched = replay_of(hot_seat["data"], content, tmp_path)

    async def main():
        app = GameApp(replay=watched)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("right", "right", "right")
            await pilot.press(*"back", "enter")
            assert watched.position == 2 and app.replay is not None
            await pilot.press("b", "enter")
            assert watched.position == 1 and app.replay is not None
            assert not list(tmp_path.glob("*branch*"))  # nothing was branched off
            # the replay's own hint and footer (no undo: a replay takes nothing back) ...
            command = app.query_one("#command")
            assert "branch" in command.placeholder and "ctrl+z" not in app._bindings.key_to_bindings
            await pilot.press(*"branch", "enter")  # ... until it becomes a game again
            assert app.replay is None and "branch" not in command.placeholder
            assert "ctrl+z" in app._bindings.key_to_bindings

    run(main())


def test_a_replay_of_an_unfinished_game_shows_cards_played_as_the_line_mode_does(hot_seat, content, tmp_path):
    """A card played is face up once played: the full screen called it 'a private choice' (its hand
    was private) while the line mode showed it; an objective kept stays private."""
    # not over: private choices hide
    watched = replay_of(dict(hot_seat["data"], actions=hot_seat["data"]["actions"][:12]), content, tmp_path)

    async def main():
        app = GameApp(replay=watched)
        async with app.run_test(size=(120, 40)) as pilot:
            seen = set()
            for _ in range(11):
                decision, action = watched.next_action()
                question = panes(app)["question"]
                if decision.kind == "play_card":
                    assert "a private choice" not in question and action.text in " ".join(question.split())
                    seen.add("play")
                elif decision.hidden:
                    assert "a private choice" in question
                    seen.add("private")
                await pilot.press("right")
            assert seen == {"play", "private"}

    run(main())


def test_at_the_hand_over_the_previous_player_can_still_take_back_his_action(content, tmp_path):
    """'u' at the hand-over takes the last action back; the terminal then goes back to the player
    whose action it was before anything of theirs (what was taken back: a kept objective) shows."""
    session = new_session(content, tmp_path, seed=5)

    async def main():
        app = GameApp(session=session)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("enter")  # the Unionist takes the terminal
            await pilot.press("down", "enter")  # and keeps an objective
            assert isinstance(app.screen, PassScreen) and "Secessionist" in plain(app.screen.body)
            await pilot.press("u")
            assert session.game.history == [] and isinstance(app.screen, PassScreen)
            body = plain(app.screen.body)
            assert "The Unionist player's last action is taken back." in body and "Keep" not in body
            assert "Pass the terminal to the Unionist player." in body
            assert "Taken back" not in plain(app.query_one("#message").content)
            await pilot.press("enter")  # the Unionist has the terminal again
            assert not isinstance(app.screen, PassScreen)
            assert "Taken back: Keep" in plain(app.query_one("#message").content)
            assert "Unionist: choose the objective card to keep." in " ".join(panes(app)["question"].split())
            await pilot.press("down", "enter")  # keep again: the terminal goes to the other player
            assert isinstance(app.screen, PassScreen)
            await pilot.press("q")
        assert "crisis resume" in app.outcome and len(session.game.history) == 1

    run(main())


# ---------------------------------------------------------------- the solo game


SOLO_SHOWN = {  # what the feed and 'why' show, in each language
    "en": ("(the Solo Opponent) reveals", "The last choice of the Solo Opponent (Secessionist), and why:",
           "table: legal"),
    "es": ("(el Oponente en Solitario) revela", "La última elección del Oponente en Solitario (Secesionista)",
           "tabla «Dónde colocar o reemplazar fichas»: legales"),
}


@pytest.mark.parametrize("lang", sorted(SOLO_SHOWN))
def test_a_whole_solo_game_in_the_full_screen_interface(content, tmp_path, lang):
    """Alone against the Solo Opponent (docs/solo.md): its choices and their reasons are in the feed,
    'why' shows the last one, and the game ends; no hand-over screens."""
    revealed, why_title, table = SOLO_SHOWN[lang]
    show = Presenter(content, content.catalog(lang))
    session = GameSession(content, show, 5, Options(frozenset({"event_discard"}), solo="Secessionist",
                                                    difficulty="normal"),
                          [saves.HUMAN, saves.SOLO], tmp_path / "solo.json")
    app = GameApp(session=session)
    result = {}

    async def main():
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(30):  # keep an objective, play a card and its tokens: the Solo Opponent answers
                if isinstance(app.screen, InfoScreen):
                    app.screen.action_close()
                await pilot.press("down", "enter")
                await pilot.pause()
                result["feed"] = " ".join(dict(panes(app))["feed"].split())
                if revealed in result["feed"]:
                    break
            app.take("why" if lang == "en" else "porqué")
            await pilot.pause()
            result["why"] = " ".join(plain(app.screen.body).split()) if isinstance(app.screen, InfoScreen) else ""
            if isinstance(app.screen, InfoScreen):
                app.screen.action_close()
            result["seen"] = await play_through(app, pilot, keys=0)

    run(main())
    assert revealed in result["feed"]
    assert why_title in result["why"]
    assert table in result["why"]
    assert session.over and not any(kind == "pass" for kind, _, _ in result["seen"])


# ---------------------------------------------------------------- keys in a burst


def burst(app, text: str, *keys: str) -> None:
    """Keys as a terminal delivers a paste or a fast typist: all at once, none handled before the
    next arrives (the pilot's press waits for each key to be handled)."""
    from textual import events
    for character in text:
        name = "space" if character == " " else character
        app._driver.send_message(events.Key(name, character))
    for key in keys:
        app._driver.send_message(events.Key(key, None))


def test_a_burst_of_keys_with_the_choices_focused_is_typed_and_plays_nothing_unchosen(content, tmp_path):
    session = new_session(content, tmp_path, controllers=(saves.HUMAN, "random"), seed=4)

    async def main():
        app = GameApp(session=session)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("1", "enter")  # keep an objective
            await bot_moved(app, pilot)
            await pilot.pause()
            command, choices = app.query_one("#command"), app.query_one("#choices")
            assert choices.has_focus
            played = list(session.game.history)
            burst(app, "card greel", "enter")  # a command typed quickly: it shows the card, plays nothing
            await pilot.pause()
            assert session.game.history == played
            await settle(pilot, lambda: isinstance(app.screen, InfoScreen))
            assert "Greeley" in plain(app.screen.body) and command.value == ""
            await pilot.press("escape")
            assert choices.has_focus
            burst(app, "cardx greel", "enter")  # neither a command nor an action: refused, kept to be mended
            await pilot.pause()
            assert session.game.history == played and app.screen is app.screen_stack[0]
            assert command.value == "cardx greel" and command.has_focus
            burst(app, "3")  # what is typed next replaces it
            await pilot.pause()
            assert command.value == "3"
            burst(app, "x", "enter", "home", "right", "backspace", "enter")  # or it is mended: "3x" -> "x" -> ""
            await pilot.pause()
            assert command.value == "x" and session.game.history == played
            await pilot.press("escape")  # back to the choices: what was typed goes
            assert command.value == "" and choices.has_focus
            burst(app, "cardx greel", "escape")
            burst(app, "cardx greel")
            burst(app, "", *["backspace"] * 6, "home", *["right"] * 4, "delete", "end")
            await pilot.pause()
            assert command.value == "card"
            burst(app, " 2", "enter")  # "card 2": the second choice's card
            await settle(pilot, lambda: isinstance(app.screen, InfoScreen))
            assert session.game.history == played
            await pilot.press("escape")
            burst(app, "", "enter", "enter")  # Enter with nothing typed and no choice moved to: nothing taken
            await pilot.pause()
            assert session.game.history == played and "Enter takes the choice you have moved to" in plain(
                app.query_one("#message").content)
            first = app.menu[0].notation
            burst(app, "", "down", "down", "up", "enter")  # a choice moved to on purpose
            await pilot.pause()
            assert session.game.history == played + [first]

    run(main())


# ---------------------------------------------------------------- typing what is shown


def at_optional_placement(session):
    """Play the first choice until a decision that may be stopped ("Stop here")."""
    while not any(action.kind == "done" for action in session.decision.actions):
        session.apply(session.decision.actions[0])
    return session


@pytest.mark.parametrize("lang,stop,label", [("en", "stop", "Stop here"), ("es", "parar", "Parar aquí")])
def test_a_choice_is_taken_by_the_words_of_its_label_in_the_full_screen(content, tmp_path, lang, stop, label):
    session = at_optional_placement(new_session(content, tmp_path, lang=lang, seed=4))
    app = GameApp(session=session)

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            if isinstance(app.screen, PassScreen):
                await pilot.press("enter")
            assert any(choice.description == label for choice in app.menu)
            played = len(session.game.history)
            await pilot.press(*stop, "enter")
            assert session.game.history[played:] == ["done"]

    run(main())


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_labels_shown_are_understood_at_any_prompt(content, tmp_path, lang):
    """The line mode and the full screen read a line the same way (GameSession.read)."""
    session = at_optional_placement(new_session(content, tmp_path, lang=lang, seed=4))
    menu = session.choices(session.decision)
    by_label = {choice.description: choice.action.text for choice in menu}
    texas = next(label for label in by_label if "Texas" in label)
    for typed, wanted in ((texas, "place Texas"), (texas.upper(), "place Texas"), ("texas", "place Texas"),
                          ("fire-eat", "place Fire-Eaters"), (f"{texas.split()[0]} texas", "place Texas")):
        reading = session.read(typed, session.decision, menu)
        assert reading.kind == "action" and reading.action.text == wanted, (typed, reading)
    token = menu[0].description.split()[1]  # a word every placement shows: which one is not guessed
    reading = session.read(token, session.decision, menu)
    assert reading.kind == "problem" and "1, 2, 3" in reading.problem
    assert session.read("xyzzy", session.decision, menu).kind == "problem"
    assert session.read("te", session.decision, menu).kind == "problem"  # two letters name no label


# ---------------------------------------------------------------- what one screen shows


def fully_shown(app, widget) -> bool:
    """The widget is on the screen whole: not scrolled away, not cut by the screen's edge."""
    found = app.screen._compositor.visible_widgets.get(widget)
    if found is None:
        return False
    region, clip = found
    return region.height > 0 and clip.contains_region(region) and app.screen.region.contains_region(region)


def rendered(widget) -> list:
    """The lines a widget draws, at its width, as plain text (all of them, scrolled or not)."""
    return [strip.text.rstrip() for strip in widget.render_lines(Region(0, 0, widget.size.width,
                                                                          widget.size.height))]


def all_drawn(app, widget) -> bool:
    """Shown whole, with none of its text cut off below."""
    content = widget.visual.get_height(widget.styles, widget.content_size.width) if widget.visual else 0
    return fully_shown(app, widget) and content <= widget.content_size.height


def words_of(text: str) -> list:
    return re.findall(r"[^\W_]+", text)


def choice_lines(app) -> list:
    """The rows of the choice list on the screen, as plain text (the scroll bar left out)."""
    choices = app.query_one("#choices")
    region = app.screen._compositor.visible_widgets[choices][1].intersection(choices.region)
    rows = [strip.text for strip in app.screen._compositor.render_strips()]
    bar = choices.scrollbar_size_vertical if choices.show_vertical_scrollbar else 0
    return [row[region.x:region.right - bar].rstrip() for row in rows[region.y:region.bottom]]


def whole_or_under_all_choices(app, pane) -> bool:
    """Shown whole; or, where every choice takes the rows (they come first), on the screen in
    the rows left, with a scroll bar for the rest."""
    if all_drawn(app, pane):
        return True
    numbers = [int(found.group(1)) for found in (re.match(r" *(\d+) ", row) for row in choice_lines(app)) if found]
    scroll = pane.parent
    return (numbers == list(range(1, len(app.menu) + 1)) and fully_shown(app, scroll) and scroll.size.height > 0
            and scroll.max_scroll_y > 0 and scroll.show_vertical_scrollbar)


def check_one_screen(app, session, viewer):
    """The map, both tracks, the viewer's cards and the choices, on the screen, words whole."""
    for name in ("#board", "#tracks"):
        assert fully_shown(app, app.query_one(name)), name
    view = session.game.view
    titles = [session.show.card(view.card_id("strategy cards", card)) for card in view.pile("hand", viewer)]
    assert titles
    panes = [pane for pane in app.query("Static") if (pane.id or "").startswith("hand")]
    shown = [pane for pane in panes if pane.display and pane.parent.display and app._shown.get(pane.id)]
    assert len(shown) == 1
    assert whole_or_under_all_choices(app, shown[0]), shown[0].id
    text = " ".join(plain(app._shown[shown[0].id]).split())
    for title in titles:
        assert title in text, (title, text)
    label_words = set()
    for number, choice in enumerate(app.menu, 1):
        label_words.update(words_of(f"{number} {choice.description} {choice.notation}"))
    lines = [line for line in choice_lines(app) if line.strip()]
    assert len(lines) >= 3
    for line in lines:  # nothing cut: every word on a row of the list is a whole word of a label
        for word in words_of(line):
            assert word in label_words, (word, line)


SIZES = [(80, 24), (100, 30), (120, 40)]


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("size", SIZES, ids=["80x24", "100x30", "120x40"])
def test_one_screen_holds_the_map_the_tracks_your_cards_and_whole_choices(content, tmp_path, lang, size):
    session = new_session(content, tmp_path, lang=lang, controllers=(saves.HUMAN, "random"), seed=4)

    async def main():
        app = GameApp(session=session)
        async with app.run_test(size=size) as pilot:
            await pilot.press("1", "enter")  # keep an objective
            await bot_moved(app, pilot)
            await pilot.pause()
            check_one_screen(app, session, 0)  # playing a card
            event = next(number for number, choice in enumerate(app.menu, 1) if choice.action.kind == "event")
            await pilot.press(*["down"] * event)
            card = session.game.view.card_id("strategy cards", app.menu[event - 1].action.a)
            preview = app.query_one("#preview")
            assert whole_or_under_all_choices(app, preview)  # the card's event in full, under the choices
            wanted = " ".join(session.show.card_rule_text("cards", card, inline=True).split())
            assert wanted in " ".join(plain(app._shown["preview"]).split())
            value = next(choice for choice in app.menu if choice.action.kind == "value"
                         and value_of(session, choice.action) >= 2)
            await pilot.press(*str(app.menu.index(value) + 1), "enter")
            await pilot.pause()
            assert session.decision.kind == "place"
            check_one_screen(app, session, 0)  # placing tokens: a long list

    run(main())


# ---------------------------------------------------------------- text broken once, at the width drawn


def paragraph_lines(widget, paragraph: str) -> list:
    """The lines a widget draws a paragraph on (found by its words, whatever breaks them)."""
    lines = rendered(widget)
    words = lambda text: " ".join(text.replace(" • ", " ").split())  # (a bullet is no word of it)
    wanted = words(paragraph)
    for start in range(len(lines)):
        if not lines[start].strip():
            continue
        group, joined = [], ""
        for line in lines[start:]:
            group.append(line)
            joined = words(" ".join(group))
            if not line.strip() or not wanted.startswith(joined) or joined == wanted:
                break
        if joined == wanted:
            return group
    raise AssertionError(f"not drawn: {wanted!r} in {lines}")


def broken_once(widget, paragraphs) -> None:
    """Each paragraph fills its lines: no line could have taken the next line's first word with
    the spaces before it (a text broken twice leaves a word alone on a line), and no line is
    wider than the pane."""
    width = widget.content_size.width
    for paragraph in paragraphs:
        group, at = paragraph_lines(widget, paragraph), 0
        for line, after in zip(group, group[1:]):
            at = paragraph.index(line.split()[-1], at) + len(line.split()[-1])
            word = after.split()[0]
            gap = paragraph.index(word, at) - at
            assert len(line) + gap + len(word) > width, (width, line, after)
        assert all(len(line) <= width for line in group)


def test_a_pop_up_is_broken_once_at_its_width_and_again_when_the_terminal_is_resized(content, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    session = new_session(content, Path("."), controllers=(saves.HUMAN, "random"), seed=4,
                          name="fort-sumter-20250301-201500-seed4.json")  # (a name with hyphens, kept whole)
    screen = Screen(session.game, session.show, Style(False))
    what = session.c.text(f"cli.help.{session.decision.kind}", **info.rules_params(screen))
    keys = session.c.text("cli.tui.keys_help")  # long paragraphs of the help window

    async def main():
        app = GameApp(session=session)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("f1")
            assert isinstance(app.screen, InfoScreen)
            text = app.screen.query_one("#info-text")
            broken_once(text, [what, keys])
            wide = len(paragraph_lines(text, what))
            assert any(str(session.path) in line for line in rendered(text))  # the save path whole
            for size in ((80, 24), (100, 30)):
                await pilot.resize_terminal(*size)
                await pilot.pause()
                broken_once(text, [what, keys])
                assert len(paragraph_lines(text, what)) > wide  # more lines, each filled
                assert any(str(session.path) in line for line in rendered(text))
            await pilot.press("escape")
            while len(session.game.log) < 12:
                await pilot.press("1", "enter")
                await bot_moved(app, pilot)
            await pilot.press("f2")  # the log: an entry a paragraph
            assert isinstance(app.screen, InfoScreen)
            entries = [session.show.log_line(entry) for entry in session.shown_log()]
            broken_once(app.screen.query_one("#info-text"), entries)
            await pilot.resize_terminal(120, 40)
            await pilot.pause()
            broken_once(app.screen.query_one("#info-text"), entries)

    run(main())


def test_the_feed_and_a_long_message_are_broken_between_words_not_cut(content, tmp_path):
    session = new_session(content, tmp_path, controllers=(saves.HUMAN, "random"), seed=4)

    async def main():
        app = GameApp(session=session)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("1", "enter")
            await bot_moved(app, pilot)
            await pilot.pause()
            feed = app.query_one("#feed")
            broken_once(feed, [session.show.log_line(entry) for entry in session.shown_log()[-2:]])
            refusal = session.read("play", session.decision, app.menu).problem
            await pilot.press(*"play", "enter")  # words of several choices: a long refusal, shown whole
            message = app.query_one("#message")
            said = " ".join(" ".join(rendered(message)).split())
            assert all_drawn(app, message) and said.endswith(" ".join(refusal.split()))

    run(main())


# ---------------------------------------------------------------- small ones


def test_why_with_nothing_to_explain_is_a_line_and_the_log_opens_at_its_newest_entry(content, tmp_path):
    session = new_session(content, tmp_path, controllers=(saves.HUMAN, "random"), seed=4)

    async def main():
        app = GameApp(session=session)
        async with app.run_test(size=(80, 24)) as pilot:
            while len(session.game.log) < 40:  # a log longer than the window
                await pilot.press("1", "enter")
                await bot_moved(app, pilot)
                if isinstance(app.screen, InfoScreen):
                    await pilot.press("escape")
            await pilot.press(*"why", "enter")
            assert app.screen is app.screen_stack[0]  # no window for one line
            assert session.c.text("cli.why.nothing") in plain(app.query_one("#message").content)
            await pilot.press("f2")
            assert isinstance(app.screen, InfoScreen)
            await pilot.pause()
            scroll = app.screen.query_one("#info-scroll")
            assert scroll.max_scroll_y > 0 and scroll.scroll_y == scroll.max_scroll_y
            last = session.show.log_line(session.shown_log()[-1])
            assert " ".join(last.split()[-3:]) in " ".join(strip.text for strip in app.screen._compositor.render_strips())

    run(main())


def test_what_is_printed_after_the_full_screen_keeps_a_command_on_one_line(content, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a game saved where it is played, under its default name
    show = Presenter(content, content.catalog("en"))
    session = GameSession(content, show, 4, Options(), [saves.HUMAN, "random"],
                          saves.default_path(Path("."), saves.game_name(content), 4))

    async def main():
        app = GameApp(session=session)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("ctrl+q")
        return app

    app = run(main())
    command = f"crisis resume {session.path}"
    assert command in app.outcome
    for width in (80, 60, 40):
        lines = farewell(app.outcome, width, [command]).splitlines()
        assert any(command in line for line in lines)
        assert all(len(line) <= width for line in lines if command not in line)
        assert " ".join(" ".join(lines).split()) == " ".join(app.outcome.split())


def test_ctrl_c_saves_and_ends_with_the_status_of_an_interrupt(content, tmp_path, monkeypatch):
    """Ctrl+C in the full screen saves the game as Ctrl+Q does, and ends with 130 as the line mode
    and docs/playing.md say (it ended with 0); Ctrl+Q ends with 0."""
    monkeypatch.chdir(tmp_path)
    show = Presenter(content, content.catalog("en"))
    codes = {}
    for key in ("ctrl+c", "ctrl+q"):
        session = GameSession(content, show, 4, Options(), [saves.HUMAN, "random"], tmp_path / f"{key}.json")

        async def main():
            app = GameApp(session=session)
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.press(key)
            return app

        app = run(main())
        codes[key] = app.return_code
        assert (tmp_path / f"{key}.json").is_file() and "crisis resume" in app.outcome
    assert codes == {"ctrl+c": 130, "ctrl+q": 0}


# ---------------------------------------------------------------- a card's event, before it is played


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_typed_event_that_costs_says_so_and_is_played_by_a_second_enter(content, tmp_path, lang):
    from test_cli_linemode import costly_event
    session, event = costly_event(content, lang, tmp_path)
    warnings = session.warnings(session.decision, event)
    played = list(session.game.history)
    index = next(i for i, a in enumerate(session.decision.actions) if a.text == event.text)

    async def main():
        app = GameApp(session=session)
        async with app.run_test(size=(120, 40)) as pilot:
            burst(app, event.text, "enter")  # typed, its consequences never shown: said in a window, not played
            await settle(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            assert session.game.history == played
            body = " ".join(plain(app.screen.body).split())
            assert all(" ".join(line.split()) in body for line in warnings)
            await pilot.press("escape")  # choose again: nothing played, the line kept to be mended
            await settle(pilot, lambda: app.screen is app.screen_stack[0])
            assert session.game.history == played and app.query_one("#command").value == event.text
            await pilot.press("enter")  # sent again: asked again, and Enter there plays it
            await settle(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await pilot.press("enter")
            await settle(pilot, lambda: len(session.game.history) > len(played))
            assert session.game.history[:len(played) + 1] == played + [event.text]
            assert app.query_one("#command").value == ""

    run(main())
    # picked in the choices, its consequences are shown under them as it is highlighted: Enter plays it
    again = GameSession(content, session.show, session.seed, session.options, session.controllers,
                        tmp_path / "again.json", played)

    async def picked():
        app = GameApp(session=again)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press(*["down"] * (index + 1))
            await pilot.pause()
            preview = " ".join(panes(app)["preview"].split())
            assert all(" ".join(line.split()) in preview for line in warnings)
            await pilot.press("enter")
            await pilot.pause()
            assert again.game.history[:len(played) + 1] == played + [event.text]

    run(picked())


def test_after_resume_the_feed_starts_at_the_players_last_turn(content, tmp_path):
    session = new_session(content, tmp_path, controllers=(saves.HUMAN, "random"), seed=13)
    while len(session.game.history) < 30 or session.bot_to_move():  # (as a game is played: each turn seen)
        if session.bot_to_move():
            session.bot_move()
        else:
            session.view(session.decision.player)
            session.apply(session.decision.actions[0])
    start, _ = session.view(0)  # what is new at the decision the game is left at
    left = [session.show.log_line(entry) for entry in session.shown_log()[start:]]
    assert left and len(left) < len(session.shown_log())
    resumed = session_for(content, session.show, session.path, saves.read(session.path, content, KnownBots()))

    async def main():
        app = GameApp(session=resumed)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            feed = [line[3:] for line in panes(app)["feed"].splitlines() if re.match(r" \S ", line)]
            assert feed == left

    run(main())


@pytest.mark.parametrize("lang", ["en", "es"])
def test_help_names_the_step_a_decision_is_part_of_in_words_never_a_key(content, tmp_path, lang):
    session = new_session(content, tmp_path, lang=lang, controllers=(saves.HUMAN, "random"), seed=3)
    c = session.c

    async def main():
        app = GameApp(session=session)
        async with app.run_test(size=(120, 40)) as pilot:
            while session.decision.kind != "play_card" or session.bot_to_move():
                await bot_moved(app, pilot)
                if isinstance(app.screen, (InfoScreen, PassScreen)):
                    await pilot.press("enter")
                elif not session.bot_to_move():
                    app.take("1")
                await pilot.pause()
            await pilot.press("question_mark", "enter")
            await settle(pilot, lambda: isinstance(app.screen, InfoScreen))
            shown = " ".join(plain(app.screen.body).split())
            # the card play's turn, in the round it is, as the game's catalog says it
            turn = c.text("cli.help.cause", line=c.text("cli.help.part.step.turn", round=1))
            assert " ".join(turn.split()) in shown
            assert "<" not in shown and "log.step" not in shown

    run(main())


# ---------------------------------------------------------------- what a decision needs comes first


def screen_rows(app) -> list:
    return [strip.text for strip in app.screen._compositor.render_strips()]


def visible_rows(app, widget) -> list:
    """The rows of ``widget`` on the screen, as plain text, in its own columns."""
    found = app.screen._compositor.visible_widgets.get(widget)
    if found is None or not widget.display or not widget.parent.display:
        return []
    region = found[1].intersection(widget.region)
    return [row[region.x:region.right].rstrip() for row in screen_rows(app)[region.y:region.bottom]]


def normal(text: str) -> str:
    return " ".join(text.replace(" • ", " ").split())


def check_decision_screen(app, session) -> dict:
    """Every choice on the screen when the column has the rows for them; the feed shown from an
    entry's first line (never a continuation without its head), and the free rows of the right
    column used before an entry of the feed is left out; what was seen."""
    right = app.query_one("#right")
    choices = app.query_one("#choices")
    question = app.query_one("#question")
    message = app.query_one("#message")
    width = choices.size.width
    needed = sum(len(choices.get_option_at_index(i).prompt.lines(width)) for i in range(choices.option_count))
    room = right.content_size.height - question.outer_size.height - (message.outer_size.height if message.display
                                                                     else 0)
    rows = choice_lines(app)
    numbers = [int(found.group(1)) for found in (re.match(r" *(\d+) ", row) for row in rows) if found]
    seen = {"fits": needed <= room, "cut": False}
    if needed <= room:
        assert numbers == list(range(1, len(app.menu) + 1)), (needed, room, rows)
    # the feed: the first row shown starts the heading, a log entry or the line counting those left out
    c = session.c
    start, _ = session.view(session.decision.player)  # (as the screen was drawn: asked again, the same)
    log = session.shown_log()
    entries = [session.show.log_line(entry) for entry in log[start:] or log[-3:]]
    heads = [normal(c.text("cli.panel.recent"))] + [normal(e) for e in entries]
    heads += [normal(c.text("cli.panel.earlier", n=n)) for n in range(len(entries) + 1)]
    feed = app.query_one("#feed-left") if app.query_one("#feed-left").display else app.query_one("#feed")
    shown = visible_rows(app, feed)
    texts = [row for row in shown if row.strip()]
    if texts:
        first = normal(texts[0])
        assert any(head.startswith(first) for head in heads), (first, shown)
    all_text = normal(" ".join(shown))
    missing = [e for e in entries if normal(e) not in all_text]
    if missing:  # some of the feed is left out: the right column has no room to spare for it
        seen["cut"] = True
        area = right.content_region
        bottom = [row[area.x:area.right].rstrip() for row in screen_rows(app)[area.y:area.bottom]]
        trailing = 0
        for row in reversed(bottom):
            if row.strip():
                break
            trailing += 1
        need = len(Paragraphs([" • " + missing[-1]]).lines(max(1, right.content_size.width)))
        assert trailing < need, (trailing, need, missing[-1], bottom)
    return seen


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("size", SIZES, ids=["80x24", "100x30", "120x40"])
def test_a_decision_shows_its_choices_first_whole_feed_entries_and_a_refusal_whole(content, tmp_path, lang, size):
    session = new_session(content, tmp_path, lang=lang, controllers=(saves.HUMAN, "random"), seed=3)
    typed = "xyzzy plugh"

    async def main():
        app = GameApp(session=session)
        async with app.run_test(size=size) as pilot:
            seen = []
            for turn in range(7):
                await bot_moved(app, pilot)
                while isinstance(app.screen, (InfoScreen, PassScreen)):
                    await pilot.press("enter")
                    await bot_moved(app, pilot)
                await pilot.pause()
                seen.append(check_decision_screen(app, session))
                refusal = session.read(typed, session.decision, app.menu).problem
                assert refusal
                await pilot.press(*typed, "enter")
                await pilot.pause()
                message = app.query_one("#message")
                said = " ".join(" ".join(rendered(message)).split())
                assert all_drawn(app, message) and said.endswith(" ".join(refusal.split())), said
                check_decision_screen(app, session)
                await pilot.press("escape")
                event = next((n for n, choice in enumerate(app.menu, 1) if choice.action.kind == "value"), 1)
                await pilot.press(*str(event), "enter")
            assert any(s["fits"] for s in seen)

    run(main())


# ---------------------------------------------------------------- the second game


def test_a_whole_civil_war_game_against_the_bot_in_80x24(tmp_path):
    """The Civil War Card Game in the full screen: a whole game against the heuristic bot in
    80x24, to its result, the screen showing the game's own words (its turn, its phase), saved
    after every action and replaying to the same end."""
    from crisis.content.games import game_path
    from crisis.content.loader import load_content
    war = load_content(game_path("civil-war-card-game"))
    session = new_session(war, tmp_path, controllers=(saves.HUMAN, "heuristic"), seed=3)
    app = GameApp(session=session)
    result = {}

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            result["seen"] = await play_through(app, pilot, keys=6)
            result["final"] = dict(panes(app))

    run(main())
    data = json.loads(session.path.read_text(encoding="utf-8"))
    game = replay(war, data)
    assert game.over and session.over and game.result.winner == session.game.result.winner
    shown = [panes for kind, _, panes in result["seen"] if kind == "decision" and panes]
    headers = [panes["header"] for panes in shown]
    assert any("Turn 1/25 · North's turn · Deploy" in header for header in headers)  # whose turn, its phase
    assert any(" · Move · " in header for header in headers)
    assert not any("turns taken" in text or "<cli." in text for panes in shown for text in panes.values())
    winner = ("North", "South")[game.result.winner]
    assert any(winner in text and "win" in text for text in result["final"].values())


def test_square_brackets_in_a_games_texts_are_shown_as_written_never_read_as_markup(tmp_path):
    """A game's catalog is content, read as untrusted: a translator's "[Enter]", or a stray "[/]",
    in the hint of a pop-up, the placeholder, the title or a card's name is shown as typed; it
    once stopped the full screen with a markup error and a traceback."""
    import shutil
    from crisis.content.games import game_path
    from crisis.content.loader import load_content
    copy = tmp_path / "fs"
    shutil.copytree(game_path("fort-sumter"), copy)
    cli_texts = copy / "locale" / "en" / "cli.yaml"
    text = cli_texts.read_text(encoding="utf-8")
    cli_texts.write_text(text.replace('cli:\n  title: "Fort Sumter"\n',
                                      'cli:\n  title: "Fort Sumter [/]"\n  tui:\n'
                                      '    close: "Press [Enter] or [/] to go back [bold"\n'
                                      '    placeholder: "Type [/] here [b"\n', 1), encoding="utf-8")
    cards = copy / "locale" / "en" / "cards-strategy.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace('    title: "', '    title: "[/]'), encoding="utf-8")
    bracketed = load_content(copy)
    session = new_session(bracketed, tmp_path, controllers=(saves.HUMAN, "random"), seed=3)
    app = GameApp(session=session)
    result = {}

    async def main():
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("f1")
            await settle(pilot, lambda: isinstance(app.screen, InfoScreen))
            result["hint"] = plain(app.screen.query_one("#info-hint").render())
            await pilot.press("escape")
            result["seen"] = await play_through(app, pilot, keys=8)

    run(main())
    assert result["hint"] == "Press [Enter] or [/] to go back [bold"
    assert session.over
    assert any("[/]" in text for kind, _, panes in result["seen"] if panes for text in panes.values())


def test_escape_takes_away_a_refusal_of_what_was_typed_but_not_the_news_of_a_move(content, tmp_path):
    """A line refused ("zzz") shows why under the feed; Escape, which drops what was typed and
    goes back to the choices, drops the refusal too (it stayed over the previews the arrows then
    show), while a message that is not a refusal (what undo took back) stays."""
    session = new_session(content, tmp_path, controllers=(saves.HUMAN, "random"), seed=3)

    async def main():
        app = GameApp(session=session)
        async with app.run_test(size=(80, 24)) as pilot:
            message = app.query_one("#message")
            await pilot.press(*"zzz", "enter")
            assert message.display and plain(message.content).strip()
            await pilot.press("escape")
            assert not message.display
            await pilot.press("down", "enter")  # keep an objective
            await bot_moved(app, pilot)
            await pilot.press("ctrl+z")
            said = plain(message.content)
            assert "Taken back" in said
            await pilot.press("escape")
            assert message.display and plain(message.content) == said

    run(main())


def test_on_a_very_wide_terminal_the_cards_column_breaks_card_texts_at_its_own_width(content, tmp_path):
    """From 150 columns the cards have a column of their own; their rules are broken at that
    column's width (about 60 columns at 180), not at the map's 36, which left half of it empty."""
    session = new_session(content, tmp_path, controllers=(saves.HUMAN, "random"), seed=4)

    async def main():
        app = GameApp(session=session)
        async with app.run_test(size=(180, 45)) as pilot:
            await pilot.press("down", "enter")  # keep an objective: the hand is shown in full
            await bot_moved(app, pilot)
            rules = [plain(line) for line in app._lines["hand"] if plain(line).startswith("       ")]
            assert rules and max(len(line.strip()) for line in rules) > 45
            assert all(len(line) <= app.cards_width() for line in rules)  # and each fits the column

    run(main())


def test_after_a_resize_the_choices_are_laid_out_for_the_new_width(content, tmp_path):
    """Wide enough, each choice shows its action as typed ([value lincoln]); narrowed to 80 columns
    it does not: the choices were laid out for the width before the resize (the panes' sizes are
    those of the last layout until the next), so the typed actions stayed and wrapped."""
    session = new_session(content, tmp_path, controllers=(saves.HUMAN, "random"), seed=4)

    def shown(app) -> list:
        choices = app.query_one("#choices")
        return [choices.get_option_at_index(i).prompt.plain for i in range(choices.option_count)]

    async def main():
        app = GameApp(session=session)
        async with app.run_test(size=(140, 40)) as pilot:
            await pilot.press("down", "enter")  # keep an objective: the card play comes
            await bot_moved(app, pilot)
            assert any("[value " in choice for choice in shown(app))
            await pilot.resize_terminal(80, 30)
            await settle(pilot, lambda: not any("[value " in choice for choice in shown(app)))
            await pilot.resize_terminal(140, 40)
            await settle(pilot, lambda: any("[value " in choice for choice in shown(app)))

    run(main())


def test_a_path_wider_than_a_pane_breaks_between_its_folders():
    """A saved game's path is one word for the line breaker: wider than the pane, it was cut at
    the pane's edge, in the middle of a folder's name; it now breaks after a '/' that fits."""
    path = "/tmp/crisis-games/a-very-long-folder-name/fort-sumter-20261129-195249-seed5.json"
    lines = [line.plain for line in Paragraphs([f"Saved in {path}"]).lines(40)]
    assert lines == ["Saved in", "  /tmp/crisis-games/", "  a-very-long-folder-name/",
                     "  fort-sumter-20261129-195249-seed5.json"]
    assert "".join(line.strip() for line in lines[1:]) == path
    # a word with no '/' is cut at the edge, as before
    assert [line.plain for line in Paragraphs(["x" * 50]).lines(20)] == ["x" * 20, "  " + "x" * 18, "  " + "x" * 12]
