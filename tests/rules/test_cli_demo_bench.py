"""The command line's ``demo`` and ``bench``: what they print for people."""

from __future__ import annotations

import json

from tests.rules.clihelpers import run


class TestDemo:
    def test_it_plays_a_whole_game_for_people(self, capsys):
        code, out, _ = run(capsys, "demo", "--players", "2", "--bot", "random", "--seed", "4")
        assert code == 0
        assert "bot-vs-bot game on the command line" in out
        for season, sun in enumerate("NESW", start=1):
            assert f"Season {season} (Sun {sun})" in out
        assert "Final scores" in out and "Winner: Bot" in out
        assert len(out.splitlines()) < 40

    def test_a_solo_demo_shows_the_title(self, capsys):
        code, out, _ = run(capsys, "demo", "--players", "1", "--bot", "random")
        assert code == 0 and "Solo title: " in out


class TestBench:
    def test_quick_prints_every_figure_with_its_target(self, capsys):
        code, out, _ = run(capsys, "bench", "--quick", "--strong-games", "0")
        assert code == 0
        lines = out.strip().splitlines()
        figures = json.loads(lines[-1])["bench"]
        assert set(figures) == {
            "apply_turn_us",
            "light_forest_full_planet_us",
            "random_game_4p_ms",
            "greedy_game_4p_ms",
            "greedy_game_solo_ms",
            "view_json_round_trip_us",
        }
        assert {k: f["target"] for k, f in figures.items() if f["target"] is not None} == {
            "apply_turn_us": 100,
            "light_forest_full_planet_us": 30,
            "random_game_4p_ms": 20,
        }
        assert all(f["value"] > 0 for f in figures.values())
        table = lines[1:-1]
        assert len(table) == len(figures)
        assert sum(1 for line in table if line.endswith(("ok", "MISSED"))) == 3

    def test_it_prints_the_strong_players_figures_against_their_targets(self, capsys):
        argv = ("bench", "--quick", "--strong-games", "1", "--workers", "1")
        code, out, _ = run(capsys, *argv)
        assert code == 0
        lines = out.strip().splitlines()
        strong = json.loads(lines[-1])["strong_player"]
        assert strong["solo"]["games"] == strong["four_players"]["games"] == 1
        assert sum(strong["solo"]["titles"].values()) == 1
        assert set(strong["decision_median_s"]) == {"easy", "medium", "hard", "strong"}
        assert set(strong["ok"]) == {"solo_mean", "solo_160_plus", "win_rate", "decision"}
        report = "\n".join(lines[lines.index(next(x for x in lines if x.startswith("Strong"))) :])
        for words in ("solo mean", "solo at 160+", "titles", "strong vs 3 greedy", "decision"):
            assert words in report
