"""crisis sim's fast way of playing random games (the direct form, generated rules, no Decision
made for the random players, no notes kept unless records are asked for) plays the very games
that two RandomBots play one decision at a time on the engine's Game, as crisis play would."""

import pytest

from crisis.interpreter import batch
from crisis.interpreter.engine.game import Options

SEEDS = (1, 2, 3, 17, 99, 1234, 65537)


def one_by_one(content, options, seeds):
    """The records of Game + RandomBot (the job's invariant check takes that way)."""
    return list(batch.Job(content, options, check=True).play(seeds))


@pytest.mark.parametrize("flags", [frozenset(), frozenset({"event_discard"})])
def test_random_games_in_a_batch_are_the_games_random_bots_play(content, flags):
    options = Options(flags)
    fast = list(batch.Job(content, options).play(SEEDS))
    slow = one_by_one(content, options, SEEDS)
    assert fast == slow
    assert all(record.actions > 50 and record.notes for record in fast)


def test_a_summary_without_records_counts_what_the_records_would(content):
    """A run without --records keeps no notes, yet its summary is the one its records give."""
    job = batch.Job(content)
    without = batch.play_chunk(job, 1, 40, records=False)
    with_records = batch.play_chunk(job, 1, 40, records=True)
    assert without.records is None and len(with_records.records) == 40
    assert without.summary == with_records.summary
    expected = batch.Summary()
    for record in one_by_one(content, Options(), range(1, 41)):
        expected.add(record)
    assert without.summary == expected
