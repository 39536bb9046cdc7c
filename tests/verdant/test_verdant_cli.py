"""The command line ``verdant-rules``: score, simulate, replay, demo, bench; records; views."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.verdant.rules import InvalidState, Start, apply, cli, new_game
from games.verdant.rules.record import GameRecord, unrevealed_moves
from games.verdant.rules.view import player_view
from tests.verdant.scoresheet import DOCUMENT, SHEET

ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *argv, stdin=None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_score_prints_the_breakdown_of_a_home(capsys, monkeypatch):
    code, out, err = run(capsys, "score", stdin=json.dumps(DOCUMENT), monkeypatch=monkeypatch)
    assert code == 0, err
    assert json.loads(out) == SHEET


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{not json", "not valid JSON"),
        ("[]", "JSON object"),
        (json.dumps({**DOCUMENT, "home": {"0,0": "P100"}}), "fill all 15"),
        (json.dumps({**DOCUMENT, "pots": ["gold"]}), "unknown pot"),
    ],
)
def test_score_refuses_bad_input_on_stderr_with_exit_status_2(capsys, monkeypatch, text, words):
    code, out, err = run(capsys, "score", stdin=text, monkeypatch=monkeypatch)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and words in err


def test_the_console_script_runs_as_a_module_too():
    done = subprocess.run(
        [sys.executable, "-m", "games.verdant.rules", "score"],
        input=json.dumps(DOCUMENT),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["total"] == SHEET["total"]
    bad = subprocess.run(
        [sys.executable, "-m", "games.verdant.rules", "score"],
        input="{}",
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert bad.returncode == 2 and "home" in bad.stderr


def test_simulate_prints_a_json_summary_with_the_solo_titles(capsys):
    code, out, err = run(capsys, "simulate", "--players", "1", "--games", "3", "--seed", "5")
    assert code == 0, err
    summary = json.loads(out)
    assert summary["games"] == 3 and summary["players"] == 1
    assert summary["min_score"] <= summary["mean_score"] <= summary["max_score"]
    assert sum(t["games"] for t in summary["titles"]) == 3
    assert [t["from_score"] for t in summary["titles"]] == [0, 60, 70, 80, 90, 100]


def test_simulate_several_players_with_the_greedy_bot_and_goal_cards(capsys):
    code, out, err = run(
        capsys, "simulate", "--players", "3", "--games", "1", "--seed", "2", "--bot", "greedy",
        "--goals",
    )  # fmt: skip
    assert code == 0, err
    summary = json.loads(out)
    assert "titles" not in summary and summary["goals"] is True
    assert sum(summary["wins_per_seat"]) == 1


def test_simulate_is_deterministic(capsys):
    args = ("simulate", "--players", "2", "--games", "2", "--seed", "9")
    first = json.loads(run(capsys, *args)[1])
    second = json.loads(run(capsys, *args)[1])
    first.pop("games_per_second"), second.pop("games_per_second")
    assert first == second


def _record_file(tmp_path, players=2, seed=4, result=True):
    state, moves = cli.play_bot_game(players, seed, "random")
    record = GameRecord(tuple(f"Player {k}" for k in range(players)), seed, moves=tuple(moves))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record.to_json(state if result else None)))
    return path, state


def test_replay_prints_the_final_scores_of_a_record(capsys, tmp_path):
    path, state = _record_file(tmp_path)
    code, out, err = run(capsys, "replay", str(path))
    assert code == 0, err
    data = json.loads(out)
    assert data["over"] and [s["total"] for s in data["seats"]] == list(state.outcome.scores)
    assert data["outcome"]["winner_players"]


def test_replay_refuses_a_record_whose_result_differs(capsys, tmp_path):
    path, _ = _record_file(tmp_path)
    data = json.loads(path.read_text())
    data["result"]["scores"][0] += 1
    path.write_text(json.dumps(data))
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2 and "does not match" in err


def test_replay_refuses_an_illegal_move_and_a_broken_file(capsys, tmp_path):
    path, _ = _record_file(tmp_path, result=False)
    data = json.loads(path.read_text())
    data["moves"][0] = {"type": "start", "seat": 9, "side": "top"}
    path.write_text(json.dumps(data))
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2 and "unknown_seat" in err
    path.write_text("{")
    assert run(capsys, "replay", str(path))[0] == 2
    assert run(capsys, "replay", str(tmp_path / "missing.json"))[0] == 2


def test_demo_tells_a_game_for_people(capsys):
    code, out, _ = run(capsys, "demo", "--players", "1", "--seed", "2", "--bot", "random")
    assert code == 0
    assert "Final scores" in out and "Solo title" in out and "round 13" in out


def test_bench_reports_its_figures_against_the_targets(capsys):
    code, out, _ = run(capsys, "bench", "--quick")
    assert code == 0
    lines = [json.loads(line) for line in out.strip().splitlines() if line.startswith("{")]
    figures = next(line["bench"] for line in lines if "bench" in line)
    assert figures["apply_turn_us"]["target"] == 100
    assert figures["random_game_5p_ms"]["target"] == 20
    strong = next(line["strong_player"] for line in lines if "strong_player" in line)
    assert strong["games"] == 1 and strong["min"] == strong["max"] == strong["mean"]
    assert sum(strong["titles"].values()) == 1
    assert strong["decision_median_s"] > 0 and set(strong["ok"]) == {"solo_mean", "decision"}
    assert "Strong player (1 solo games" in out and "solo mean" in out


# --- records and views -------------------------------------------------------------------


def test_a_record_refuses_what_is_not_a_verdant_record():
    for data in ({}, {"format": "evergreen-record"}, [], None):
        with pytest.raises(InvalidState):
            GameRecord.from_json(data)
    good = GameRecord(("A", "B"), 3).to_json()
    for field, value in (("players", []), ("seed", "x"), ("options", {"variant": "x"})):
        with pytest.raises(InvalidState):
            GameRecord.from_json({**good, field: value})


def test_the_view_shows_the_market_and_homes_but_only_the_size_of_decks_and_bag():
    state = new_game(2, seed=3, goals=True)
    for seat in (0, 1):
        state = apply(state, Start(seat, "left"))
    view = player_view(state, 0)
    assert [c["plant"] for c in view["market"]] == list(state.market_plants)
    assert view["plant_deck_count"] == len(state.plant_deck)
    assert view["bag_count"] == len(state.bag)
    assert len(view["goals"]) == 3 and view["goals"][0]["text"]
    assert view["seats"][1]["home"]["0,0"]["card"] == state.seats[1].start_room
    with pytest.raises(ValueError):
        player_view(state, 2)


def test_other_seats_start_placements_are_unrevealed_moves_until_all_are_in():
    record = GameRecord(("A", "B", "C"), 5, moves=(Start(2, "top"), Start(0, "left")))
    state = record.replay()
    assert unrevealed_moves(record, state, 0) == {0}
    assert unrevealed_moves(record, state, None) == {0, 1}
    done = record.with_move(Start(1, "right"))
    assert unrevealed_moves(done, done.replay(), 0) == set()
