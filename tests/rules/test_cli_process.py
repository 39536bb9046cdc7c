"""The command line as a process: ``python -m games.evergreen.rules`` and the
``evergreen-rules`` console script, their exit status and output streams."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.rules.clihelpers import ROOT


class TestSubprocess:
    def test_make_run_plays_a_greedy_game(self):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "games.evergreen.rules",
                "demo",
                "--players",
                "3",
                "--bot",
                "greedy",
            ],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert "Final scores" in done.stdout

    def test_score_reads_stdin_and_bad_input_exits_2(self):
        command = [sys.executable, "-m", "games.evergreen.rules", "score"]
        good = subprocess.run(
            command,
            input='{"planet": ["s s # s"], "pieces": {"0,1": "small"}, "sun": "N"}',
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=False,
        )
        assert good.returncode == 0
        assert json.loads(good.stdout) == {"light": 1, "forest": 1, "fertility": 0}
        bad = subprocess.run(
            command, input="nonsense", capture_output=True, text=True, cwd=ROOT, check=False
        )
        assert bad.returncode == 2 and bad.stdout == ""
        assert bad.stderr.startswith("error: the input is not valid JSON")

    def test_a_bad_option_exits_2(self):
        done = subprocess.run(
            [sys.executable, "-m", "games.evergreen.rules", "simulate", "--players", "5"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=False,
        )
        assert done.returncode == 2 and "--players" in done.stderr


class TestTheConsoleScript:
    """``evergreen-rules`` (pyproject's console script) and ``python -m games.evergreen.rules``
    run the same command line."""

    POSITION = '{"planet": ["s s # s"], "pieces": {"0,1": "small"}, "sun": "N"}'

    @pytest.mark.parametrize(
        "command",
        [
            [str(Path(sys.executable).with_name("evergreen-rules"))],
            [sys.executable, "-m", "games.evergreen.rules"],
        ],
        ids=["console-script", "python-m"],
    )
    def test_it_scores_a_position_and_refuses_bad_input_with_status_2(self, command):
        scored = subprocess.run(
            [*command, "score"], input=self.POSITION, capture_output=True, text=True, check=True
        )
        assert json.loads(scored.stdout) == {"light": 1, "forest": 1, "fertility": 0}
        refused = subprocess.run(
            [*command, "score"], input="not json", capture_output=True, text=True
        )
        assert refused.returncode == 2 and refused.stdout == ""
        usage = subprocess.run([*command, "--help"], capture_output=True, text=True, check=True)
        for subcommand in ("score", "simulate", "replay", "bench", "demo"):
            assert subcommand in usage.stdout
