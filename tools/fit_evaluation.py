"""Fit the bots' evaluation weights (bots/evaluation.yaml) to games: which terms predict the winner.

Plays games between heuristic bots (or the bot ``--bot`` names: the search bot, to fit the
positions it reaches) on the general engine (a share of their card plays at random,
so that positions vary), records at every decision of the evaluation's horizon (the positions
a trial is judged at) each term of bots/evaluation.yaml for the player about to decide (its
value less the other side's, as the bots work it out; 0 while the term does not count), with
whether that player went on to win, and fits a logistic regression by Newton's method (a column
per side takes up the sides' difference in strength).  The weights are the coefficients divided
by the coefficient of the first term (your VP, say), so they are in its units, as the file has
them; the logistic scale (points of evaluation per unit of log-odds) is what the search bot's
``scale`` setting takes.  One fit per stage (the steps of the sequence of play under way) shows
how much the weights move over a game.

    python tools/fit_evaluation.py --games 600 [--seed 1] [--content DIR] [--random 0.2] [--jobs 2] [--bot search]
        [--data positions.json] [--terms "your VP,lead,..."] [--write] [--write-scale]

``--data`` keeps the positions played (a later run with the same file fits again without
playing); ``--terms`` fits on some terms only (the others keep their weights); ``--write``
puts the fitted weights into the content's bots/evaluation.yaml (comments and layout kept),
``--write-scale`` the scale into bots/search.yaml.

Needs numpy (``pip install 'crisis-engine[report]'``).  Takes about a third of a second per game.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import re
import sys
from pathlib import Path
from crisis.interpreter.engine.program import program_of

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from crisis.content.loader import load_content  # noqa: E402

_CONTENT = None
_CONTENT_DIR = None


def content():
    global _CONTENT
    if _CONTENT is None:
        _CONTENT = load_content(_CONTENT_DIR)
    return _CONTENT


def fitted_terms(evaluator):
    """The evaluation's terms as the bots judge a position at the horizon (no quick stand-ins)."""
    return [term for term in evaluator.terms if term.kind != "quick"]


def play(task):
    """The terms at each decision of the horizon of one game, and the winner."""
    seed, explore, bot = task
    from crisis.interpreter.engine.game import Game
    from crisis.interpreter.players.heuristic import judge_for
    from crisis.interpreter.players.registry import controller_for
    from crisis.interpreter.players.sim import Sim
    c = content()
    game = Game.of(c, seed, log=False)
    judge = judge_for(game.program)
    evaluator = judge.evaluator
    terms = fitted_terms(evaluator)
    factory = controller_for(bot, c)
    bots = [factory(seed, side) for side in range(len(game.program.schema.sides))]
    rng = random.Random(f"fit/{seed}")
    rows = []
    while game.decision is not None:
        decision = game.decision
        if decision.kind in judge.horizon and len(decision.actions) > 1:
            board = Sim.of(game).board
            steps = evaluator.steps_under_way(board.position)
            names = evaluator.step_names
            label = " / ".join(names[frame[0]] for frame in board.position.stack if frame[0] in names)
            row = [float(term.difference(board, decision.player)) if not term.during or term.during & steps else 0.0
                   for term in terms]
            rows.append((label, decision.player, row))
        if decision.kind in judge.horizon and rng.random() < explore:
            action = decision.actions[rng.randrange(len(decision.actions))]
        else:
            action = bots[decision.player].choose(game, decision)
        game.apply(action)
    return rows, game.view.winner


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3) -> np.ndarray:
    """Logistic regression coefficients (Newton's method with a small ridge)."""
    beta = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-x @ beta))
        gradient = x.T @ (y - p) - ridge * beta
        hessian = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(x.shape[1])
        step = np.linalg.solve(hessian, gradient)
        beta += step
        if np.max(np.abs(step)) < 1e-8:
            break
    return beta


def accuracy(x: np.ndarray, y: np.ndarray, beta: np.ndarray) -> float:
    return float(np.mean(((x @ beta) > 0) == (y > 0.5)))


def write_weights(path: Path, weights: dict) -> None:
    """Put ``weights`` (term as written -> weight) into an evaluation.yaml, keeping its layout."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    number = r"-?\d+(?:\.\d*)?(?:[eE]-?\d+)?"
    in_terms = False
    for index, line in enumerate(lines):
        if re.match(r"^terms:\s*(#.*)?$", line):
            in_terms = True
            continue
        if in_terms and re.match(r"^\S", line):
            in_terms = False
        if not in_terms:
            continue
        match = re.match(r"^(  )([^ #][^:#]*?):(\s*)(" + number + r")?(.*)$", line.rstrip("\n"))
        if match is None or match.group(2) not in weights:
            continue
        value = f"{weights[match.group(2)]:.2f}"
        if match.group(4) is not None:
            lines[index] = f"{match.group(1)}{match.group(2)}:{match.group(3)}{value}{match.group(5)}\n"
            continue
        for inner in range(index + 1, len(lines)):
            if not lines[inner].startswith("    "):
                break
            found = re.match(r"^(\s+weight:\s*)(" + number + r")(.*)$", lines[inner].rstrip("\n"))
            if found:
                lines[inner] = f"{found.group(1)}{value}{found.group(3)}\n"
                break
    path.write_text("".join(lines), encoding="utf-8")


def write_scale(path: Path, scale: float) -> None:
    text = path.read_text(encoding="utf-8")
    line = re.compile(r"^(scale:\s*)(-?\d+(?:\.\d*)?)(.*)$", re.M)
    if line.search(text):
        text = line.sub(lambda m: f"{m.group(1)}{scale:.2f}{m.group(3)}", text, count=1)
    else:
        text += f"scale: {scale:.2f}\n"
    path.write_text(text, encoding="utf-8")


def main() -> int:
    global _CONTENT_DIR
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--content", default=None)
    parser.add_argument("--random", type=float, default=0.2, help="share of the horizon's decisions made at random")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--bot", default="heuristic",
                        help="the bot playing every side, as crisis sim names it (default heuristic; search, search:40)")
    parser.add_argument("--data", help="a file to keep the positions in, or to read them from")
    parser.add_argument("--terms", help="the terms to fit on, separated by commas (default: all)")
    parser.add_argument("--write", action="store_true", help="write the fitted weights into bots/evaluation.yaml")
    parser.add_argument("--write-scale", action="store_true", help="write the fitted scale into bots/search.yaml")
    args = parser.parse_args()
    _CONTENT_DIR = args.content
    from crisis.interpreter.players.heuristic import judge_for
    c = content()
    evaluator = judge_for(program_of(c)).evaluator
    terms = fitted_terms(evaluator)
    texts = [term.text for term in program_of(c).definition.evaluation.terms if term.weight]
    if len(texts) != len(terms):
        raise SystemExit("the evaluation's terms could not be matched to their texts")
    sides = len(program_of(c).schema.sides)
    if args.data and Path(args.data).exists():
        data = json.loads(Path(args.data).read_text())
    else:
        tasks = [(args.seed + index, args.random, args.bot) for index in range(args.games)]
        if args.jobs > 1:
            with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
                games = pool.map(play, tasks, chunksize=4)
        else:
            games = [play(task) for task in tasks]
        data = {"terms": texts, "rows": []}
        for rows, winner in games:
            for label, player, row in rows:
                sided = [1.0 if player == side else 0.0 for side in range(sides - 1)]
                data["rows"].append((label, row + sided, 1.0 if winner == player else 0.0))
        if args.data:
            Path(args.data).write_text(json.dumps(data))
    names = data["terms"]
    keep = list(range(len(names))) if not args.terms else [names.index(t.strip()) for t in args.terms.split(",")]
    columns = keep + list(range(len(names), len(names) + sides - 1))
    labelled = {}
    for label, row, won in data["rows"]:
        labelled.setdefault(label, []).append(([row[i] for i in columns], won))
    everything = [row for rows in labelled.values() for row in rows]
    fitted = None
    for label, rows in [("all", everything)] + sorted(labelled.items()):
        x = np.array([r[0] for r in rows])
        y = np.array([r[1] for r in rows])
        used = [i for i in range(x.shape[1]) if np.any(x[:, i] != 0)]
        if len(rows) < 20 or not used:
            continue
        beta = np.zeros(x.shape[1])
        beta[used] = fit(x[:, used], y)
        unit = beta[0] if beta[0] > 0 else 1.0
        print(f"\n{label}: {len(rows)} positions; predicts the winner {accuracy(x, y, beta):.1%}; "
              f"scale {1 / unit:.2f} per unit of log-odds")
        for name, b in zip([names[i] for i in keep] + [f"(side {s})" for s in range(sides - 1)], beta):
            print(f"  {name:48} {b / unit:7.3f}")
        if label == "all":
            fitted = ({names[i]: beta[k] / unit for k, i in enumerate(keep)}, 1 / unit)
    if fitted is None:
        return 1
    root = Path(args.content) if args.content else Path(c.root) if getattr(c, "root", None) else None
    if args.write or args.write_scale:
        if root is None:
            raise SystemExit("say which content folder to write to (--content)")
        if args.write:
            write_weights(root / "bots" / "evaluation.yaml", fitted[0])
            print(f"\nwrote the weights into {root / 'bots' / 'evaluation.yaml'}")
        if args.write_scale:
            write_scale(root / "bots" / "search.yaml", fitted[1])
            print(f"wrote the scale into {root / 'bots' / 'search.yaml'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
