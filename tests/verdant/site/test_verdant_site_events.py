"""Events choose their game: a Swiss of Verdant seats tables of up to 5 and plays out."""

from __future__ import annotations

import pytest

from games import services as games
from games.models import Game, Seat
from tests.verdant.site.verdant_site_helpers import client_for, make_user
from tournaments import services
from tournaments.models import Event, Table


def verdant_event(organizer, players, **fields):
    club = services.create_club(organizer, "Fern Club")
    event = services.create_event(
        club, organizer, name="Verdant Open", game="verdant", rounds=2, **fields
    )
    services.open_registration(event, organizer)
    for player in players:
        services.register(event, player)
    event.refresh_from_db()
    return event


def test_a_verdant_swiss_seats_five_at_a_table_and_plays_to_the_end(db):
    organizer = make_user("olive")
    players = [make_user(f"fern{i}") for i in range(5)]
    event = verdant_event(organizer, players, table_size=5, min_table_size=2)
    services.start_event(event, organizer)
    for _round in range(2):
        event.refresh_from_db()
        tables = list(Table.objects.filter(round__event=event, round__number=event.current_round))
        assert [t.game.kind for t in tables] == ["verdant"]
        assert tables[0].game.players == 5
        for seat in Seat.objects.filter(game=tables[0].game, bot="").order_by("position"):
            games.hand_seat_to_bot(tables[0].game_id, seat.position, bot="random")
        assert Game.objects.get(pk=tables[0].game_id).status == Game.Status.FINISHED
        services.advance(event.pk)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    page = client_for(players[0]).get(f"/clubs/{event.club.slug}/events/{event.slug}/")
    assert page.status_code == 200 and "Verdant" in page.content.decode()


def test_an_evergreen_event_refuses_tables_of_five(db):
    organizer = make_user("olive")
    club = services.create_club(organizer, "Oak Club")
    with pytest.raises(games.ServiceError) as refused:
        services.create_event(club, organizer, name="Big tables", table_size=5, rounds=1)
    assert refused.value.code == "bad_table_size"
    assert "Evergreen" in refused.value.message and not Event.objects.exists()


def test_an_unknown_game_is_refused(db):
    organizer = make_user("olive")
    club = services.create_club(organizer, "Oak Club")
    with pytest.raises(games.ServiceError) as refused:
        services.create_event(club, organizer, name="Chess", game="chess", rounds=1)
    assert refused.value.code == "bad_game"
