"""The admin lists, filters, searches and shows Verdant games."""

from __future__ import annotations

from games import services
from tests.verdant.site.verdant_site_helpers import client_for, make_user


def test_the_admin_filters_and_searches_verdant_games(verdant_game, alice):
    services.create_game(alice, kind="evergreen", players=2)
    staff = make_user("staff")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    client = client_for(staff)
    listed = client.get("/admin/games/game/", {"kind__exact": "verdant"})
    assert listed.status_code == 200
    assert [g.pk for g in listed.context["cl"].result_list] == [verdant_game.pk]
    searched = client.get("/admin/games/game/", {"q": "verdant"})
    assert [g.pk for g in searched.context["cl"].result_list] == [verdant_game.pk]
    page = client.get(f"/admin/games/game/{verdant_game.pk}/change/")
    assert page.status_code == 200 and "verdant" in page.content.decode()
