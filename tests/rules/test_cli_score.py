"""The command line's ``score``: one planet read as JSON on stdin, scored like the engine."""

from __future__ import annotations

import json

import pytest

from games.evergreen.rules import cli, load_edition
from tests.rules.clihelpers import score


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
