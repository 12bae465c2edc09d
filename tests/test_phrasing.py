"""Card texts rendered from the general front end's rules (ruleset/phrasing.py).

While the commands still render the rules of Fort Sumter's own front end
(ruleset/render.py), every rule text the shipped content holds -- each card's
and objective's event, each procedure, what entering a zone does, the solo
game's rules, definitions, priorities and aid rows -- must read the same from
both, word for word, in every language the content ships.  Then the commands
can switch to the new renderer and players read exactly what they read today.
"""

import re

import pytest

from crisis.content.loader import load_content
from crisis.ruleset.phrasing import Phrasing, phrase_block, phrase_condition, phrase_places
from crisis.ruleset.render import render_block, render_condition, render_locations

LANGS = ("en", "es")


@pytest.fixture(scope="module")
def content():
    return load_content()


def key(name: str) -> str:
    """Old and new content name their procedures differently ("tie_breaks", "tie-breaks")."""
    return re.sub(r"[ \-]", "_", str(name)).lower()


def both(old, new):
    """The old and the new content's rules, side by side: as many of each."""
    old, new = tuple(old), tuple(new)
    assert len(old) == len(new), (old, new)
    return enumerate(zip(old, new))


def rule_fields(definition, kind: str):
    fields = next(k for k in definition.schema.card_kinds if k.name == kind).fields
    return [index for index, (_, type_name) in enumerate(fields) if type_name == "rule"]


def pairs(content):
    """(label, how, old rule, new rule, actor) for every rule text of the shipped content;
    ``how`` is block, condition or places."""
    definition = content.definition
    schema = definition.schema
    found = []
    for kind, cards in (("strategy cards", content.strategy_cards), ("objective cards", content.objective_cards)):
        new = definition.cards[kind]
        field = rule_fields(definition, kind)[0]
        for card in cards:
            if card.event is not None:
                found.append((f"{card.id} event", "block", card.event.tree,
                              new.fields[field][new.ids.index(card.id)], "you"))
    old = content.procedures
    for index, (a, b) in both(old.first_player, definition.first_player):
        found.append((f"first player {index + 1}", "condition", a.tree, b, "you"))
    zones = {z.name: (t, i) for t, track in enumerate(schema.tracks) for i, z in enumerate(track.zones)}
    for zone, (first, second) in old.breach_effects.items():
        new_first, new_second = definition.entering[zones[zone]]
        found.append((f"entering {zone}, first", "block", first.tree, new_first, "you"))
        found.append((f"entering {zone}, second", "block", second.tree, new_second, "you"))
    procedures = {key(name): value for name, value in definition.procedures.items()}
    for name in ("pivotal_bonus", "dimension_scoring", "objective_scoring", "final_crisis_start",
                 "final_crisis_matching", "final_crisis_not_matching"):
        found.append((name, "block", getattr(old, name).tree, procedures[name][1], "you"))
    found.append(("final_crisis_trigger", "condition", old.final_crisis_trigger.tree,
                  procedures["final_crisis_trigger"][1], "you"))
    lines = dict(procedures["final_scoring"][1])
    for label, rule in old.final_scoring:
        found.append((f"final scoring, {label}", "block", rule.tree, lines[label], "you"))
    for index, (a, b) in both(old.tie_breaks, procedures["tie_breaks"][1]):
        found.append((f"tie-break {index + 1}", "condition", a.tree, b, "you"))
    found.extend(solo_pairs(content))
    return found


def solo_pairs(content):
    solo, definition = content.solo, content.definition
    overlay, schema = definition.overlay, definition.schema
    game_role = overlay.roles[0]  # the side the game plays: "you" in its rules
    found = []
    steps = {key(name): variants for name, variants in overlay.steps.items()}
    procedures = {key(name): variants for name, variants in overlay.procedures.items()}
    for name, rule in solo.opponent.items():
        new = procedures.get(key(name)) or steps[key(name)]
        found.append((f"solo {name}", "block", rule.tree, new[game_role], "solo"))
    for index, (a, b) in both(solo.rules["first_player"], overlay.first_player):
        found.append((f"solo first player {index + 1}", "condition", a.tree, b, "you"))
    found.append(("solo objective scoring", "block", solo.rules["objective_scoring"].tree,
                  procedures["objective_scoring"][""], "you"))
    for index, (a, b) in both(solo.rules["tie_breaks"], procedures["tie_breaks"][""]):
        found.append((f"solo tie-break {index + 1}", "condition", a.tree, b, "you"))
    for name, (_, rule) in solo.terms.items():
        found.append((f"definition of {name}", "condition", rule.tree, definition.terms[name][1], "solo"))
    for index, (case, (when, holders)) in both(solo.available, overlay.available):
        found.append((f"available, case {index + 1}", "places", case.tokens.tree, holders, "solo"))
        if case.when is not None:
            found.append((f"available, case {index + 1}, when", "condition", case.when.tree, when, "solo"))
    markers = [m.name for m in schema.markers]
    for marker, rows in solo.markers.items():
        for index, (a, b) in both(rows, overlay.markers[markers.index(marker)]):
            found.append((f"{marker} priority {index + 1}", "places", a.rule.tree, b.places, "solo"))
    for side, aid in solo.aids.items():
        new = overlay.aids[schema.sides.index(side)]
        for table, rows in aid.tables.items():
            for index, (a, b) in both(rows, new[table]):
                found.append((f"{side} aid, {table} row {index + 1}", "places", a.rule.tree, b.places, "solo"))
    return found


def old_text(how, tree, catalog, actor):
    if how == "block":
        return render_block(tree, catalog, actor=actor)
    if how == "condition":
        return render_condition(tree, catalog, actor)
    return render_locations(tree, catalog, actor)


def new_text(how, rule, catalog, definition, actor):
    schema, declarations = definition.schema, definition.declarations
    if how == "block":
        return phrase_block(rule, catalog, schema, declarations, actor=actor)
    if how == "condition":
        return phrase_condition(rule, catalog, schema, declarations, actor)
    return phrase_places(rule, catalog, schema, declarations, actor)


def test_the_differential_covers_every_rule_text_the_content_holds(content):
    """Every rule text the commands render today is in the comparison, once."""
    found = pairs(content)
    old, solo = content.procedures, content.solo
    events = sum(c.event is not None for c in content.strategy_cards + content.objective_cards)
    expected = (events + len(old.first_player) + 2 * len(old.breach_effects) + 7 + len(old.final_scoring)
                + len(old.tie_breaks) + len(solo.opponent) + len(solo.rules["first_player"]) + 1
                + len(solo.rules["tie_breaks"]) + len(solo.terms)
                + sum(1 + (case.when is not None) for case in solo.available)
                + sum(len(rows) for rows in solo.markers.values())
                + sum(len(rows) for aid in solo.aids.values() for rows in aid.tables.values()))
    assert len(found) == expected == 130
    assert len({label for label, *_ in found}) == len(found)
    assert events == 52
    assert set(content.catalogs) == set(LANGS)  # every language the content ships


@pytest.mark.parametrize("lang", LANGS)
def test_every_rule_reads_the_same_from_the_general_front_end(content, lang):
    catalog = content.catalog(lang)
    differences = []
    for label, how, old, new, actor in pairs(content):
        before = old_text(how, old, catalog, actor)
        after = new_text(how, new, catalog, content.definition, actor)
        if before != after:
            differences.append(f"{label}:\n  old: {before}\n  new: {after}")
    assert not differences, f"{len(differences)} texts differ in '{lang}':\n" + "\n".join(differences)


def lettered(n) -> str:
    return "none of these:" if n == "none" else f"({'abcdefgh'[n - 1]})"


@pytest.mark.parametrize("lang", LANGS)
def test_inline_lettered_and_clause_forms_read_the_same(content, lang):
    """Card texts on one line (`crisis cards`), priority lists lettered as a rulebook letters
    them (`crisis aid`), and an effect as clauses of one sentence (previews) agree as well."""
    from crisis.ruleset.render import Renderer
    catalog, definition = content.catalog(lang), content.definition
    schema, declarations = definition.schema, definition.declarations
    blocks = [(label, old, new, actor) for label, how, old, new, actor in pairs(content) if how == "block"]
    for label, old, new, actor in blocks:
        assert (render_block(old, catalog, inline=True, actor=actor)
                == phrase_block(new, catalog, schema, declarations, inline=True, actor=actor)), label
        assert (render_block(old, catalog, actor=actor, labels=lettered)
                == phrase_block(new, catalog, schema, declarations, actor=actor, labels=lettered)), label
        assert (Renderer(catalog, actor).clauses(old)
                == Phrasing(catalog, schema, declarations, actor).clauses(new)), label
    assert any("(b) " in phrase_block(new, catalog, schema, declarations, actor=actor, labels=lettered)
               for _, _, new, actor in blocks)


def designer_rule(content):
    definition = content.definition
    cards = definition.cards["strategy cards"]
    return cards.fields[rule_fields(definition, "strategy cards")[0]][cards.ids.index("designer-card")]


def test_a_designers_new_card_reads_in_english_and_in_spanish(tmp_path):
    from helpers import add_designer_card, copy_content, designer_card

    root = copy_content(tmp_path)
    event = ("|\n      remove 1 opponent token from each Public Opinion space you control\n"
             "      if your pool has at least 3 tokens: gain 1 VP\n"
             "      otherwise: move up to 2 of your tokens from your crisis track to Fort Sumter or Texas\n"
             "      place 1 in pivotal spaces where the opponent has more tokens than you there")
    add_designer_card(root, designer_card(event), "designer-card", "Designer")
    content = load_content(root)
    rule, definition = designer_rule(content), content.definition
    english, spanish = (phrase_block(rule, content.catalog(lang), definition.schema, definition.declarations)
                        for lang in LANGS)
    assert english.split("\n") == [
        "Remove 1 opponent token from each Public Opinion space you control.",
        "If your pool has at least 3 tokens, gain 1 VP; otherwise, move up to 2 tokens from your crisis track "
        "to Fort Sumter or Texas.",
        "Place 1 token in a pivotal space where your opponent has more tokens than you.",
    ]
    assert spanish.split("\n") == [
        "Retira 1 ficha del oponente de cada casilla de Opinión Pública que controles.",
        "Si tu reserva tiene al menos 3 fichas, gana 1 PV; si no, mueve hasta 2 fichas de tu Medidor de Crisis "
        "a Fort Sumter o Texas.",
        "Coloca 1 ficha en una Casilla Crucial donde tu oponente tenga más fichas que tú.",
    ]


def test_a_term_the_content_defines_reads_by_the_name_its_catalogs_give_it(tmp_path):
    """Rename the solo game's term Friendly to Allied (overlay.yaml) and name it in the
    catalogs: the solo opponent's turn and the term's definition read the new name."""
    from helpers import copy_content, replace_in

    root = copy_content(tmp_path)
    overlay = root / "solo" / "overlay.yaml"
    overlay.write_text(overlay.read_text(encoding="utf-8").replace("Friendly", "Allied"), encoding="utf-8")
    for lang, shown in (("en", "Allied"), ("es", "Aliada")):
        replace_in(root / "locale" / lang / "board.yaml", "terms:\n", f"terms:\n  Allied: {shown}\n")
    content = load_content(root)
    definition = content.definition
    turn = definition.overlay.steps["turn"][definition.overlay.roles[0]]
    texts = {lang: phrase_block(turn, content.catalog(lang), definition.schema, definition.declarations,
                                actor="solo").split("\n")[1] for lang in LANGS}
    assert texts["en"].startswith("If the revealed card is Allied and the revealed card would place or remove")
    assert texts["es"].startswith("Si la carta revelada es Aliada y la carta revelada colocaría o retiraría")
    assert "Friendly" not in texts["en"] and "Amistosa" not in texts["es"]


# A game the renderer never heard of reads with nothing but its own catalog: the templates of
# its things are named after its schema's words (towns, groups of them called regions, an
# attribute "walled"), not after any word in the renderer.
THREE_CROWNS = {
    "render.sentence": "{clause}.",
    "render.subject.you": "you",
    "render.statement.place": "{who?you:place|*:{subject} places} {amount} {tokens} in {dest}{limit}",
    "render.statement.move": "{who?you:move|*:{subject} moves} {amount} {tokens} from {source} to {dest}{limit}",
    "render.statement.remove": "{who?you:remove|*:{subject} removes} {amount} {tokens} from {source}{limit}",
    "render.statement.gain": "{who?you:gain|*:{subject} gains} {n} VP",
    "render.statement.gain_per": "{who?you:gain|*:{subject} gains} {n} VP for each {per}",
    "render.statement.if_otherwise": "{when}, {then}; otherwise, {otherwise}",
    "render.when.if": "if {condition}",
    "render.condition.controls": "{who?you:you occupy|*:{player} occupies} {target}",
    "render.player.you": "you",
    "render.target.towns": "{name}",
    "render.amount.exactly": "{n}",
    "render.amount.up_to": "up to {n}",
    "render.tokens.own": "{n|banner|banners}",
    "render.tokens.either": "{n|banner|banners} of any side",
    "render.spaces.named": "{town}",
    "render.spaces.all": "{form?one:any town|each:town|*:any towns}",
    "render.spaces.region": "{form?one:a {region} town|each:{region} town|*:{region} towns}",
    "render.spaces.walled": "{form?one:a walled town|each:walled town|*:walled towns}",
    "render.spaces.you_control": "{spaces} you occupy",
    "render.limit.per_space": ", at most {n} per town",
    "render.per.regions_you": "region you occupy",
    "regions.Highlands": "Highland",
    "regions.Lowlands": "Lowland",
}


def test_a_game_the_renderer_never_heard_of_reads_with_its_own_catalog():
    from pathlib import Path

    from crisis.content.loader import read_game
    from crisis.content.locale import Catalog

    definition = read_game(Path(__file__).parent / "data" / "three-crowns")
    catalog = Catalog("en", THREE_CROWNS)
    cards = definition.cards["order cards"]
    event = rule_fields(definition, "order cards")[0]

    def text(card_id):
        rule = cards.fields[event][cards.ids.index(card_id)]
        return phrase_block(rule, catalog, definition.schema, definition.declarations)

    assert text("rally") == "Place 2 banners in Highland towns."
    assert text("fortify") == "Place 1 banner in a walled town."
    assert text("muster-hall") == "Place up to 2 banners in any towns, at most 1 per town."
    assert text("oath") == "Gain 1 VP for each region you occupy."
    assert text("raid") == "Remove up to 2 banners of any side from any towns."
    assert text("beacon") == "If you occupy Ashford, gain 1 VP; otherwise, place 1 banner in Ashford."
    assert not [card_id for card_id in cards.ids if "<render." in text(card_id)]
