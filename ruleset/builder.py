"""Lark's parse tree to the syntax tree (nodes.py).  Lark's trees never leave this package."""

from __future__ import annotations

from typing import List, Optional

from lark import Token, Transformer, Tree, v_args

from . import nodes as N


def _pos(meta) -> Optional[N.Pos]:
    if getattr(meta, "empty", True):
        return None
    return N.Pos(meta.line, meta.column, meta.end_line, meta.end_column)


def _tok_pos(token: Token) -> N.Pos:
    return N.Pos(token.line, token.column, token.end_line, token.end_column)


def _of(children, kind):
    return next((c for c in children if isinstance(c, kind)), None)


def _all(children, kind) -> tuple:
    return tuple(c for c in children if isinstance(c, kind))


def _numbers(children) -> List[int]:
    return [int(c) for c in children if isinstance(c, Token) and c.type == "NUMBER"]


class _Tagged:
    """An intermediate value: a keyword choice carried up to the rule that uses it."""

    def __init__(self, tag: str, value=None, pos=None):
        self.tag, self.value, self.pos = tag, value, pos


def _tag(children, tag):
    return next((c for c in children if isinstance(c, _Tagged) and c.tag == tag), None)


@v_args(meta=True)
class Builder(Transformer):
    """One method per grammar rule or alias; each returns a node (or a tagged part)."""

    # ----------------------------------------------------------- entry points
    def block(self, meta, children):
        return N.Block(tuple(children), pos=_pos(meta))

    suite = block

    def condition_rule(self, meta, children):
        return children[0]

    places_rule = condition_rule
    number_rule = condition_rule

    # ------------------------------------------------------------ structure
    def if_stmt(self, meta, children):
        return N.If(children[0], children[1], children[2] if len(children) > 2 else None, pos=_pos(meta))

    def otherwise(self, meta, children):
        return children[0]

    def either_stmt(self, meta, children):
        return N.Either(tuple(children), pos=_pos(meta))

    def or_option(self, meta, children):
        return children[0]

    def first_of(self, meta, children):
        return N.FirstOf(tuple(children), pos=_pos(meta))

    def so_that(self, meta, children):
        return N.Goal(children[0], children[1], pos=_pos(meta))

    def for_each_player(self, meta, children):
        who = _tag(children, "who")
        return N.ForEachPlayer(_of(children, N.Block), who=who.value if who else None, pos=_pos(meta))

    def who(self, meta, children):
        return _Tagged("who", (str(children[0]), children[1]))

    def for_each_thing(self, meta, children):
        return N.ForEach(children[0], _of(children, N.Block), _of(children, N.OrderChoice), pos=_pos(meta))

    def order_choice(self, meta, children):
        chooser = children[0]
        action = _tag(children, "as")
        return N.OrderChoice(chooser.value, action.value if action else None, pos=_pos(meta))

    def chooser_self(self, meta, children):
        return _Tagged("chooser", "you")

    def chooser_other(self, meta, children):
        return _Tagged("chooser", "opponent")

    def chooser_role(self, meta, children):
        return _Tagged("chooser", str(children[0]))

    def chooser_player(self, meta, children):
        return _Tagged("chooser", "player")

    def as_word(self, meta, children):
        return _Tagged("as", str(children[-1]))

    def step(self, meta, children):
        return N.Step(str(children[0]), children[1], pos=_pos(meta))

    def repeat(self, meta, children):
        return N.Repeat(children[0], children[1], pos=_pos(meta))

    def alternate(self, meta, children):
        first, n, counter, body = children[0], _numbers(children)[0], children[2], children[3]
        return N.Alternate(first, n, counter, body, pos=_pos(meta))

    def simple_stmt(self, meta, children):
        if len(children) == 2:
            actor = children[0]
            return N.Acting(actor.tag, children[1], role=actor.value, pos=_pos(meta))
        return children[0]

    def opponent_acts(self, meta, children):
        return _Tagged("opponent")

    def each_player_acts(self, meta, children):
        return _Tagged("each")

    def first_player_acts(self, meta, children):
        return _Tagged("first")

    def role_acts(self, meta, children):
        return _Tagged("role", str(children[0]))

    def player_acts(self, meta, children):
        return _Tagged("role", "player")

    # ------------------------------------------------------------ statements
    def place(self, meta, children):
        source = _tag(children, "from")
        places = [c for c in children if isinstance(c, N.Places)]
        return N.Place(children[0], source.value if source else None, places[-1], _of(children, N.Limit),
                       _of(children, N.Selection), pos=_pos(meta))

    def from_place(self, meta, children):
        return _Tagged("from", children[0])

    def remove(self, meta, children):
        return N.Remove(children[0], _of(children, N.Places), _of(children, N.Limit), _of(children, N.Selection),
                        pos=_pos(meta))

    def move(self, meta, children):
        source = _tag(children, "from")
        places = [c for c in children if isinstance(c, N.Places)]
        return N.Move(children[0], source.value if source else None, places[-1], False, _of(children, N.Limit),
                      _of(children, N.Selection), pos=_pos(meta))

    def move_within(self, meta, children):
        return N.Move(children[0], children[1], children[1], True, _of(children, N.Limit),
                      _of(children, N.Selection), pos=_pos(meta))

    def limit(self, meta, children):
        return N.Limit("per", _numbers(children)[0], str(children[-1]), pos=_pos(meta))

    def one_place(self, meta, children):
        return N.Limit("one", None, str(children[-1]), pos=_pos(meta))

    def at_random(self, meta, children):
        return N.Selection("random", pos=_pos(meta))

    def opponent_choosing(self, meta, children):
        return N.Selection("opponent", pieces_only=bool(_tag(children, "the_pieces")), pos=_pos(meta))

    def the_pieces(self, meta, children):
        return _Tagged("the_pieces", str(children[0]))

    def gain(self, meta, children):
        per = _tag(children, "per")
        return N.Gain(_numbers(children)[0], _of(children, N.Pieces), False, per.value if per else None,
                      pos=_pos(meta))

    def lose(self, meta, children):
        gain = self.gain(meta, children)
        return N.Gain(gain.n, gain.pieces, True, gain.per, pos=gain.pos)

    def per(self, meta, children):
        return _Tagged("per", children[0])

    def set(self, meta, children):
        value = children[1]
        if isinstance(value, _Tagged):
            return N.Set(children[0], first_player=True, pos=_pos(meta))
        return N.Set(children[0], number=value, pos=_pos(meta))

    def add(self, meta, children):
        return N.Add(children[0], children[1], pos=_pos(meta))

    def value(self, meta, children):
        return children[0]

    def first_player_value(self, meta, children):
        return _Tagged("first_player")

    def draw(self, meta, children):
        count = children[0]
        places = [c for c in children if isinstance(c, N.Places)]
        until = _tag(children, "until")
        return N.Draw(count.value[0], count.value[1], places[0], places[1], until.value if until else None,
                      pos=_pos(meta))

    def draw_n(self, meta, children):
        return _Tagged("count", (int(children[0]), str(children[1])))

    def draw_some(self, meta, children):
        return _Tagged("count", (None, str(children[0])))

    def until(self, meta, children):
        return _Tagged("until", _numbers(children)[0])

    def shuffle(self, meta, children):
        return N.Shuffle(children[0], children[1] if len(children) > 1 else None, pos=_pos(meta))

    def put(self, meta, children):
        return N.Put(children[0], children[1], pos=_pos(meta))

    def reveal(self, meta, children):
        return N.Reveal(children[0], pos=_pos(meta))

    def discard(self, meta, children):
        return N.Discard(children[0], pos=_pos(meta))

    def play(self, meta, children):
        return N.Play(children[0], children[1], pos=_pos(meta))

    def keep(self, meta, children):
        verb = children[0]
        n = _numbers(children)[0]
        noun = next(str(c) for c in children if isinstance(c, Token) and c.type == "NOUN")
        places = [c for c in children if isinstance(c, N.Places)]
        return N.Keep(n, noun, places[0], places[1], verb=verb, selection=_of(children, N.Selection), pos=_pos(meta))

    def keep_verb(self, meta, children):
        return "assign" if str(children[0]).startswith("assign") else "keep"

    def order(self, meta, children):
        return N.Order(children[0], children[1], pos=_pos(meta))

    def carry_out(self, meta, children):
        return N.CarryOut(children[0], children[1] if len(children) > 1 else None, pos=_pos(meta))

    def score(self, meta, children):
        return N.Score(children[0], children[1], pos=_pos(meta))

    def resolve(self, meta, children):
        return N.Resolve(children[0], pos=_pos(meta))

    def win(self, meta, children):
        return N.Win(_of(children, N.Pieces), _of(children, N.Places), pos=_pos(meta))

    def you_win(self, meta, children):
        return N.Win(pos=_pos(meta))

    def stop(self, meta, children):
        return N.Stop(pos=_pos(meta))

    def forget(self, meta, children):
        return N.Forget(pos=_pos(meta))

    def call(self, meta, children):
        verb = str(children[0])
        covering, paying = _of(children, N.Covering), _tag(children, "paying")
        rest = [c for c in children[1:] if not isinstance(c, (N.Covering, _Tagged))]
        quantity = None
        if rest and isinstance(rest[0], N.Quantity):
            quantity, rest = rest[0], rest[1:]
        parts = tuple((str(rest[i]), rest[i + 1]) for i in range(0, len(rest) - 1, 2))
        return N.Call(verb, quantity, parts, covering, paying.value if paying else None, pos=_pos(meta))

    def covering(self, meta, children):
        noun = next(c for c in children if isinstance(c, Token) and c.type == "NOUN")
        return N.Covering(str(noun), _of(children, N.Number), pos=_pos(meta))

    def paying(self, meta, children):
        return _Tagged("paying", _of(children, N.Number))

    def pay(self, meta, children):
        return N.Pay(_of(children, N.Number), pos=_pos(meta))

    def choose(self, meta, children):
        limit = _tag(children, "choose_limit")
        paying = _tag(children, "paying")
        return N.Choose(_of(children, N.Places), _of(children, N.Phrase), limit.value if limit else None,
                        paying.value if paying else None, pos=_pos(meta))

    def choose_limit(self, meta, children):
        return _Tagged("choose_limit", _numbers(children)[0])

    def can_pay(self, meta, children):
        return N.CanPay(children[0], _of(children[1:], N.Number), pos=_pos(meta))

    def put_into_play(self, meta, children):
        places = _all(children, N.Places)
        return N.PutIntoPlay(children[0], places[0], places[1] if len(places) > 1 else None, pos=_pos(meta))

    def remove_from_play(self, meta, children):
        return N.RemoveFromPlay(children[0], _of(children[1:], N.Places), pos=_pos(meta))

    def preposition(self, meta, children):
        return children[0]

    # ------------------------------------------------------------ quantities
    def exactly(self, meta, children):
        return N.Quantity("exactly", _numbers(children)[0], _of(children, N.Pieces), pos=_pos(meta))

    def up_to(self, meta, children):
        return N.Quantity("up_to", _numbers(children)[0], _of(children, N.Pieces), pos=_pos(meta))

    def up_to_number(self, meta, children):
        return N.Quantity("up_to_number", phrase=children[0], pos=_pos(meta))

    def all_pieces(self, meta, children):
        return N.Quantity("all", pieces=_of(children, N.Pieces), pos=_pos(meta))

    def thing(self, meta, children):
        return N.Quantity("thing", phrase=children[0], pos=_pos(meta))

    def as_many(self, meta, children):
        return N.Quantity("as_many", pieces=_of(children, N.Pieces), phrase=_of(children, N.Phrase), pos=_pos(meta))

    def up_to_as_many(self, meta, children):
        return N.Quantity("up_to_as_many", pieces=_of(children, N.Pieces), phrase=_of(children, N.Phrase),
                          pos=_pos(meta))

    def pieces(self, meta, children):
        owner = _tag(children, "owner")
        noun = next((str(c) for c in children if isinstance(c, Token) and c.type == "NOUN"), None)
        either = _tag(children, "either") is not None
        adjectives = _tag(children, "adjectives")
        return N.Pieces(owner.value if owner else ("either" if either else None), noun, either,
                        adjectives.value if adjectives else (), pos=_pos(meta))

    def adjectives(self, meta, children):
        return _Tagged("adjectives", tuple(str(c) for c in children))

    def owner(self, meta, children):
        return _Tagged("owner", children[0].kind)

    def opponent_owner(self, meta, children):
        return _Tagged("owner", "opponent")

    def side_owner(self, meta, children):
        return _Tagged("owner", str(children[0]))

    def either_side(self, meta, children):
        return _Tagged("either")

    def number(self, meta, children):
        terms, signs = [], []
        for child in children:
            if isinstance(child, Token) and child.value in ("plus", "minus"):
                signs.append(1 if child.value == "plus" else -1)
            else:
                terms.append(child)
        return N.Number(tuple(terms), tuple(signs), pos=_pos(meta))

    def literal(self, meta, children):
        return int(children[0])

    # ------------------------------------------------------------ places
    def places(self, meta, children):
        # "your hand whose value is ...": a phrase's "whose" filters what it names, as "where" does
        items = []
        for child in children:
            if isinstance(child, N.Phrase):
                phrase, whose = N.hoist_whose(child)
                if whose is not None:
                    child = N.Filtered(phrase, whose, pos=child.pos)
            items.append(child)
        return N.Places(tuple(items), pos=_pos(meta))

    def filtered(self, meta, children):
        return N.Filtered(children[0], children[1], pos=_pos(meta))

    def phrase(self, meta, children):
        determiner = None
        words: tuple = ()
        of, above, relation, it, last_played, at = [], None, None, False, False, None
        total = count = False
        carrying = within = whose = extreme = distance = None
        for child in children:
            if isinstance(child, _Tagged) and child.tag == "det":
                determiner = child.value
            elif isinstance(child, _Tagged) and child.tag == "head":
                words, it = child.value
                last_played = it == "last_played"
                total, count = it == "total", it == "count"
                if it in ("highest", "lowest"):
                    extreme = it
                elif isinstance(it, tuple):  # "the distance to ...": (the head's tag, where to)
                    distance = it[1]
                it = it is True
            elif isinstance(child, _Tagged) and child.tag == "at":
                at = child.value
            elif isinstance(child, _Tagged) and child.tag == "carrying":
                carrying = child.value
            elif isinstance(child, _Tagged) and child.tag == "within":
                within = child.value
            elif isinstance(child, N.Whose):
                whose = child
            elif isinstance(child, _Tagged) and child.tag == "of":
                of.append(child.value)
            elif isinstance(child, _Tagged) and child.tag == "above":
                above = child.value
            elif isinstance(child, N.Relation):
                relation = child
        return N.Phrase(determiner, words, tuple(of), above, relation, it, last_played, at, total, count,
                        carrying, within, whose, extreme, distance, pos=_pos(meta))

    def _det(name):
        def method(self, meta, children):
            return _Tagged("det", name)
        return method

    the = _det("the")
    a = _det("a")
    any_ = _det("any")
    each_ = _det("each")
    this = _det("this")
    that = _det("that")
    its = _det("its")
    top = _det("top")
    next_ = _det("next")
    last = _det("last")
    current = _det("current")
    each_players = _det("each_player")

    def determiner(self, meta, children):  # a possessive
        return _Tagged("det", children[0].kind)

    def head(self, meta, children):
        words = []
        for child in children:
            if isinstance(child, Token):
                words.append(N.Word(str(child), child.type, pos=_tok_pos(child)))
            else:
                words.append(child)
        return _Tagged("head", (tuple(words), False))

    def it(self, meta, children):
        return _Tagged("head", ((), True))

    def total(self, meta, children):
        noun = next(c for c in children if isinstance(c, Token) and c.type == "NOUN")
        return _Tagged("head", ((N.Word(str(noun), "NOUN", pos=_tok_pos(noun)),), "total"))

    def number_of(self, meta, children):
        return _Tagged("head", ((), "count"))

    def _extreme(which):
        def method(self, meta, children):
            noun = next(c for c in children if isinstance(c, Token) and c.type == "NOUN")
            return _Tagged("head", ((N.Word(str(noun), "NOUN", pos=_tok_pos(noun)),), which))
        return method

    highest = _extreme("highest")
    lowest = _extreme("lowest")

    def distance(self, meta, children):
        return _Tagged("head", ((), ("distance", children[-1])))

    def carrying_part(self, meta, children):
        return _Tagged("carrying", children[-1])

    def within_part(self, meta, children):
        value = children[-1]
        return _Tagged("within", int(value) if isinstance(value, Token) else value)

    def adjacent(self, meta, children):
        return N.Word("adjacent", "ADJACENT", pos=_pos(meta))

    def at_part(self, meta, children):
        return _Tagged("at", children[-1])

    def last_played(self, meta, children):
        return _Tagged("head", ((N.Word(str(children[0]), "NOUN", pos=_tok_pos(children[0])),), "last_played"))

    def owns(self, meta, children):
        token = children[0]
        return N.Word(str(token), "OWNS", pos=_tok_pos(token))

    def of_part(self, meta, children):
        return _Tagged("of", children[0])

    def above_part(self, meta, children):
        return _Tagged("above", children[0])

    def you_relation(self, meta, children):
        return N.Relation("you", str(children[-1]), pos=_pos(meta))

    def opponent_relation(self, meta, children):
        return N.Relation("opponent", str(children[-1]), pos=_pos(meta))

    def nobody_relation(self, meta, children):
        return N.Relation("nobody", str(children[-1]), pos=_pos(meta))

    def where(self, meta, children):
        return N.Where(children[0], pos=_pos(meta))

    def most(self, meta, children):
        return N.Most(children[0], children[1], pos=_pos(meta))

    def most_kind(self, meta, children):
        return str(children[0])

    def whose_compares(self, meta, children):
        return N.Whose(str(children[0]), comparison=children[1], pos=_pos(meta))

    def whose_at_least(self, meta, children):
        return N.Whose(str(children[0]), op=">=", other=children[1], pos=_pos(meta))

    def whose_at_most(self, meta, children):
        return N.Whose(str(children[0]), op="<=", other=children[1], pos=_pos(meta))

    def whose_more_than(self, meta, children):
        return N.Whose(str(children[0]), op=">", other=children[-1], pos=_pos(meta))

    def whose_fewer_than(self, meta, children):
        return N.Whose(str(children[0]), op="<", other=children[-1], pos=_pos(meta))

    def played(self, meta, children):
        return N.Played(children[0], children[1], pos=_pos(meta))

    def with_term(self, meta, children):
        return N.WithTerm(str(children[0]), pos=_pos(meta))

    def words(self, meta, children):
        return tuple(N.Word(str(c), c.type, pos=_tok_pos(c)) for c in children)

    # ------------------------------------------------------------ conditions
    def any_of(self, meta, children):
        items = []
        for child in children:
            items.extend(child.items if isinstance(child, N.AnyOf) else (child,))
        return N.AnyOf(tuple(items), pos=_pos(meta))

    def all_of(self, meta, children):
        items = []
        for child in children:
            items.extend(child.items if isinstance(child, N.AllOf) else (child,))
        return N.AllOf(tuple(items), pos=_pos(meta))

    def not_(self, meta, children):
        return N.Not(children[0], pos=_pos(meta))

    def relates(self, meta, children):
        return N.Relates(children[0], str(children[1]), children[2], pos=_pos(meta))

    def relates_count(self, meta, children):
        return N.Relates(children[0], str(children[1]), children[3], comparison=children[2], pos=_pos(meta))

    def relates_more(self, meta, children):
        return N.Relates(children[0], str(children[1]), children[2], more_than=children[3], pos=_pos(meta))

    def nobody_relates(self, meta, children):
        return N.NobodyRelates(str(children[0]), children[1], pos=_pos(meta))

    def _there(self, children):
        return _tag(children, "there") is not None

    def there(self, meta, children):
        return _Tagged("there")

    def has_count(self, meta, children):
        return N.HasCount(children[0], children[1], children[2], _of(children[3:], N.Places),
                          self._there(children), pos=_pos(meta))

    def than_number(self, meta, children):
        return _Tagged("than_number", children[0])

    def has_more(self, meta, children):
        than = _tag(children, "than_number")
        if than is not None:
            return N.HasMore(children[0], _of(children, N.Pieces), None, _of(children[1:], N.Comparison),
                             _of(children, N.Places), False, than_number=than.value, pos=_pos(meta))
        subject = children[0]
        lead = _of(children[1:], N.Comparison)
        pieces = _of(children, N.Pieces)
        rest = children[children.index(pieces) + 1:]
        other = rest[0] if rest else None
        return N.HasMore(subject, pieces, other, lead, _of(rest, N.Places), self._there(rest), pos=_pos(meta))

    def has_fewer(self, meta, children):
        return N.HasFewer(children[0], children[1], children[2], pos=_pos(meta))

    def lead_ge(self, meta, children):
        return N.Comparison(">=", _numbers(children)[0], pos=_pos(meta))

    def lead_le(self, meta, children):
        return N.Comparison("<=", _numbers(children)[0], pos=_pos(meta))

    def lead_none(self, meta, children):
        return N.Comparison("<=", 0, pos=_pos(meta))

    def is_first_player(self, meta, children):
        return N.IsFirstPlayer(children[0], pos=_pos(meta))

    def is_state(self, meta, children):
        subject, state = children[0], children[-1]
        negated = any(isinstance(c, _Tagged) and c.tag == "not" for c in children)
        return attrs_evolve(state, subject=subject, negated=negated, pos=_pos(meta))

    def negated(self, meta, children):
        return _Tagged("not")

    def is_named(self, meta, children):
        return N.IsState(None, "named", word=str(children[0]))

    def is_adjective(self, meta, children):
        return N.IsState(None, "adjective", word=str(children[0]))

    def is_role(self, meta, children):
        return N.IsState(None, "role", word=str(children[0]))

    def is_for(self, meta, children):
        return N.IsState(None, "for", player=children[0], only=_tag(children, "only") is not None)

    def only(self, meta, children):
        return _Tagged("only")

    def is_in(self, meta, children):
        return N.IsState(None, "in", where=children[0])

    def is_at(self, meta, children):
        return N.IsState(None, "at", where=children[-1])

    def is_in_play(self, meta, children):
        return N.IsState(None, "in_play")

    def is_there(self, meta, children):
        return N.IsState(None, "there")

    def on_map(self, meta, children):
        return N.IsState(None, "on_map")

    def off_map(self, meta, children):
        return N.IsState(None, "off_map")

    def is_a(self, meta, children):
        noun = next(str(c) for c in children if isinstance(c, Token) and c.type == "NOUN")
        return N.IsState(None, "a", word=noun)

    def all_in_one(self, meta, children):
        noun = next(str(c) for c in children if isinstance(c, Token))
        return N.IsState(None, "all_in_one", word=noun, where=_of(children, N.Phrase))

    def compares(self, meta, children):
        return N.Compares(children[0], comparison=children[1], pos=_pos(meta))

    def at_most_number(self, meta, children):
        return N.Compares(children[0], op="<=", other=children[1], pos=_pos(meta))

    def at_least_number(self, meta, children):
        return N.Compares(children[0], op=">=", other=children[1], pos=_pos(meta))

    def same_as(self, meta, children):
        return N.Compares(children[0], op="==", other=children[1], pos=_pos(meta))

    def more_than_number(self, meta, children):
        return N.Compares(children[0], op=">", other=children[-1], pos=_pos(meta))

    def fewer_than_number(self, meta, children):
        return N.Compares(children[0], op="<", other=children[-1], pos=_pos(meta))

    def would(self, meta, children):
        verb = "place" if str(children[0]) == "placing" else "remove"
        pieces = _of(children, N.Pieces)
        negated = _tag(children, "not") is not None
        return N.Would(verb, pieces, negated, children[-1], pos=_pos(meta))

    def hypothetical_verb(self, meta, children):
        return children[0]

    def would_give(self, meta, children):
        return N.Change(children[0], True, str(children[1]), children[2], pos=_pos(meta))

    def would_cost(self, meta, children):
        return N.Change(children[0], False, str(children[1]), children[2], pos=_pos(meta))

    def change_gain(self, meta, children):
        return N.Change(children[0], True, str(children[1]), children[2], pos=_pos(meta))

    def change_lose(self, meta, children):
        return N.Change(children[0], False, str(children[1]), children[2], pos=_pos(meta))

    def change_target(self, meta, children):
        return children[0]

    def card_would(self, meta, children):
        return N.CardWould(children[0], pos=_pos(meta))

    def holds(self, meta, children):
        return N.Holds(children[0], pos=_pos(meta))

    def _cmp(op, fixed=None):
        def method(self, meta, children):
            return N.Comparison(op, fixed if fixed is not None else _numbers(children)[0], pos=_pos(meta))
        return method

    cmp_eq = _cmp("==")
    cmp_ge = _cmp(">=")
    cmp_le = _cmp("<=")
    cmp_gt = _cmp(">")
    cmp_lt = _cmp("<")
    cmp_none = _cmp("==", 0)
    some = _cmp(">=", 1)  # "you have a unit at Ridge"

    # ------------------------------------------------------------ players
    def player_self(self, meta, children):
        return N.Player("you", pos=_pos(meta))

    def player_other(self, meta, children):
        return N.Player("opponent", pos=_pos(meta))

    def each_player_subject(self, meta, children):
        return N.EachPlayer(pos=_pos(meta))

    def own_possessive(self, meta, children):
        return N.Possessive("own", pos=_pos(meta))

    def their_possessive(self, meta, children):
        return N.Possessive("their", pos=_pos(meta))

    def opponent_possessive(self, meta, children):
        return N.Possessive("opponent", pos=_pos(meta))


def attrs_evolve(node, **changes):
    import attrs
    return attrs.evolve(node, **changes)


def build(tree: Tree):
    return Builder().transform(tree)
