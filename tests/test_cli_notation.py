"""Notation in the player's language: shown in Spanish, typed back to the same action;
the canonical notation (saves, scenarios) is accepted in every language."""

import pytest
from hypothesis import given, settings, strategies as st

from crisis.cli.text import Presenter, fold
from crisis.interpreter.engine.game import Game, Options


@given(seed=st.integers(0, 2**31), data=st.data())
def test_spanish_notation_is_unique_and_types_back(content, seed, data):
    show = Presenter(content, content.catalog("es"))
    play_typing_spanish(show, Game.of(content, seed, Options(frozenset({"event_discard"}))), data)


def play_typing_spanish(show, game, data, decisions: int = 150, check=None):
    """Plays ``decisions`` decisions, each by typing one of the actions in Spanish notation: every
    action shown differently, each typed back (in capitals, or canonically) to itself;
    ``check(game, decision, shown)`` looks at each decision's actions as shown first."""
    for _ in range(decisions):
        if game.over:
            break
        decision = game.decision
        shown = [show.notation(game, a) for a in decision.actions]
        assert len({fold(s) for s in shown}) == len(shown), shown
        if check is not None:
            check(game, decision, shown)
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


@pytest.fixture(scope="module")
def war_content():
    from crisis.content.games import game_path
    from crisis.content.loader import load_content
    return load_content(game_path("civil-war-card-game"))


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31), data=st.data())
def test_civil_war_actions_in_spanish_are_unique_type_back_and_say_where(war_content, seed, data):
    """A card put at a place, moved to one or onto another card: the Spanish notation and the
    description both say where ("marchar brigada-de-hierro a Boston"), never a card in its place
    ("desplegar boston descartando abraham-lincoln" was shown for "deploy boston")."""
    show = Presenter(war_content, war_content.catalog("es"))

    def says_where(game, decision, shown):
        for action, text in zip(decision.actions, shown):
            where = show.space(action.text.split(f" {action.how} ", 1)[1]) if action.how in ("at", "to") else None
            if action.how == "to":
                assert text.startswith("marchar ") and text.endswith(f" a {where}"), text
                assert show.action(game, decision, action).endswith(f"hacia {where}")
            elif action.how == "at":
                assert text.startswith("desplegar ") and text.endswith(f" en {where}"), text
            elif action.how == "onto":
                assert " sobre " in text and "descartando" not in text, text
            elif len(action.text.split(" ")) == 2:  # a location deployed at its own place: nothing more
                assert len(text.split(" ")) == 2, (action.text, text)

    play_typing_spanish(show, Game.of(war_content, seed, log=False), data, check=says_where)
