"""The board a person reads, drawn from the game's schema for any game (issue 19).

Fort Sumter's board reads as it did when the line mode and the full screen drew it from the
earlier engine's state: ``tests/data/boards/fort-sumter.json`` holds what they drew for a few
positions (card play with the Peace Commissioner placed, the Final Crisis order, a solo game,
a game decided by a tie-break) at 60, 80 and 120 columns in English and Spanish, in colour and
in ASCII, and the general engine's position is drawn the same, character for character.

Games without a layout (the toy games under tests/data/) still get a sensible board: their
places by group, each side's banners or cards in play, their counters, holders and piles, in
80 columns, every word found.  A layout's mistakes are refused at their line.
"""

import json
import random
import re
import shutil
from pathlib import Path

import pytest
import yaml

from crisis.cli.board import Screen, fit_all
from crisis.cli.terminal import Style, visible
from crisis.cli.text import Presenter
from crisis.content.locale import Catalog, flatten
from crisis.content.loader import read_game
from crisis.content.yamlfile import ContentError
from crisis.interpreter.engine.game import Game, Options
from crisis.interpreter.engine.program import GameProgram, program_of

DATA = Path(__file__).parent / "data"
BOARDS = json.loads((DATA / "boards" / "fort-sumter.json").read_text(encoding="utf-8"))
STYLES = {"plain": Style(False), "colour": Style(True), "ascii": Style(False, unicode=False)}


def played(program, seed: int, options: Options, actions: int, content=None) -> Game:
    """A game of random moves (the moves the recorded boards were drawn after)."""
    game = Game(program, seed, options, content=content)
    rng = random.Random(seed)
    for _ in range(actions):
        game.apply(rng.choice(game.decision.actions))
    return game


def blocks(screen: Screen) -> dict:
    game = screen.engine
    out = {"header": screen.header(), "header_c": screen.header(compact=True), "board": screen.board([0, 4, 9]),
           "board_nl": screen.board(legend=False), "tracks": screen.tracks(), "tracks_nl": screen.tracks(legend=False),
           "placed": screen.markers_placed(), "public0": screen.public_cards([1]), "publicboth": screen.public_cards([0, 1]),
           "private0": screen.private(0, True), "private1s": screen.private(1, False), "compact0": screen.hand_compact(0),
           "compact1n": screen.hand_compact(1, counts=False, short=True)}
    if game.over:
        out["result"], out["result_seed"] = screen.result(), screen.result(reveal_seed=7)
    return out


@pytest.mark.parametrize("position", BOARDS, ids=[p["what"] for p in BOARDS])
def test_fort_sumters_board_reads_as_before_the_move(content, position):
    options = Options(solo=position["options"].get("solo"))
    game = played(program_of(content), position["seed"], options, position["actions"], content)
    for name, expected in position["boards"].items():
        lang, style, width = name.split()
        screen = Screen(game, Presenter(content, content.catalog(lang)), STYLES[style], int(width))
        drawn = blocks(screen)
        for part, lines in expected.items():
            assert drawn[part] == lines, f"{name}, {part}"


# ------------------------------------------------------------------ games without a layout


class Words:
    """A toy game's catalog (its own texts, if any), falling back to the command's general
    wording: Fort Sumter's catalog without anything named after Fort Sumter's things."""

    def __init__(self, content, root: Path, lang: str):
        from crisis.content.message_keys import MESSAGES
        general = {k: v for k, v in content.catalog(lang).messages.items()
                   if (k in MESSAGES or k.startswith("cli.list.")) and k != "cli.title"}
        texts = root / "locale" / lang / "texts.yaml"
        own = {}
        if texts.exists():
            own = {k: str(v) for k, v, _, _ in flatten(yaml.safe_load(texts.read_text(encoding="utf-8")))}
        self.catalog = Catalog(lang, own, fallback=Catalog(lang, general))


def toy_board(content, game_name: str, lang: str, seed: int, actions: int, width: int = 80):
    root = DATA / game_name
    program = GameProgram(read_game(root))
    game = Game(program, seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if game.decision is None:
            break
        game.apply(rng.choice(game.decision.actions))
    screen = Screen(game, Words(content, root, lang), Style(False), width)
    viewer = game.decision.player if game.decision else 0
    others = [side for side in range(len(program.schema.sides)) if side != viewer]
    lines = screen.header() + screen.board() + screen.tracks() + screen.public_cards(others) \
        + screen.private(viewer, True) + screen.header(compact=True) + screen.hand_compact(viewer)
    return game, viewer, fit_all(lines, width)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_three_crowns_without_a_layout_gets_a_board_in_80_columns(content, lang):
    game, viewer, lines = toy_board(content, "three-crowns", lang, 5, 12)
    text = "\n".join(lines)
    assert max(len(line) for line in lines) <= 80
    assert "<" not in text  # every word found
    names = {"en": ("Highland", "Lowland", "Red", "Green", "Blue", "Camp", "VP", "Your hand"),
             "es": ("Tierras Altas", "Tierras Bajas", "Rojo", "Verde", "Azul", "PV", "Tu mano")}[lang]
    missing = [name for name in names if name not in text]
    assert missing == []
    # each town under its region, with each side's banners and who occupies it
    region = next(i for i, line in enumerate(lines) if line.startswith(names[0]))
    assert "Ashford" in lines[region + 1] and "Brackenby" in lines[region + 2]
    view = game.view
    for town in ("Coldwater", "Dunmore"):
        row = next(line for line in lines if f" {town} " in line)
        place = game.program.place_index[town]
        counts = [view.tokens(side, place) for side in range(3)]
        assert [part.count("■") for part in row.split()[-4:-1]] == counts
    # the viewer's cards by their ids (the toy game gives them no titles), the others' counted
    hand = view.pile("hand", viewer)
    assert hand and all(game.program.cards[0].ids[card] in text for card in hand)


def test_skirmish_without_a_layout_shows_its_cards_in_play_where_they_stand(content):
    game, viewer, lines = toy_board(content, "skirmish", "en", 5, 30)
    text = "\n".join(lines)
    assert max(len(line) for line in lines) <= 80 and "<" not in text
    view = game.view
    standing = [view.entity(e) for e in view.in_play()]
    assert any(e["at"] for e in standing)
    for entity in standing:
        if entity["at"] is not None and entity["on"] is None:
            row = next(line for line in lines if line.lstrip().startswith(entity["at"] + " "))
            assert entity["card"] in row, (entity, row)
    for group in ("West", "Middle", "East"):
        assert any(line.startswith(group) for line in lines)
    assert "Turn: " in lines[0] and "First player: " in lines[0]


# ------------------------------------------------------------------ layouts


def with_layout(tmp_path, text: str) -> Path:
    root = tmp_path / "three-crowns"
    shutil.copytree(DATA / "three-crowns", root)
    (root / "layout.yaml").write_text(text, encoding="utf-8")
    return root


def test_a_layout_says_what_the_header_shows_and_in_which_step(content, tmp_path):
    root = with_layout(tmp_path, "header:\n  title: [round]\n  facts:\n    - counter: VP\n"
                                 "    - counter: plays\n      during: [tally]\n")
    program = GameProgram(read_game(root))
    game = Game(program, 5)
    screen = Screen(game, Words(content, root, "en"), Style(False), 80)
    assert screen.header()[1] == "Red: 0 VP   Green: 0 VP   Blue: 0 VP"  # no cards played nor deck outside 'tally'


@pytest.mark.parametrize("text, line, column, message, hint", [
    ("own:\n  hands: {show: list}\n", 2, 3, "unknown pile 'hands'", "did you mean 'hand'?"),
    ("header:\n  facts:\n    - counter: VP\n      during: [musterr]\n", 4, 16, "unknown step 'musterr'",
     "did you mean 'muster'?"),
    ("header:\n  title: [VP]\n", 2, 11, "the counter 'VP' is kept for each side", None),
    ("own:\n  hand: {show: lst}\n", 2, 16, "'show' cannot be 'lst'", "did you mean 'list'?"),
    ("map:\n  mark: walld\n", 2, 9, "unknown attribute 'walld'", "did you mean 'walled'?"),
    ("own:\n  discard pile: {}\n", 2, 3, "'discard pile' is not a pile each side keeps to itself", None),
    ("tracks:\n  crisis track: {}\n", 2, 3, "unknown track 'crisis track'", None),
    ("panels: []\n", 1, 1, "unknown key 'panels' in layout.yaml", None),
    ("header:\n  step: innermst\n", 2, 9, "'step' cannot be 'innermst'", "did you mean 'innermost'?"),
])
def test_a_layouts_mistake_is_refused_at_its_line(tmp_path, text, line, column, message, hint):
    root = with_layout(tmp_path, text)
    with pytest.raises(ContentError) as error:
        read_game(root)
    found = error.value.diagnostics[0]
    assert (found.path.endswith("layout.yaml"), found.line, found.column) == (True, line, column)
    assert message in found.message
    assert found.hint == hint


def test_a_counter_shown_during_a_step_inside_another_shows_there(tmp_path):
    """The Civil War Card Game's layout shows the battle's totals during a battle, a step inside
    each side's turn, and never the sequence of play's bookkeeping (turns taken, damage)."""
    from crisis.cli.board import steps_under_way
    from crisis.content.games import game_path
    from crisis.content.loader import load_content
    from crisis.interpreter.players.registry import RandomBot
    content = load_content(game_path("civil-war-card-game"))
    seen = {}
    for seed in range(1, 6):
        game = Game.of(content, seed, log=False)
        bots = [RandomBot(seed, side) for side in range(2)]
        while game.decision is not None and len(seen) < 2:
            in_battle = "battle" in steps_under_way(game)
            if in_battle not in seen:
                screen = Screen(game, Presenter(content, content.catalog("en")), Style(False), 160)
                seen[in_battle] = screen.header()  # (wide: the title on one row)
            game.apply(bots[game.decision.player].choose(game, game.decision))
    assert set(seen) == {True, False}
    title, facts = seen[True]
    assert "Turn " in title and " of 25" in title
    assert "  ·  Battle  ·  " in title  # its layout names the innermost step: the battle, not the turns
    assert "North: total " in facts and "South: total " in facts and "Battle " in facts
    for title, facts in seen.values():
        assert "turns taken" not in title + facts and "Damage" not in title + facts
    assert "total" not in seen[False][1]


def test_a_layout_with_turn_names_whose_turn_it_is_and_only_in_one():
    """``header: turn: true`` (the Civil War Card Game's): the title says whose turn is under
    way, which the other side's interrupts in it do not change; outside any turn (the set-up)
    and in a layout without it (Fort Sumter's) it says nothing of turns."""
    from crisis.cli.board import whose_turn
    from crisis.content.games import game_path
    from crisis.content.loader import load_content
    from crisis.interpreter.players.registry import RandomBot
    content = load_content(game_path("civil-war-card-game"))
    show = Presenter(content, content.catalog("en"))
    game = Game.of(content, 3, log=False)
    bots = [RandomBot(3, side) for side in range(2)]
    titles = {}
    while game.decision is not None and len(titles) < 3:
        turn = whose_turn(game)
        title = Screen(game, show, Style(False), 100).header()[0]
        titles.setdefault((turn, game.decision.player), title)
        game.apply(bots[game.decision.player].choose(game, game.decision))
    assert "turn" not in titles[(-1, game.program.schema.sides.index("South"))].replace("Turn ", "")
    north = game.program.schema.sides.index("North")
    asked_in_souths_turn = [title for (turn, player), title in titles.items() if turn != north and turn >= 0]
    assert all("South's turn" in title for title in asked_in_souths_turn) and asked_in_souths_turn
    fort_sumter = load_content()
    game = Game.of(fort_sumter, 3, log=False)
    while whose_turn(game) < 0:
        game.apply(game.decision.actions[0])
    assert "turn" not in Screen(game, Presenter(fort_sumter, fort_sumter.catalog("en")), Style(False), 100).header()[0]


def test_cards_in_play_are_broken_to_the_width_never_cut():
    """The full screen draws the map in a 36-column pane that does not wrap, and the line mode
    at the terminal's width: the Civil War Card Game's cards in play, several at one location
    and carrying others, are broken onto lines under their place, each card still named whole."""
    from crisis.content.games import game_path
    from crisis.content.loader import load_content
    from crisis.interpreter.engine.entities import tables
    from crisis.interpreter.players.registry import RandomBot
    content = load_content(game_path("civil-war-card-game"))
    entities = tables(program_of(content))
    show = Presenter(content, content.catalog("en"))
    crowded = 0
    for seed in (1, 2):
        game = Game.of(content, seed, log=False)
        bots = [RandomBot(seed, side) for side in range(2)]
        while game.decision is not None:
            game.apply(bots[game.decision.player].choose(game, game.decision))
            for width in (36, 60, 80):
                screen = Screen(game, show, Style(False), width)
                lines = screen.board(legend=False)
                assert max(visible(line) for line in lines) <= width, "\n".join(lines)
                text = " ".join(" ".join(lines).split())
                for entity in game.view.in_play():
                    title = screen.title(entities.kind_of[entity], entities.card_of[entity])
                    assert title in text, (title, lines)
            crowded = max([crowded] + [len(cards) for cards in screen._in_play_at().values()])
    assert crowded >= 3  # the positions drawn had a place with three cards or more


def test_a_map_of_cards_alone_explains_no_symbols_it_never_draws():
    """The Civil War Card Game's map has no tokens: no 'changed' mark, no token columns headed by
    the sides' short names; its board ends without a legend of them (it had '• changed since
    your last turn  Nor North  Sou South', none of which was ever drawn)."""
    from crisis.content.games import game_path
    from crisis.content.loader import load_content
    content = load_content(game_path("civil-war-card-game"))
    game = Game.of(content, 3, log=False)
    lines = Screen(game, Presenter(content, content.catalog("en")), Style(False), 100).board()
    assert not [line for line in lines if "Nor North" in line or "•" in line]
    fort_sumter = load_content()
    lines = Screen(Game.of(fort_sumter, 3, log=False), Presenter(fort_sumter, fort_sumter.catalog("en")),
                   Style(False), 100).board()
    assert "•" in lines[-1]  # a map with tokens still explains its marks


def test_the_spanish_board_names_cards_in_play_their_kinds_and_flags_in_spanish():
    """'Granjas de Ohio (en uso)', not '(tapped)' (nor '(girada)' after a title of any gender and
    number: 'Maizales de Iowa (girada)'); weapons and devices are 'arma' and 'artefacto' on a
    card's line, not 'weapon' and 'device'."""
    from crisis.content.games import game_path
    from crisis.content.loader import load_content
    from crisis.interpreter.players.registry import RandomBot
    content = load_content(game_path("civil-war-card-game"))
    show = Presenter(content, content.catalog("es"))
    game = Game.of(content, 3, log=False)
    bots = [RandomBot(3, side) for side in range(2)]
    boards = []
    for _ in range(60):
        game.apply(bots[game.decision.player].choose(game, game.decision))
        screen = Screen(game, show, Style(False), 100)
        boards.append("\n".join(screen.board() + screen.public_cards([0, 1])))
    text = "\n".join(boards)
    assert "(en uso)" in text and "tapped" not in text and "moved" not in text and "girada)" not in text
    from crisis.cli.main import main as crisis
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        crisis(["cards", "--game", "civil-war-card-game", "--lang", "es"])
    cards = out.getvalue()
    assert "  ·  arma  ·  " in cards and "  ·  artefacto  ·  " in cards
    assert "  ·  weapon  ·  " not in cards and "  ·  device  ·  " not in cards


@pytest.mark.parametrize("width", [40, 60, 80])
def test_a_title_wider_than_the_screen_breaks_between_its_parts(width):
    """The title's parts are joined while they fit, the rest on the next row: a row never ends in
    the separator ('Turn 4 of 25 · North's turn ·' / 'Move · First...' read as one broken line)."""
    from crisis.content.games import game_path
    from crisis.content.loader import load_content
    content = load_content(game_path("civil-war-card-game"))
    game = Game.of(content, 3, log=False)
    for _ in range(12):
        game.apply(game.decision.actions[0])
    *title, facts = Screen(game, Presenter(content, content.catalog("en")), Style(False), width).header()
    wide = Screen(game, Presenter(content, content.catalog("en")), Style(False), 200).header()[0]
    assert len(title) > 1 and all(len(row) <= width for row in title)
    assert not any(row.rstrip().endswith("·") or row.lstrip().startswith("·") for row in title)
    assert "  ·  ".join(row.strip() for row in title) == wide


def test_without_colour_each_card_in_play_is_told_whose_it_is():
    """On a pipe or a screen reader the board has no colour: a place's cards in play follow the
    name of the side they belong to ('Richmond   South: Richmond; North: Berdan's Sharpshooters'),
    which nothing else on the row would tell; with colour the colour tells it."""
    from crisis.content.games import game_path
    from crisis.content.loader import load_content
    from crisis.interpreter.players.registry import RandomBot
    content = load_content(game_path("civil-war-card-game"))
    show = Presenter(content, content.catalog("en"))
    game = Game.of(content, 3, log=False)
    bots = [RandomBot(3, side) for side in range(2)]
    for _ in range(52):  # (seed 3: by then a place holds cards of both sides)
        game.apply(bots[game.decision.player].choose(game, game.decision))
    plain = "\n".join(Screen(game, show, Style(False), 120).board())
    places = [line for line in plain.splitlines() if re.search(r"\b(North|South): ", line)]
    assert places and all(re.search(r"\s(North|South): \S", line) for line in places)
    assert re.search(r"(North|South): [^;\n]+; (North|South): ", plain)  # both sides at one place
    coloured = "\n".join(Screen(game, show, Style(True), 120).board())
    assert not re.search(r"(North|South): ", re.sub(r"\x1b\[[0-9;]*m", "", coloured).split("Union")[-1])


def test_a_map_of_cards_in_a_line_shows_the_line_in_its_order():
    """The Civil War's board lists its places by side, on the map or not; where distances count,
    along the line of locations in play by their numbers, the board shows that line in its order."""
    from crisis.content.games import game_path
    from crisis.content.loader import load_content
    from crisis.interpreter.engine.entities import tables
    from crisis.interpreter.players.registry import RandomBot
    content = load_content(game_path("civil-war-card-game"))
    show = Presenter(content, content.catalog("en"))
    game = Game.of(content, 3, log=False)
    bots = [RandomBot(3, side) for side in range(2)]
    for _ in range(40):
        game.apply(bots[game.decision.player].choose(game, game.decision))
    (line,) = [row for row in Screen(game, show, Style(False), 400).board() if row.startswith("The line: ")]
    shown = line[len("The line: "):].split(" – ")
    t = tables(game.program)
    on_map = [content.places[p] for p in t.line_order if t.place_card[p] in set(game.view.in_play())]
    assert shown == [show.space(place) for place in on_map] and len(shown) >= 3
    fort_sumter = load_content()
    assert not [row for row in Screen(Game.of(fort_sumter, 3, log=False), Presenter(fort_sumter, fort_sumter.catalog("en")),
                                      Style(False), 100).board() if row.startswith("The line")]
