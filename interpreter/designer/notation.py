"""Reading action texts without a game: is this a well-formed action naming real things?

The engine finds a legal action by comparing texts, which is all play needs.  A
scenario check such as ``{illegal: place Fort Sumpter}`` needs more: a text
that names no real place is never legal, so the check would pass whatever the
card does.  ``ActionReader.parse`` reads a text against the game's names and
words (docs/notation.md) and says what is wrong with it, with a "did you mean".
The words of actions come from the game program: its token verbs, the uses of
its cards, its choices of cards and places.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

import attrs

from crisis.interpreter.actions import normalize
from crisis.ruleset.diagnostics import did_you_mean, one_of


@attrs.frozen
class ParsedAction:
    kind: str  # the action's first word: place remove move done option marker keep order, a use, a choice's word
    text: str


class NotationError(Exception):
    """``part``: the words of the action text the mistake is in (an unknown name), where a
    message about it points."""

    def __init__(self, message: str, expected: Optional[str] = None, hint: Optional[str] = None,
                 part: Optional[str] = None):
        super().__init__(message)
        self.message, self.expected, self.hint, self.part = message, expected, hint, part


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
        words, at = self.words, self.at
        for name, parts in _spelled(names):  # longest first
            if words[at:at + len(parts)] == parts:
                self.at += len(parts)
                return name
        return None

    def upto(self, stop: str) -> str:
        end = self.words.index(stop, self.at) if stop in self.words[self.at:] else len(self.words)
        text = " ".join(self.original[self.at:end])
        self.at = end
        return text

    def done(self) -> bool:
        return self.at >= len(self.words)


_SPELLINGS: Dict[tuple, List[Tuple[str, List[str]]]] = {}


def _spelled(names: Sequence[str]) -> List[Tuple[str, List[str]]]:
    """Each name with its words as actions are compared (lowercase), the names of most words
    first (then in their order): worked out once for each list of names."""
    key = tuple(names)
    found = _SPELLINGS.get(key)
    if found is None:
        spelled = [(name, normalize(name).split(" ")) for name in names]
        found = sorted(spelled, key=lambda pair: -len(pair[1]))
        if len(_SPELLINGS) < 256:  # a handful of lists per game
            _SPELLINGS[key] = found
    return found


TOKEN_VERBS = ("place", "remove", "move")


def _spells(words: _Words, names: Sequence[str]) -> bool:
    """Whether the next words spell one of ``names`` (nothing is consumed)."""
    at = words.at
    found = words.take_name(names)
    words.at = at
    return found is not None


def decision_kinds(program) -> Dict[str, Tuple[str, ...]]:
    """The action words a decision of each kind can offer, from the program's operations: a check
    of a 'place' action at a card-play decision can never find it legal (docs/scenarios.md)."""
    from crisis.interpreter.engine import sequence
    from crisis.interpreter.engine.ops import EitherOp
    # only what this game can ask: a game without tokens has no 'place' decision, one without
    # markers no 'marker' (its scenario's misspelt kind is told among its own kinds)
    kinds: Dict[str, Tuple[str, ...]] = ({verb: (verb, "done") for verb in TOKEN_VERBS}
                                         if program.schema.tokens is not None else {})
    if any(isinstance(op, EitherOp) for op in program.ops):
        kinds["option"] = ("option",)
    if program.schema.markers:
        kinds["marker"] = ("marker",)
    for op in program.ops:
        if isinstance(op, sequence.KeepOp):
            kinds[f"{op.verb}_{op.noun}"] = ("keep",)
        elif isinstance(op, sequence.PlayOp):
            kinds["play_card"] = tuple(use.name for use in program.uses)
        elif isinstance(op, sequence.OrderOp):
            kinds["order"] = ("order",)
        elif isinstance(op, sequence.ForEachPlaceOp):
            kinds[op.word] = (op.word,)
    for word in _entity_words(program):
        kinds[word] = (word, "done")
    return kinds


def _entity_words(program) -> List[str]:
    """The words of the choices of statements on cards in play ("deploy", "tap"): their verbs."""
    from crisis.interpreter.engine.entities import EntityOp
    return list(dict.fromkeys(op.word for op in program.ops if isinstance(op, EntityOp)))


class ActionReader:
    """Reads action texts against one game's names."""

    def __init__(self, program):
        schema = program.schema
        self.program = program
        self.sides = list(schema.sides)
        self.places = list(schema.map.places)
        self.place = schema.map.place_words[0] if schema.map.place_words else "place"  # the game's word: "space"
        self.locations = list(program.locations.names)
        self.markers = [m.name for m in schema.markers]
        self.kinds = decision_kinds(program)
        played = program.cards[program.played_kind]
        self.played = list(played.ids)
        self.played_name = played.kind.name
        self.uses = {use.name: use for use in program.uses}
        from crisis.interpreter.engine import sequence
        self.kept: List[str] = []
        self.kept_name = "card"
        self.ordered: List[str] = []
        self.place_words = []
        for op in program.ops:
            if isinstance(op, sequence.KeepOp) and not op.random:  # a keep at random is nobody's action
                self.kept = list(program.cards[op.kind].ids)
                self.kept_name = program.cards[op.kind].kind.name
            elif isinstance(op, sequence.OrderOp):
                self.ordered = list(program.cards[op.kind].ids)
            elif isinstance(op, sequence.ForEachPlaceOp):
                self.place_words.append(op.word)
        self.entity_words = _entity_words(program)
        self.entities: List[str] = []
        if self.entity_words:
            from crisis.interpreter.engine.entities import tables
            self.entities = list(tables(program).ids)
        asked = {word for words in self.kinds.values() for word in words}  # the action words of its decisions
        self.keywords = list(dict.fromkeys(["done", *[word for word in (*TOKEN_VERBS, "option") if word in asked],
                                            *(["keep"] if self.kept else []), *(["order"] if self.ordered else []),
                                            *self.uses, *self.place_words, *self.entity_words]))

    def parse(self, text: str) -> ParsedAction:
        words = _Words(str(text))
        if words.done():
            raise NotationError("an empty action", expected=f"an action such as 'place {self.places[0]}'")
        marker = words.take_name(self.markers)
        if marker is not None:
            if words.take_word() != "to":
                raise NotationError(f"'{marker}' should be followed by 'to' and a {self.place}",
                                    expected=f"'{marker} to {self.places[0]}'")
            self._name(words, self.places, self.place)
            return self._end(words, ParsedAction("marker", str(text)))
        keyword = words.take_word()
        if keyword not in self.keywords and "to" in words.words and self.markers:
            wrong = " ".join(words.original[:words.words.index("to")])
            guess = did_you_mean(wrong, self.markers)
            if guess:
                raise NotationError(f"unknown marker '{wrong}'", expected=f"a marker: {one_of(self.markers)}",
                                    hint=f"did you mean '{guess}'?", part=wrong)
        if keyword not in self.keywords:
            raise NotationError(f"'{words.original[0]}' does not start an action",
                                expected=f"{one_of(self.keywords + (['a marker name'] if self.markers else []), limit=20)}",
                                hint=_suggest(keyword, self.keywords), part=words.original[0])
        if keyword == "done":
            pass
        elif keyword in self.entity_words and (keyword not in TOKEN_VERBS or _spells(words, self.entities)):
            self._entity(words, keyword)
        elif keyword == "keep":
            self._name(words, self.kept, self._card_word(self.kept_name))
        elif keyword in self.uses:
            use = self.uses[keyword]
            pay = getattr(use, "pay_word", "")
            if use.target is not None and pay:
                self._name(words, self.played, self._card_word(self.played_name), stop=pay)
                if words.take_word() != pay:
                    raise NotationError(f"'{keyword}' names the card taken, then '{pay}' and the card paid with",
                                        expected=f"'{keyword} {self.played[0]} {pay} {self.played[1]}'")
            self._name(words, self.played, self._card_word(self.played_name))
        elif keyword == "option":
            number = words.take_word()
            # ASCII digits only ('²' passes isdigit(), not int()), never converted past nine of them
            if (number is None or not number.isdigit() or not number.isascii() or len(number) > 9
                    or int(number) < 1):
                raise NotationError("'option' takes the number of the option, from 1", expected="'option 1'")
        elif keyword in self.place_words:
            self._name(words, self.places, self.place)
        elif keyword == "order":
            count = 0
            while not words.done():
                self._name(words, self.ordered, self._card_word(self.played_name), single=True)
                count += 1
            if not count:
                raise NotationError("'order' lists the cards, first played first", expected="'order a b c'")
        else:  # place, remove, move
            words.take_name(self.sides)
            self._name(words, self.locations, self.place, stop="to" if keyword == "move" else None)
            if keyword == "move":
                if words.take_word() != "to":
                    raise NotationError("'move' names where the token comes from, then 'to' and where it goes",
                                        expected=f"'move {self.places[0]} to {self.places[1]}'")
                self._name(words, self.locations, self.place)
        return self._end(words, ParsedAction(keyword, str(text)))

    def _entity(self, words: _Words, keyword: str) -> None:
        """``VERB ID``, ``VERB ID at PLACE``, ``VERB ID to PLACE``, ``VERB ID onto ID`` (cards in play)."""
        card = words.take_name(self.entities)
        if card is None:
            self._name(words, self.entities, "card", single=True)
        how = words.take_word()
        if how is None:
            return
        if how in ("at", "to"):
            self._name(words, self.places, self.place)
        elif how == "onto":
            self._name(words, self.entities, "card")
        else:
            raise NotationError(f"'{keyword}' names the card, then 'at' or 'to' a {self.place} or 'onto' a card",
                                expected=f"'{keyword} {self.entities[0]}', '{keyword} {self.entities[0]} at "
                                         f"{self.places[0]}'")

    @staticmethod
    def _card_word(kind_name: str) -> str:
        """A card kind's name in the singular ("strategy cards" -> "strategy card")."""
        return kind_name[:-1] if kind_name.endswith("s") else kind_name

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
                            hint=_suggest(wrong, names), part=wrong)

    @staticmethod
    def _end(words: _Words, parsed: ParsedAction) -> ParsedAction:
        if not words.done():
            raise NotationError(f"unexpected '{words.rest()}' at the end of the action", part=words.rest())
        return parsed
