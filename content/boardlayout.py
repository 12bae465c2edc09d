"""How a game's board is drawn for people: ``layout.yaml`` (docs/layout.md), optional.

The board in the line mode and the full-screen interface is drawn from the
game's schema (``state.yaml``): the map's places by group, each side's tokens,
counters, tracks, holders and the piles a player may see.  A layout says which
of them go where and in what order: the counters on the title line and the
line under it, the attribute marked on the map, the holders each track's table
shows, how the viewer's own piles are listed, which other piles are counted.
It holds no words: what players read comes from the catalogs, by the schema's
names (``cli.board.*``).  A game without a layout gets one made from its
schema (``default_layout``).  Every name is checked against the schema, at its
file, line and column, with the nearest name.
"""

from __future__ import annotations

from typing import Dict, Optional, Sequence, Tuple

import attrs

from crisis.ruleset.diagnostics import a_noun, did_you_mean, one_of, shown

from .yamlfile import Map, Seq

LIST, INLINE, NONE = "list", "inline", "none"
SHOW = (LIST, INLINE)
COMPACT = (LIST, INLINE, NONE)
RULES = ("detailed", "always", "never")
STEPS = ("outermost", "innermost")  # the step the title line names: the card play, or its turn


@attrs.frozen
class Fact:
    """A counter (each side's, or the game's) or a pile counted, on the line under the title."""

    counter: str = ""
    pile: str = ""
    during: Tuple[str, ...] = ()  # the steps of the sequence of play it is shown in (empty: always)
    short_sides: bool = False  # the compact header names the sides by their short names


@attrs.frozen
class Own:
    """One of the viewer's own piles: a line per card (``list``) or its cards on one line
    (``inline``); a card's rule always, only in the detailed form, or never; and its form in the
    full screen's narrow column (``none``: left out there)."""

    pile: str
    show: str = LIST
    rules: str = "detailed"
    compact: str = LIST


@attrs.frozen
class Table:
    """A track drawn as a table: a row per side, its zones, then these holders and the zones entered."""

    track: str
    holders: Tuple[str, ...] = ()


@attrs.frozen
class BoardLayout:
    title: Tuple[str, ...]  # the game's counters on the title line
    facts: Tuple[Fact, ...]  # the line under it
    mark: Optional[str]  # the attribute marked on the map's places
    tables: Tuple[Table, ...]
    holders: Tuple[str, ...]  # holders on a line of their own (in no track's table)
    own: Tuple[Own, ...]  # the viewer's piles, in order
    counts: Tuple[str, ...]  # another side's piles nobody else sees, counted
    counts_compact: Tuple[str, ...]
    face_up: Tuple[str, ...]  # another side's piles shown once they are face up
    shared: Tuple[str, ...]  # piles everyone sees, shown by their number of cards and top card
    automa: Tuple[str, ...]  # in a game against the automa, its piles the person is shown
    from_file: bool = False
    step: str = STEPS[0]  # the step under way the title line names (STEPS)
    turn: bool = False  # the title line names the side whose turn is under way ("North's turn")


def default_layout(schema) -> BoardLayout:
    """The board of a game without a layout: every counter, the first attribute, every track with
    every holder (or the holders on their own), every pile a player keeps to themself listed and
    counted, the piles everyone sees, every hidden pile shown once face up."""
    title = tuple(c.name for c in schema.counters if not c.each_side)
    facts = tuple(Fact(counter=c.name) for c in schema.counters if c.each_side)
    facts += tuple(Fact(pile=p.name) for p in schema.piles if p.seen_by == "nobody" and not p.each_side)
    holders = tuple(h.name for h in schema.tokens.holders) if schema.tokens else ()
    tables = tuple(Table(t.name, holders) for t in schema.tracks)
    own = tuple(Own(p.name) for p in schema.piles if p.seen_by == "owner" and p.each_side)
    counts = tuple(p.name for p in schema.piles if p.each_side and p.seen_by != "everyone")
    shared = tuple(p.name for p in schema.piles if p.seen_by == "everyone")
    return BoardLayout(title=title, facts=facts, mark=next(iter(schema.map.attributes), None), tables=tables,
                       holders=() if tables else holders, own=own, counts=counts, counts_compact=counts,
                       face_up=counts, shared=shared, automa=())


KEYS = {"header": dict, "map": dict, "tracks": dict, "holders": list, "own": dict, "counts": list,
        "counts compact": list, "face up": list, "shared": list, "automa": list}


class LayoutReader:
    """Reads ``layout.yaml`` against a game's schema and the steps of its sequence of play."""

    def __init__(self, loader, schema, steps: Sequence[str]):
        self.loader, self.problems = loader, loader.problems
        self.schema, self.steps = schema, tuple(steps)
        self.counters = tuple(c.name for c in schema.counters)
        self.piles = tuple(p.name for p in schema.piles)
        self.holders = tuple(h.name for h in schema.tokens.holders) if schema.tokens else ()

    def read(self, path) -> Optional[BoardLayout]:
        file, data = self.loader.read(path)
        if file is None or data is None:
            return None
        self.file = file
        spec, _ = self.loader.fields(file, data, "layout.yaml", {}, KEYS)
        if spec is None:
            return None
        found = attrs.asdict(default_layout(self.schema), recurse=False)
        found["from_file"] = True
        if "header" in spec:
            header, _ = self.loader.fields(file, spec["header"], "the header", {},
                                           {"title": list, "facts": list, "step": str, "turn": bool},
                                           at=spec.value_positions["header"])
            if header is not None and "turn" in header:
                found["turn"] = bool(header["turn"])
            if header is not None and "step" in header:
                found["step"] = self.choice(header, "step", STEPS) or STEPS[0]
            if header is not None and "title" in header:
                found["title"] = self.names(header["title"], self.counters, "counter", each_side=False)
            if header is not None and "facts" in header:
                found["facts"] = tuple(filter(None, (self.fact(item, at) for item, at in
                                                     zip(header["facts"], header["facts"].positions))))
        if "map" in spec:
            map_spec, _ = self.loader.fields(file, spec["map"], "the map", {}, {"mark": str},
                                             at=spec.value_positions["map"])
            if map_spec is not None and "mark" in map_spec:
                found["mark"] = self.name(map_spec["mark"], map_spec.value_positions["mark"],
                                          tuple(self.schema.map.attributes), "attribute")
        if "tracks" in spec:
            found["tables"] = self.tables(spec["tracks"])
            shown_in = {h for table in found["tables"] for h in table.holders}
            found["holders"] = tuple(h for h in self.holders if h not in shown_in)
        if "holders" in spec:
            found["holders"] = self.names(spec["holders"], self.holders, "holder")
        if "own" in spec:
            found["own"] = self.own(spec["own"])
        for key in ("counts", "counts compact", "face up", "shared", "automa"):
            if key in spec:
                found[key.replace(" ", "_")] = self.names(spec[key], self.piles, "pile")
        if "counts" in spec and "counts compact" not in spec:
            found["counts_compact"] = found["counts"]
        return BoardLayout(**found)

    # ------------------------------------------------------------ parts
    def choice(self, body, field: str, allowed: Tuple[str, ...]) -> Optional[str]:
        """``body[field]`` if it is one of ``allowed``; else a problem at it, and None."""
        if body[field] in allowed:
            return body[field]
        guess = did_you_mean(str(body[field]), allowed)
        self.problems.add(self.file.diagnostic(body.value_positions[field], f"'{field}' cannot be '{shown(body[field])}'",
                                               expected=one_of(allowed), hint=f"did you mean '{guess}'?" if guess else None))
        return None

    def name(self, value, at, known: Tuple[str, ...], what: str) -> Optional[str]:
        if isinstance(value, str) and value in known:
            return value
        guess = did_you_mean(str(value), known) if isinstance(value, str) else None
        self.problems.add(self.file.diagnostic(at, f"unknown {what} '{shown(value)}'",
                                               expected=f"{a_noun(what)} of the game: {one_of(known)}" if known
                                               else f"none: the game declares no {what}",
                                               hint=f"did you mean '{guess}'?" if guess else None))
        return None

    def names(self, items, known: Tuple[str, ...], what: str, each_side: Optional[bool] = None) -> Tuple[str, ...]:
        out = []
        if not isinstance(items, Seq):
            return ()
        for item, at in zip(items, getattr(items, "positions", ())):
            name = self.name(item, at, known, what)
            if name is not None and each_side is not None and self.counter(name).each_side != each_side:
                self.problems.add(self.file.diagnostic(at, f"the counter '{name}' is kept for each side: it goes "
                                                           f"under 'facts', not on the title line"))
                continue
            if name is not None:
                out.append(name)
        return tuple(out)

    def counter(self, name: str):
        return self.schema.counters[self.counters.index(name)]

    def fact(self, item, at) -> Optional[Fact]:
        body, ok = self.loader.fields(self.file, item, "a fact of the header", {},
                                      {"counter": str, "pile": str, "during": list, "short sides": bool}, at=at)
        if body is None or not ok:
            return None
        if ("counter" in body) == ("pile" in body):
            self.problems.add(self.file.diagnostic((body.line, body.column),
                                                   "a fact of the header names one counter or one pile",
                                                   expected="'counter: NAME' or 'pile: NAME'"))
            return None
        during = body.get("during", ())
        steps = self.names(during, self.steps, "step") if during else ()
        if len(steps) != len(during):
            return None
        if "counter" in body:
            name = self.name(body["counter"], body.value_positions["counter"], self.counters, "counter")
            return Fact(counter=name, during=steps, short_sides=bool(body.get("short sides", False))) \
                if name is not None else None
        name = self.name(body["pile"], body.value_positions["pile"], self.piles, "pile")
        return Fact(pile=name, during=steps) if name is not None else None

    def body(self, value, what: str, keys: dict, at) -> Optional[Map]:
        """A mapping of options, or nothing after the name (all left as they are)."""
        if value is None:
            return Map()
        body, _ = self.loader.fields(self.file, value, what, {}, keys, at=at)
        return body

    def tables(self, spec: Map) -> Tuple[Table, ...]:
        tracks = tuple(t.name for t in self.schema.tracks)
        out = []
        for key, value in spec.items():
            name = self.name(key, spec.key_positions[key], tracks, "track")
            body = self.body(value, f"the track '{shown(key)}'", {"holders": list}, spec.value_positions[key])
            if name is None or body is None:
                continue
            out.append(Table(name, self.names(body.get("holders", ()), self.holders, "holder")))
        return tuple(out)

    def own(self, spec: Map) -> Tuple[Own, ...]:
        out = []
        for key, value in spec.items():
            name = self.name(key, spec.key_positions[key], self.piles, "pile")
            body = self.body(value, f"the pile '{shown(key)}'", {"show": str, "rules": str, "compact": str},
                             spec.value_positions[key])
            if name is None or body is None:
                continue
            pile = self.schema.piles[self.piles.index(name)]
            if not (pile.each_side and pile.seen_by == "owner"):
                self.problems.add(self.file.diagnostic(spec.key_positions[key],
                                                       f"'{name}' is not a pile each side keeps to itself "
                                                       f"('each side' and 'seen by: owner' in state.yaml)"))
                continue
            choices: Dict[str, str] = {}
            for field, allowed in (("show", SHOW), ("rules", RULES), ("compact", COMPACT)):
                if field in body:
                    if self.choice(body, field, allowed) is None:
                        continue
                    choices[field] = body[field]
            show = choices.get("show", LIST)
            out.append(Own(name, show, choices.get("rules", "detailed"), choices.get("compact", show)))
        return tuple(out)
