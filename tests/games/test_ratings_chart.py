"""The rating history chart: a small inline SVG that says in words what it draws."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta

import pytest

from games import ratingchart
from games.ratings import RatingPoint, chart_svg

SVG = "{http://www.w3.org/2000/svg}"
START = datetime(2026, 3, 1, 12, tzinfo=UTC)


def points(*values: int) -> list[RatingPoint]:
    return [
        RatingPoint(START + timedelta(days=i), value, 100 + i) for i, value in enumerate(values)
    ]


def parsed(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # also proves the markup is well formed


def coordinates(root: ET.Element) -> list[tuple[float, float]]:
    line = root.find(f"{SVG}polyline")
    assert line is not None
    return [tuple(map(float, pair.split(","))) for pair in line.attrib["points"].split()]


class TestTheChart:
    def test_it_is_an_image_with_a_title_and_a_description_it_is_labelled_by(self) -> None:
        root = parsed(chart_svg(points(1000, 1040, 1010)))
        assert root.attrib["role"] == "img"
        title, desc = root.find(f"{SVG}title"), root.find(f"{SVG}desc")
        assert title is not None and desc is not None
        assert root.attrib["aria-labelledby"] == f"{title.attrib['id']} {desc.attrib['id']}"
        assert title.text == "Rating history"
        assert desc.text is not None
        assert "3 rated games" in desc.text
        assert "from 1000 to 1010 (lowest 1000, highest 1040)" in desc.text
        assert "March 1, 2026" in desc.text and "March 3, 2026" in desc.text

    def test_the_line_goes_left_to_right_and_up_when_the_rating_rises(self) -> None:
        values = (1000, 1040, 1010, 1100)
        root = parsed(chart_svg(points(*values), width=300, height=100))
        assert (root.attrib["width"], root.attrib["height"]) == ("300", "100")
        coords = coordinates(root)
        assert len(coords) == len(values)
        xs, ys = [x for x, _ in coords], [y for _, y in coords]
        assert xs == sorted(xs) and len(set(xs)) == len(xs)
        assert all(0 <= x <= 300 for x in xs) and all(0 <= y <= 100 for y in ys)
        # Higher rating, higher on the picture (smaller y).
        order = sorted(range(len(values)), key=lambda i: values[i])
        assert sorted(range(len(ys)), key=lambda i: -ys[i]) == order
        circle = root.find(f"{SVG}circle")
        assert circle is not None
        assert (float(circle.attrib["cx"]), float(circle.attrib["cy"])) == coords[-1]
        labels = [t.text for t in root.iter(f"{SVG}text")]
        assert labels == ["1100", "1000"]

    def test_a_flat_history_is_drawn_flat_in_the_middle(self) -> None:
        root = parsed(chart_svg(points(1200, 1200, 1200), height=80))
        ys = {y for _x, y in coordinates(root)}
        assert ys == {40.0}

    def test_one_game_is_a_dot_and_no_games_is_said_in_words(self) -> None:
        one = parsed(chart_svg(points(1032)))
        assert one.find(f"{SVG}circle") is not None
        desc = one.find(f"{SVG}desc")
        assert desc is not None and desc.text == (
            "The rating after one rated game, on March 1, 2026: 1032."
        )
        empty = parsed(chart_svg([]))
        desc = empty.find(f"{SVG}desc")
        assert desc is not None and desc.text == "No rated games yet."
        assert empty.find(f"{SVG}polyline") is None and empty.find(f"{SVG}circle") is None

    def test_it_has_no_script_and_the_same_history_gives_the_same_markup(self) -> None:
        svg = chart_svg(points(1000, 1020))
        assert "<script" not in svg and not re.search(r"\son[a-z]+=", svg)
        assert svg == chart_svg(points(1000, 1020))
        assert re.search(r'id="rating-chart-[0-9a-f]{10}-title"', svg)
        assert chart_svg(points(1000, 1030)) != svg  # two charts on one page: two ids

    def test_the_words_are_escaped(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(ratingchart, "_", lambda text: "<b>Rating & co</b>")
        svg = chart_svg(points(1000, 1020))
        assert "<b>" not in svg and "&lt;b&gt;Rating &amp; co&lt;/b&gt;" in svg
        parsed(svg)
