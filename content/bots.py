"""The search bot's settings, as content: its budget and where it searches, read from
``bots/search.yaml`` (optional: what the file leaves out keeps the value below).  The bots'
judgement of a position is ``bots/evaluation.yaml`` (content/evaluation.py).  docs/bots.md
explains every setting.

Bots are part of the content because their judgement is about this game's rules: a designer
who changes the cards may want to retune them, without touching Python.  They are not part of
the rules: changing them never changes the content's digest, so saved games still resume.
"""

from __future__ import annotations

from typing import Tuple

import attrs

from crisis.ruleset.limits import MAX_SEARCH_ITERATIONS, MAX_SEARCH_MILLISECONDS

# kinds of decision the engine itself asks, in any game; a game's own kinds (its "keep" piles,
# the verbs of its cards in play) are those its evaluation's horizon names (bots/evaluation.yaml)
ENGINE_DECISIONS = ("play_card", "order", "option", "marker")


class SettingError(ValueError):
    """A bot's name or setting that cannot be used.  The English message is for logs and the
    Python API; ``key`` and ``params`` let a front end say it in the user's language."""

    def __init__(self, message: str, key: str, **params):
        super().__init__(message)
        self.key, self.params = key, params


@attrs.frozen
class Budget:
    """How long the search bot thinks at each decision it searches."""

    iterations: int = 20
    milliseconds: float = 0.0  # > 0: a time budget instead of a count of iterations

    @classmethod
    def parse(cls, text: str) -> "Budget":
        """``200`` (iterations) or ``50ms`` (milliseconds per decision), within the limits."""
        text = str(text).strip().lower()
        budget = None
        try:
            if text.endswith("ms"):
                value = float(text[:-2])
                if 0 < value <= MAX_SEARCH_MILLISECONDS:
                    budget = cls(iterations=0, milliseconds=value)
            elif 0 < int(text) <= MAX_SEARCH_ITERATIONS:
                budget = cls(iterations=int(text))
        except ValueError:
            pass
        if budget is None:
            raise SettingError(f"'{text}' is not a search budget: write a number of iterations (like 20, at most "
                               f"{MAX_SEARCH_ITERATIONS:,}) or of milliseconds (like 500ms, at most "
                               f"{MAX_SEARCH_MILLISECONDS:,}ms)", "budget", given=text,
                               iterations=MAX_SEARCH_ITERATIONS, milliseconds=MAX_SEARCH_MILLISECONDS)
        return budget

    def __str__(self) -> str:
        return f"{self.milliseconds:g}ms" if self.milliseconds > 0 else str(self.iterations)


@attrs.frozen
class SearchSettings:
    budget: Budget = Budget()
    exploration: float = 0.7  # the constant of the upper confidence bound
    scale: float = 2.0  # VP of evaluation per unit of log-odds of winning
    prior: int = 4  # visits the heuristic's judgement of an action counts for
    # kinds of the bot's own decision searched (the others are the heuristic's); none listed: the
    # kinds of the evaluation's horizon, the decisions that shape the game
    decisions: Tuple[str, ...] = ()
    widen: int = 0  # > 0: at each node only the heuristic's best this many available actions are tried
    replies: int = 0  # the same for the opponent's card plays (1: the opponent plays as the heuristic would)
    rollout: int = 0  # card plays the heuristic plays on past a new node before its position is judged
    order_playouts: int = 4  # games played out to judge each card of an order at a new node (0: none)
    reply_depth: int = 1  # the opponent's card plays tried on to the horizon (1) or through their token steps (0)
    policy_depth: int = 1  # between nodes, options and markers tried on to the horizon (1) or through their steps (0)


@attrs.frozen
class BotSettings:
    search: SearchSettings = SearchSettings()


# What each file may say: key -> (type, smallest value allowed)
SEARCH_KEYS = {"iterations": (int, 1), "milliseconds": (float, 0), "exploration": (float, 0),
               "scale": (float, 0.01), "prior": (int, 0),
               "widen": (int, 0), "replies": (int, 0), "rollout": (int, 0), "order_playouts": (int, 0),
               "reply_depth": (int, 0), "policy_depth": (int, 0)}
