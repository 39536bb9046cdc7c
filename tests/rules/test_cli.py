"""The command line ``python -m games.evergreen.rules``: simulate and replay.

``score`` is in test_cli_score.py, ``demo`` and ``bench`` in test_cli_demo_bench.py, the
command line run as a process in test_cli_process.py.
"""

from __future__ import annotations

import json

import pytest

from games.evergreen.rules import cli, load_edition
from tests.rules.clihelpers import ROOT, run, run_json, write_record

SUMMARY_FIELDS = {
    "players",
    "games",
    "bot",
    "seed",
    "edition",
    "mean_score",
    "min_score",
    "max_score",
    "mean_winning_score",
    "wins_per_seat",
    "moves_per_game",
    "games_per_second",
}


class TestSimulate:
    def test_it_summarises_two_player_games(self, capsys):
        summary = run_json(capsys, "simulate", "--players", "2", "--games", "3", "--seed", "7")
        assert set(summary) == SUMMARY_FIELDS
        assert (summary["players"], summary["games"], summary["seed"]) == (2, 3, 7)
        assert summary["bot"] == "random"
        assert summary["min_score"] <= summary["mean_score"] <= summary["max_score"]
        assert summary["mean_score"] <= summary["mean_winning_score"] <= summary["max_score"]
        assert len(summary["wins_per_seat"]) == 2 and sum(summary["wins_per_seat"]) == 3
        assert summary["moves_per_game"] == 14 * (2 + 2)  # 14 rounds of 2 picks and 2 turns
        assert summary["games_per_second"] > 0

    def test_game_i_uses_seed_plus_i(self, capsys):
        summary = run_json(capsys, "simulate", "--players", "2", "--games", "2", "--seed", "40")
        scores = [s for seed in (40, 41) for s in cli.play_bot_game(2, seed, "random")[0].seats]
        assert summary["min_score"] == min(s.score for s in scores)
        assert summary["max_score"] == max(s.score for s in scores)

    def test_solo_lists_every_title_in_table_order(self, capsys):
        summary = run_json(
            capsys, "simulate", "--players", "1", "--games", "5", "--seed", "3", "--quiet"
        )
        titles = summary["titles"]
        table = load_edition().solo_titles
        assert [(t["from_score"], t["title"]) for t in titles] == list(table)
        assert sum(t["games"] for t in titles) == 5
        assert summary["wins_per_seat"] == [5]
        assert summary["moves_per_game"] == 14 * 2  # the A.I.'s picks are not moves

    def test_the_strong_bot_is_named_strong(self, capsys):
        summary = run_json(
            capsys,
            "simulate",
            "--players",
            "1",
            "--games",
            "1",
            "--seed",
            "1",
            "--bot",
            "strong",
            "--quiet",
        )
        assert summary["bot"] == "strong"
        assert sum(t["games"] for t in summary["titles"]) == 1
        greedy = cli.play_bot_game(1, 1, "greedy")[0].seats[0].score
        assert summary["max_score"] > greedy

    def test_it_is_deterministic_for_a_seed(self, capsys):
        argv = ("simulate", "--players", "3", "--games", "2", "--seed", "11", "--quiet")
        first, second = run_json(capsys, *argv), run_json(capsys, *argv)
        first.pop("games_per_second"), second.pop("games_per_second")
        assert first == second

    def test_the_progress_bar_goes_to_stderr_and_stdout_stays_json(self, capsys):
        code, out, err = run(capsys, "simulate", "--players", "2", "--games", "2", "--seed", "1")
        assert code == 0
        assert "simulate" in err and "2/2" in err
        assert json.loads(out)["games"] == 2

    def test_bots_of_different_seats_and_games_get_different_seeds(self):
        seeds = {cli.bot_seed(game, seat) for game in range(-3, 30) for seat in range(4)}
        assert len(seeds) == 33 * 4


class TestReplay:
    @pytest.mark.parametrize(("players", "seed"), [(2, 5), (4, 9)])
    def test_totals_equal_the_engine_final_scores(self, capsys, tmp_path, players, seed):
        path, final, _ = write_record(tmp_path, players, seed)
        result = run_json(capsys, "replay", str(path))
        assert result["over"] is True
        assert [s["total"] for s in result["seats"]] == list(final.outcome.scores)
        assert [s["player"] for s in result["seats"]] == [f"Player {k}" for k in range(players)]
        for seat, engine_seat in zip(result["seats"], final.seats, strict=True):
            assert [x["sun"] for x in seat["seasons"]] == ["N", "E", "S", "W"]
            seasons = sum(x["light"] + x["forest"] + x["bud"] for x in seat["seasons"])
            assert seat["setup_points"] + seasons + seat["fertility"] == seat["total"]
            assert seat["fertility"] == engine_seat.fertility
        outcome = result["outcome"]
        assert outcome["ranking"] == list(final.outcome.ranking)
        assert outcome["winner"] == final.outcome.winner
        assert outcome["winner_player"] == f"Player {final.outcome.winner}"
        assert outcome["title"] is None

    def test_a_solo_record_gives_the_title(self, capsys, tmp_path):
        path, final, _ = write_record(tmp_path, 1, 2)
        outcome = run_json(capsys, "replay", str(path))["outcome"]
        assert (
            outcome["title"]
            == final.outcome.title
            == load_edition().solo_title(final.outcome.scores[0])
        )

    def test_an_unfinished_record_replays_without_outcome(self, capsys, tmp_path):
        path, _, record = write_record(tmp_path, 2, 3)
        data = record.to_json()
        data["moves"] = data["moves"][:9]
        path.write_text(json.dumps(data))
        result = run_json(capsys, "replay", str(path))
        assert result["over"] is False and result["outcome"] is None
        assert result["moves"] == 9

    def test_it_refuses_an_illegal_move(self, capsys, tmp_path):
        path, _, record = write_record(tmp_path, 2, 3)
        data = record.to_json()
        data["moves"][4]["seat"] = 1 - data["moves"][4]["seat"]
        path.write_text(json.dumps(data))
        code, out, err = run(capsys, "replay", str(path))
        assert code == 2 and out == ""
        assert "Move 5 of the record is illegal" in err and "record_illegal_move" in err

    def test_it_refuses_a_result_the_replay_does_not_reach(self, capsys, tmp_path):
        path, final, record = write_record(tmp_path, 2, 4)
        data = record.to_json(final)
        data["result"]["scores"] = [0, 0]
        path.write_text(json.dumps(data))
        code, _, err = run(capsys, "replay", str(path))
        assert code == 2 and "does not match the replay" in err

    @pytest.mark.parametrize(
        ("content", "message"),
        [
            (None, "cannot read"),
            ("{not json", "not valid JSON"),
            ('{"format": "chess"}', "not an Evergreen game record"),
            ('{"format": "evergreen-record", "version": 9}', "Unsupported record version"),
            ('{"format": "evergreen-record", "version": 1, "seed": 1}', "incomplete"),
            (
                '{"format": "evergreen-record", "version": 1, "seed": 1, "edition": "standard-v1",'
                ' "players": ["a"], "moves": [{"type": "jump"}]}',
                "bad_move",
            ),
        ],
    )
    def test_a_bad_file_exits_2_with_a_message(self, capsys, tmp_path, content, message):
        path = tmp_path / "record.json"
        if content is not None:
            path.write_text(content)
        code, out, err = run(capsys, "replay", str(path))
        assert code == 2 and out == ""
        assert err.startswith("error: ") and message in err
        assert err.count("\n") == 1


class TestRecordDocumentation:
    def test_the_example_in_docs_replays(self, capsys, tmp_path):
        text = (ROOT / "docs" / "game-record.md").read_text("utf-8")
        blocks = [b.split("```", 1)[0] for b in text.split("```json\n")[1:]]
        example = next(b for b in blocks if '"evergreen-record"' in b)
        path = tmp_path / "example.json"
        path.write_text(example)
        result = run_json(capsys, "replay", str(path))
        assert result["moves"] == 5 and result["over"] is False
        assert [s["player"] for s in result["seats"]] == ["Ann", "Bob"]
