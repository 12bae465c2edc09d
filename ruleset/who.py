"""Who "you" is: the rules that run for no player must not name one.

A card's rules run for the player who plays it, a procedure for whoever carries it out; but the
setup and the sequence of play run for nobody until a statement names the players: `for each
player`, `players alternate`, `each player ...`, `the first player ...`, a scoring `score ...`
(each line for each player).  Outside those, "you", "your" and "the opponent" name nobody, and the
engine would quietly take the first side of `sides:` for them (a designer's `gain 5 VP` at the
top of a step went to the Unionist every time).  So each such word is an error at its statement,
and so is a procedure carried out from there that names one (at the procedure's word, with the
line that carries it out named in the hint).
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from . import meaning as M
from .diagnostics import Diagnostic
from .bound import STATEMENTS
from .walk import children, diagnostic_of

# statements and conditions inside which "you" is each player in turn, or the one named
_NAMES_PLAYERS = (M.ForEachPlayer, M.Alternate, M.EachSide, M.Score)
HINT = ("the setup and the sequence of play run for no player: put it under 'for each player:', "
        "or say who: 'each player ...', 'the first player ...'")


# statements whose choice (or whose cards) is the acting player's: "keep 1 card of the deck ...",
# "play a card from the hand", "choose a town as the battlefield", "discard the revealed card"
_ACTING_PLAYERS = (M.Keep, M.Order, M.Play, M.PlayCards, M.Choose, M.Discard)


def _names_a_player(node, per_side) -> bool:
    """Whether this meaning is "you" (or "your", "the opponent"), said or meant: a side, an owner,
    the opponent acting; a statement whose choice is the acting player's; a card's rule carried
    out (it runs for someone); "you win"; a counter each side keeps, set for one side; an order of
    places "you" or "the opponent" choose (``per_side``: counter index -> kept per side)."""
    if isinstance(node, M.Side):
        return node.kind in ("me", "opponent")
    if isinstance(node, M.Owners):
        return node.kind in ("own", "opponent")
    if isinstance(node, M.Acting):
        return node.actor == "opponent"
    if isinstance(node, _ACTING_PLAYERS):
        return True
    if isinstance(node, M.CarryOut):
        return node.procedure < 0 and node.card is not None
    if isinstance(node, M.Win):
        return node.counter < 0
    if isinstance(node, M.SetCounter):
        return per_side[node.counter] and not node.each_side
    if isinstance(node, M.ForEachPlace):
        return node.chooser in ("you", "opponent")
    return False


def _binds(node) -> bool:
    return isinstance(node, _NAMES_PLAYERS) or (isinstance(node, M.Acting) and node.actor != "opponent")


def _unnamed(rule, per_side) -> Tuple[List[object], List[int]]:
    """One walk of ``rule`` outside what names the players: each statement that names a player,
    once (the innermost statement around the word, once a line: "if you ...: gain 1 VP"), and the
    procedures it carries out there."""
    namings: List[object] = []
    procedures: List[int] = []
    stack: List[Tuple[object, object]] = [(rule, rule)]
    while stack:
        node, placed = stack.pop()
        if _binds(node):
            continue
        if isinstance(node, STATEMENTS) and _line(node) is not None:
            placed = node
        if _names_a_player(node, per_side):
            line = _line(placed)
            if not any(placed is other or (line is not None and _line(other) == line) for other in namings):
                namings.append(placed)
            continue
        if isinstance(node, M.CarryOut) and node.procedure >= 0:
            procedures.append(node.procedure)
        stack.extend((child, placed) for child in reversed(list(children(node))))
    return namings, procedures


def _line(meaning) -> Optional[int]:
    pos = getattr(getattr(meaning, "node", None), "pos", None)
    return pos.line if pos is not None else None


def unnamed_player_problems(definition, sources: Dict[int, Tuple[object, object]]) -> List[Diagnostic]:
    """Each place where the setup or the sequence of play (or a procedure it carries out before
    naming the players) says "you" with no player to be."""
    problems: List[Diagnostic] = []
    names = list(definition.declarations.procedures)
    per_side = [counter.each_side for counter in definition.schema.counters]
    rules = {name: rule for name, (kind, rule) in definition.procedures.items() if kind == "block"}
    seen = set()
    # (rule, what carries it out: None for the setup and the play themselves)
    queue: List[Tuple[object, Optional[str]]] = [(definition.setup, None), (definition.play, None)]
    while queue:
        rule, carried_by = queue.pop(0)
        if rule is None:
            continue
        namings, procedures = _unnamed(rule, per_side)
        message = "'you' (said or meant) names no player here" if carried_by is None else \
            f"'you' (said or meant) names no player here: {carried_by}, where no player is named"
        problems.extend(diagnostic_of(sources, placed, rule, message, HINT) for placed in namings)
        for index in procedures:
            name = names[index] if 0 <= index < len(names) else None
            if name in rules and name not in seen:
                seen.add(name)
                queue.append((rules[name], f"the sequence of play carries out '{name}'"))
    return problems
