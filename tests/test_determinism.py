"""Seed + options + actions reproduce a game exactly (docs/rulings.md, R19), on the general
engine every batch run plays on."""

from crisis.interpreter.players.registry import RandomBot, play_out
from crisis.interpreter.engine.game import Game, Options, replay
from crisis.interpreter.engine.program import program_of


def bot_game(content, seed, options=None, bot_seed=None):
    game = Game.of(content, seed, options or Options())
    bot_seed = seed if bot_seed is None else bot_seed
    play_out(game, [RandomBot(bot_seed, 0), RandomBot(bot_seed, 1)])
    return game


def snapshot(game):
    position = game.position
    return (position.values, position.piles, position.plays, position.notes, game.result.winner,
            [(e.key, e.params) for e in game.log])


def dealt(game):
    """Every side's hand and objective offer as the game starts."""
    program, position = game.program, game.position
    return tuple(tuple(position.piles[program.layout.pile(program.pile_number[name], side)])
                 for name in ("hand", "objective offer") for side in range(len(game.sides)))


def test_the_same_seed_plays_the_same_game(content):
    first, second = bot_game(content, 42), bot_game(content, 42)
    assert first.history == second.history
    assert snapshot(first) == snapshot(second)


def test_replaying_the_actions_rebuilds_the_game_exactly(content):
    for seed in (1, 2, 3):
        for options in (Options(), Options(frozenset({"event_discard"}))):
            played = bot_game(content, seed, options)
            replayed = replay(program_of(content), seed, options, played.history, content=content)
            assert replayed.over
            assert snapshot(replayed) == snapshot(played)


def test_different_seeds_deal_different_games(content):
    games = [Game.of(content, seed) for seed in range(5)]
    assert len({dealt(g) for g in games}) == 5


def test_bots_never_draw_from_the_games_generator(content):
    # same game seed, different bots: the cards dealt in round 2 are the same as long as both
    # games reach round 2 through the same number of shuffles, and the round 1 deal always is
    a, b = Game.of(content, 7), Game.of(content, 7)
    assert dealt(a) == dealt(b)
    RandomBot(1, 0).choose(a, a.decision)
    assert a.position.rng.getstate() == b.position.rng.getstate()


def test_the_same_seeds_play_the_same_games_in_processes_with_other_hash_seeds(tmp_path):
    """Standing rule 5 across processes: two runs of ``crisis sim`` whose Python orders sets and
    dicts of text differently (PYTHONHASHSEED) write the same records, for both games, with
    bots that judge positions as well as random players, on one process and on two."""
    from clirun import run_crisis
    runs = {}
    for game, bots in (("fort-sumter", ["--bot", "union=heuristic"]),
                       ("civil-war-card-game", ["--bot", "north=heuristic"])):
        for hash_seed, jobs in (("1", "1"), ("2", "2")):
            records = tmp_path / f"{game}-{hash_seed}.jsonl"
            result = run_crisis("sim", "--game", game, "--games", "6", "--seed", "11", "--jobs", jobs,
                                "--records", records, *bots, env={"PYTHONHASHSEED": hash_seed})
            assert result.returncode == 0, result.stderr
            runs[game, hash_seed] = records.read_text(encoding="utf-8")
        assert runs[game, "1"] == runs[game, "2"] and runs[game, "1"].count("\n") == 6, game
