"""Reading action texts without a game: is this a well-formed action naming real things?

The engine finds a legal action by comparing texts, which is all play needs.  A
scenario check such as ``{illegal: place Fort Sumpter}`` needs more: a text
that names no real space is never legal, so the check would pass whatever the
card does.  ``parse_action`` reads a text against the game's names (see
docs/notation.md) and says what is wrong with it, with a "did you mean".
"""

from __future__ import annotations

from typing import Optional, Sequence

import attrs

from crisis.ruleset.diagnostics import did_you_mean, one_of

from .actions import normalize

# The action kinds a decision of each kind can offer: a check of a 'place'
# action at a card-play decision can never find it legal (docs/scenarios.md).
ACTIONS_AT = {
    "keep_objective": ("keep",),
    "assign_objective": ("keep",),  # the solo game: the player keeps one of two, the other is the opponent's
    "play_card": ("value", "event", "claim"),
    "place": ("place", "done"),
    "remove": ("remove", "done"),
    "move": ("move", "done"),
    "option": ("option",),
    "marker": ("marker",),
    "bonus": ("bonus",),
    "order": ("order",),
}
DECISION_KINDS = tuple(ACTIONS_AT)
KEYWORDS = ("keep", "value", "event", "claim", "place", "remove", "move", "done", "option", "bonus", "order")


@attrs.frozen
class ParsedAction:
    kind: str  # keep value event claim place remove move done option marker bonus order
    text: str


class NotationError(Exception):
    def __init__(self, message: str, expected: Optional[str] = None, hint: Optional[str] = None):
        super().__init__(message)
        self.message, self.expected, self.hint = message, expected, hint


def _suggest(word: str, names: Sequence[str]) -> Optional[str]:
    guess = did_you_mean(word, names)
    return f"did you mean '{guess}'?" if guess else None


class _Words:
    """The words of an action text, consumed left to right by matching names."""

    def __init__(self, text: str):
        self.words = normalize(text).split(" ") if text.strip() else []
        self.original = text.split()
        self.at = 0

    def rest(self) -> str:
        return " ".join(self.original[self.at:])

    def take_word(self) -> Optional[str]:
        if self.at >= len(self.words):
            return None
        self.at += 1
        return self.words[self.at - 1]

    def take_name(self, names: Sequence[str]) -> Optional[str]:
        """The longest name that the next words spell (names may have several words)."""
        best = None
        for name in names:
            parts = normalize(name).split(" ")
            if self.words[self.at:self.at + len(parts)] == parts and (best is None or len(parts) > len(best[1])):
                best = (name, parts)
        if best is None:
            return None
        self.at += len(best[1])
        return best[0]

    def upto(self, stop: str) -> str:
        """The words up to ``stop`` (or the end), in their original spelling, consumed."""
        end = self.words.index(stop, self.at) if stop in self.words[self.at:] else len(self.words)
        text = " ".join(self.original[self.at:end])
        self.at = end
        return text

    def done(self) -> bool:
        return self.at >= len(self.words)


class ActionReader:
    """Reads action texts against one game's names."""

    def __init__(self, tables):
        t = tables
        self.sides = list(t.sides)
        self.spaces = list(t.spaces)
        self.locations = list(t.locations.names)
        self.markers = [m.name for m in t.markers]
        self.cards = [c.id for c in t.strategy_cards]
        self.objectives = [c.id for c in t.objective_cards]
        self.pivotal = [t.spaces[p] for p in t.pivotal]

    def parse(self, text: str) -> ParsedAction:
        words = _Words(str(text))
        if words.done():
            raise NotationError("an empty action", expected=f"an action such as 'place {self.spaces[0]}'")
        marker = words.take_name(self.markers)
        if marker is not None:
            if words.take_word() != "to":
                raise NotationError(f"'{marker}' should be followed by 'to' and a space",
                                    expected=f"'{marker} to {self.spaces[0]}'")
            self._name(words, self.spaces, "space")
            return self._end(words, ParsedAction("marker", str(text)))
        keyword = words.take_word()
        if keyword not in KEYWORDS and "to" in words.words:
            # '<marker> to <space>' with a misspelt marker
            wrong = " ".join(words.original[:words.words.index("to")])
            guess = did_you_mean(wrong, self.markers)
            if guess:
                raise NotationError(f"unknown marker '{wrong}'", expected=f"a marker: {one_of(self.markers)}",
                                    hint=f"did you mean '{guess}'?")
        if keyword not in KEYWORDS:
            raise NotationError(f"'{words.original[0]}' does not start an action",
                                expected=f"{one_of(list(KEYWORDS) + ['a marker name'], limit=20)}",
                                hint=_suggest(keyword, KEYWORDS))
        if keyword == "done":
            pass
        elif keyword == "keep":
            self._name(words, self.objectives, "objective card")
        elif keyword in ("value", "event"):
            self._name(words, self.cards, "strategy card")
        elif keyword == "claim":
            self._name(words, self.cards, "strategy card", stop="discard")
            if words.take_word() != "discard":
                raise NotationError("'claim' names the card taken, then 'discard' and the card discarded",
                                    expected=f"'claim {self.cards[0]} discard {self.cards[1]}'")
            self._name(words, self.cards, "strategy card")
        elif keyword == "option":
            number = words.take_word()
            # ASCII digits only ('²' passes isdigit(), not int()), never converted past nine of them
            if (number is None or not (number.isascii() and number.isdigit()) or len(number) > 9
                    or int(number) < 1):
                raise NotationError("'option' takes the number of the option, from 1", expected="'option 1'")
        elif keyword == "bonus":
            self._name(words, self.pivotal, "pivotal space")
        elif keyword == "order":
            count = 0
            while not words.done():
                self._name(words, self.cards, "strategy card", single=True)
                count += 1
            if not count:
                raise NotationError("'order' lists the cards, first played first", expected="'order a b c'")
        else:  # place, remove, move
            words.take_name(self.sides)
            self._name(words, self.locations, "space", stop="to" if keyword == "move" else None)
            if keyword == "move":
                if words.take_word() != "to":
                    raise NotationError("'move' names where the token comes from, then 'to' and where it goes",
                                        expected=f"'move {self.spaces[0]} to {self.spaces[1]}'")
                self._name(words, self.locations, "space")
        return self._end(words, ParsedAction(keyword, str(text)))

    def _name(self, words: _Words, names: Sequence[str], what: str, stop: Optional[str] = None,
              single: bool = False) -> str:
        found = words.take_name(names)
        if found is not None:
            return found
        if single:
            wrong = words.original[words.at] if words.at < len(words.original) else ""
            words.at += 1
        else:
            wrong = words.upto(stop) if stop else words.rest()
            if not stop:
                words.at = len(words.words)
        if not wrong:
            raise NotationError(f"a {what} is missing", expected=f"a {what}: {one_of(list(names))}")
        raise NotationError(f"unknown {what} '{wrong}'", expected=f"a {what}: {one_of(list(names))}",
                            hint=_suggest(wrong, names))

    @staticmethod
    def _end(words: _Words, parsed: ParsedAction) -> ParsedAction:
        if not words.done():
            raise NotationError(f"unexpected '{words.rest()}' at the end of the action")
        return parsed
