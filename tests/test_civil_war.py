"""The Civil War Card Game, written as content alone (content/civil-war-card-game/).

Casey Foote's rulebook is short and open in many places; docs/civil-war-card-game.md gives the
reading chosen for each point.  These tests play the game as a person would meet it: the content
loads on the general engine with no Python of its own, set-up deals as the rulebook says, whole
random games end with a winner and keep the game's invariants after every action, a game is its
seed and actions, batch play asks the same questions as play by frames, the scenario files of
every rule pass, the language's new words are refused at their line when misused, and no Python
of the engine names this game's things.
"""

import ast
import random
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from crisis.content.loader import read_game
from helpers import assert_same_choice_on_twins
from test_engine_knows_no_game import names_and_strings
from crisis.content.yamlfile import ContentError
from crisis.interpreter.designer.invariants import check_position
from crisis.interpreter.designer.scenario import NOT_RUN, PASSED, run_file
from crisis.interpreter.engine.game import Game, play_game
from crisis.interpreter.engine.program import GameProgram

ROOT = Path(__file__).resolve().parents[1] / "content" / "civil-war-card-game"
NORTH, SOUTH = 0, 1


@pytest.fixture(scope="module")
def definition():
    return read_game(ROOT)


@pytest.fixture(scope="module")
def program(definition):
    return GameProgram(definition)


def random_game(program, seed):
    game = Game(program, seed)
    rng = random.Random(seed)
    while game.decision is not None:
        game.apply(rng.choice(game.decision.actions))
    return game


def cards_in_play(game, side=-1):
    view = game.view
    return [view.entity(e) for e in view.in_play(side)]


def field(definition, name):
    cards = definition.cards["war cards"]
    names = [f for f, _ in definition.schema.card_kind("war cards").fields]
    return dict(zip(cards.ids, cards.fields[names.index(name)]))


# ------------------------------------------------------------------ the content


def test_two_authored_decks_the_norths_larger_each_card_captioned(definition):
    """The rulebook: the North has more cards, the South better officers; every card is authored."""
    side, kind = field(definition, "side"), field(definition, "type")
    leadership, caption = field(definition, "leadership"), field(definition, "caption")
    north = [c for c, s in side.items() if s == NORTH]
    south = [c for c, s in side.items() if s == SOUTH]
    assert 40 <= len(south) < len(north) <= 60
    officers = {s: [leadership[c] for c in cards if kind[c] == "soldier" and leadership[c] >= 2]
                for s, cards in ((NORTH, north), (SOUTH, south))}
    assert sum(officers[SOUTH]) / len(officers[SOUTH]) > sum(officers[NORTH]) / len(officers[NORTH])
    assert {kind[c] for c in north} == {kind[c] for c in south} == {
        "soldier", "president", "farm", "location", "capital", "weapon", "device", "interrupt"}
    assert all(len(caption[c]) > 20 for c in side)
    text = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "cards").glob("*.yaml"))
    assert text.count("provenance: authored") == len(side)


def test_the_locations_lie_in_one_line_by_their_number(program):
    from crisis.interpreter.engine.entities import tables
    t = tables(program)
    places = program.schema.map.places
    line = [places[p] for p in t.line_order]
    assert line.index("Washington D.C.") < line.index("Manassas") < line.index("Richmond")
    assert len(line) == len(places)  # every location has its card


# ------------------------------------------------------------------ set-up and whole games


def test_set_up_puts_each_capital_and_a_chosen_location_in_the_line_and_deals_five(program):
    game = Game(program, 5)
    decision = game.decision
    assert decision.player == SOUTH and decision.kind == "deploy"
    assert "deploy manassas" in [a.text for a in decision.actions]
    assert "deploy richmond" not in [a.text for a in decision.actions]  # already in the line
    game.apply("deploy manassas")
    assert game.decision.player == NORTH and game.decision.kind == "deploy"
    game.apply("deploy baltimore")
    assert sorted(c["card"] for c in cards_in_play(game, NORTH))[:2] == ["baltimore", "washington-dc"]
    assert {c["card"] for c in cards_in_play(game, SOUTH)} >= {"richmond", "manassas"}
    # five cards each; the South, first, has drawn a sixth and its turn is under way
    assert len(game.view.pile("hand", NORTH)) == 5
    assert game.view.register("leader") == SOUTH


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_random_games_end_with_a_winner_and_keep_the_games_invariants(program, seed):
    game = Game(program, seed)
    rng = random.Random(seed)
    ids = program.cards[0].ids
    kind = dict(zip(ids, program.cards[0].fields[0]))
    while game.decision is not None:
        game.apply(rng.choice(game.decision.actions))
        assert check_position(program, game.position) == []  # every card in one place, counters in bounds
        cards = cards_in_play(game)
        by_card = {c["card"]: c for c in cards}
        for card in cards:
            if card["flags"].get("tapped"):
                assert kind[card["card"]] == "farm"  # only farms are ever tapped (to pay)
            if card["on"] is not None:
                assert card["at"] == by_card[card["on"]]["at"]  # carried cards go where their carrier goes
                assert kind[card["on"]] in ("soldier", "president")
            if kind[card["card"]] in ("location", "capital"):
                assert card["at"] is not None and card["on"] is None
        for side in (NORTH, SOUTH):
            assert all(kind[ids[c]] == "president" for c in game.view.pile("captured cards", side))
        assert not [c for c in game.view.pile("discard pile") if kind[ids[c]] in ("president", "location", "capital")]
    assert game.result is not None and game.result.winner in (NORTH, SOUTH)


def test_random_games_battle_forfeit_form_armies_interrupt_and_end_both_ways(program):
    """The game is a real test of the language only if random games do all of it."""
    seen = set()
    winners = set()
    for seed in range(150):
        game = random_game(program, seed)
        seen.update(text.split()[0] for text in game.history)
        winners.add(game.result.winner)
        if any(game.view.pile("captured cards", side) for side in (NORTH, SOUTH)):
            seen.add("captured")
        if game.result.tie_break >= 0 or game.view.counter("VP", NORTH) + game.view.counter("VP", SOUTH):
            seen.add("armistice")
    assert {"march", "deploy", "join", "battlefield", "forfeit", "interrupt", "armistice"} <= seen
    assert winners == {NORTH, SOUTH}


def test_a_battle_total_starts_at_0_though_it_may_fall_below(program):
    """The totals may go below 0 (C10), and start at 0, not at their lowest: the battle header
    read 'total -999' before the first battle."""
    schema, layout = program.schema, program.layout
    index = next(i for i, counter in enumerate(schema.counters) if counter.name == "might")
    assert schema.counters[index].low < 0
    game = Game(program, 3)
    assert [game.position.values[layout.counter[index] + side] for side in range(2)] == [0, 0]


def test_a_game_is_its_seed_and_actions(program):
    game = random_game(program, 17)
    again = Game(program, 17)
    for text in game.history:
        again.apply(text)
    assert again.position.values == game.position.values and again.position.piles == game.position.piles
    assert again.result == game.result


def test_batch_play_asks_the_same_questions_as_play_by_frames(program):
    """The direct form (bots, crisis sim; generated code calling the operations) and the framed form
    (the command line, saves, scenarios) offer the same choices and reach the same position."""
    for seed in range(12):
        rng = random.Random(seed)
        asked = []

        def choose(decision):
            action = decision.actions[rng.randrange(len(decision.actions))]
            asked.append(([a.text for a in decision.actions], action.text))
            return action
        position, _ = play_game(program, seed, choose)
        game = Game(program, seed)
        for legal, chosen in asked:
            assert [a.text for a in game.decision.actions] == legal
            game.apply(chosen)
        assert game.decision is None and game.position.values == position.values


def test_a_fork_goes_on_from_a_copy(program):
    game = Game(program, 8)
    rng = random.Random(8)
    for _ in range(20):
        if game.decision is None:
            break
        game.apply(rng.choice(game.decision.actions))
    before = (list(game.position.values), [list(p) for p in game.position.piles])
    fork = game.fork()
    while fork.decision is not None:
        fork.apply(rng.choice(fork.decision.actions))
    assert (game.position.values, game.position.piles) == before


# ------------------------------------------------------------------ scenarios


def test_every_rule_has_a_passing_scenario(program):
    outcomes = [o for path in sorted((ROOT / "scenarios").glob("*.yaml")) for o in run_file(program, ROOT, path)]
    assert [(o.name, o.problems, [d.message for d in o.diagnostics]) for o in outcomes if o.status != PASSED] == []
    files = {Path(o.file).stem for o in outcomes}
    assert {"turn", "move", "deploy", "battle", "armies", "interrupts", "win"} <= files
    assert len(outcomes) >= 25


def test_a_scenario_that_expects_the_wrong_total_fails(program, tmp_path):
    """The battle arithmetic is checked for real: one more point of defense and the same battle ties."""
    text = (ROOT / "scenarios" / "battle.yaml").read_text(encoding="utf-8")
    start = text.index("  - name: The loser forfeits")
    end = text.index("  - name: An army's general")
    one = "scenarios:\n" + text[start:end].replace("georgia-volunteers: {at: Manassas}",
                                                     "georgia-volunteers: {at: Manassas}\n          field-fortifications: "
                                                     "{carried by: georgia-volunteers}")
    path = tmp_path / "one.yaml"
    path.write_text(one, encoding="utf-8")
    (outcome,) = run_file(program, ROOT, path)
    assert outcome.status != PASSED and any("forfeit" in problem for problem in outcome.problems)


SIDE_DECKS = """scenarios:
  - name: Each side's deck is expected top first, whole or in part
    position:
      phase: turns
      leader: North
      in play:
        North: {washington-dc: {at: Washington D.C.}, ohio-farms: {}, iowa-cornfields: {}}
        South: {richmond: {at: Richmond}}
      hands: {North: [iron-brigade], South: []}
      decks: {North: [bounty-jumpers, irish-brigade], South: [robert-e-lee]}
    actions: []
    expect:
      decision: {player: North, kind: deploy}
      decks: {North: {top: [irish-brigade], size: 55}, South: {top: [robert-e-lee]}}
"""


def test_a_scenario_expects_each_sides_deck_top_first_whole_or_in_part(program, tmp_path):
    """The North drew the Bounty Jumpers at its draw: the Irish Brigade is on top of the 55 cards
    left (60, less three in play and two in hand); a wrong top or size is reported as such."""
    path = tmp_path / "decks.yaml"
    path.write_text(SIDE_DECKS, encoding="utf-8")
    (outcome,) = run_file(program, ROOT, path)
    assert outcome.status == PASSED, outcome.problems
    path.write_text(SIDE_DECKS.replace("top: [irish-brigade], size: 55", "top: [bounty-jumpers], size: 56"),
                    encoding="utf-8")
    (outcome,) = run_file(program, ROOT, path)
    assert outcome.problems == ["decks.North.top: expected ['bounty-jumpers'], got ['irish-brigade']",
                                "decks.North.size: expected 56, got 55"]


def test_a_scenario_may_not_stand_a_card_at_a_location_off_the_map(program, tmp_path):
    """A location is on the map only while its card is in play (C3): a soldier put at Manassas
    without the Manassas card is an impossible start, said before any action; with the card it is played."""
    path = tmp_path / "off.yaml"
    path.write_text(SIDE_DECKS.replace("ohio-farms: {}, iowa-cornfields: {}}",
                                       "ohio-farms: {}, iowa-cornfields: {}, twentieth-maine: {at: Manassas}}"),
                    encoding="utf-8")
    (outcome,) = run_file(program, ROOT, path)
    assert [d.message for d in outcome.diagnostics] == [
        "the starting position is impossible: twentieth-maine stands at Manassas, which is not on the map"]
    path.write_text(path.read_text(encoding="utf-8").replace("South: {richmond: {at: Richmond}}",
                                                            "South: {richmond: {at: Richmond}, "
                                                            "manassas: {at: Manassas}}"), encoding="utf-8")
    (outcome,) = run_file(program, ROOT, path)
    assert outcome.diagnostics == [] and outcome.status != NOT_RUN  # it ran (its expectations are another start's)


# ------------------------------------------------------------------ content mistakes


def copy_game(tmp_path) -> Path:
    target = tmp_path / "civil-war"
    shutil.copytree(ROOT, target, ignore=shutil.ignore_patterns("scenarios", "locale"))
    return target


def edit(path: Path, old: str, new: str) -> int:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    return text[:text.index(old)].count("\n") + 1


def problems(root) -> list:
    with pytest.raises(ContentError) as error:
        read_game(root)
    return error.value.diagnostics


BEFORE = "    if you have a location at the battlefield: pay 1\n"


@pytest.mark.parametrize("new, message", [
    ("    choose a location as the leader\n", "holds no place"),
    ("    tap 1 of your untapped farms, paying 1\n", "'tap' takes no 'paying'"),
    ("    if the distance to Richmond is 2: pay 1\n", "the distance from which card?"),
    ("    march any number of your unmoved characters to a location within 2\n", None),
    ("    deploy any number of farms from your hand at a location within 2\n", "'within' says where a card in play may go"),
    ("    deploy any number of farms from your hand until their total price is at least 2\n",
     "'until their total ...' is said of cards in play"),
    ("    forfeit your soldiers until their total caption is at least the damage\n",
     "'caption' is not a number field"),
    ("    forfeit your soldiers whose caption is at least 2\n", "'caption' is not a number field"),
    ("    if the card is a wagon: pay 1\n", None),
    ("    if the top card of your deck is a farms: pay 1\n", None),
    ("    pay the highest leadership of your characters\n", None),
    ("    for each character you control: pay the highest leadership of the character\n",
     "the highest leadership of one card"),
    # a game without tokens: a rule about them could only do nothing in play
    ("    place 2 in Richmond\n", "'place' is said of tokens, and this game has none"),
    ("    remove up to 2 from Richmond\n", "'remove' is said of tokens, and this game has none"),
    ("    move 2 from Richmond into Atlanta\n", "'move' is said of tokens, and this game has none"),
])
def test_a_mistake_with_the_new_words_is_refused_at_its_line(tmp_path, new, message):
    root = copy_game(tmp_path)
    sequence = root / "sequence.yaml"
    line = edit(sequence, BEFORE, new + BEFORE)
    if message is None and "wagon" not in new:  # a well-formed rule: the game still loads ("a farms" too)
        read_game(root)
        return
    found = problems(root)
    wanted = message or "unknown word 'wagon'"
    matching = [d for d in found if wanted in d.message]
    assert matching, [d.message for d in found]
    assert matching[0].path.endswith("sequence.yaml") and matching[0].line == line


@pytest.mark.parametrize("old, new, message", [
    ("  line: {cards: locations, ordered by: rank}", "  line: {cards: locatoins, ordered by: rank}",
     "'locatoins' are not cards in play"),
    ("  line: {cards: locations, ordered by: rank}", "  line: {cards: locations, ordered by: rnak}",
     "unknown number field 'rnak'"),
    ("paying: {cards: farms, by: tap}", "paying: {cards: farms, by: untap}", "unknown verb that sets a flag 'untap'"),
    ("      defense: {type: number, default: power}", "      defense: {type: number, default: powre}",
     "the default of 'defense'"),
    ("  battlefield: {holds: place}", "  battlefield: {holds: card}", "unknown thing a register holds 'card'"),
    ("  carries: true ", "  carries: false ", "'stays' names carried cards"),
])
def test_a_mistake_in_declaring_the_map_paying_or_registers_is_refused_at_its_line(tmp_path, old, new, message):
    root = copy_game(tmp_path)
    state = root / "state.yaml"
    line = edit(state, old, new) + (1 if "carries" in old else 0)  # 'stays' is refused, on the next line
    found = [d for d in problems(root) if message in d.message]
    assert found and found[0].path.endswith("state.yaml") and found[0].line == line, message


# ------------------------------------------------------------------ no game in the engine


# this game's words, whole words of identifiers and string literals (docstrings and comments may
# cite the rulebook); the generic senses the engine had before this game came are listed
WORDS = re.compile(r"^(farms?|taps?|tapped|untap|deploy(s|ed)?|battles?|army|armies|generals?|capitals?|"
                   r"presidents?|interrupts?|recon|leadership)$", re.IGNORECASE)
GENERIC = {("ruleset/phrasing.py", "capital"), ("cli/board.py", "capital"), ("cli/board.py", "pile_capital"),
           ("cli/info.py", "_capital"), ("balance/report.py", "general"),
           ("cli/lsp.py", "general")}  # the language server protocol's own key for common capabilities
SYSTEM = re.compile(r"KeyboardInterrupt|EXIT_INTERRUPTED|interrupted|on_interrupt|cli\.stop\.interrupt")


def words_of(text: str):
    for part in re.split(r"[^A-Za-z]+|_", text):
        for word in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", part):
            yield word


def test_no_python_of_the_engine_names_this_games_things():
    root = Path(__file__).resolve().parents[1]
    offending = []
    for folder in ("ruleset", "interpreter", "cli", "balance"):
        for path in sorted((root / folder).rglob("*.py")):
            name = path.relative_to(root).as_posix()
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for line, text, _literal in names_and_strings(tree, keywords=False):
                if (name, text) in GENERIC or SYSTEM.search(text):
                    continue
                if any(WORDS.match(word) for word in words_of(text)):
                    offending.append((name, line, text[:60]))
    for path in sorted((root / "ruleset").glob("*.lark")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("//", 1)[0]
            if any(WORDS.match(word) for word in words_of(code)):
                offending.append((path.name, number, code.strip()))
    assert offending == []


@pytest.mark.parametrize("text, found", [("deploy_cost", True), ("PresidentCard", True), ("capitalise", False),
                                         ("battlefield", False), ("tapped", True), ("untapped", False)])
def test_the_words_are_found_as_whole_words_of_names(text, found):
    assert any(WORDS.match(word) for word in words_of(text)) is found


def test_the_examples_of_the_language_reference_load_in_this_game(tmp_path):
    """docs/language.md, "A line of locations, paying, battles": every example is a rule this game
    accepts as it stands."""
    doc = (Path(__file__).resolve().parents[1] / "docs" / "language.md").read_text(encoding="utf-8")
    section = doc[doc.index("## A line of locations, paying, battles"):doc.index("## Errors")]
    blocks = re.findall(r"```text\n(.*?)\n```", section, re.S)
    assert len(blocks) >= 3
    root = copy_game(tmp_path)
    sequence = root / "sequence.yaml"
    added = "".join(f"  example {n}: |\n" + "".join(f"    {line}\n" for line in block.split("\n"))
                    for n, block in enumerate(blocks))
    sequence.write_text(sequence.read_text(encoding="utf-8").replace("procedures:\n", "procedures:\n" + added),
                        encoding="utf-8")
    read_game(root)


# ------------------------------------------------------------------ the rules in words


def catalog(lang: str):
    import yaml
    from crisis.content.locale import Catalog, flatten
    messages = {}
    # the tool's templates (content/interface/<lang>/), then the game's, which win key by key
    for folder in (ROOT.parent / "interface" / lang, ROOT / "locale" / lang):
        for path in sorted(folder.glob("*.yaml")):
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            messages.update({key: str(value) for key, value, *_ in flatten(data)})
    return Catalog(lang, messages)


def rendered(definition, lang: str):
    from crisis.content.phrases import every_rule
    from crisis.ruleset.phrasing import phrase_condition, phrase_outline
    texts = {}
    cat = catalog(lang)
    for label, how, rule, actor in every_rule(definition):
        if how == "block":
            lines = phrase_outline(rule, cat, definition.schema, definition.declarations, actor)
            texts[label] = "\n".join(line for _, line in lines)
        elif how == "condition":
            texts[label] = phrase_condition(rule, cat, definition.schema, definition.declarations, actor)
    return texts


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_rule_of_the_game_reads_in_english_and_spanish(definition, lang):
    texts = rendered(definition, lang)
    assert len(texts) > 20
    assert [(label, text) for label, text in texts.items() if "<render." in text] == []
    if lang == "es":  # no English left in the Spanish
        english = re.compile(r"\b(your|the|deploy|march|farms?|characters?|opponent|each|until|paying)\b")
        assert [(label, text) for label, text in texts.items() if english.search(text)] == []


def test_card_texts_and_the_sequence_read_as_the_rules_say(definition):
    en, es = rendered(definition, "en"), rendered(definition, "es")
    assert en["military-railroads, effect"] == "Untap up to 2 of your tapped farms."
    assert es["military-railroads, effect"] == "Endereza hasta 2 de tus granjas giradas."
    assert en["anaconda-plan, effect"] == "Your opponent taps 2 of their untapped farms."
    assert "March any number of your unmoved characters to a location within its speed, paying the distance." \
        in en["play"]
    assert "Forfeit your soldiers at the battlefield until their total price is at least the damage." \
        in en["procedure losses"]
    assert "Choose up to 1 location where you have a character there and your opponent has a character there" \
        in en["play"]
    assert "Despliega cualquier número de personajes de tu mano en tus localidades, pagando su precio." \
        in es["procedure deployment"]


# ------------------------------------------------------------------ bots


def bot_game(program, seed, names):
    """A whole game, each side played by the bot ``names`` gives it (random, heuristic, search);
    the game and the first word of each side's actions."""
    from crisis.interpreter.players.registry import controller_factory
    game = Game(program, seed)
    bots = [controller_factory(name)(seed, side) for side, name in enumerate(names)]
    words = [[] for _ in names]
    while game.decision is not None:
        decision = game.decision
        action = bots[decision.player].choose(game, decision)
        words[decision.player].append(action.text.split()[0])
        game.apply(action)
    return game, words


def test_the_heuristic_bot_deploys_marches_and_fights_on_either_side(program):
    """The bot decides on a copy of the game where what its side cannot see is dealt again: each
    side's deck keeps its own side's cards, so the bot's choices are the game's (a location chosen
    from its own deck at set-up, say), and it plays whole games, deploying, marching and fighting.
    Two bots meet: a random opponent leaves its capital open, so the bot takes it without a battle."""
    done = [set(), set()]
    for seed in range(6):
        game, words = bot_game(program, seed, ("heuristic", "heuristic"))
        assert game.result is not None
        for side in (NORTH, SOUTH):
            done[side].update(words[side])
    for side in (NORTH, SOUTH):
        assert {"deploy", "march", "battlefield"} <= done[side]


@pytest.mark.parametrize("side", [NORTH, SOUTH])
def test_the_heuristic_bot_beats_a_random_player_in_three_games_of_four_on_either_side(program, side):
    """Issue 21's target for the heuristic bot, on a fixed set of seeds (it wins 24 and 22 of
    these 24 as the North and the South)."""
    names = ["random", "random"]
    names[side] = "heuristic"
    won = sum(bot_game(program, seed, names)[0].result.winner == side for seed in range(24))
    assert won >= 18


def test_sim_reports_games_cut_short_only_for_the_games_own_length_not_for_a_loop_within_a_turn():
    """A turn's battles (a loop over the battle counter inside each turn) end before the fourth by
    design: only the loop over the turns, the game's own length, could be reported as cut short,
    and where the games cut short are those won at once, the line that says so is enough (the
    same number twice read as two facts)."""
    from clirun import run_main
    result = run_main("sim", "--games", "20", "--jobs", "1", "--game", "civil-war-card-game")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    (at_once,) = [line for line in lines if line.startswith("Won before the end of the game")]
    early = [line for line in lines if "before the end of" in line and line != at_once]
    assert not any(" 4:" in line for line in early) and not any("25" in line for line in early), early


@pytest.mark.parametrize("lang, capital", [("en", "capital"), ("es", "capital")])
def test_a_capital_taken_ends_the_game_with_the_reason_not_a_score(lang, capital):
    """The result screen after the sudden-death win (C21) says who won and how, in the player's
    language; no final scoring took place, so it shows no VP and no score before an armistice."""
    from crisis.cli.board import Screen, Style
    from crisis.cli.text import Presenter
    from crisis.content.loader import load_content
    from crisis.interpreter.engine.program import program_of
    content = load_content(ROOT)
    program = program_of(content)
    game = next(g for g in (random_game(program, seed) for seed in range(40)) if g.result.at_once)
    show = Presenter(content, content.catalog(lang))
    lines = Screen(game, show, Style(False), 80).result()
    winner, loser = show.side(game.sides[game.result.winner]), show.side(game.sides[1 - game.result.winner])
    assert len(lines) == 2 and winner in lines[1] and loser in lines[1] and capital in lines[1]
    assert not any(word in line for line in lines for word in ("VP", "PV"))


def test_the_simulation_counts_the_games_a_capital_ended(program):
    """`crisis sim` says how many games a rule ended at once, the same count as the games' own results."""
    from crisis.interpreter import batch
    from crisis.content.loader import load_content
    job = batch.Job(load_content(ROOT), controllers=("random", "random"))
    records = list(job.play(range(1, 31)))
    total = batch.Summary()
    for record in records:
        total.add(record)
    from crisis.interpreter.players.registry import RandomBot

    def played(seed):  # the game the batch plays, one decision at a time
        game, bots = Game(program, seed, log=False), [RandomBot(seed, 0), RandomBot(seed, 1)]
        while game.decision is not None:
            game.apply(bots[game.decision.player].choose(game, game.decision))
        return game
    ended_at_once = sum(played(seed).result.at_once for seed in range(1, 31))
    assert 0 < total.at_once == ended_at_once < 30
    assert total.to_json(job_reading(job))["won_at_once"] == total.at_once


def job_reading(job):
    from crisis.interpreter.records import reading_of
    from crisis.interpreter.engine.program import program_of
    return reading_of(program_of(job.content))


def test_the_balance_report_counts_a_capital_taken_apart_from_a_win_on_vp():
    """A game a rule won at once was decided neither by VP nor by a tie-break: the balance report
    gives it its own row, and 'more VP' counts only the games the armistice decided."""
    from crisis.balance.summary import RunSummary
    from crisis.content.loader import load_content
    from crisis.interpreter import batch
    from crisis.interpreter.engine.program import program_of
    from crisis.interpreter.records import reading_of
    content = load_content(ROOT)
    reading = reading_of(program_of(content))
    records = [reading.json(record) for record in
               batch.Job(content, controllers=("random", "random")).play(range(1, 41))]
    run = RunSummary(content, "random", ("random", "random"))
    for record in records:
        run.add(record)
    rows = {row["tie_break"]: row["k"] for row in run.analysis()["tie_breaks"]}
    at_once = sum(record["at_once"] for record in records)
    assert 0 < at_once < len(records)
    assert rows[-2] == at_once and rows[-1] + sum(k for i, k in rows.items() if i >= 0) == len(records) - at_once


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_rules_command_has_this_games_summaries_and_its_example_is_one(lang):
    """`rules` in a Civil War game lists this game's topics (the turn, battles ...), each of which
    reads in full, and its example names one of them, not another game's ('rules zones')."""
    from crisis.cli.board import Screen
    from crisis.cli.info import rules_query
    from crisis.cli.terminal import Style
    from crisis.cli.text import Presenter
    from crisis.content.loader import load_content
    content = load_content(ROOT)
    screen = Screen(Game.of(content, 0, log=False), Presenter(content, content.catalog(lang)), Style(False), 100)
    listed, _ = rules_query(screen, "")
    example = re.search(r"\S+ (\S+)\):$", listed[0]).group(1)
    topics = [line.split(":")[0].strip() for line in listed[1:-1] if line.startswith("  ") and ":" in line]
    assert example in topics and len(topics) >= 6
    for topic in topics:
        lines, problem = rules_query(screen, topic)
        assert problem is None and len(lines) >= 3, topic
        assert not [line for line in lines if "<" in line or "{" in line], topic
    battle = " ".join(" ".join(rules_query(screen, {"en": "battle", "es": "batalla"}[lang])[0]).split())
    assert {"en": "2 elsewhere", "es": "2 en otra"}[lang] in battle


def test_a_spanish_log_names_the_places_in_spanish(tmp_path, monkeypatch):
    """A march in the log ("... hacia {place}") names the location as the Spanish catalog does
    ("Nueva York"), as the choices do, not as state.yaml writes it ("New York")."""
    from clirun import run_main
    from crisis.cli.text import Presenter
    from crisis.content.loader import load_content
    content = load_content(ROOT)
    spanish = Presenter(content, content.catalog("es"))
    renamed = {place: spanish.space(place) for place in content.places}
    renamed = {place: name for place, name in renamed.items() if name != place}
    assert renamed  # (the test needs places the two languages name otherwise)
    marches = []
    monkeypatch.chdir(tmp_path)  # (where the games are saved)
    for seed in (3, 8):
        played = run_main("play", "--game", "civil-war-card-game", "--bots", "--lang", "es", "--seed", str(seed),
                          "--plain")
        assert played.returncode == 0, played.stderr
        marches += [line for line in played.stdout.splitlines() if "hacia" in line]
    said = " ".join(" ".join(marches).split())
    assert marches and any(name in said for name in renamed.values())
    assert not [place for place in renamed if place in said]


def test_i18n_check_tells_of_a_name_shown_as_the_rules_write_it(monkeypatch):
    """The fault above, were it back: `i18n check`'s random games find a text showing 'New York'
    where the Spanish catalog says 'Nueva York', at the placeholder given it (a warning); the
    shipped catalogs show none."""
    from clirun import run_main
    from crisis.cli import text
    checked = run_main("i18n", "check", "--game", "civil-war-card-game", "--lang", "es")
    assert checked.returncode == 0 and "as state.yaml writes it" not in checked.stdout
    naming = text.Presenter.params

    def forgetting_places(self, raw):
        named = naming(self, raw)
        named.update({key: value for key, value in raw.items() if key == "place"})
        return named
    monkeypatch.setattr(text.Presenter, "params", forgetting_places)
    checked = run_main("i18n", "check", "--game", "civil-war-card-game", "--lang", "es")
    said = checked.stdout + checked.stderr
    assert checked.returncode == 1
    assert re.search(r"locale/es/interface\.yaml:\d+:\d+: warning: 'log\.march' shows '[^']+' as state\.yaml "
                     r"writes it, where the 'es' catalog names it '[^']+'", said)


def test_the_last_screen_shows_every_hand(tmp_path):
    """Seed 5, Baltimore chosen: the North never has a farm, so it has nothing to choose until the
    South takes Washington some turns later, and its player never saw the hand it drew. The
    last screen lists every side's hand, the game being over."""
    from clirun import run_main
    played = run_main("play", "--game", "civil-war-card-game", "--vs", "heuristic", "--seed", "5", "--plain",
                      "--save", tmp_path / "war.json", input="6\n")
    assert played.returncode == 0, played.stderr
    last = played.stdout[played.stdout.index("Game over"):]  # (the last screen's header)
    assert "North's hand (" in last and "South's hand (" in last


def test_a_replay_jumps_by_turns_as_the_game_counts_them(tmp_path):
    """The replay's jump is 'round N' in Fort Sumter; in a game of turns it is 'turn N' ('turno N'
    in Spanish), and its prompt and refusals say turn; 'round' still works, as the English word."""
    from clirun import run_main
    save = tmp_path / "war.json"
    played = run_main("play", "--game", "civil-war-card-game", "--vs", "heuristic", "--seed", "5", "--plain",
                      "--save", save, input="6\n")
    assert played.returncode == 0, played.stderr
    english = run_main("replay", save, "--step", "--plain", input="turn 3\nturn 99\nround 2\nq\n")
    said = " ".join(english.stdout.split())
    assert "Turn 3 of 25" in said and "Turn 2 of 25" in said and "after that action, turn N," in said
    assert "The game has no turn '99'." in said and "round N" not in said and "no round" not in said
    spanish = run_main("replay", save, "--step", "--plain", "--lang", "es", input="turno 3\nturno 99\nq\n")
    said = " ".join(spanish.stdout.split())
    assert "Turno 3 de 25" in said and "No hay turno «99» en la partida." in said and "ronda N" not in said


def test_a_saved_game_resumes_and_replays_with_the_command_it_was_saved_with(tmp_path):
    """'Continue it with: crisis resume FILE', as play says when it stops: the file names its
    game, so resume and replay need no --game; Fort Sumter's content named instead is refused."""
    from clirun import run_main
    save = tmp_path / "war.json"
    started = run_main("play", "--game", "civil-war-card-game", "--vs", "heuristic", "--seed", "3", "--plain", "--save", save,
                       input="1\n1\nquit\n")
    assert started.returncode == 0, started.stderr
    assert f"crisis resume {save}" in " ".join(started.stdout.split())
    resumed = run_main("resume", save, "--plain", input="1\nquit\n")
    assert resumed.returncode == 0, resumed.stderr
    assert "North" in resumed.stdout and "fort-sumter" not in resumed.stdout + resumed.stderr
    replayed = run_main("replay", save, "--plain", input="q\n")
    assert replayed.returncode == 0, replayed.stderr
    refused = run_main("resume", save, "--plain", "--game", "fort-sumter", input="quit\n")
    assert refused.returncode != 0 and "civil-war-card-game" in refused.stderr


# ------------------------------------------------------------------ what a bot may know


def war_game_at(program, seed: int, kind: str, turn: int):
    """A random game stopped at a decision of ``kind`` with a choice to make, from turn ``turn`` on."""
    from crisis.interpreter.players.registry import RandomBot
    game = Game(program, seed, log=False)
    bots = [RandomBot(seed, 0), RandomBot(seed, 1)]
    while game.decision is not None:
        decision = game.decision
        if decision.kind == kind and len(decision.actions) > 1 and game.view.counter("turn") >= turn:
            return game
        game.apply(bots[decision.player].choose(game, decision))
    raise AssertionError(f"no {kind} decision from turn {turn} for seed {seed}")


def war_twins(program, seed: int, kind: str, turn: int):
    """The game at a decision, and the same game with what the chooser cannot see changed: the
    other side's hand traded for cards of its deck, both decks reordered, the game's generator
    reseeded."""
    game = war_game_at(program, seed, kind, turn)
    me = game.decision.player
    other = 1 - me
    position = game.position.copy()
    twin = Game(program, game.seed, game.options, position=position, log=False)
    view = twin.view
    hand, deck = view.pile("hand", other), view.pile("deck", other)
    for i in range(min(len(hand), len(deck))):
        hand[i], deck[-1 - i] = deck[-1 - i], hand[i]
    random.Random(5).shuffle(deck)
    random.Random(6).shuffle(view.pile("deck", me))
    position.rng.seed(12345)
    original = Game(program, game.seed, game.options, position=game.position.copy(), log=False)
    original.actions_taken = twin.actions_taken = game.actions_taken
    assert sorted(view.pile("hand", other)) != sorted(original.view.pile("hand", other))
    return original, twin


@pytest.mark.parametrize("seed, kind, turn", [(3, "deploy", 2), (5, "march", 2), (3, "battlefield", 2),
                                              (2, "play_card", 2)])
@pytest.mark.parametrize("name", ["heuristic", "search"])
def test_the_cards_a_side_cannot_see_do_not_change_its_choice(program, name, seed, kind, turn):
    """Issue 21: the bots decide on what their side may know. The other side's hand and both
    decks' order changed, the same choice, and for the search bot the same tree."""
    from crisis.content.bots import Budget
    from crisis.interpreter.players.heuristic import HeuristicBot
    from crisis.interpreter.players.search import SearchBot
    original, twin = war_twins(program, seed, kind, turn)
    me = original.decision.player
    make = {"heuristic": lambda: HeuristicBot(original.seed, me),
            "search": lambda: SearchBot(original.seed, me, Budget(iterations=6))}[name]
    assert_same_choice_on_twins(make, original, twin)


def test_the_war_twins_would_catch_a_bot_that_peeks(program):
    """A choice read off the other side's hand differs on some twins: the test above can fail."""
    def peeking(game):
        hand = game.view.pile("hand", 1 - game.decision.player)
        return game.decision.actions[sum(hand) % len(game.decision.actions)].text

    pairs = [war_twins(program, seed, kind, turn) for seed, kind, turn in
             [(3, "deploy", 2), (5, "march", 2), (3, "battlefield", 2), (2, "play_card", 2)]]
    assert any(peeking(original) != peeking(twin) for original, twin in pairs)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_location_card_is_titled_as_the_place_it_stands_for(program, lang):
    """The board names a place, the choices and the log the card deployed there: one name, in
    every language ("Filadelfia" on the board and «Philadelphia» in the choices read as two)."""
    from crisis.cli.text import Presenter
    from crisis.content.games import game_path
    from crisis.content.loader import load_content
    from crisis.interpreter.engine.entities import tables
    content = load_content(game_path("civil-war-card-game"))
    show = Presenter(content, content.catalog(lang))
    entities = tables(program)
    places = program.schema.map.places
    pairs = [(show.card(entities.ids[entity], "war cards"), show.space(places[place]))
             for entity, place in entities.site.items()]
    assert len(pairs) == len(places)
    assert [(title, place) for title, place in pairs if title != place] == []


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_log_of_a_battle_gives_both_totals_and_the_damage(lang):
    """What decided a battle is in the log a player reads: each side's total and what the loser
    must forfeit (before, only the battlefield and the cards forfeited were said)."""
    from crisis.cli.text import Presenter
    from crisis.content.games import game_path
    from crisis.content.loader import load_content
    from crisis.interpreter.players.registry import RandomBot
    content = load_content(game_path("civil-war-card-game"))
    show = Presenter(content, content.catalog(lang))
    game = Game.of(content, 7)  # a game with a battle the defender wins, 10 against 4
    bots = [RandomBot(7, side) for side in range(2)]
    while game.decision is not None:
        game.apply(bots[game.decision.player].choose(game, game.decision))
    shown = show.shown(game.log)
    battle = max(i for i, entry in enumerate(shown) if entry.key == "log.place_chosen")
    said = {(entry.params["counter"], entry.params["side"]): show.log_line(entry)
            for entry in shown[battle:] if entry.key == "log.counter"}
    might = [game.view.counter("might", side) for side in (NORTH, SOUTH)]
    for side, name in ((NORTH, "North"), (SOUTH, "South")):
        assert str(might[side]) in said[("might", name)]
    assert str(game.view.counter("damage")) in said[("damage", None)]
    assert game.view.counter("damage") == abs(might[NORTH] - might[SOUTH]) > 0


@pytest.mark.parametrize("command", [("play", "--bots"), ("sim", "--games", "2"), ("balance", "--games", "2")])
def test_another_games_optional_rule_is_refused_not_ignored(command, tmp_path):
    """--event-discard is Fort Sumter's optional rule: asked for in this game it is a one-line
    error (exit status 2), where before it was silently ignored."""
    from clirun import run_main
    extra = ("--out", tmp_path / "report") if command[0] == "balance" else ()
    result = run_main(*command, *extra, "--game", "civil-war-card-game", "--event-discard")
    assert result.returncode == 2
    assert "--event-discard" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "report").exists()


# ------------------------------------------------------------------ listing cards in play, cheaply


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_the_cards_in_play_a_board_keeps_follow_every_card_that_comes_and_goes(program, seed):
    # the board keeps the list of cards in play while the owners' column is unchanged
    # (entities.cards_in_play); it must never answer with a list a card has since left or joined
    from crisis.interpreter.engine.entities import cards_in_play
    from crisis.interpreter.engine.layout import NOBODY
    game = Game(program, seed)
    rng = random.Random(seed)
    layout = program.layout
    board = game.machine.board
    while game.decision is not None:
        values = board.values
        expected = [e for e in range(layout.entities) if values[layout.entity_of(e)] != NOBODY]
        assert cards_in_play(board) == expected
        if expected:  # a card taken out of play by hand is gone from the next listing at once
            record = layout.entity_of(expected[0])
            owner, values[record] = values[record], NOBODY
            assert cards_in_play(board) == expected[1:]
            values[record] = owner
        game.apply(rng.choice(game.decision.actions))


def test_a_distance_counted_to_the_same_place_for_every_card_is_read_once_and_changes_nothing(
        definition, monkeypatch):
    # "your forces whose range is more than their distance to the battlefield" (the might) and the
    # bots' "characters whose speed is at least their distance to the opponent's capital" find
    # that place once per listing; played with it found again for every card, as it was, the games
    # and the bots' choices are the same
    from crisis.interpreter.engine import entities
    from crisis.interpreter.engine.ops import with_entity
    from crisis.interpreter.players.heuristic import HeuristicBot, judge_for

    def play(program, seed):
        game = Game(program, seed)
        bots = [HeuristicBot(seed, side) for side in range(2)]
        rng = random.Random(seed)
        while game.decision is not None and game.actions_taken < 120:
            decision = game.decision
            action = (bots[decision.player].choose(game, decision) if seed % 2 or decision.kind == "play_card"
                      else rng.choice(decision.actions))
            game.apply(action)
        return game.position.values, [list(p) for p in game.position.piles], game.actions_taken

    listed = 0
    staged = entities.EntityCompiler.number_for_each_card

    def counted(self, node):
        nonlocal listed
        if isinstance(node, entities.M.Distance):
            listed += 1
        return staged(self, node)
    monkeypatch.setattr(entities.EntityCompiler, "number_for_each_card", counted)
    read_once = GameProgram(definition)
    judge_for(read_once)  # the bots' evaluation, compiled now
    assert listed >= 3  # the might's and the evaluation's distances are read the new way

    def for_every_card(self, node):
        number = self.number(node)
        return lambda board, ctx, it: lambda e: number(board, with_entity(ctx, e), it)
    monkeypatch.setattr(entities.EntityCompiler, "number_for_each_card", for_every_card)
    read_each_time = GameProgram(definition)
    for seed in (3, 4):
        assert play(read_once, seed) == play(read_each_time, seed)


def test_a_context_for_another_card_is_the_same_as_replacing_its_card():
    from crisis.interpreter.engine.ops import Ctx, with_entity
    ctx = Ctx(1, 2, 3, 4, "reason", 5, 6)
    assert with_entity(ctx, 9) == ctx._replace(entity=9)
    assert type(with_entity(ctx, 9)) is Ctx and with_entity(ctx, 9).entity == 9


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_places_within_reach_along_the_line_are_those_of_a_walk_from_neighbour_to_neighbour(program, seed):
    # "a location within its speed" on a line of cards is read off the line (entities._within_line);
    # it must be what going from place to place finds, nearest first, left before right, whatever
    # places are off the map
    from crisis.interpreter.engine.entities import _within_line, neighbours, tables

    def walked(board, it, most):
        reached, frontier = [it], [it]
        for _ in range(max(0, min(most, board.layout.places))):
            following = [other for place in frontier for other in neighbours(board, place) if other not in reached]
            following = list(dict.fromkeys(following))
            reached += following
            if not following:
                break
            frontier = following
        return reached[1:]

    game = random_game(program, seed)  # a map with places taken off it
    board = game.machine.board
    for most in range(4):
        within = _within_line(tables(program), lambda board, ctx, it: most)
        for place in range(program.layout.places):
            assert within(board, None, place) == walked(board, place, most), (place, most)


@pytest.mark.parametrize("lang, gives, total", [("en", " gives battle at ", ": a total of "),
                                                ("es", " presenta batalla en ", ": un total de ")])
def test_every_battle_tells_both_totals_and_the_damage_even_when_they_repeat(lang, gives, total):
    """A battle's totals are set ('set your might to ...') and told at every set: a total equal
    to the side's total in the battle before (a set that changes nothing) was left out of the log,
    and so was a damage equal to the last one, though a forfeit followed."""
    from clirun import run_main
    result = run_main("play", "--bots", "--game", "civil-war-card-game", "--seed", "58", "--lang", lang,
                      env={"COLUMNS": "400"})
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    battles = [i for i, line in enumerate(lines) if gives in line]
    assert len(battles) >= 3
    for start in battles:
        told = [line for line in lines[start + 1:start + 5] if total in line]
        assert len({line.split(":")[0] for line in told}) == 2, lines[start:start + 5]


def test_the_hot_seat_hand_over_tells_the_whole_turn_not_its_last_action(tmp_path):
    """Three farms deployed, then 'done': the hand-over said only the last line of the log
    ('North draws a card'), under the heading 'What the South player's turn did'."""
    from clirun import run_main
    result = run_main("play", "--game", "civil-war-card-game", "--seed", "3", "--save", tmp_path / "war.json",
                      input="\n5\n\n7\n\n1\n1\n1\ndone\n\nquit\n", env={"COLUMNS": "100"})
    told = result.stdout.split("What the South player's turn did:")[-1].split("Pass the terminal")[0]
    deployed = [line for line in told.splitlines() if "South deploys" in line]
    assert len(deployed) == 3, told


def test_a_replay_names_whose_hand_each_is(tmp_path):
    """A finished game's replay shows every side's hand; each heading said 'Your hand'."""
    import json
    from clirun import run_main
    from crisis.content.games import game_path
    from crisis.content.loader import load_content
    content = load_content(game_path("civil-war-card-game"))
    from crisis.interpreter.engine.program import program_of
    program = program_of(content)
    game, rng = Game(program, 5), random.Random(5)
    while game.decision is not None:  # a hot-seat game to its end, as the file of one keeps it
        game.apply(rng.choice(game.decision.actions))
    save = str(tmp_path / "g.json")
    (tmp_path / "g.json").write_text(json.dumps({
        "format": "crisis-saved-game", "version": 2, "game": "civil-war-card-game", "content_digest": content.digest,
        "seed": 5, "options": {}, "controllers": {"North": "human", "South": "human"},
        "created": "2026-11-29T00:00:00+00:00", "actions": list(game.history)}), encoding="utf-8")
    for lang, north, south in (("en", "North's hand (", "South's hand ("), ("es", "El Norte, su mano (", "El Sur, su mano (")):
        shown = run_main("replay", save, "--step", "--lang", lang, input="40\nq\n", env={"COLUMNS": "100"}).stdout
        assert north in shown and south in shown and "Your hand" not in shown and "Tu mano" not in shown


def test_the_steps_are_named_in_the_order_the_sequence_of_play_writes_them(program):
    """A step before the steps inside it ('turns' holds 'draw and untap'), each once: the order
    scenario hints and the balance report list them in (compiled, an inner step came first)."""
    names = program.step_names()
    assert len(names) == len(set(names))
    assert names.index("turn start") < names.index("turns") < names.index("draw and untap") < names.index("armistice")


def test_an_option_whose_offer_depends_on_a_card_nobody_sees_is_a_warning(tmp_path):
    """An option is offered only where it would change something: one that adds the price of the
    top card of the player's own deck is offered or not as that card's price is 0 or not, which
    tells the player a card nobody sees (warned at its words); the same option reading the top of
    the discard pile, which everyone sees, is not warned of."""
    from crisis.content.loader import load_content
    for pile, warned in (("your deck", True), ("the discard pile", False)):
        root = tmp_path / pile.replace(" ", "-")
        shutil.copytree(ROOT, root, ignore=shutil.ignore_patterns("scenarios"))
        line = edit(root / "sequence.yaml", BEFORE, "    either:\n      untap up to 2 of your tapped farms\n"
                    f"    or:\n      add the price of the top card of {pile} to your might\n" + BEFORE)
        found = [w for w in load_content(root).warnings if "the player does not see" in w.message]
        assert [(w.line, w.column) for w in found] == ([(line + 3, 24)] if warned else [])


@pytest.mark.parametrize("lang, typed, said", [
    ("en", "rules steps", "until each has taken a turn:"),
    ("es", "reglas pasos", "hasta que cada uno haya jugado un turno:"),
])
def test_the_round_of_turns_reads_as_one_turn_each(tmp_path, lang, typed, said):
    """The sequence of play's round of turns counts 'turns taken', a word of one form: the steps a
    player lists read "until each has taken a turn", not "until each has 1 turns taken"."""
    from clirun import run_main
    result = run_main("play", "--game", "civil-war-card-game", "--plain", "--seed", "3", "--vs", "bot", "--lang", lang,
                      "--save", tmp_path / "g.json", input=f"{typed}\nquit\n")
    assert result.returncode == 0, result.stderr
    assert said in result.stdout and "1 turns taken" not in result.stdout and "1 turnos jugados" not in result.stdout
