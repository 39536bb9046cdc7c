"""Verdant's replay: the "current move" line says what the player took, in words."""

from __future__ import annotations

import html as html_lib
import re

from django.urls import reverse

from games.verdant import rules

from .verdant_site_helpers import client_for, play_moves


def test_the_current_move_says_what_was_taken(verdant_game, alice):
    game = play_moves(verdant_game, lambda s: s.phase is rules.Phase.PLAY and s.round == 2)
    number = game.moves.count()
    page = client_for(alice).get(reverse("games:replay", args=[game.pk]) + f"?move={number}")
    found = re.search(r'<p class="replay-move">(.*?)</p>', page.content.decode(), re.S)
    assert found
    line = html_lib.unescape(found.group(1)).strip()
    assert re.match(r"(Alice|Bob) (took .+ and (a|an) .+|cleared \d+ market tokens?.+)\.$", line)
    assert "played a turn" not in line
