"""Run the real `crisis` command in a subprocess, as a user would."""

import os
import subprocess
import sys
from pathlib import Path


def crisis_command():
    script = Path(sys.executable).parent / "crisis"
    return [str(script)] if script.exists() else [sys.executable, "-m", "crisis.cli.main"]


def run_crisis(*args, input=None, cwd=None, env=None, timeout=120):
    environment = dict(os.environ)
    environment.update({"NO_COLOR": "1", "LANG": "C", "LC_ALL": "", "LANGUAGE": "", "LC_MESSAGES": ""})
    environment.update(env or {})
    return subprocess.run(crisis_command() + [str(a) for a in args], input=input, capture_output=True,
                          text=True, cwd=cwd, env=environment, timeout=timeout)
