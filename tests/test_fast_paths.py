"""The engine's fast paths (no log, batch play, cached answers) change nothing a player sees."""

from crisis.content.loader import load_content
from crisis.interpreter.designer import scenario
from crisis.interpreter.engine.game import Game, Options
from crisis.interpreter.players.registry import RandomBot, play_out

from helpers import add_designer_card, copy_content
from test_language_words import CARD, SCENARIOS
from crisis.interpreter.engine.program import program_of


def final(game):
    position = game.position
    return (position.values, position.piles, position.plays, position.breakdown, game.result, game.history)


def test_a_game_without_a_log_is_the_game_with_one(content):
    for seed in (4, 5, 6):
        for options in (Options(), Options(frozenset({"event_discard"}))):
            games = []
            for log in (True, False):
                game = Game.of(content, seed, options, log=log)
                play_out(game, [RandomBot(seed, 0), RandomBot(seed, 1)])
                assert (game.log is not None) == log
                games.append(final(game))
            assert games[0] == games[1]


def test_that_space_is_remembered_when_no_log_is_kept(tmp_path, monkeypatch):
    """A card that places a token, then moves a marker to "that space", then places again there:
    the same with no log kept (the scenarios play their games without one)."""
    root = copy_content(tmp_path)
    add_designer_card(root, CARD, "designer-truce", "Truce")
    content = load_content(root)
    path = tmp_path / "truce.yaml"
    path.write_text(SCENARIOS, encoding="utf-8")
    logs = []

    class Unlogged(scenario.EngineGame):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **{**kwargs, "log": False})
            logs.append(self.log)
    for game in (scenario.EngineGame, Unlogged):
        monkeypatch.setattr(scenario, "EngineGame", game)
        outcomes = scenario.run_file(program_of(content), content.root, path)
        assert [o.problems + [d.message for d in o.diagnostics] for o in outcomes] == [[], []]
        assert all(o.passed for o in outcomes)
    assert logs == [None, None]


def test_the_first_player_follows_vp_set_from_outside(content):
    """The first player is kept while VP stay the same (the rules read only VP and sides)."""
    game = Game.of(content, 2, log=False)
    program = game.program
    vp = program.layout.counter[program.counter_index["VP"]]
    values = game.position.values
    values[vp:vp + 2] = [0, 0]
    assert game.first_player() == 0  # tie: the Unionist
    values[vp + 1] = 3
    assert game.first_player() == 1
    values[vp] = 5
    assert game.first_player() == 0
