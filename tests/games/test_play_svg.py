"""The repetitive parts of the game page drawn in Python (games/evergreen/svg.py): planets, buttons,
cards, tracks, stacks and score rows; what they say, what they escape, what they cost."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.template import base as template_base
from django.urls import reverse
from django.utils import translation

from games.evergreen import pagewords, presenters, rules, svg
from games.evergreen.rules.pieces import BIG, EMPTY, SPROUT
from games.evergreen.rules.scoring import shadowed_spaces
from games.models import Game, Player
from tests.games.gamehelpers import client_for, play_until

EDITION = rules.load_edition()
PLANET = EDITION.planet


def board(pieces: dict[tuple[int, int], int]) -> tuple[int, ...]:
    cells = [EMPTY] * PLANET.size
    for space, piece in pieces.items():
        cells[PLANET.index(space)] = piece
    return tuple(cells)


def picture(pieces: dict[tuple[int, int], int] | None = None, **kwargs: Any) -> presenters.Planet:
    kwargs.setdefault("name", "Alice")
    return presenters.planet(EDITION, board(pieces or {}), "N", "E", seat=0, **kwargs)


def groups(html: str) -> dict[str, str]:
    """Each space's group in a planet's SVG, by its data-space."""
    found = re.findall(
        r'(<g class="cell [^"]*" data-space="(\d,\d)".*?</g>)(?=<g class="|<g class="sun|</svg>)',
        html,
    )
    return {space: markup for markup, space in found}


@pytest.fixture(autouse=True)
def english() -> Any:
    with translation.override("en"):
        yield


class TestPlanetPicture:
    def test_every_space_on_the_planet_is_a_titled_group_placed_with_its_tile(self):
        html = str(svg.planet_svg(picture()))
        spaces = groups(html)
        assert len(spaces) == len(PLANET.playable) + 4  # the biomes and the 4 crevices
        assert html.count('class="cell cell-crevice"') == 4
        for i in PLANET.playable:
            row, col = PLANET.space(i)
            markup = spaces[f"{row},{col}"]
            biome = PLANET.biomes[i]
            assert f'<use href="#tile-{biome}" x="{col * 40}" y="{row * 40}"/>' in markup
            assert f"<title>Row {row}, column {col}: {biome.capitalize()}, empty</title>" in markup
        assert '<title>Row 1, column 3: crevice</title><use href="#tile-crevice"' in html

    def test_the_picture_has_a_title_and_both_suns(self):
        html = str(svg.planet_svg(picture()))
        assert html.startswith('<svg class="board" viewBox="-36 -36 352 352" role="img"')
        assert '<title id="planet-0-title">Alice\'s planet: 0 Light points' in html
        assert "<title>The Sun now shines from the north (top)</title>" in html
        assert "<title>Next season the Sun shines from the east (right)</title>" in html

    def test_a_tree_shows_its_light_and_the_spaces_it_shades(self):
        pieces = {(1, 1): BIG}
        html = str(svg.planet_svg(picture(pieces)))
        spaces = groups(html)
        tree = spaces["1,1"]
        assert 'data-piece="big"' in tree
        assert '<use href="#piece-big" x="40" y="40" width="40" height="40"/>' in tree
        assert '<g class="light-badge"><circle cx="73" cy="47" r="6"/>' in tree
        shaded = shadowed_spaces(PLANET, board(pieces), "N", EDITION)
        assert shaded
        for i in shaded:
            row, col = PLANET.space(i)
            markup = spaces[f"{row},{col}"]
            assert 'class="cell cell-biome is-shaded"' in markup
            assert f'<use href="#tile-shade" x="{col * 40}" y="{row * 40}"/>' in markup
            assert "in shadow" in markup

    def test_a_players_name_is_escaped(self):
        html = str(svg.planet_svg(picture(name='<b>"Eve" & co</b>')))
        assert "&lt;b&gt;&quot;Eve&quot; &amp; co&lt;/b&gt;'s planet" in html
        assert "<b>" not in html

    def test_clickable_spaces_are_buttons_named_by_their_effect(self):
        planet = picture({(1, 1): SPROUT}, targets={(1, 1): "grow", (0, 2): "plant"})
        html = str(svg.space_buttons(planet))
        assert html.count('class="space-button ') == 2
        assert 'value="1,1" id="sp-1-1"' in html
        assert 'aria-label="Grow at row 1, column 1 (Snow, Sprout)"' in html
        assert 'title="Plant a Sprout at row 0, column 2 (Snow, empty)"' in html
        assert 'class="space-button row-0 col-2"' in html and "style=" not in html
        assert 'class="cell cell-biome is-target"' in str(svg.planet_svg(planet))

    def test_board_css_puts_each_button_over_its_space(self):
        """The buttons carry no style attribute (the CSP refuses them): board.css places
        each row and column where the picture draws it."""
        css = (Path(__file__).resolve().parents[2] / "static/css/board.css").read_text()
        for k in range(7):
            at = f"{100 * (svg.MARGIN + k * svg.CELL) / svg.PICTURE:.4f}%"
            assert f".space-button.row-{k} {{ top: {at}; }}" in css
            assert f".space-button.col-{k} {{ left: {at}; }}" in css

    def test_the_pieces_are_listed_in_words(self):
        assert str(svg.piece_items(picture())) == "<li>No pieces yet.</li>"
        items = str(svg.piece_items(picture({(1, 1): SPROUT, (4, 4): BIG})))
        assert items.count("<li>") == 2
        assert "<li>Row 1, column 1: Snow, Sprout</li>" in items
        assert picture({(1, 1): SPROUT}).pieces_summary == "1 piece on this planet"

    def test_a_space_drawn_again_comes_from_memory_and_is_the_same(self):
        planet = picture({(2, 2): BIG})
        first = str(svg.planet_svg(planet))
        assert planet.cells[2 * 7 + 2] in pagewords.words().drawn
        assert str(svg.planet_svg(planet)) == first

    def test_each_language_has_its_own_words(self):
        english = pagewords.words()
        with translation.override("de"):
            assert pagewords.words() is not english
        assert pagewords.words() is english


class TestCardsTracksStacksScores:
    def test_a_card_face_shows_suit_power_and_icon_in_words(self):
        face = str(presenters.card_info(EDITION, "snow/bush").face)
        assert face.startswith('<span class="card-face suit-snow"><svg class="swatch"')
        assert (
            '<span class="card-suit">Snow</span> <span class="card-power" title="Place a Bush on '
            'an empty space: it collects no Light but joins Forests.">Plant Bush</span>' in face
        )

    def test_the_track_row_marks_the_markers_space(self):
        tracks = presenters.power_tracks(
            EDITION, {"card": "snow/bush", "powers": dict.fromkeys(rules.POWERS, 1)}
        )
        bush = next(t for t in tracks if t.power == "bush")
        row = str(bush.row)
        assert row.startswith(
            '<tr class="is-on-card"><th scope="row" title="Place a Bush on an empty space: '
            'it collects no Light but joins Forests.">Plant Bush</th>'
        )
        assert '<span class="visually-hidden">start</span>' in row
        assert row.count('aria-current="step"') == 1
        assert "this round: up to" in row

    def test_score_rows_escape_names_and_mark_the_viewer(self, two_player_game, alice):
        Player.objects.filter(user=alice).update(display_name="<Al & ice>")
        html = client_for(alice).get(reverse("games:detail", args=[two_player_game.pk]))
        html = html.content.decode()
        assert (
            '<tr class="is-viewer"><th scope="row">&lt;Al &amp; ice&gt; <small>(you)</small>'
            in html
        )
        assert "<Al & ice>" not in html


class TestTheGamePage:
    def page(self, user: Any, game: Game) -> str:
        return client_for(user).get(reverse("games:detail", args=[game.pk])).content.decode()

    def test_every_shape_the_planets_use_is_defined_once_on_the_page(self, two_player_game, alice):
        game = play_until(two_player_game, lambda s: s.season == 2)
        html = self.page(alice, game)
        used = set(re.findall(r'href="#([\w-]+)"', html))
        assert {"tile-crevice", "sun-now", "sun-next"} <= used
        for shape in used:
            assert html.count(f'id="{shape}"') == 1, shape

    def test_the_page_renders_few_template_nodes(self, two_player_game, alice, monkeypatch):
        # Drawn with template loops, the planets alone took thousands of nodes a page.
        client = client_for(alice)
        url = reverse("games:detail", args=[two_player_game.pk])
        client.get(url)
        rendered = 0
        render = template_base.Node.render_annotated

        def counting(node: Any, context: Any) -> Any:
            nonlocal rendered
            rendered += 1
            return render(node, context)

        monkeypatch.setattr(template_base.Node, "render_annotated", counting)
        assert client.get(url).status_code == 200
        # 187 when written; 361 with the chat panel, the game log, the hint box and the
        # invitation: still far from the thousands of nodes a templated planet costs.
        assert rendered < 450, rendered
