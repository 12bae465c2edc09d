"""Fit the heuristic bot's evaluation weights to games: which terms predict the winner.

Plays games between heuristic bots (a share of their card plays at random, so that positions
vary), records the evaluation's terms (``crisis.interpreter.evaluation.TERMS``, then one per
crisis zone) at every card play, for the player about to play, with whether that player went
on to win, and fits a logistic regression by Newton's method.  The weights it prints are the
coefficients divided by the VP coefficient (so they are in VP, as ``bots/heuristic.yaml``
has them), with the logistic scale (VP of evaluation per unit of log-odds) that the search
bot's ``scale`` setting takes.  One fit per stage (round 1, 2, 3, the Final Crisis) shows how
much the weights move over a game.

    python tools/fit_evaluation.py --games 600 --seed 1 [--content DIR] [--random 0.2]
        [--data positions.json] [--terms vp,final_scoring,...]

``--data`` keeps the positions played (a later run with the same file fits again without
playing); ``--terms`` fits on some terms only (terms that move together, such as the tokens
on the map, in the pool and on the track, which always add up to the same, make single
coefficients meaningless).

Needs numpy (``pip install 'crisis-engine[report]'``).  Takes about a second per game.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from crisis.content.loader import load_content  # noqa: E402
from crisis.interpreter.evaluation import TERMS  # noqa: E402
from crisis.interpreter.game import Game, Options  # noqa: E402
from crisis.interpreter.heuristic import HeuristicBot, judge_for  # noqa: E402


def stage(state) -> str:
    return f"round {state.round}" if state.phase in ("card_play", "objectives") else "final crisis"


def play(content, seed: int, explore: float):
    """The terms at each card play of one game, and the winner."""
    game = Game(content, seed, Options(), log=False)
    judge = judge_for(game.tables)
    bots = [HeuristicBot(seed, 0), HeuristicBot(seed, 1)]
    rng = random.Random(f"fit/{seed}")
    rows = []
    while game.decision is not None:
        decision = game.decision
        if decision.kind in ("play_card", "order"):
            state = game.state
            rows.append((stage(state), decision.player, judge.evaluator.terms(state, decision.player)))
        if decision.kind == "play_card" and rng.random() < explore:
            action = decision.actions[rng.randrange(len(decision.actions))]
        else:
            action = bots[decision.player].choose(game, decision)
        game.apply(action)
    return rows, game.result.winner


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--content", default=None)
    parser.add_argument("--random", type=float, default=0.2, help="share of card plays made at random")
    parser.add_argument("--data", help="a file to keep the positions in, or to read them from")
    parser.add_argument("--terms", help="the terms to fit on, separated by commas (default: all)")
    args = parser.parse_args()
    content = load_content(args.content)
    zones = [f"breached {z.name}" for z in content.board.zones]
    names = list(TERMS) + zones
    if args.data and Path(args.data).exists():
        data = json.loads(Path(args.data).read_text())
    else:
        data = {}
        for index in range(args.games):
            rows, winner = play(content, args.seed + index, args.random)
            for label, player, terms in rows:
                # a column per side absorbs the sides' difference in strength
                data.setdefault(label, []).append((terms + [1.0 if player == 0 else -1.0],
                                                   1.0 if winner == player else 0.0))
            if (index + 1) % 50 == 0:
                print(f"{index + 1} games", file=sys.stderr)
        if args.data:
            Path(args.data).write_text(json.dumps(data))
    keep = list(range(len(names))) if not args.terms else [names.index(t) for t in args.terms.split(",")]
    keep.append(len(names))  # the side column
    names = [names[i] for i in keep[:-1]]
    data = {label: [([r[0][i] for i in keep], r[1]) for r in rows] for label, rows in data.items()}
    everything = [row for rows in data.values() for row in rows]
    for label, rows in [("all", everything)] + sorted(data.items()):
        x = np.array([r[0] for r in rows])
        y = np.array([r[1] for r in rows])
        used = [i for i in range(x.shape[1]) if np.any(x[:, i] != 0)]
        beta = np.zeros(x.shape[1])
        beta[used] = fit(x[:, used], y)
        vp = beta[0] if beta[0] > 0 else 1.0
        print(f"\n{label}: {len(rows)} positions; scale {1 / vp:.2f} VP per unit of log-odds")
        for name, b in zip(names + ["(side)"], beta):
            print(f"  {name:28} {b / vp:7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
