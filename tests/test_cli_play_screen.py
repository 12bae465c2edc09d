"""What the play screen looks like: the board at a glance, colours only on a
terminal, nothing but plain text on a pipe or with NO_COLOR."""

import os
import pty
import re
import subprocess

from clirun import crisis_command, run_crisis

BLUE, RED = "\x1b[34m", "\x1b[31m"
COLOUR = re.compile(r"\x1b\[[0-9;]*m")


def on_a_terminal(args, cwd, env_extra=None, answers="quit\n"):
    """Run crisis with its output on a pseudo-terminal (input from a pipe); return what it printed."""
    env = dict(os.environ, LANG="C", LC_ALL="", LANGUAGE="", LC_MESSAGES="")
    env.pop("NO_COLOR", None)
    env.update(env_extra or {})
    master, slave = pty.openpty()
    proc = subprocess.Popen(crisis_command() + [str(a) for a in args], stdin=subprocess.PIPE, stdout=slave,
                            stderr=slave, cwd=cwd, env=env)
    os.close(slave)
    proc.stdin.write(answers.encode())
    proc.stdin.close()
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the terminal closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    assert proc.wait(30) == 0
    return b"".join(chunks).decode("utf-8", "replace")


def test_the_first_screen_shows_the_board_tracks_hand_log_and_choices(tmp_path):
    result = run_crisis("play", "--vs", "bot", "--seed", "1", "--save", "g.json", input="quit\n", cwd=tmp_path,
                        env={"COLUMNS": "80"})
    out = result.stdout
    assert re.search(r"^Fort Sumter  ·  Round 1 of 3  ·  Choosing objectives  ·  First player: Unionist$", out, re.M)
    assert re.search(r"^Unionist: 0 VP   Secessionist: 0 VP   Strategy deck: 32 cards$", out, re.M)
    # the map in 80 columns: two dimensions side by side, each side's tokens, who controls each space
    assert re.search(r"^ +Uni  Sec +Uni  Sec$", out, re.M)
    assert re.search(r"^Political +Secession$", out, re.M) and re.search(r"^Armaments +Public Opinion$", out, re.M)
    assert re.search(r"^ ◆  Washington +···· ···· - + ◆  Border States +···· ···· -$", out, re.M)
    assert re.search(r"^ ◆  Federal Arsenals ···· ···· - + ◆  Newspapers +···· ···· -$", out, re.M)
    assert re.search(r"^    Fort Sumter +···· ···· - +    Fire-Eaters +···· ···· -$", out, re.M)
    assert "▲ Peace Commissioner: not on the map." in out
    assert re.search(r"^Crisis track +Starting +Escalation +Tension +Final Crisis +Pool +Breached$", out, re.M)
    assert re.search(r"^Unionist +■■■■■ +■■■ \+2 +■■ \+3 +■■■■■■ \+4 +0  -$", out, re.M)
    assert re.search(r"^Secessionist: 4 cards in hand, 0 set aside for the Final Crisis\.$", out, re.M)
    assert "Your hand (Unionist, 4 cards):" in out
    assert "Objective cards dealt to you (keep one):" in out
    assert "Since your last turn:" in out and "Round 1 begins" in out
    assert re.search(r"^Unionist: choose the objective card to keep\.\n  1  keep \S+ +Keep .+ \(.+\)$", out, re.M)
    assert out.rstrip().endswith("Continue it with:  crisis resume g.json")
    assert max(len(line) for line in out.splitlines()) <= 80


def test_a_pipe_or_no_color_gives_plain_text_without_escape_codes(tmp_path):
    plain = run_crisis("play", "--vs", "bot", "--seed", "2", "--save", "a.json", input="1\n" * 600, cwd=tmp_path,
                       env={"NO_COLOR": ""})
    assert plain.returncode == 0 and "Final score" in plain.stdout
    assert "\x1b" not in plain.stdout
    hot = run_crisis("play", "--seed", "2", "--save", "b.json", input="\n1\n\n1\n\n1\n", cwd=tmp_path)
    assert "Pass the terminal" in hot.stdout and "\x1b" not in hot.stdout
    assert "=" * 72 in hot.stdout  # the screen is "cleared" with a separator line


def test_colours_on_a_terminal_blue_and_red_unless_no_color_or_a_dumb_terminal(tmp_path):
    coloured = on_a_terminal(["play", "--vs", "bot", "--seed", "2", "--save", "c.json"], tmp_path,
                             answers="1\nquit\n")
    # readable on dark and light backgrounds: no side is drawn in dark gray
    assert BLUE + "Unionist" in coloured and RED + "Secessionist" in coloured and "\x1b[90m" not in coloured
    # the next screen is printed below the last one: nothing already said is wiped
    assert "\x1b[2J" not in coloured
    for extra, flags in (({"NO_COLOR": "1"}, []), ({}, ["--no-color"]), ({"TERM": "dumb"}, [])):
        (tmp_path / "d.json").unlink(missing_ok=True)
        plain = on_a_terminal(["play", "--vs", "bot", "--seed", "2", "--save", "d.json"] + flags, tmp_path, extra)
        assert "Unionist" in plain and not COLOUR.search(plain), (extra, flags)


def test_the_hot_seat_screen_is_wiped_with_its_scrollback_before_the_terminal_is_passed(tmp_path):
    out = COLOUR.sub("", on_a_terminal(["play", "--seed", "2", "--save", "e.json"], tmp_path,
                                       answers="\n1\n\nquit\n"))
    before, _, after = out.partition("Pass the terminal to the Secessionist player.")
    assert after and "\x1b[2J\x1b[3J" in before[-400:]  # screen and scrollback cleared
    hand = re.findall(r"\[([a-z0-9-]+)\]", before)
    assert hand and not any(f"[{card}]" in after.split("press Enter")[0] for card in hand)
