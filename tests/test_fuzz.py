"""Fuzzing in the suite: random damage to the content and to a saved game ends in
a clean error or a valid load (and, for content, a game played to its end),
never an exception.  Few examples per run, so the suite stays quick; the long
run is tools/fuzz_inputs.py (docs/limits.md gives its figures)."""

import json
import random
import signal
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crisis.cli import saves
from crisis.content.loader import default_content_dir

from mutations import content_outcome, copy_content, mutate_content, mutate_save, save_outcome
from crisis.interpreter.engine.program import program_of

EXAMPLES = max(10, settings().max_examples // 2)


class _Alarm:
    """A case that runs for more than ``seconds`` fails as a hang instead of stopping the suite."""

    def __init__(self, seconds):
        self.seconds = seconds

    def __enter__(self):
        def stop(signum, frame):
            raise TimeoutError(f"a case ran for more than {self.seconds} s")
        self.previous = signal.signal(signal.SIGALRM, stop)
        signal.alarm(self.seconds)

    def __exit__(self, *exc):
        signal.alarm(0)
        signal.signal(signal.SIGALRM, self.previous)


def content_copy(folder: Path) -> Path:
    """The shipped content's files a game is read from (the general engine's), copied into ``folder``."""
    return copy_content(default_content_dir(), folder / "content")


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False))
def test_damaged_content_loads_or_is_refused_cleanly(rng):
    with tempfile.TemporaryDirectory() as folder:
        root = content_copy(Path(folder))
        what = mutate_content(rng, root)
        with _Alarm(30):
            assert content_outcome(root) in ("error", "valid"), what


@settings(max_examples=2 * EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False), actions=st.integers(0, 40))
def test_damaged_saves_load_or_are_refused_cleanly(content, rng, actions):
    from crisis.cli.session import saved_options
    from crisis.interpreter.engine.game import Game, Options
    from crisis.interpreter.players.registry import RandomBot
    game = Game.of(content, 3, log=False)
    bots = [RandomBot(3, side) for side in range(len(content.sides))]
    for _ in range(actions):
        if game.over:
            break
        game.apply(bots[game.decision.player].choose(game, game.decision))
    data = saves.SavedGame(game=content.game, digest=content.digest, seed=3,
                           options=saved_options(program_of(content), Options()),
                           controllers={side: "human" for side in content.sides},
                           actions=list(game.history)).to_json()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        what = mutate_save(rng, data, path)
        with _Alarm(10):
            assert save_outcome(path, content) in ("error", "valid"), what


def test_an_undamaged_save_is_valid(content, tmp_path):
    data = saves.SavedGame(game=content.game, digest=content.digest, seed=3, options={},
                           controllers={side: "human" for side in content.sides}).to_json()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    assert save_outcome(path, content) == "valid"


def test_undamaged_content_is_valid(tmp_path):
    assert content_outcome(content_copy(tmp_path)) == "valid"


# ------------------------------------------------------------ playing what is accepted (issue 18)
# A fixed slice of the long run's play phase (tools/fuzz_inputs.py --plays): well-formed rules
# written into the content, and every content that loads played as a designer would.

PLAY_SEEDS = (2, 9, 13)  # a 'first of' chain in an event, refused contractions, an 'either' in scoring


def test_accepted_content_plays_through_with_every_bot_the_solo_opponent_and_the_printouts():
    from crisis.content.loader import load_content
    from mutations import PLAYS, Alarm, mutate_rules, play
    played = 0
    for seed in PLAY_SEEDS:
        rng = random.Random(seed)
        with tempfile.TemporaryDirectory() as folder:
            root = content_copy(Path(folder))
            what = mutate_rules(rng, root)
            with _Alarm(30):
                outcome = content_outcome(root)
            assert outcome in ("error", "valid"), what
            if outcome == "error":
                continue
            content = load_content(root)
            for which in PLAYS:
                with Alarm(60):
                    assert play(root, which, seed, content) == "ok", (which, what)
            played += 1
    assert played == 2


# 'either' in a fighting's procedure (nested five deep); an event's march; an event's might.  (Seed 13
# was the first: its 'either' with a 'first of' now goes past the work bound once Forced March carries
# out the check for victory, so check refuses it, rightly, and the case is another seed's. Seed 418
# next: once the check for victory became a procedure of its own, the rules drawn from the content
# shifted, and its draw nests the home defense past the bound; 720 nests the fighting.)
CIVIL_WAR_SEEDS = (720, 15, 18)


def test_the_second_games_accepted_content_plays_through_too():
    """The long run's --game: the second game's rules nested anew from its own statements (its
    battles, payments and characters, which Fort Sumter has not), then played as a designer would."""
    from crisis.content.games import game_path
    from crisis.content.loader import load_content
    from mutations import PLAYS, Alarm, mutate_rules, play
    for seed in CIVIL_WAR_SEEDS:
        rng = random.Random(seed)
        with tempfile.TemporaryDirectory() as folder:
            root = copy_content(game_path("civil-war-card-game"), Path(folder) / "content")
            what = mutate_rules(rng, root)
            assert "->" in what  # a rule was rewritten
            with _Alarm(30):
                assert content_outcome(root) == "valid", what
            content = load_content(root)
            for which in PLAYS:
                with Alarm(60):
                    assert play(root, which, seed, content) == "ok", (which, what)


# ------------------------------------------------------------ a failing disk and the language server (issue 18)
# Fixed slices of the long run's --disk and --lsp phases.

DISK_SEEDS = (0, 4, 7, 10)  # saves failing then written again; a full disk mid-game; failing for good; two resumes


def test_games_saved_on_a_failing_disk_never_say_saved_unless_they_were(content, tmp_path):
    from mutations import disk_case
    done = []
    for seed in DISK_SEEDS:
        folder = tmp_path / str(seed)
        folder.mkdir()
        with _Alarm(120):
            done.append(disk_case(random.Random(seed), folder, content))  # BrokenPromise otherwise
    import re
    covered = [any(re.search(r"saves \d+-\d+ fail", what) for what in done),  # then written again
               any(re.search(r"saves \d+- fail", what) for what in done),  # for good
               any("cannot be written" in what for what in done), any("two resumes" in what for what in done)]
    assert all(covered), done


def test_the_language_server_answers_every_hostile_message_and_stays_up(tmp_path):
    import pytest
    pytest.importorskip("pygls")
    from mutations import lsp_run
    found = lsp_run(random.Random(4), tmp_path, 40)
    counts = found["counts"]
    assert counts["cases"] == 40 and counts["requests"] > 10
    assert counts["answered"] == counts["requests"], found["failures"]
    bad = {k: counts[k] for k in ("deaf", "died", "traceback", "memory", "not said", "not working") if counts[k]}
    assert not bad, (bad, found["failures"])
    assert counts["server starts"] == 1


def test_a_disk_too_full_for_the_locks_process_id_is_said_in_one_line_and_leaves_no_file(tmp_path):
    # found by the --disk phase: the lock's holder id could not be written, and crisis play ended
    # with an OSError traceback, leaving .g.json.lock behind
    import resource
    import signal
    import sys
    from clirun import run_main
    run_main("play", "--help")  # every module imported before the limit
    previous = resource.getrlimit(resource.RLIMIT_FSIZE)
    handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    written, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, previous[1]))  # not a byte can be written to a file
    try:
        result = run_main("play", "--vs", "random", "--seed", "3", "--plain", "--save", "g.json", cwd=tmp_path,
                          env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, previous)
        signal.signal(signal.SIGXFSZ, handler)
        sys.dont_write_bytecode = written
    assert result.returncode in (1, 2) and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "cache") == []


def test_a_first_save_that_cannot_be_written_stops_the_game_before_it_starts_in_one_line(tmp_path):
    # found by the --disk phase: the lock could be written but not the first save; crisis said the
    # save would be tried again after the next action, and then ended (exit 2) before any action
    import resource
    import signal
    import sys
    from clirun import run_main
    run_main("play", "--help")  # every module imported before the limit
    previous = resource.getrlimit(resource.RLIMIT_FSIZE)
    handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    written, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    resource.setrlimit(resource.RLIMIT_FSIZE, (100, previous[1]))  # the lock fits, a save does not
    try:
        result = run_main("play", "--vs", "random", "--seed", "3", "--plain", "--save", "g.json", cwd=tmp_path,
                          input="1\n" * 5, env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, previous)
        signal.signal(signal.SIGXFSZ, handler)
        sys.dont_write_bytecode = written
    assert result.returncode in (1, 2)
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "tried again" not in result.stderr and "g.json" in result.stderr and "too large" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "cache") == []
