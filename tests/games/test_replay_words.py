"""The replay's "current move" line says what the player did, in the log's words, and
nothing that is not revealed yet; the log draws the small card where a card is named."""

from __future__ import annotations

import html as html_lib
import re
from typing import Any

from django.urls import reverse

from games import services
from games.evergreen import rules
from games.evergreen.recap import card_name
from games.evergreen.rules.bots import RandomBot
from games.models import Game
from tests.games.gamehelpers import client_for, play_until, user_at


def current_move(user: Any, game: Game, number: int, language: str = "en") -> str:
    page = (
        client_for(user)
        .get(
            reverse("games:replay", args=[game.pk]) + f"?move={number}",
            HTTP_ACCEPT_LANGUAGE=language,
        )
        .content.decode()
    )
    found = re.search(r'<p class="replay-move">(.*?)</p>', page, re.S)
    assert found
    return html_lib.unescape(found.group(1)).strip()


def first_round(game: Game) -> tuple[dict[int, str], dict[int, int]]:
    """The cards picked in the first round (seat -> card) and each turn's move number."""
    picks: dict[int, str] = {}
    turns: dict[int, int] = {}
    for number, move in enumerate(game.record().moves[:4], start=1):
        if isinstance(move, rules.Pick):
            picks[move.seat] = move.card
        else:
            turns[move.seat] = number
    return picks, turns


class TestTheCurrentMoveLine:
    def test_a_revealed_turn_says_what_its_player_did(self, two_player_game, carol):
        game = play_until(two_player_game, lambda s: (s.season, s.round) == (1, 2))
        edition = rules.load_edition(rules.DEFAULT_EDITION)
        picks, turns = first_round(game)
        for seat, number in turns.items():
            line = current_move(carol, game, number)
            name = ("Alice", "Bob")[seat]
            assert line.startswith(f"{name} took {card_name(edition, picks[seat])}; Action ")
            assert "played a turn" not in line

    def test_it_speaks_the_readers_language(self, two_player_game):
        game = play_until(two_player_game, lambda s: (s.season, s.round) == (1, 2))
        _picks, turns = first_round(game)
        line = current_move(None, game, turns[0], language="de")
        assert "Aktion" in line and "Action" not in line

    def test_a_turn_not_revealed_yet_says_only_that_it_was_played(self, two_player_game, carol):
        game = play_until(two_player_game, lambda s: s.phase is rules.Phase.ACTION)
        state = game.engine_state()
        seat = state.awaiting[0]
        services.submit_move(game.pk, user_at(game, seat), RandomBot(0).choose(state, seat))
        game.refresh_from_db()
        number = game.moves.count()
        name = ("Alice", "Bob")[seat]
        assert current_move(carol, game, number) == f"{name} played a turn."

    def test_the_last_round_of_a_finished_game_is_told(self, two_player_game, alice):
        game = play_until(two_player_game, lambda s: s.is_over, limit=1000)
        assert game.status == Game.Status.FINISHED
        line = current_move(alice, game, game.moves.count())
        assert " took " in line and "; Action " in line


class TestCardsInTheLog:
    def test_a_revealed_turn_shows_its_card_drawn_small(self, two_player_game, alice):
        game = play_until(two_player_game, lambda s: (s.season, s.round) == (1, 2))
        page = client_for(alice).get(reverse("games:detail", args=[game.pk])).content.decode()
        log = re.search(r'<section class="panel story".*?</section>', page, re.S)
        assert log
        thumbs = re.findall(
            r'<span class="card-thumb suit-(\w+)" aria-hidden="true"><svg', log.group(0)
        )
        edition = rules.load_edition(rules.DEFAULT_EDITION)
        picks, _turns = first_round(game)
        assert {edition.cards[card].suit for card in picks.values()} <= set(thumbs)
