"""The tool's own words are shared by every game (content/interface/<lang>/), a game's catalogs may
give any key its own text, and a game is picked by name (``crisis games``, ``--game``)."""

import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest

from clirun import run_crisis, run_main
from crisis.content.loader import load_content

ROOT = Path(__file__).resolve().parents[1]
CIVIL_WAR = ROOT / "content" / "civil-war-card-game"
RAW_KEY = re.compile(r"<[a-z_]+(\.[A-Za-z0-9_ ]+)+>")


def test_fort_sumter_reads_every_text_as_before_in_both_languages():
    """Each message of Fort Sumter's catalogs, in English and Spanish, is the text it was before its
    interface's words moved to the tool's catalog (a digest per key, taken before the move); the
    tool adds only keys Fort Sumter never had.  Regenerate the digests only for a change of wording
    meant for Fort Sumter."""
    before = json.loads((ROOT / "tests" / "data" / "fort-sumter-messages.json").read_text(encoding="utf-8"))
    content = load_content()
    for lang in ("en", "es"):
        messages = content.catalogs[lang].messages
        changed = [key for key, digest in before[lang].items()
                   if hashlib.sha256(messages.get(key, "\0missing").encode()).hexdigest()[:12] != digest]
        assert changed == [], f"{lang}: {changed[:10]}"
        # every text still formats as it did: the same texts, the same grammar of names
        for key in before[lang]:
            assert not RAW_KEY.fullmatch(content.catalogs[lang].text(key, **_sample(messages[key]))) or "{" not in messages[key]


def _sample(message):
    from crisis.content.locale import placeholders
    return {name: 1 for name in placeholders(message)}


SHIPPED = sorted(path.name for path in (ROOT / "content").iterdir() if (path / "state.yaml").is_file())
PROBLEM = re.compile(r": (error|warning): ")


@pytest.mark.parametrize("game", SHIPPED)
def test_every_shipped_game_passes_the_strict_check_and_the_catalog_check(game):
    """A game needs only its own words: the rules-in-words templates the program asks for by name
    are the tool's (content/interface/<lang>/render.yaml), so every shipped game loads, checks and
    reads in each of its languages without a missing text or a warning."""
    strict = run_main("check", "--strict", "--game", game)
    assert strict.returncode == 0, strict.stderr
    assert not PROBLEM.search(strict.stderr + strict.stdout), strict.stderr
    catalogs = run_main("i18n", "check", "--game", game)
    assert catalogs.returncode == 0, catalogs.stdout + catalogs.stderr
    assert not PROBLEM.search(catalogs.stdout + catalogs.stderr), catalogs.stdout
    assert "en: nothing missing; 0 other problems" in catalogs.stdout
    assert "es: nothing missing; 0 other problems" in catalogs.stdout


def test_the_rules_in_words_templates_are_the_tools_and_a_game_words_them_its_own_way():
    civil_war, fort_sumter = load_content(CIVIL_WAR), load_content()
    for lang in ("en", "es"):
        # a template no game gives: the tool's, the same in both games
        for content in (civil_war, fort_sumter):
            catalog = content.catalog(lang)
            assert f"content/interface/{lang}/render.yaml" in catalog.positions["render.statement.place"][0]
        assert civil_war.catalog(lang).raw("render.statement.place") == fort_sumter.catalog(lang).raw(
            "render.statement.place")
    # the tool's words name no game's concept; each game words its own
    assert civil_war.catalog("en").raw("render.subject.solo") == "the automated opponent"
    assert fort_sumter.catalog("en").raw("render.subject.solo") == "the Solo Opponent"
    assert fort_sumter.catalog("es").raw("render.subject.solo") == "el Oponente en Solitario"
    assert "location" in civil_war.catalog("en").text("render.limit.per_space", n=2)
    assert "localidad" in civil_war.catalog("es").text("render.limit.per_space", n=2)
    assert fort_sumter.catalog("en").text("render.limit.per_space", n=2) == ", at most 2 per space"

def test_the_tools_words_come_from_its_own_catalog_and_a_game_needs_none_of_them():
    content = load_content(CIVIL_WAR)
    catalog = content.catalog("en")
    assert catalog.text("result.title") == "Final score"
    assert "content/interface/en/" in catalog.positions["result.title"][0]
    assert "content/fort-sumter" not in catalog.positions["result.title"][0]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_tools_play_texts_name_no_concept_of_fort_sumter(lang):
    """What a game asks for by the names of its own decisions and procedures (keep_objective, the
    pivotal bonus) is the game's to word, in its own catalog: the tool's texts of play (prompts,
    reasons, log lines, actions) name no objective, pivotal space, Final Crisis or breach, which
    another game's player would read, and its translator translate."""
    from crisis.content.loader import interface_catalog
    words = re.compile(r"objective|pivotal|crisis track|dimension|final crisis|breach|fort sumter|unionist|"
                       r"secessionist|objetivo|crucial|crisis final|brecha", re.IGNORECASE)
    catalog, _ = interface_catalog(lang)
    named = [key for key, text in catalog.messages.items()
             if key.split(".")[0] in ("decision", "reason", "log", "action", "trace") and (words.search(key) or words.search(text))]
    assert named == []
    # nor does any text of the tool name one of Fort Sumter's optional rules: a solo game says the
    # options its overlay sets by their names in the game's own catalog (cli.intro.<option>)
    options = re.compile(r"event discard|descarte de eventos", re.IGNORECASE)
    assert [key for key, text in catalog.messages.items() if options.search(text)] == []


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_civil_war_game_played_by_bots_shows_no_raw_key(lang):
    result = run_main("play", "--bots", "--game", "civil-war-card-game", "--seed", "3", "--lang", lang)
    assert result.returncode == 0, result.stderr
    assert not RAW_KEY.search(result.stdout), RAW_KEY.search(result.stdout).group()
    lines = result.stdout.splitlines()
    assert len(lines) > 10  # the game's log is said, not only the score
    if lang == "es":
        english = re.compile(r"\b(wins|draws|plays|begins|Final score|Game over|before the)\b")
        assert not [line for line in lines if english.search(line)]
        assert "Fin de la partida" in result.stdout  # the capital fell: the game ended at once


def test_a_civil_war_game_in_line_mode_on_a_pipe_shows_no_raw_key(tmp_path):
    for lang in ("en", "es"):
        result = run_crisis("play", "--vs", "random", "--game", "civil-war-card-game", "--no-color", "--seed", "2",
                            "--lang", lang, "--save", str(tmp_path / f"game-{lang}.json"), input="1\n" * 400,
                            timeout=300)
        assert result.returncode == 0, result.stderr
        assert not RAW_KEY.search(result.stdout), RAW_KEY.search(result.stdout).group()
        assert "Fort Sumter" not in result.stdout


def test_a_games_own_text_wins_over_the_tools(tmp_path):
    root = tmp_path / "cw"
    shutil.copytree(CIVIL_WAR, root)
    shared = run_main("play", "--bots", "--content", str(root), "--seed", "3")
    assert "Game over" in shared.stdout  # the tool's words (seed 3 ends when a capital falls)
    (root / "locale" / "en" / "zz-mine.yaml").write_text('cli:\n  result:\n    over: "The war is over"\n',
                                                          encoding="utf-8")
    result = run_main("play", "--bots", "--content", str(root), "--seed", "3")
    assert result.returncode == 0, result.stderr
    assert "The war is over" in result.stdout and "Game over" not in result.stdout


def test_a_key_missing_in_both_catalogs_is_reported_with_where_it_was_looked_for(tmp_path):
    root = tmp_path / "cw"
    shutil.copytree(CIVIL_WAR, root)
    path = root / "locale" / "en" / "render.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("sides: {North: North, South: South}", "sides: {North: North}"), encoding="utf-8")
    result = run_main("check", "--content", str(root))
    assert result.returncode == 1
    assert "locale 'en' has no text for 'sides.South'" in result.stderr
    assert "looked in content/interface/en/ and then" in result.stderr and "cw/locale/en/" in result.stderr


def test_a_placeholder_mismatch_names_the_file_the_key_came_from(tmp_path):
    root = tmp_path / "cw"
    shutil.copytree(CIVIL_WAR, root)
    (root / "locale" / "es" / "zz-mine.yaml").write_text('result:\n  line: "{sid}: {vp} PV"\n', encoding="utf-8")
    result = run_main("i18n", "check", "--content", str(root), "--lang", "es")
    assert "locale/es/zz-mine.yaml:2" in result.stdout and "'result.line' uses {sid}, which the game does not fill" in result.stdout


def test_crisis_games_lists_the_shipped_games_in_the_players_language():
    english = run_main("games")
    assert english.returncode == 0, english.stderr
    lines = english.stdout.splitlines()
    assert any(line.startswith("civil-war-card-game") and "The Civil War Card Game" in line and "2 players" in line
               and "solo" not in line for line in lines)
    assert any(line.startswith("fort-sumter") and "solo" in line and "default" in line for line in lines)
    spanish = run_main("games", "--lang", "es")
    assert "2 jugadores" in spanish.stdout and "por defecto" in spanish.stdout


def test_game_picks_a_shipped_game_and_the_default_stays():
    picked = run_main("cards", "--game", "civil-war-card-game")
    assert picked.returncode == 0, picked.stderr
    assert "Abraham Lincoln" in picked.stdout
    default = run_main("cards")
    assert "Abraham Lincoln" not in default.stdout and default.returncode == 0


def test_an_unknown_game_is_refused_on_one_line_with_the_closest_name():
    result = run_main("play", "--bots", "--game", "civil-war")
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0
    assert "did you mean 'civil-war-card-game'?" in result.stderr and "fort-sumter" in result.stderr


def test_a_games_own_english_text_not_yet_translated_is_a_warning_in_the_games_folder(tmp_path):
    """The Civil War Card Game words its sudden-death result its own way; a copy whose Spanish lacks
    that text shows the tool's Spanish one.  i18n check says so in the game's locale/es/, not as a
    placeholder error in the tool's catalog (which a designer should not edit)."""
    from crisis.content.i18n import check_catalog
    root = tmp_path / "cw"
    shutil.copytree(CIVIL_WAR, root)
    spanish = root / "locale" / "es" / "interface.yaml"
    spanish.write_text("\n".join(line for line in spanish.read_text(encoding="utf-8").splitlines()
                                 if not line.strip().startswith("at_once:")) + "\n", encoding="utf-8")
    found = [d for d in check_catalog(load_content(root), "es") if "cli.result.at_once" in d.message + (d.hint or "")]
    assert len(found) == 1 and found[0].severity == "warning"
    assert "the game words its own way" in found[0].message
    assert found[0].path.endswith("cw/locale/es/interface.yaml") and "interface/es" not in found[0].path.replace(
        "cw/locale/es", "")
