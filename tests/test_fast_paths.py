"""The engine's fast paths (no log, batch play, cached answers) change nothing a player sees."""

from crisis.content.loader import load_content
from crisis.interpreter.controllers import RandomBot, play_out
from crisis.interpreter.game import Game, Options
from crisis.interpreter.state import initial_state
from crisis.interpreter.tables import tables_for
from helpers import add_designer_card, copy_content
from test_language_words import CARD


def final(game):
    st = game.state
    return (st.tokens, st.pool, st.track, st.boxes, st.vp, st.markers, st.discard, st.breach_order,
            st.result.winner, game.history)


def test_a_game_without_a_log_is_the_game_with_one(content):
    for seed in (4, 5, 6):
        for options in (Options(), Options(event_discard=True)):
            games = []
            for log in (True, False):
                game = Game(content, seed, options, log=log)
                play_out(game, [RandomBot(seed, 0), RandomBot(seed, 1)])
                games.append(final(game))
            assert games[0] == games[1]


def test_that_space_is_remembered_when_no_log_is_kept(tmp_path):
    root = copy_content(tmp_path)
    add_designer_card(root, CARD, "designer-truce", "Truce")
    content = load_content(root)
    t = tables_for(content)
    for log in (True, False):
        state = initial_state(t, 1)
        state.phase, state.leader = "card_play", 0
        state.hands = [[t.card_index["designer-truce"], t.card_index["lincoln"]], [t.card_index["florida-secedes"]]]
        game = Game(content, 1, log=log, state=state)
        game.apply("event designer-truce")
        game.apply("place Fort Pickens")
        pickens = t.space_index["Fort Pickens"]
        assert state.markers[t.marker_index["Peace Commissioner"]] == pickens, log
        assert state.tokens[0][pickens] == 1


def test_the_first_player_follows_vp_set_from_outside(content):
    """The first player is kept while VP stay the same (the rules read only VP and sides)."""
    game = Game(content, 2, log=False)
    assert tables_for(content).first_player_by_vp
    st, ex = game.state, game.executor
    st.vp[:] = [0, 0]
    assert ex.first_player() == 0  # tie: the Unionist
    st.vp[1] = 3
    assert ex.first_player() == 1
    st.vp[0] = 5
    assert ex.first_player() == 0
