"""Complete random games pinned seed by seed: the same seed must keep giving
the same game (docs/rulings.md, R19), whatever is done to the engine's speed.

The expected games in ``data/pinned-games.json`` were recorded from Fort
Sumter's own engine once the Final Crisis order became card by card, before any
speed work; the general engine plays them (docs/engine.md).  The solo games in
``data/pinned-solo-games.json`` (a random player against the Solo Opponent) were
recorded from that engine too, the last time both engines played side by side.
Re-record them only for an intended change of the rules, of the Solo Opponent
or of the random bot:

    python tests/test_pinned_games.py --record
"""

import hashlib
import json
import sys
from pathlib import Path

import pytest

from crisis.interpreter.players.registry import RandomBot, play_out
from crisis.interpreter.engine.game import Game, Options
from crisis.interpreter.engine.program import program_of

PINNED = Path(__file__).parent / "data" / "pinned-games.json"
SEEDS = (1, 2, 3, 7, 42, 1000, 65537, 2**31 + 5)
PINNED_SOLO = Path(__file__).parent / "data" / "pinned-solo-games.json"
SOLO = [(seed, side, "hard") for side in ("Unionist", "Secessionist") for seed in (1, 6, 12)]


def options(event_discard: bool) -> Options:
    return Options(frozenset({"event_discard"}) if event_discard else frozenset())


def played(content, seed: int, event_discard: bool, program=None) -> dict:
    """What a person would notice of a whole game: every action, the final position, the score
    (on the content's program, or on ``program`` compiled from it)."""
    program = program_of(content) if program is None else program
    game = Game(program, seed, options(event_discard), log=False, content=content)
    play_out(game, [RandomBot(seed, 0), RandomBot(seed, 1)])
    program, position = game.program, game.position
    layout, values, sides = program.layout, position.values, range(2)
    track = program.schema.tracks[0]

    def counter(name):
        return values[layout.counter[program.counter_index[name]]:][:2]

    def pile(name, side=0):
        return position.piles[layout.pile(program.pile_number[name], side)]
    return {
        "seed": seed,
        "event_discard": event_discard,
        "actions": len(game.history),
        "actions_sha256": hashlib.sha256("\n".join(game.history).encode()).hexdigest(),
        "winner": game.sides[game.result.winner],
        "tie_break": game.result.tie_break,
        "vp": counter("VP"),
        "breakdown": [list(lines) for lines in position.breakdown],
        "round": counter("round")[0],
        "tokens": [values[layout.tokens_of(s):layout.tokens_of(s) + layout.places] for s in sides],
        "pool": [values[layout.holder_of(s, 0)] for s in sides],
        "track": [values[layout.track_of(s, 0)] for s in sides],
        "boxes": [[values[layout.box + layout.zone_slot(s, 0, z)] for z in range(len(track.zones))] for s in sides],
        "markers": values[layout.marker:layout.marker + len(program.schema.markers)],
        "breach_order": [[s for s in values[layout.entry_order + z * 2:][:2] if s >= 0]
                         for z in range(len(track.zones))],
        "final_crisis_order": [pile("final crisis order", s) for s in sides],
        "discard": pile("discard pile"),
    }


def all_games(content) -> list:
    return [played(content, seed, event_discard) for event_discard in (False, True) for seed in SEEDS]


def played_solo(content, seed: int, side: str, difficulty: str) -> dict:
    """A random player's whole game against the Solo Opponent: the player's actions, the final
    position, the score."""
    game = Game.of(content, seed, Options(solo=side, difficulty=difficulty), log=False)
    play_out(game, [RandomBot(seed, 0), RandomBot(seed, 1)])
    program, position = game.program, game.position
    layout, values = program.layout, position.values
    return {
        "seed": seed, "solo": side, "difficulty": difficulty,
        "actions": len(game.history),
        "actions_sha256": hashlib.sha256("\n".join(game.history).encode()).hexdigest(),
        "winner": game.sides[game.result.winner],
        "vp": values[layout.counter[program.counter_index["VP"]]:][:2],
        "tokens": [values[layout.tokens_of(s):layout.tokens_of(s) + layout.places] for s in range(2)],
        "discard": position.piles[layout.pile(program.pile_number["discard pile"])],
    }


def plain(value):
    """JSON's view of a value (tuples become lists)."""
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("index", range(2 * len(SEEDS)))
def test_a_seed_plays_the_game_it_always_played(content, index):
    expected = json.loads(PINNED.read_text(encoding="utf-8"))[index]
    game = played(content, expected["seed"], expected["event_discard"])
    assert plain(game) == expected


@pytest.mark.parametrize("index", range(len(SOLO)))
def test_a_seed_plays_the_solo_game_it_always_played(content, index):
    expected = json.loads(PINNED_SOLO.read_text(encoding="utf-8"))[index]
    assert plain(played_solo(content, expected["seed"], expected["solo"], expected["difficulty"])) == expected


def test_the_pinned_games_cover_both_winners_and_the_option():
    pinned = json.loads(PINNED.read_text(encoding="utf-8"))
    assert {g["winner"] for g in pinned} == {"Unionist", "Secessionist"}
    assert {g["event_discard"] for g in pinned} == {False, True}
    solo = json.loads(PINNED_SOLO.read_text(encoding="utf-8"))
    assert [(g["seed"], g["solo"], g["difficulty"]) for g in solo] == SOLO
    assert {g["winner"] for g in solo} == {"Unionist", "Secessionist"}


if __name__ == "__main__" and "--record" in sys.argv:
    from crisis.content.loader import load_content
    loaded = load_content()
    PINNED.write_text(json.dumps(plain(all_games(loaded)), indent=1) + "\n", encoding="utf-8")
    PINNED_SOLO.write_text("[\n" + ",\n".join(" " + json.dumps(plain(played_solo(loaded, *game))) for game in SOLO)
                           + "\n]\n", encoding="utf-8")
    print(f"recorded {PINNED} and {PINNED_SOLO}")


def test_batch_play_gives_the_pinned_games(content):
    """The batch API (crisis sim) plays exactly the games Game + play_out plays: in the direct
    form, and one decision at a time with the invariants checked."""
    from crisis.interpreter.batch import Job
    from crisis.interpreter.records import reading_of
    pinned = json.loads(PINNED.read_text(encoding="utf-8"))
    reading = reading_of(program_of(content))
    for event_discard in (False, True):
        expected = [g for g in pinned if g["event_discard"] == event_discard]
        for check in (False, True):
            job = Job(content, options(event_discard), check=check)
            records = list(job.play(SEEDS))
            assert [r.seed for r in records] == list(SEEDS)
            lines = [reading.json(r) for r in records]
            assert [list(line["counters"]["VP"].values()) for line in lines] == [g["vp"] for g in expected]
            assert [line["counters"]["round"] for line in lines] == [g["round"] for g in expected]
            assert [line["winner"] for line in lines] == [g["winner"] for g in expected]
            assert [r.actions for r in records] == [g["actions"] for g in expected]
            assert [r.tie_break for r in records] == [g["tie_break"] for g in expected]
            assert [[[reading.sides.index(s) for s in line["entered"]["crisis track"][zone]]
                     for zone in ("Escalation", "Tension", "Final Crisis")] for line in lines] == [
                g["breach_order"][1:] for g in expected]
            assert all(not r.problems for r in records)


def test_rules_compiled_for_coverage_play_the_same_games(content):
    """Coverage records on the rules compiled a second time; the games must not change (an effect
    skipped would)."""
    from crisis.interpreter.designer.coverage import Coverage
    pinned = json.loads(PINNED.read_text(encoding="utf-8"))
    coverage = Coverage(content.definition)
    for expected in pinned:
        assert plain(played(content, expected["seed"], expected["event_discard"], coverage.program)) == expected
    assert coverage.hits
