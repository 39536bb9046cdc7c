"""Verdant's game log, replay jumps and end of game on the site."""

from __future__ import annotations

import html as html_lib
import re
from typing import Any

from django.urls import reverse

from games import services
from games.models import Game
from games.rematches.models import Rematch
from games.verdant import rules

from .verdant_site_helpers import client_for, play_moves, user_at


def log_text(user: Any, game: Game, language: str = "en") -> str:
    page = (
        client_for(user)
        .get(reverse("games:detail", args=[game.pk]), HTTP_ACCEPT_LANGUAGE=language)
        .content.decode()
    )
    found = re.search(r'<section class="panel story".*?</section>', page, re.S)
    assert found, "the page has no game log"
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", found.group(0))).split())


def test_a_start_placement_is_told_to_others_only_once_everyone_chose(verdant_game, bob):
    services.submit_move(verdant_game.pk, user_at(verdant_game, 0), rules.Start(0, "left"))
    assert (
        "Alice chose where"
        not in client_for(bob).get(reverse("games:detail", args=[verdant_game.pk])).content.decode()
    )
    services.submit_move(verdant_game.pk, bob, rules.Start(1, "right"))
    text = log_text(bob, verdant_game)
    assert "Starting plants" in text
    assert "Alice chose where their starting plant grows." in text


def test_each_round_tells_what_every_player_took(verdant_game, alice):
    game = play_moves(verdant_game, lambda s: s.phase is rules.Phase.PLAY and s.round == 3)
    text = log_text(alice, game)
    assert "Round 2" in text and "Round 1" in text
    assert len(re.findall(r"(Alice|Bob) took .+? and (a|an) ", text)) >= 4
    assert "Раунд 1" in log_text(None, game, "ru")


def test_the_end_of_a_verdant_game_ranks_charts_and_offers_a_rematch(verdant_game, alice, bob):
    game = play_moves(verdant_game)
    assert game.status == Game.Status.FINISHED
    page = client_for(alice).get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "The end of the game" in page and "Game over. Final scores:" in page
    assert page.count('<polyline class="series series-') == 2
    replay = client_for(alice).get(reverse("games:replay", args=[game.pk])).content.decode()
    assert f'href="?move={game.moves.count()}"' in replay.split('class="replay-jumps"')[1]
    assert "End of the game" in replay
    client_for(alice).post(reverse("games:rematch", args=[game.pk]))
    client_for(bob).post(reverse("games:rematch", args=[game.pk]))
    new = Rematch.objects.get(game=game).new_game
    assert new is not None and new.kind == "verdant" and new.options == game.options
