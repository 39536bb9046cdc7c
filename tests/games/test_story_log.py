"""The game log on the game page and the replay: what each player did, once revealed."""

from __future__ import annotations

import html as html_lib
import re
from typing import Any

from django.urls import reverse
from django.utils import translation

from games import services
from games.evergreen import rules
from games.evergreen.recap import card_name
from games.models import Game
from tests.games.gamehelpers import client_for, play_until, user_at


def log_of(user: Any, game: Game, *, language: str = "en", replay: str | None = None) -> str:
    """The text of the game log section of the page (or of the replay at ``?move=``)."""
    if replay is None:
        url = reverse("games:detail", args=[game.pk])
    else:
        url = reverse("games:replay", args=[game.pk]) + replay
    page = client_for(user).get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    found = re.search(r'<section class="panel story".*?</section>', page, re.S)
    assert found, "the page has no game log"
    return html_lib.unescape(re.sub(r"<[^>]+>", " ", found.group(0)))


def words(text: str) -> str:
    return " ".join(text.split())


def turns_of_round(game: Game, season: int, round_: int) -> list[rules.Turn]:
    """The turns played in ``season``/``round_``, read from the record."""
    found = []
    for state, move in zip(game.record().states(), game.record().moves, strict=False):
        if isinstance(move, rules.Turn) and (state.season, state.round) == (season, round_):
            found.append(move)
    return found


class TestTheLogOfARevealedRound:
    def test_it_tells_each_players_card_action_and_power(self, two_player_game, alice):
        game = play_until(two_player_game, lambda s: (s.season, s.round) == (1, 2))
        text = words(log_of(alice, game))
        edition = rules.load_edition(rules.DEFAULT_EDITION)
        first_round = game.record().moves[:4]  # two picks and two turns
        picks = {m.seat: m.card for m in first_round if isinstance(m, rules.Pick)}
        turns = turns_of_round(game, 1, 1)
        assert len(turns) == 2
        for turn in turns:
            name = ("Alice", "Bob")[turn.seat]
            told = f"{name} took {card_name(edition, picks[turn.seat])}; Action {turn.action}:"
            assert told in text
        assert "Round 1 of Spring revealed. Bud points: Alice" in text
        assert "planned their turn" not in text

    def test_a_card_nobody_took_is_followed_to_the_zone_or_the_discard(
        self, two_player_game, alice
    ):
        game = play_until(two_player_game, lambda s: (s.season, s.round) == (1, 3))
        text = words(log_of(alice, game))
        # the four places a leftover card can go (an Aridity card may find nothing to flip)
        went = r"(it went to the|it joined the|it was discarded|its Aridity)"
        assert re.search(r"Nobody took .+?: " + went, text)

    def test_a_scored_season_gives_each_players_light_forest_and_bud(self, two_player_game, bob):
        game = play_until(two_player_game, lambda s: s.season == 2)
        state = game.engine_state()
        text = words(log_of(bob, game))
        assert "Spring scored:" in text
        for seat, name in enumerate(("Alice", "Bob")):
            row = state.seats[seat].seasons[0]
            assert f"{name}: Light {row.light}, Forest {row.forest}, Bud {row.bud}" in text

    def test_the_newest_round_comes_first_and_is_open(self, two_player_game, alice):
        game = play_until(two_player_game, lambda s: (s.season, s.round) == (1, 3))
        page = client_for(alice).get(reverse("games:detail", args=[game.pk])).content.decode()
        titles = re.findall(r'<details class="story-round"( open)?>\s*<summary>([^<]+)', page)
        assert [t[1] for t in titles] == ["Spring, round 3", "Spring, round 2", "Spring, round 1"]
        assert titles[0][0] == " open" and not titles[1][0]

    def test_every_line_has_a_drawn_icon(self, two_player_game, alice):
        game = play_until(two_player_game, lambda s: (s.season, s.round) == (1, 2))
        page = client_for(alice).get(reverse("games:detail", args=[game.pk])).content.decode()
        lines = re.findall(r'<li class="story-line story-(\w+)"><svg class="story-icon"', page)
        assert lines and set(lines) <= {"pick", "turn", "spare", "aridity", "round"}
        for icon in set(lines):
            assert f'<symbol id="icon-{icon}"' in page


class TestWhatTheLogKeepsSecret:
    def test_a_turn_not_yet_revealed_is_only_said_to_be_planned(self, two_player_game, bob):
        game = play_until(two_player_game, lambda s: s.phase is rules.Phase.ACTION)
        state = game.engine_state()
        alice = user_at(game, 0)
        services.submit_move(game.pk, alice, rules.Turn(0, "D"))
        for viewer in (bob, None):
            text = words(log_of(viewer, game))
            assert "Alice planned their turn." in text
            assert "Action D" not in text
        assert state.phase is rules.Phase.ACTION

    def test_the_deck_is_never_named(self, two_player_game, alice):
        game = play_until(two_player_game, lambda s: (s.season, s.round) == (1, 2))
        state = game.engine_state()
        edition = rules.load_edition(state.edition)
        seen = set(game.record().start().pool)
        for move in game.record().moves:
            if isinstance(move, rules.Pick):
                seen.add(move.card)
        seen.update(state.pool, state.discard, state.ai_cards)
        seen.update(c for stack in state.fertility_zone for c, _up in stack)
        text = words(log_of(alice, game))
        for card in set(state.deck) - seen:
            assert card_name(edition, card) not in text


class TestTheLogInOtherLanguages:
    def test_german_russian_and_french_logs(self, two_player_game):
        game = play_until(two_player_game, lambda s: (s.season, s.round) == (1, 2))
        german = words(log_of(None, game, language="de"))
        assert "Spielverlauf" in german and "Frühling, Runde 1" in german
        assert re.search(r"Alice nahm .+?; Aktion [ABCD]:", german)
        assert "Printemps, manche 1" in log_of(None, game, language="fr")
        assert "Весна, раунд 1" in log_of(None, game, language="ru")

    def test_a_card_named_in_one_language_is_named_anew_in_another(self):
        edition = rules.load_edition()
        card = next(c for c, info in edition.cards.items() if info.suit == "grassland")
        with translation.override("en"):
            english = card_name(edition, card)
        with translation.override("de"):
            german = card_name(edition, card)
        with translation.override("en"):
            assert card_name(edition, card) == english
        assert english.startswith("Grassland · ") and german.startswith("Wiese · ")


class TestTheLogOnTheReplay:
    def test_it_shows_only_the_rounds_ended_by_the_move_shown(self, two_player_game, alice):
        game = play_until(two_player_game, lambda s: (s.season, s.round) == (1, 3))
        text = log_of(alice, game, replay="?move=4")
        assert "Spring, round 1" in text and "Spring, round 2" not in text
        assert (
            'href="?move=4"'
            not in client_for(alice)
            .get(reverse("games:replay", args=[game.pk]) + "?move=4")
            .content.decode()
            .split('class="panel story"')[1]
        )

    def test_it_jumps_to_the_end_of_each_scored_season(self, two_player_game, alice):
        game = play_until(two_player_game, lambda s: s.season == 3)
        states = list(game.record().states())
        ends = [k for k in range(1, len(states)) if states[k].season > states[k - 1].season]
        page = (
            client_for(alice)
            .get(reverse("games:replay", args=[game.pk]) + "?move=0")
            .content.decode()
        )
        nav = page.split('<nav class="replay-jumps"')[1].split("</nav>")[0]
        jumps = re.findall(r'href="\?move=(\d+)"[^>]*>.*?<span>([^<]+)', nav)
        assert jumps == [(str(ends[0]), "End of Spring"), (str(ends[1]), "End of Summer")]

    def test_its_buttons_are_drawn_icons_not_font_glyphs(self, two_player_game):
        game = play_until(two_player_game, lambda s: (s.season, s.round) == (1, 2))
        page = client_for(None).get(reverse("games:replay", args=[game.pk])).content.decode()
        nav = page.split("data-replay-nav>")[1].split("</nav>")[0]
        for glyph in "⏮◀▶⏭":
            assert glyph not in nav
        for icon in ("first", "previous", "next", "last"):
            assert f'<use href="#icon-{icon}"/>' in nav
            assert f'<symbol id="icon-{icon}"' in page
        assert 'data-key="ArrowLeft"' in nav and 'data-key="ArrowRight"' in nav
