"""Notation in the player's language: shown in Spanish, typed back to the same action;
the canonical notation (saves, scenarios) is accepted in every language."""

from hypothesis import given, strategies as st

from crisis.cli.text import Presenter, fold
from crisis.interpreter.engine.game import Game, Options


@given(seed=st.integers(0, 2**31), data=st.data())
def test_spanish_notation_is_unique_and_types_back(content, seed, data):
    show = Presenter(content, content.catalog("es"))
    game = Game.of(content, seed, Options(frozenset({"event_discard"})))
    for _ in range(150):
        if game.over:
            break
        decision = game.decision
        shown = [show.notation(game, a) for a in decision.actions]
        assert len({fold(s) for s in shown}) == len(shown), shown
        index = data.draw(st.integers(0, len(shown) - 1))
        chosen = decision.actions[index]
        assert show.find_action(game, decision, shown[index].upper()) is chosen
        assert show.find_action(game, decision, chosen.text) is chosen
        game.apply(chosen)


def test_english_notation_is_the_canonical_one(content):
    show = Presenter(content, content.catalog("en"))
    game = Game.of(content, 5)
    for _ in range(40):
        decision = game.decision
        assert [show.notation(game, a) for a in decision.actions] == [a.text for a in decision.actions]
        game.apply(decision.actions[-1])


def test_spanish_notation_reads_spanish(content):
    show = Presenter(content, content.catalog("es"))
    game = Game.of(content, 4)
    keep = [show.notation(game, a) for a in game.decision.actions]
    assert all(text.startswith("conservar ") for text in keep)
    assert fold("Colocar  Estados FRONTERIZOS") == "colocar estados fronterizos"
