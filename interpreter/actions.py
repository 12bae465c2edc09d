"""Actions and decision points.

Every choice a player makes is a ``Decision`` listing its legal ``Action``s.
An action has a short text notation, the same one the command line, scenario
files and saved games use (see docs/notation.md).  Actions for token steps
are built once per game definition, so the hot path never formats text.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

import attrs


@attrs.frozen(slots=True)
class Action:
    kind: str  # keep value event claim place remove move done option marker bonus order
    text: str
    a: int = -1  # main argument: space, card, option or source location
    b: int = -1  # second argument: destination location, discarded card
    side: int = -1  # token owner when the text names one
    how: str = ""  # a card put in play or moved: "at" or "to" a place (b), "onto" a card (b)

    def __str__(self) -> str:
        return self.text


DONE = Action("done", "done")


@attrs.define(slots=True)
class Decision:
    """A point where one player must choose one of ``actions``."""

    player: int
    kind: str  # keep_objective play_card place remove move option marker bonus order
    actions: List[Action]
    optional: bool = False  # "done" is among the actions
    remaining: int = 0  # token steps left in the effect (cards left to order), for prompts
    hidden: bool = False  # a private choice: the other player must not see it
    rule: Optional[object] = None  # the rule text being carried out (for help screens)
    owner: int = -1  # whose tokens move in a token step
    on_behalf: int = -1  # the side whose rule this is, when another player makes the choice
    stage: str = ""  # "destination": choose only where the token goes (the other player picks which)
    origin: Optional[object] = None  # (operation, context) that asks, for the solo opponent's predictions

    def find(self, text: str) -> Optional[Action]:
        """The legal action written as ``text`` (case and spacing are ignored)."""
        wanted = normalize(text)
        for action in self.actions:
            if normalize(action.text) == wanted:
                return action
        return None


def normalize(text: str) -> str:
    return " ".join(text.lower().split())


class Locations:
    """Codes for where a token can be: map spaces are 0..n-1, then holders."""

    def __init__(self, space_names: Sequence[str], zone_names: Sequence[str]):
        self.n = len(space_names)
        self.POOL = self.n
        self.TRACK = self.n + 1
        self.SUPPLY = self.n + 2  # the standard source: pool first, then the crisis track
        self.first_box = self.n + 3
        # a crisis track's tokens above a zone: a source only (solo rulebook: Available tokens)
        self.first_above = self.first_box + len(zone_names)
        names = list(space_names) + ["pool", "track", "supply"] + [f"{z} box" for z in zone_names]
        names += [f"track above {z}" for z in zone_names]
        self.names = names

    def box(self, zone: int) -> int:
        return self.first_box + zone

    def track_above(self, zone: int) -> int:
        return self.first_above + zone


class ActionTable:
    """Interned actions, so legal-action lists are built without formatting text."""

    def __init__(self, sides: Sequence[str], locations: Locations, markers: Sequence[str]):
        self.sides = list(sides)
        self.locations = locations
        self.markers = list(markers)
        self._steps: Dict[Tuple[str, int, int, int], Action] = {}
        self._marker: Dict[Tuple[int, int], Action] = {}
        self._options: Dict[int, Action] = {}

    def step(self, kind: str, side: int, source: int, dest: int) -> Action:
        """A one-token step; ``side`` is -1 when the decision has only one owner."""
        return self.steps(kind, side)[source][dest]

    def steps(self, kind: str, side: int) -> List[List[Action]]:
        """All steps of a kind for one owner (or -1), as ``[source][dest]`` (built once)."""
        key = (kind, side, -1, -1)
        grid = self._steps.get(key)
        if grid is None:
            size = len(self.locations.names)
            grid = [[self._make_step(kind, side, s, d) for d in range(size)] for s in range(size)]
            self._steps[key] = grid
        return grid

    def _make_step(self, kind: str, side: int, source: int, dest: int) -> Action:
        names = self.locations.names
        who = f"{self.sides[side]} " if side >= 0 else ""
        if kind == "place":
            text = f"place {who}{names[dest]}"
        elif kind == "remove":
            text = f"remove {who}{names[source]}"
        else:
            text = f"move {who}{names[source]} to {names[dest]}"
        return Action(kind, text, a=source, b=dest, side=side)

    def option(self, index: int) -> Action:
        action = self._options.get(index)
        if action is None:
            action = self._options[index] = Action("option", f"option {index + 1}", a=index)
        return action

    def marker(self, marker: int, space: int) -> Action:
        key = (marker, space)
        action = self._marker.get(key)
        if action is None:
            text = f"{self.markers[marker]} to {self.locations.names[space]}"
            action = self._marker[key] = Action("marker", text, a=space, b=marker)
        return action
