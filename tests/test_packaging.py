"""The install claims only the `crisis` import name and ships its data files."""

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def pyproject():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_every_package_folder_is_listed():
    listed = set(pyproject()["tool"]["setuptools"]["packages"])
    mapping = pyproject()["tool"]["setuptools"]["package-dir"]
    folders = {f"crisis.{p.parent.relative_to(ROOT).as_posix().replace('/', '.')}"
               for p in ROOT.glob("*/**/__init__.py") if p.parent.parts[len(ROOT.parts)] in
               {"ruleset", "interpreter", "content", "cli"}}
    assert folders <= listed, f"not listed in pyproject.toml: {folders - listed}"
    assert all(mapping[name] == name.split(".")[1] for name in listed if name.count(".") == 1)


def test_no_generic_top_level_names_are_claimed():
    for name in pyproject()["tool"]["setuptools"]["packages"]:
        assert name.startswith("crisis."), name


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                            "-q", "-w", str(out), str(ROOT)], capture_output=True, text=True)
    if built.returncode != 0:
        pytest.fail(built.stderr)
    (path,) = out.glob("*.whl")
    return path


def test_the_wheel_holds_only_crisis_and_its_data(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"crisis"}
    assert "crisis/ruleset/language.lark" in names
    assert "crisis/content/fort-sumter/state.yaml" in names
    assert "crisis/content/fort-sumter/sequence.yaml" in names
    assert "crisis/content/fort-sumter/solo/overlay.yaml" in names
    assert "crisis/cli/saved-game-formats.yaml" in names  # every save is read and written by it
    assert "crisis/content/civil-war-card-game/state.yaml" in names
    assert any(n.startswith("crisis/content/fort-sumter/locale/en/") for n in names)
    assert any(n.startswith("crisis/content/fort-sumter/scenarios/") for n in names)


def test_the_installed_wheel_checks_its_content_from_another_folder(wheel, tmp_path):
    target = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(target)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import crisis.cli.main as m; "
            "assert m.__file__.startswith(sys.argv[1]), m.__file__; sys.exit(m.main(['check']))")
    result = subprocess.run([sys.executable, "-c", code, str(target)], cwd=elsewhere, capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stderr
    assert "OK -- 12 spaces" in result.stdout
