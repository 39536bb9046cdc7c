"""The demo data has a Verdant game on the demo user's turn and a finished one."""

from __future__ import annotations

from io import StringIO

from django.contrib.auth import get_user_model
from django.core.management import call_command

from games.models import Game
from tests.verdant.site.verdant_site_helpers import client_for


def test_the_demo_user_has_a_verdant_game_to_play_and_a_finished_one(db):
    call_command("demo_data", "--bot=random", stdout=StringIO())
    demo = get_user_model().objects.get(email="demo@example.org")
    games = Game.objects.filter(kind="verdant", seats__user=demo)
    playing = [g for g in games if g.status == Game.Status.ACTIVE]
    finished = [g for g in games if g.status == Game.Status.FINISHED]
    assert len(playing) == 1 and len(finished) == 1
    state = playing[0].engine_state()
    mine = playing[0].seats.get(user=demo).position
    assert state.awaiting == (mine,) and state.round >= 6 and len(state.goals) == 3
    assert finished[0].engine_state().outcome is not None
    page = client_for(demo).get(f"/games/{playing[0].pk}/").content.decode()
    assert "turn-builder" in page
