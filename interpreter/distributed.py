"""The chunks of a batch run (``batch.run``) as Ray tasks, on a Ray cluster.

The same chunks of seeds, played by the same code, so a run gives the same
summary and the same records on a cluster as on one machine.  The job (the
content, options and controllers) is put in Ray's object store once; one
actor per CPU of the cluster receives it once, compiles the rules once, then
plays chunk after chunk.  Results come back in seed order, with a bounded
number of chunks under way, so memory does not grow with the number of games.

Needs the optional ``ray`` extra (``pip install 'crisis-engine[ray]'``), and
the same version of this package on every machine of the cluster.
"""

from __future__ import annotations

import os
from collections import deque
from typing import Iterator, Optional

from .batch import Chunk, Job, chunks, play_chunk, prepare


class ChunkPlayer:
    """One per CPU of the cluster: holds the job and plays the chunks it is given."""

    def __init__(self, job: Job):
        self.job = job
        prepare(job)  # the program and its generated rules, made once per actor

    def play(self, first: int, games: int, records: bool) -> Chunk:
        return play_chunk(self.job, first, games, records)


def connect(address: Optional[str] = None) -> None:
    """Join the cluster at ``address`` (else ``RAY_ADDRESS``, else a Ray started here, on this machine)."""
    import ray
    if ray.is_initialized():
        return
    address = address or os.environ.get("RAY_ADDRESS") or None
    ray.init(address=address, include_dashboard=False, log_to_driver=False, logging_level="ERROR")


def run(job: Job, first_seed: int, games: int, address: Optional[str] = None, records: bool = False,
        actors: Optional[int] = None, largest_chunk: int = 500) -> Iterator[Chunk]:
    import ray
    connect(address)
    cpus = actors or max(1, int(ray.cluster_resources().get("CPU", 1)))
    job_ref = ray.put(job)  # once per job: every actor reads it from the object store
    player = ray.remote(num_cpus=1)(ChunkPlayer)
    players = [player.remote(job_ref) for _ in range(cpus)]
    waiting: deque = deque()
    parts = chunks(first_seed, games, cpus, largest_chunk)
    try:
        for index, (first, count) in enumerate(parts):
            waiting.append(players[index % cpus].play.remote(first, count, records))
            if len(waiting) >= 2 * cpus:  # a few chunks ahead per actor, no more
                yield ray.get(waiting.popleft())
        while waiting:
            yield ray.get(waiting.popleft())
    finally:
        for ref in waiting:
            ray.cancel(ref, force=True)
        for actor in players:
            ray.kill(actor)
