"""Words the content needed: "that space" (a space chosen earlier in the same effect), where a marker
is, and "fewer VP than" -- checked, run and rendered."""

import pytest

from crisis.content.definition import card_slot
from crisis.content.loader import load_content
from crisis.interpreter.designer.scenario import run_file as run_scenario_file
from crisis.interpreter.engine.program import program_of
from crisis.ruleset.reader import parse
from crisis.ruleset.resolver import Resolver
from helpers import add_designer_card, copy_content


def run_file(content, path):
    """The scenarios of ``path`` on loaded content."""
    return run_scenario_file(program_of(content), content.root, path)


@pytest.fixture(scope="module")
def check(content):
    """What the rules front end says of a text as a strategy card's event."""
    definition = content.definition
    resolver = Resolver(definition.schema, definition.declarations, definition.lexicon)
    event = card_slot(definition.schema, definition.schema.card_kind("strategy cards"), "event")
    return lambda text: [d.message for d in resolver.block(parse(text, definition.lexicon), event)[1]]


def test_that_space_needs_an_earlier_choice_in_the_same_effect(check):
    assert check("place 1 in Texas or Deep South\nmove the Peace Commissioner to that space") == []
    assert check("if you control Texas: place 1 in that space") == [
        "'that space' is the space chosen by an earlier statement of the same effect, and no statement "
        "before this one chooses a space"]
    assert check("gain 1 VP\nremove 1 opponent token from that space") != []


def test_marker_conditions_are_checked(check):
    assert check("if the Peace Commissioner is in Political spaces: gain 1 VP") == []
    assert check("if the Peace Comissioner is on the map: gain 1 VP") == ["unknown marker 'Peace Comissioner'"]
    assert check("if the Unionist is in Texas: gain 1 VP") == ["'Unionist' is a side, not a marker"]
    assert check("if the Peace Commissioner is in your pool: gain 1 VP") == [
        "a marker is only ever on a map space, never in a pool, crisis track or box"]
    assert check("if the Peace Commissioner is in Washington or Texas: gain 1 VP") == []
    assert check("if the Peace Commissioner is in Texas, Border States or Texsa: gain 1 VP") == [
        "unknown space 'Texsa'"]
    assert check("if the Peace Commissioner is in Texas or your pool: gain 1 VP") == [
        "a marker is only ever on a map space, never in a pool, crisis track or box"]


@pytest.mark.parametrize("rule, english, spanish", [
    ("place 1 in Fort Sumter or Fort Pickens\nmove the Peace Commissioner to that space",
     "Place 1 token in Fort Sumter or Fort Pickens. Move the Peace Commissioner to that same space.",
     "Coloca 1 ficha en Fort Sumter o Fort Pickens. Mueve al Comisionado de Paz a esa misma casilla."),
    ("if you have fewer VP than the opponent: gain 1 VP", "If you have fewer VP than your opponent, gain 1 VP.",
     "Si tienes menos PV que tu oponente, gana 1 PV."),
    ("if the Peace Commissioner is in Political spaces: gain 1 VP",
     "If the Peace Commissioner is in a Political space, gain 1 VP.",
     "Si el Comisionado de Paz está en una casilla de Política, gana 1 PV."),
    ("if the Peace Commissioner is in Washington or Texas: gain 1 VP",
     "If the Peace Commissioner is in Washington or Texas, gain 1 VP.",
     "Si el Comisionado de Paz está en Washington o Texas, gana 1 PV."),
    ("if the Peace Commissioner is off the map: place the Peace Commissioner in Texas",
     "If the Peace Commissioner is off the map, place the Peace Commissioner in Texas.",
     "Si el Comisionado de Paz está fuera del mapa, coloca al Comisionado de Paz en Texas."),
    ("place 1 in Political spaces where the Peace Commissioner is on the map",
     "Place 1 token in a Political space where the Peace Commissioner is on the map.",
     "Coloca 1 ficha en una casilla de Política donde el Comisionado de Paz esté en el mapa."),
])
def test_the_new_words_render_in_english_and_spanish(content, rule, english, spanish):
    from helpers import phrased
    assert phrased(content, rule, "en", inline=True) == english
    assert phrased(content, rule, "es", inline=True) == spanish


CARD = """\
strategy_cards:
  - id: designer-truce
    value: 2
    event_for: both
    final_crisis: Armaments
    provenance: authored
    event: |
      place 1 in Fort Sumter or Fort Pickens
      move the Peace Commissioner to that space
      if the Peace Commissioner is in Armaments spaces and you have fewer VP than the opponent: gain 1 VP
      otherwise: place 1 in that space
"""

SCENARIOS = """\
scenarios:
  - name: that space is the fort chosen; behind on VP, the marker condition pays 1 VP
    position:
      phase: card_play
      vp: {Secessionist: 2}
      leader: Unionist
      hands: {Unionist: [designer-truce, lincoln], Secessionist: [florida-secedes]}
    actions:
      - event designer-truce
      - place Fort Pickens
    expect:
      markers: {Peace Commissioner: Fort Pickens}
      tokens: {Fort Pickens: {Unionist: 1}}
      vp: {Unionist: 1}
  - name: not behind on VP -- the otherwise branch places in that same space (the marker blocks it)
    position:
      phase: card_play
      hands: {Unionist: [designer-truce, lincoln], Secessionist: [florida-secedes]}
    actions:
      - event designer-truce
      - place Fort Sumter
    expect:
      markers: {Peace Commissioner: Fort Sumter}
      tokens: {Fort Sumter: {Unionist: 1}}
      vp: {Unionist: 0}
"""


def test_the_new_words_run_in_a_designers_card(tmp_path):
    root = copy_content(tmp_path)
    add_designer_card(root, CARD, "designer-truce", "Truce")
    content = load_content(root)
    path = tmp_path / "truce.yaml"
    path.write_text(SCENARIOS, encoding="utf-8")
    outcomes = run_file(content, path)
    assert [o.problems + [d.message for d in o.diagnostics] for o in outcomes] == [[], []]
    assert all(o.passed for o in outcomes)


def test_a_marker_in_one_of_several_places_runs(tmp_path):
    card = CARD.replace("if the Peace Commissioner is in Armaments spaces and you have fewer VP than the opponent",
                        "if the Peace Commissioner is in Washington or Fort Pickens")
    scenarios = SCENARIOS.replace("vp: {Secessionist: 2}", "vp: {Secessionist: 0}")
    root = copy_content(tmp_path)
    (root / "cards" / "zz-designer.yaml").write_text(card, encoding="utf-8")
    for lang in ("en", "es"):
        (root / "locale" / lang / "zz-designer.yaml").write_text(
            "cards:\n  designer-truce:\n    title: Truce\n", encoding="utf-8")
    path = tmp_path / "either.yaml"
    path.write_text(scenarios, encoding="utf-8")
    outcomes = run_file(load_content(root), path)
    # in Fort Pickens (one of the two): 1 VP; in Fort Sumter (neither): the otherwise branch
    assert [o.problems + [d.message for d in o.diagnostics] for o in outcomes] == [[], []]
    assert all(o.passed for o in outcomes)


UP_TO_AS_MANY_SCENARIOS = """\
scenarios:
  - name: up to as many as the card's value -- the player stops after one
    position:
      phase: card_play
      leader: Unionist
      tokens: {Fort Sumter: {Secessionist: 3}}
      hands: {Unionist: [designer-card, lincoln], Secessionist: [florida-secedes]}
    actions:
      - event designer-card
      - remove Fort Sumter
      - done
    expect:
      tokens: {Fort Sumter: {Secessionist: 2}}
"""


def test_up_to_as_many_as_a_number_lets_the_player_stop(tmp_path):
    """"up to as many X as N" is a most, not an exact count: 'done' is offered after each
    removal (it once removed all N, asking nothing)."""
    from helpers import designer_card
    root = copy_content(tmp_path)
    add_designer_card(root, designer_card(
        "remove up to as many opponent tokens as the value of the card from Fort Sumter"), "designer-card", "Raid")
    path = tmp_path / "up-to.yaml"
    path.write_text(UP_TO_AS_MANY_SCENARIOS, encoding="utf-8")
    content = load_content(root)
    outcomes = run_file(content, path)
    assert [o.problems + [d.message for d in o.diagnostics] for o in outcomes] == [[]]
    assert all(o.passed for o in outcomes)
    from helpers import phrased
    rule = "remove up to as many opponent tokens as the value of the card from Fort Sumter"
    assert "up to" in phrased(content, rule)  # the card reads as a most, in both languages
    assert "hasta" in phrased(content, rule, lang="es")


def test_you_win_in_a_card_s_rule_ends_the_game_with_the_invariants_holding(tmp_path):
    """'you win' in a card's rule ends the game during that card's play: the card lies in no pile,
    which the invariants (crisis test, play --check) accept for that card alone, so a sudden-death
    card can have a passing scenario and random games of it check clean."""
    from crisis.interpreter import batch
    from crisis.interpreter.engine.game import Options
    from helpers import designer_card
    root = copy_content(tmp_path)
    add_designer_card(root, designer_card("you win"), "designer-card", "Coup")
    path = tmp_path / "win.yaml"
    path.write_text("""\
scenarios:
  - name: the card's rule wins the game at once
    position:
      phase: card_play
      leader: Unionist
      hands: {Unionist: [designer-card, lincoln], Secessionist: [florida-secedes]}
    actions:
      - event designer-card
    expect:
      over: true
      winner: Unionist
      decision: null
""", encoding="utf-8")
    content = load_content(root)
    outcomes = run_file(content, path)
    assert [o.problems + [d.message for d in o.diagnostics] for o in outcomes] == [[]]
    assert all(o.passed for o in outcomes)
    summary = batch.Summary()
    for record in batch.Job(content, Options(frozenset()), check=True).play(range(1, 41)):
        summary.add(record)
    assert summary.problems == [] and summary.broken == 0
    assert summary.at_once > 0  # some games did end by the card


KEEP_AT_RANDOM = """\
  - name: seed {seed}, {card} drawn by lot
    seed: {seed}
    position:
      phase: card_play
      leader: Unionist
      hands: {{Unionist: [designer-card, lincoln], Secessionist: [florida-secedes, jefferson-davis, star-of-the-west]}}
    actions:
      - event designer-card
    expect:
      decision: {{player: Secessionist, kind: play_card}}
      discard: [{card}, designer-card]
"""
DRAWN = ("florida-secedes", "jefferson-davis", "star-of-the-west")


def test_keep_at_random_draws_a_card_by_lot(tmp_path):
    """'keep 1 card of the opponent's hand as the discard pile, at random': a card leaves the
    other hand for the discard pile with no decision, drawn by the game's generator (one of the
    three, not the same one for every seed), and the card reads ', at random'."""
    from helpers import designer_card, phrased
    rule = "keep 1 card of the opponent's hand as the discard pile, at random"
    root = copy_content(tmp_path)
    add_designer_card(root, designer_card(rule), "designer-card", "Raid")
    path = tmp_path / "keep.yaml"
    seeds = range(1, 9)
    path.write_text("scenarios:\n" + "".join(KEEP_AT_RANDOM.format(seed=seed, card=card)
                                             for seed in seeds for card in DRAWN), encoding="utf-8")
    content = load_content(root)
    outcomes = run_file(content, path)
    assert all(o.diagnostics == [] for o in outcomes)
    drawn = [[card for card, o in zip(DRAWN, outcomes[k * 3:k * 3 + 3]) if o.passed] for k in range(len(seeds))]
    assert all(len(cards) == 1 for cards in drawn), drawn  # one card, and no one asked
    assert len({cards[0] for cards in drawn}) > 1  # by lot: not always the same
    assert phrased(content, rule).endswith(", at random.")
    assert phrased(content, rule, lang="es").endswith(", al azar.")


def test_keep_with_the_opponent_choosing_is_refused_at_its_words(check):
    (message,) = check("keep 1 card of the opponent's hand as the discard pile, the opponent choosing")
    assert message == "the opponent cannot choose the cards another player keeps"


def test_a_card_kept_from_a_pile_the_player_cannot_see_is_refused(check):
    """A choice lists its cards: keeping one of the opponent's hand would show that hand to the
    player keeping. Refused at check, with the ways to say it; the owner's own choice, and a card
    drawn by lot, are fine."""
    (message,) = check("keep 1 card of the opponent's hand as the discard pile")
    assert message == ("the player keeping a card cannot see the cards of the opponent's hand: "
                       "the choice would show them")
    assert check("the opponent keeps 1 card of their hand as the discard pile") == []
    assert check("keep 1 card of the opponent's hand as the discard pile, at random") == []
