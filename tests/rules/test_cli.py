"""The command line ``python -m games.evergreen.rules``: simulate, replay, score, demo, bench."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.evergreen.rules import cli, load_edition
from games.evergreen.rules.record import GameRecord

ROOT = Path(__file__).resolve().parents[2]
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


class TestScore:
    @pytest.mark.parametrize(
        ("data", "expected"),
        [
            # A Big Tree's 2-space shadow covers the Small Tree next to it (Sun W) ...
            (
                {"planet": ["s s # s s"], "pieces": {"0,0": "big", "0,1": "small"}, "sun": "W"},
                (2, 2, 0),
            ),
            # ... but from the East the Small Tree is lit and shades nothing as tall as a Big Tree.
            (
                {"planet": ["s s # s s"], "pieces": {"0,0": "big", "0,1": "small"}, "sun": "E"},
                (3, 2, 0),
            ),
            # With the Sun at N each column of a one-row planet is its own line.
            (
                {"planet": ["ss#ss"], "pieces": {"0,0": "big", "0,1": "small"}, "sun": "N"},
                (3, 2, 0),
            ),
            # A crevice counts for the shadow's length: 1 space of shadow ends on it.
            (
                {"planet": ["s # s"], "pieces": {"0,0": "small", "0,2": "small"}, "sun": "W"},
                (2, 1, 0),
            ),
            # An off-planet space counts too: the Big Tree's shadow reaches past it.
            (
                {"planet": ["s . s"], "pieces": {"0,0": "big", "0,2": "small"}, "sun": "W"},
                (2, 1, 0),
            ),
            # Lakes and Sprouts cast no shadow and break Forests; Bushes join them.
            (
                {
                    "planet": ["s s s s s"],
                    "pieces": {"0,0": "small", "0,1": "lake", "0,2": "small", "0,3": "sprout"},
                    "sun": "W",
                },
                (2, 1, 0),
            ),
            (
                {
                    "planet": ["s s s"],
                    "pieces": {"0,0": "small", "0,1": "bush", "0,2": "big"},
                    "sun": "W",
                },
                (3, 3, 0),
            ),
            # Fertility: per biome, its value times the Big Trees in it.
            (
                {
                    "planet": ["s m", "m s"],
                    "pieces": {"0,0": "big", "0,1": "small", "1,1": "big"},
                    "sun": "N",
                    "fertility": {"snow": 3, "swamp": 2},
                },
                (5, 3, 6),
            ),
            ({"planet": ["s"], "sun": "S"}, (0, 0, 0)),
        ],
    )
    def test_it_scores_a_planet(self, capsys, monkeypatch, data, expected):
        code, out, err = score(capsys, monkeypatch, json.dumps(data))
        assert code == 0, err
        light, forest, fertility = expected
        assert json.loads(out) == {"light": light, "forest": forest, "fertility": fertility}

    def test_the_standard_planet_scores_like_the_engine(self, capsys, monkeypatch):
        final, _ = cli.play_bot_game(2, 6, "random")
        ed = load_edition()
        board = final.seats[0].board
        names = ("empty", "sprout", "small", "big", "bush", "lake")
        pieces = {
            f"{i // ed.planet.cols},{i % ed.planet.cols}": names[p]
            for i, p in enumerate(board)
            if p
        }
        data = {"planet": ed.planet.text(), "pieces": pieces, "sun": "W"}
        code, out, _ = score(capsys, monkeypatch, json.dumps(data))
        season = final.seats[0].seasons[-1]
        assert code == 0
        assert json.loads(out)["light"] == season.light
        assert json.loads(out)["forest"] == season.forest

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            ('{"planet": ["s s"], "sun": "N"', "not valid JSON"),
            ('["s s"]', "must be a JSON object"),
            ('{"sun": "N"}', '"planet" must be a list of strings'),
            ('{"planet": "s s", "sun": "N"}', '"planet" must be a list of strings'),
            ('{"planet": [], "sun": "N"}', "no rows"),
            ('{"planet": ["s x"], "sun": "N"}', "Unknown planet character 'x'"),
            ('{"planet": ["s s", "s"], "sun": "N"}', "Planet row 1 has 1 spaces"),
            ('{"planet": ["s s"]}', '"sun" must be one of N, E, S, W'),
            ('{"planet": ["s s"], "sun": "NE"}', '"sun" must be one of N, E, S, W'),
            ('{"planet": ["s s"], "sun": "N", "pieces": {"0,0": "tree"}}', "unknown piece 'tree'"),
            ('{"planet": ["s s"], "sun": "N", "pieces": ["0,0"]}', '"pieces" must be an object'),
            ('{"planet": ["s #"], "sun": "N", "pieces": {"0,1": "big"}}', "on a crevice"),
            ('{"planet": ["s ."], "sun": "N", "pieces": {"0,1": "big"}}', "off the planet"),
            ('{"planet": ["s s"], "sun": "N", "pieces": {"0,2": "big"}}', "outside the 1x2"),
            ('{"planet": ["s s"], "sun": "N", "pieces": {"-1,0": "big"}}', "outside the 1x2"),
            ('{"planet": ["s s"], "sun": "N", "pieces": {"0-1": "big"}}', 'is not "row,column"'),
            ('{"planet": ["s s"], "sun": "N", "pieces": {"0,1,2": "big"}}', 'is not "row,column"'),
            (
                '{"planet": ["s s"], "sun": "N", "pieces": {"0,1": "big", " 0 , 1": "small"}}',
                "given twice",
            ),
            ('{"planet": ["s s"], "sun": "N", "fertility": {"moon": 1}}', "unknown biome 'moon'"),
            ('{"planet": ["s s"], "sun": "N", "fertility": {"snow": -2}}', "non-negative"),
            ('{"planet": ["s s"], "sun": "N", "fertility": {"snow": 1.5}}', "non-negative"),
            ('{"planet": ["s s"], "sun": "N", "fertility": {"snow": true}}', "non-negative"),
            ('{"planet": ["s s"], "sun": "N", "fertility": [3]}', '"fertility" must be an object'),
            ('{"planet": ["s s"], "sun": "N", "peices": {}}', "unknown field(s) peices"),
        ],
    )
    def test_bad_input_exits_2_with_one_line_on_stderr(self, capsys, monkeypatch, text, message):
        code, out, err = score(capsys, monkeypatch, text)
        assert code == 2 and out == ""
        assert err.startswith("error: ") and err.count("\n") == 1
        assert message in err


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
