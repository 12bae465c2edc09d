"""The bots' judgement of a position, as content: ``bots/evaluation.yaml`` (docs/bots.md).

Each term is rule text the bots work out for every side, as "you": a number (``your VP``,
``your pool``, ``pivotal spaces you control``, ``the total power of your characters plus the
number of cards of your hand``: any number a rule may write), a condition (``you control the space of your
objective``: 1 when it holds), or the VP a procedure would give if it were carried out now
(``project: final scoring``).  A term is worth the judging side's value minus the mean of the
other sides', times its weight, in VP.  Every text is checked like any rule: file, line, column,
and what was expected.

Like the other bot settings, the file is not part of the rules: it is left out of the
content's digest, so retuning a bot never stops a saved game from resuming.
"""

from __future__ import annotations

from typing import Optional, Tuple

import attrs

from crisis.ruleset.diagnostics import RulesError, did_you_mean, one_of, shown
from crisis.ruleset.rulecache import known, parse  # parsed trees kept between runs
from crisis.ruleset.resolver import ANYWHERE

from .yamlfile import Map, Text

MAX_TERMS = 64  # a judgement is made thousands of times a game: its terms are few (docs/limits.md)


@attrs.frozen
class Term:
    text: str  # as written, for docs and reports
    kind: str  # "number" | "condition" | "project" | "lead"
    meaning: object  # the resolved rule (a number, a holder, a condition), or a procedure's name
    weight: float
    judging_side_only: bool = False  # what the other sides hold is hidden from the judge
    during: Tuple[str, ...] = ()  # steps of the sequence of play it counts in (empty: always)
    at_most: int = 0  # "lead": the most counted in one place
    quick: Optional["Term"] = None  # "project": what counts instead when token steps are judged quickly


@attrs.frozen
class Evaluation:
    terms: Tuple[Term, ...]
    win: float = 20.0  # a game won, on top of the final margin
    horizon: Tuple[str, ...] = ()  # kinds of decision a trial plays on to before it judges
    quick_steps: bool = True  # token steps judged without projecting procedures
    order_playouts: int = 4  # games played out to judge each card of an order
    # where the horizon's kinds stand, for the warnings that need the compiled game (see
    # interpreter/players/evaluation.horizon_warnings): (the file, [position of each kind], the
    # position of the key or of the file's start when there is none)
    horizon_at: Optional[tuple] = attrs.field(default=None, eq=False, repr=False)


TERM_KEYS = {"weight": (int, float), "judging side only": bool, "during": list, "project": str,
             "lead": bool, "at most per place": int, "quick": str}


class EvaluationReader:
    """Reads ``bots/evaluation.yaml`` with a definition's resolver and lexicon."""

    def __init__(self, loader, schema, resolver, lexicon, procedures, steps):
        self.loader, self.problems = loader, loader.problems
        self.schema, self.resolver, self.lexicon = schema, resolver, lexicon
        self.procedures, self.steps = tuple(procedures), tuple(steps)

    def read(self, path) -> Optional[Evaluation]:
        file, data = self.loader.read(path)
        if file is None or data is None:
            return None
        spec, _ = self.loader.fields(file, data, "evaluation.yaml", {"terms": dict},
                                     {"win": (int, float), "horizon": list, "quick steps": bool,
                                      "order playouts": int})
        if spec is None:
            return None
        terms = spec["terms"]
        if len(terms) > MAX_TERMS:
            self.problems.add(file.diagnostic(spec.key_positions["terms"],
                                              f"at most {MAX_TERMS} terms (docs/limits.md)"))
            return None
        out = []
        for key, value in terms.items():
            term = self.term(file, terms, key, value)
            if term is not None:
                out.append(term)
        playouts = spec.get("order playouts", 4)
        if playouts < 1 or playouts > 64:
            self.problems.add(file.diagnostic(spec.value_positions["order playouts"],
                                              "'order playouts' must be from 1 to 64"))
        horizon = spec.get("horizon", ())
        at = (file, list(getattr(horizon, "positions", ())),
              spec.key_positions.get("horizon") or spec.key_positions.get("terms"))
        return Evaluation(tuple(out), float(spec.get("win", 20.0)),
                          tuple(str(k) for k in horizon), bool(spec.get("quick steps", True)),
                          int(playouts), horizon_at=at)

    def term(self, file, terms: Map, key, value) -> Optional[Term]:
        at = terms.key_positions[key]
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            body = Map()
            body.path, body.line, body.column = file.path, at[0], at[1]
            body.key_positions, body.value_positions = {"weight": at}, {"weight": terms.value_positions[key]}
            body["weight"] = value
        else:
            body, _ = self.loader.fields(file, value, f"the term '{shown(key)}'", {"weight": (int, float)},
                                         {k: t for k, t in TERM_KEYS.items() if k != "weight"},
                                         at=terms.value_positions[key])
            if body is None:
                return None
        during = tuple(str(s) for s in body.get("during", ()))
        for index, step in enumerate(during):
            if step not in self.steps:
                guess = did_you_mean(step, self.steps)
                self.problems.add(file.diagnostic(body["during"].positions[index], f"unknown step '{shown(step)}'",
                                                  expected=f"a step of the sequence of play: {one_of(self.steps)}",
                                                  hint=f"did you mean '{guess}'?" if guess else None))
        common = dict(weight=float(body["weight"]), judging_side_only=bool(body.get("judging side only", False)),
                      during=during)
        if body.get("lead"):
            most = body.get("at most per place", 0)
            return Term(str(key), "lead", None, at_most=int(most), **common)
        if "project" in body:
            name = str(body["project"])
            if name not in self.procedures:
                guess = did_you_mean(name, self.procedures)
                self.problems.add(file.diagnostic(body.value_positions["project"], f"unknown procedure '{shown(name)}'",
                                                  expected=one_of(self.procedures),
                                                  hint=f"did you mean '{guess}'?" if guess else None))
                return None
            quick = None
            if "quick" in body:
                quick = self.rule_term(file, body["quick"], body.value_positions["quick"], common)
            return Term(str(key), "project", name, quick=quick, **common)
        return self.rule_term(file, getattr(terms, "key_texts", {}).get(key, key), at, common)

    def rule_term(self, file, key, at, common) -> Optional[Term]:
        """A number, tried first, then a condition; the errors of the likelier reading are shown."""
        if not isinstance(key, Text):
            self.problems.add(file.diagnostic(at, "a term is rule text", hint="a number, or a condition"))
            return None
        source = key.source("an evaluation term")
        number_error = condition_error = None
        if known(str(key), self.lexicon, "condition_rule"):  # read as a condition before: the parser is not needed
            tree = parse(str(key), self.lexicon, "condition_rule", source)
            meaning, found = self.resolver.condition(tree, ANYWHERE, source)
            if meaning is not None and not any(d.severity == "error" for d in found):
                return Term(str(key), "condition", meaning, **common)
        try:
            tree = parse(str(key), self.lexicon, "places_rule", source)
            meaning, found = self.resolver.quantity(tree, ANYWHERE, source)
            errors = [d for d in found if d.severity == "error"]
            if not errors and meaning is not None:
                return Term(str(key), "number", meaning, **common)
            number_error = errors
        except RulesError as error:
            number_error = list(error.diagnostics)
        sum_error = None
        try:  # a number as the rules write one: sums and differences, fields of cards compared ("whose ...")
            tree = parse(str(key), self.lexicon, "number_rule", source)
            run = self.resolver.run(ANYWHERE, source, tree)
            meaning = run.number(tree)
            errors = [d for d in run.diagnostics if d.severity == "error"]
            if not errors and meaning is not None:
                return Term(str(key), "number", meaning, **common)
            sum_error = errors
        except RulesError as error:
            sum_error = list(error.diagnostics)
        if _reaches_further(sum_error, number_error):
            number_error = sum_error
        try:
            tree = parse(str(key), self.lexicon, "condition_rule", source)
            meaning, found = self.resolver.condition(tree, ANYWHERE, source)
            errors = [d for d in found if d.severity == "error"]
            if not errors and meaning is not None:
                return Term(str(key), "condition", meaning, **common)
            condition_error = errors
        except RulesError as error:
            condition_error = list(error.diagnostics)
        # a text that reads as a condition up to its end was meant as one
        chosen = condition_error if _reaches_further(condition_error, number_error) else number_error
        self.problems.extend(chosen or [file.diagnostic(at, "this term names nothing to count or test")])
        return None


def _reaches_further(first, second) -> bool:
    def reach(diagnostics):
        return max(((d.line or 0, d.column or 0) for d in diagnostics or ()), default=(0, 0))
    return reach(first) > reach(second)
