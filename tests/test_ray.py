"""crisis sim --ray: the same batches of seeds as Ray tasks, the same results as a local run
(on a local Ray instance with 2 CPUs; CI installs ray through the test extra)."""

import json

import pytest

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'crisis-engine[ray]'): "
                                        "the --ray path cannot be tested here")

from clirun import run_crisis  # noqa: E402
from crisis.interpreter import batch, distributed  # noqa: E402
from crisis.interpreter.engine.game import Options  # noqa: E402


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    yield
    ray.shutdown()


def test_ray_tasks_give_the_results_of_a_local_run(local_ray, content):
    job = batch.Job(content, Options(frozenset({"event_discard"})))
    local = list(batch.run(job, 11, 30, jobs=1, records=True, largest_chunk=4))
    remote = list(distributed.run(job, 11, 30, records=True, largest_chunk=4))
    assert [c.first for c in remote] == [c.first for c in local]
    assert [c.records for c in remote] == [c.records for c in local]
    merged = [batch.Summary(), batch.Summary()]
    for total, run in zip(merged, (local, remote)):
        for chunk in run:
            total.merge(chunk.summary)
    assert merged[0] == merged[1] and merged[0].games == 30


def test_crisis_sim_ray_matches_jobs(local_ray, tmp_path):
    """The command line on the running Ray instance (its address through RAY_ADDRESS) against --jobs 1."""
    address = ray.get_runtime_context().gcs_address
    results = []
    for how in (["--jobs", "1"], ["--ray"]):
        path = tmp_path / f"{how[-1]}.jsonl"
        result = run_crisis("sim", "--games", "16", "--seed", "5", "--json", "--records", path, *how,
                            env={"RAY_ADDRESS": address}, timeout=300)
        assert result.returncode == 0, result.stderr[-2000:]
        data = json.loads(result.stdout)
        results.append(({k: v for k, v in data.items() if k not in ("seconds", "games_per_second", "processes")},
                        path.read_text(encoding="utf-8")))
    assert results[0] == results[1]
