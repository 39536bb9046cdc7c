"""Running ``python -m games.evergreen.rules`` in the test's process, and records to replay."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from games.evergreen.rules import cli
from games.evergreen.rules.record import GameRecord

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    return json.loads(out)


def score(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, text: str
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    return run(capsys, "score")


def write_record(tmp_path: Path, players: int, seed: int, data: dict | None = None) -> tuple:
    state, moves = cli.play_bot_game(players, seed, "random")
    names = tuple(f"Player {k}" for k in range(players))
    record = GameRecord(names, seed, moves=tuple(moves))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data if data is not None else record.to_json(state)))
    return path, state, record
