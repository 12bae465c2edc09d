"""Rule texts rendered from the general front end's rules (ruleset/phrasing.py): every rule of
a game's definition (cards, sequence of play, procedures, the solo overlay; the toy game too)
in every language it ships, and the sequence of play as an outline.  The texts players read are
also kept by the literal expectations of test_render.py, test_i18n.py, test_cli_commands.py
(crisis aid) and test_spanish_game.py.
"""

import re
from pathlib import Path

import pytest
import yaml

from crisis.content.loader import load_content
from crisis.content.phrases import every_rule, meaning_of, phrase
from crisis.ruleset import meaning as M
from crisis.ruleset.phrasing import Phrasing, phrase_block, phrase_outline

from helpers import phrased

LANGS = ("en", "es")


@pytest.fixture(scope="module")
def content():
    return load_content()


def rule_fields(definition, kind: str):
    fields = next(k for k in definition.schema.card_kinds if k.name == kind).fields
    return [index for index, (_, type_name) in enumerate(fields) if type_name == "rule"]


def test_a_rule_of_the_general_front_end_is_its_own_match(content):
    """The commands phrase what the engine hands over (its log, its decisions: content/phrases.py):
    a rule's meaning is its own match, and so is the syntax it was read from, down to its parts."""
    rule = content.definition.play
    assert meaning_of(content, rule) is rule
    step = rule.statements[0].body.statements[0]
    assert meaning_of(content, step.node) is step
    turn = content.definition.overlay.steps["turn"][content.definition.overlay.roles[0]]
    condition = turn.statements[1].condition
    assert meaning_of(content, condition.node) is condition
    with pytest.raises(KeyError):
        meaning_of(content, object())


def lettered(n) -> str:
    return "none of these:" if n == "none" else f"({'abcdefgh'[n - 1]})"


def test_a_priority_list_is_lettered_and_a_zones_rule_reads_as_clauses(content):
    """`crisis aid` letters the solo rulebook's lists as it does; a preview says what entering a
    zone does as clauses of one sentence."""
    definition = content.definition
    overlay, schema, declarations = definition.overlay, definition.schema, definition.declarations
    bonus = overlay.procedures["pivotal bonus"][overlay.roles[0]]
    text = phrase_block(bonus, content.catalog("en"), schema, declarations, actor="solo", labels=lettered)
    assert text.startswith("The Solo Opponent does the first of these that can be carried out: (a) so that the "
                           "Solo Opponent gains control of this dimension: the Solo Opponent moves 2 tokens")
    assert text.endswith("; (e) the Solo Opponent removes 2 player tokens from the spaces of this dimension.")
    zones = [zone.name for zone in schema.tracks[0].zones]
    first, _ = definition.entering[(0, zones.index("Tension"))]
    clauses = {lang: Phrasing(content.catalog(lang), schema, declarations).clauses(first) for lang in LANGS}
    assert clauses["en"] == ("move 3 tokens from your Tension box to your pool, then your opponent places the "
                             "Peace Commissioner in any space")
    assert clauses["es"] == ("mueve 3 fichas de tu casilla de Tensión a tu reserva y después tu oponente coloca "
                             "al Comisionado de Paz en cualquier casilla")


def test_every_condition_of_the_language_reads(content):
    """Every condition has its phrasing, but those about cards in play (entities, Entity...),
    which no shipped game has yet: they show their template's key (<render.condition.entity_flag>)."""
    import typing
    conditions = {kind.__name__ for kind in typing.get_args(M.Condition)}
    assert [name for name in conditions if not name.startswith("Entity") and not hasattr(Phrasing, "cond_" + name)] == []


@pytest.mark.parametrize("rule, english, spanish", [
    ("if the number of cards of your hand is more than 1: gain 1 VP",
     "If you have more than 1 card in your hand, gain 1 VP.", "Si tienes más de 1 carta en tu mano, gana 1 PV."),
    ("if the number of revealed objectives is at least 1: gain 1 VP",
     "If the number of revealed objectives is at least 1, gain 1 VP.",
     "Si el número de cartas de objetivo que se han revelado es al menos 1, gana 1 PV."),
])
def test_a_count_of_cards_named_by_their_kind_reads(content, rule, english, spanish):
    """'the number of cards of your hand' (cards named, not a pile) reads as the count of that
    pile; crisis check and crisis cards stopped on it with a traceback."""
    assert phrased(content, rule) == english
    assert phrased(content, rule, lang="es") == spanish


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
# attribute "walled", its piles and counters), not after any word in the renderer.
THREE_CROWNS = Path(__file__).parent / "data" / "three-crowns"


def toy_catalog(lang: str):
    from crisis.content.locale import Catalog, flatten
    data = yaml.safe_load((THREE_CROWNS / "locale" / lang / "texts.yaml").read_text(encoding="utf-8"))
    return Catalog(lang, {key: str(value) for key, value, *_ in flatten(data)})


@pytest.fixture(scope="module")
def toy():
    from crisis.content.loader import read_game
    return read_game(THREE_CROWNS)


def test_a_game_the_renderer_never_heard_of_reads_with_its_own_catalog(toy):
    catalog = toy_catalog("en")
    cards = toy.cards["order cards"]
    event = rule_fields(toy, "order cards")[0]

    def text(card_id):
        rule = cards.fields[event][cards.ids.index(card_id)]
        return phrase_block(rule, catalog, toy.schema, toy.declarations)

    assert text("rally") == "Place 2 banners in Highland towns."
    assert text("fortify") == "Place 1 banner in a walled town."
    assert text("muster-hall") == "Place up to 2 banners in any towns, at most 1 per town."
    assert text("oath") == "Gain 1 VP for each region you occupy."
    assert text("raid") == "Remove up to 2 banners of any side from any towns."
    assert text("beacon") == "If you occupy Ashford, gain 1 VP; otherwise, place 1 banner in Ashford."
    assert not [card_id for card_id in cards.ids if "<render." in text(card_id)]


# ---------------------------------------------------------------- the whole of a game's rules

def own_catalog(content, lang: str):
    """A language's catalog alone: a template it lacks shows its key instead of the English one."""
    from crisis.content.locale import Catalog
    return Catalog(lang, dict(content.catalog(lang).messages))


def every_text(definition, catalog):
    """(label, text) of every rule in every form a command shows it: a sentence per statement,
    one line, an outline (crisis rules)."""
    for label, how, rule, actor in every_rule(definition):
        yield label, phrase(how, rule, catalog, definition, actor)
        if how == "block":
            yield label, phrase_block(rule, catalog, definition.schema, definition.declarations, inline=True,
                                      actor=actor)
            lines = phrase_outline(rule, catalog, definition.schema, definition.declarations, actor)
            yield label, "\n".join(line for _, line in lines)


WORD = re.compile(r"[^\W\d_]+")
# where a catalog gives the words of rules: its templates and the names of the game's things
WORD_SECTIONS = ("render.", "forms.", "sides.", "spaces.", "dimensions.", "zones.", "markers.", "terms.",
                 "counters.", "piles.", "registers.", "procedures.", "steps.", "regions.", "towns.", "grammar.")


def unlocalized(texts, catalog) -> list:
    """Words of texts that no template or name of the catalog holds: a name the catalog lacks
    shows as the schema writes it, in the designer's English."""
    known = {word.lower() for key, message in catalog.messages.items() if key.startswith(WORD_SECTIONS)
             for word in WORD.findall(message)}
    return sorted({(word, label) for label, text in texts for word in WORD.findall(text)
                   if word.lower() not in known})


def test_the_list_of_rules_rendered_holds_every_rule_the_game_reads(content, toy):
    """Every rule a definition reads (cards, sequence of play, uses of a card, zones, procedures,
    terms, the solo overlay's steps, procedures, definitions, priorities and aid rows) is among
    the rules `every_rule` lists, which the test below and `crisis i18n check` render."""
    for definition in (content.definition, toy):
        listed = {id(rule) for _, _, rule, _ in every_rule(definition)}
        assert [source.label for rule, source in definition.sources if id(rule) not in listed] == []
    labels = [label for label, *_ in every_rule(content.definition)]
    assert {"setup", "play", "use claim, if", "overlay step objectives", "term final crisis card"} <= set(labels)


@pytest.mark.parametrize("lang", LANGS)
def test_every_rule_of_the_game_renders_in_every_language(content, lang):
    """The sequence of play, the overlay's steps and every other rule read in full: no template
    is missing (<render...>), and a translation shows no word of the reference language beyond
    the names it keeps (a name it lacks shows the English the content is written in)."""
    catalog = own_catalog(content, lang)
    texts = list(every_text(content.definition, catalog))
    assert [(label, text) for label, text in texts if "<render." in text] == []
    assert unlocalized(texts, catalog) == []


@pytest.mark.parametrize("lang", LANGS)
def test_every_rule_of_the_toy_game_renders_with_its_own_catalogs(toy, lang):
    catalog = toy_catalog(lang)
    texts = list(every_text(toy, catalog))
    assert [(label, text) for label, text in texts if "<render." in text] == []
    assert unlocalized(texts, catalog) == []


def test_a_name_a_translation_lacks_is_found(content):
    """The check above finds the English of a name the Spanish catalog lacks, and a template it lacks."""
    catalog = own_catalog(content, "es")
    del catalog.messages["piles.hand"]
    del catalog.messages["render.statement.shuffle"]
    texts = list(every_text(content.definition, catalog))
    assert ("hand", "play") in unlocalized(texts, catalog)
    assert any("<render.statement.shuffle>" in text for label, text in texts if label == "setup")


def test_the_sequence_of_play_reads_as_an_outline(content):
    """`crisis rules` shows the round structure from the rules: steps and loops open with a line
    of their own, their statements below them, counters and piles by their names."""
    definition = content.definition
    for lang, expected in (("en", ["Each round, up to round 3:", "  Deal:",
                                   "    Each player draws 4 cards from the strategy deck into their hand.",
                                   "    Each player draws 2 objectives from the objective deck into their objective "
                                   "offer."]),
                           ("es", ["En cada ronda, hasta la ronda 3:", "  Reparto:",
                                   "    Cada jugador roba 4 cartas del mazo de estrategia a su mano.",
                                   "    Cada jugador roba 2 cartas de objetivo del mazo de objetivos a sus objetivos "
                                   "repartidos."])):
        lines = ["  " * depth + line for depth, line in phrase_outline(definition.play, content.catalog(lang),
                                                                         definition.schema, definition.declarations)]
        assert lines[:4] == expected
    english = [line for _, line in phrase_outline(definition.play, content.catalog("en"), definition.schema,
                                                  definition.declarations)]
    assert "Players take turns, the leader first, until each has 3 played cards:" in english
    assert "Add 1 to the number of Final Crisis cards each player has revealed." in english
    assert english[-1] == "The player with more VP wins, ties broken by the tie-breaks."


def test_a_counter_other_than_vp_says_its_name(content):
    """"gain 1 VP" says VP; a rule gaining or adding to another counter says that counter's name."""
    from helpers import resolved

    definition = content.definition
    rule = resolved(definition, "gain 1 VP\ngain 2 played cards\nadd 2 to the round")
    texts = {lang: phrase_block(rule, content.catalog(lang), definition.schema, definition.declarations)
             for lang in LANGS}
    assert texts["en"] == "Gain 1 VP.\nGain 2 played cards.\nAdd 2 to the round."
    assert texts["es"] == "Gana 1 PV.\nGana 2 cartas jugadas.\nSuma 2 a la ronda."


def test_crisis_i18n_check_knows_the_templates_the_rules_need(tmp_path):
    """A template made from the game's names (render.holder.pool, render.statement.resolve_breached)
    is in no list in the program: `crisis i18n check` learns it from the rules, and reports it
    missing, with the rule that needs it, when the reference catalog lacks it."""
    from helpers import copy_content

    from crisis.content.i18n import check_catalog

    root = copy_content(tmp_path)
    render = root / "locale" / "en" / "render.yaml"
    lines = [line for line in render.read_text(encoding="utf-8").splitlines()
             if not line.lstrip().startswith(("resolve_breached:", "pool:"))]
    render.write_text("\n".join(lines) + "\n", encoding="utf-8")
    problems = {d.message: d for d in check_catalog(load_content(root), "en") if d.severity == "error"}
    missing = problems["'render.statement.resolve_breached' is missing in the 'en' catalog: players would see "
                       "<render.statement.resolve_breached>"]
    assert "the rule 'play' needs it" in missing.hint
    assert "'render.holder.pool' is missing in the 'en' catalog: players would see <render.holder.pool>" in problems


@pytest.mark.parametrize("lang, solo, wanted", [
    ("en", False, ["  Play:", "    Each round, up to round 3:", "      Deal:",
                   "    The pivotal bonus:", "      1. you control Fort Sumter",
                   # the ways to play a card, each by the word a player types, with its rule
                   "  Ways to play a card (the word you type, then what it does):",
                   "    event (if the card is for you):", "      Carry out the event of the card."]),
    ("es", True, ["  Partida:", "    En cada ronda, hasta la ronda 3:",
                  "    evento (si la carta es para ti):", "      Lleva a cabo el evento de la carta.",  # the word typed
                  "  En el juego en solitario, estos pasos y procedimientos se juegan así:",
                  "    Turno, para el Oponente en Solitario:"]),
])
def test_the_rules_command_shows_the_sequence_of_play(content, lang, solo, wanted):
    """`rules steps` (the rules command of a game) shows the sequence of play as written in the
    content, rendered; in the solo game, also the steps and procedures the solo game replaces."""
    from crisis.cli.board import Screen
    from crisis.cli.info import rules_query
    from crisis.cli.terminal import Style
    from crisis.cli.text import Presenter
    from crisis.interpreter.engine.game import Game, Options

    options = Options(frozenset({"event_discard"}), solo=content.definition.schema.sides[1]) if solo else None
    screen = Screen(Game.of(content, 0, options, log=False), Presenter(content, content.catalog(lang)), Style(False),
                    100)
    listed, _ = rules_query(screen, "")
    assert any(line.strip().startswith(("steps:", "pasos:")) for line in listed)
    lines, problem = rules_query(screen, {"en": "steps", "es": "pasos"}[lang])
    assert problem is None
    assert [line for line in wanted if line not in lines] == []
    assert not [line for line in lines if "<" in line]
    assert any("Solitario" in line for line in lines) == solo


def test_the_scoring_summary_says_how_the_solo_game_scores_objectives(content):
    """'rules scoring' said each player scores both objective spaces, which the solo game does
    not: there the player scores only his own, the Solo Opponent both."""
    from crisis.cli.board import Screen
    from crisis.cli.info import rules_query
    from crisis.cli.terminal import Style
    from crisis.cli.text import Presenter
    from crisis.interpreter.engine.game import Game, Options

    options = Options(frozenset({"event_discard"}), solo=content.definition.schema.sides[1])
    screen = Screen(Game.of(content, 0, options, log=False), Presenter(content, content.catalog("en")), Style(False), 100)
    listed, _ = rules_query(screen, "scoring")
    text = " ".join(" ".join(listed).split())
    assert "In the solo game you gain 1 VP for your own objective's space only" in text

