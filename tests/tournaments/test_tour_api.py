"""The clubs and events API: reads, register / withdraw, errors, and the published schema."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import URLPattern, reverse

from tests.games.apihelpers import ResponseSchema
from tests.games.gamehelpers import api_client_for, make_user
from tests.tournaments.tourpageshelpers import club_of, end_round, event_of, started
from tournaments import api_urls, results, services
from tournaments.models import Registration, Table

pytestmark = pytest.mark.django_db


def url(name: str, *args: Any) -> str:
    return reverse(f"tournaments_api:{name}", args=args)


@pytest.fixture(scope="module")
def schema(django_db_blocker: Any) -> ResponseSchema:
    with django_db_blocker.unblock():
        return ResponseSchema()


def checked(schema: ResponseSchema, route: str, method: str, response: Any) -> Any:
    """The response's body, after validating it against the schema for its status."""
    body = response.json()
    schema.check(route, method, response.status_code, body)
    return body


class TestSchema:
    def test_every_route_and_method_is_documented_with_its_refusals(self, schema):
        paths = schema.document["paths"]
        for pattern in api_urls.urlpatterns:
            assert isinstance(pattern, URLPattern)
            route = "/api/" + str(pattern.pattern).replace("<int:pk>", "{id}")
            route = route.replace("<slug:slug>", "{slug}").replace("<int:number>", "{number}")
            assert route in paths, route
            methods = {m.lower() for m in pattern.callback.cls.http_method_names} - {"options"}
            assert set(paths[route]) == methods & {"get", "post"}, route
            for method, operation in paths[route].items():
                assert "401" in operation["responses"]
                assert method == "get" or "400" in operation["responses"]
                assert {"tokenAuth": []} in operation["security"]


class TestReads:
    def test_clubs_list_and_detail(self, schema, oak, alice, bob):
        club_of(bob, "Pine", invite_only=True)
        client = api_client_for(bob)
        body = checked(schema, "/api/clubs/", "get", client.get(url("clubs")))
        assert [c["slug"] for c in body["results"]] == ["oak", "pine"]
        assert body["results"][0]["members"] == 3
        mine = client.get(url("clubs"), {"mine": "true"}).json()
        assert mine["count"] == 2
        only_carol = api_client_for(make_user("dora")).get(url("clubs"), {"mine": "1"}).json()
        assert only_carol["count"] == 0
        event = event_of(oak, alice, alice)
        detail = checked(schema, "/api/clubs/{slug}/", "get", client.get(url("club", "oak")))
        assert detail["my_role"] == "member"
        assert [m["name"] for m in detail["members_list"]] == ["Alice", "Bob", "Carol"]
        assert detail["members_list"][0]["role"] == "organizer"
        assert detail["members_list"][1]["rating_url"].endswith(
            reverse("api:rating", args=[bob.pk])
        )
        assert [e["id"] for e in detail["events"]] == [event.pk]
        missing = client.get(url("club", "nope"))
        assert missing.status_code == 404
        assert checked(schema, "/api/clubs/{slug}/", "get", missing)["code"] == "not_found"

    def test_events_are_filtered_and_drafts_are_the_organizers(self, schema, oak, alice, bob):
        draft = services.create_event(oak, alice, name="Draft Cup", rounds=1)
        open_ = event_of(oak, alice, bob, name="Open Swiss")
        member, organizer = api_client_for(bob), api_client_for(alice)
        body = checked(schema, "/api/events/", "get", member.get(url("events")))
        assert [e["id"] for e in body["results"]] == [open_.pk]
        assert {e["id"] for e in organizer.get(url("events")).json()["results"]} == {
            draft.pk,
            open_.pk,
        }
        assert member.get(url("event", draft.pk)).status_code == 404
        assert organizer.get(url("event", draft.pk)).status_code == 200
        filtered = member.get(url("events"), {"status": "running", "club": "oak"}).json()
        assert filtered["count"] == 0
        bad = member.get(url("events"), {"status": "sleeping"})
        assert bad.status_code == 400
        assert checked(schema, "/api/events/", "get", bad)["code"] == "bad_status"

    def test_an_event_with_my_registration(self, schema, oak, alice, bob):
        event = event_of(oak, alice, bob, timeout_policy="last")
        body = checked(
            schema, "/api/events/{id}/", "get", api_client_for(bob).get(url("event", event.pk))
        )
        assert body["registration_open"] is True
        assert body["my_registration"]["status"] == "active"
        assert body["timeout_policy"] == "last"
        assert "ranks last" in body["timeout_policy_text"]
        assert body["tiebreaks"] == ["opponents", "score", "head_to_head"]
        other = api_client_for(alice).get(url("event", event.pk)).json()
        assert other["my_registration"] is None

    def test_standings_rounds_and_tables(self, schema, oak, alice, bob, carol):
        event = started(event_of(oak, alice, alice, bob, carol), alice)
        end_round(event, alice, play=True)
        client = api_client_for(carol)
        body = checked(
            schema,
            "/api/events/{id}/standings/",
            "get",
            client.get(url("standings", event.pk)),
        )
        expected = results.event_standings(event)
        rows = body["groups"][0]["rows"]
        assert [(r["user_id"], r["rank"], r["points"]) for r in rows] == [
            (row.player, row.rank, row.points) for row in expected
        ]
        assert [r["seats"] for r in rows] == [list(row.seats) for row in expected]
        rounds = checked(
            schema, "/api/events/{id}/rounds/", "get", client.get(url("rounds", event.pk))
        )
        table = Table.objects.get()
        assert rounds[0]["tables"][0]["game"] == table.game_id
        assert rounds[0]["tables"][0]["status"] == "finished"
        assert rounds[0]["tables"][0]["adjudicated"] is True
        assert [s["position"] for s in rounds[0]["tables"][0]["seats"]] == [0, 1]
        assert len(rounds[0]["byes"]) == 1
        one = checked(
            schema,
            "/api/events/{id}/rounds/{number}/",
            "get",
            client.get(url("round", event.pk, 1)),
        )
        assert one == rounds[0]
        missing = client.get(url("round", event.pk, 9))
        assert missing.status_code == 404
        checked(schema, "/api/events/{id}/rounds/{number}/", "get", missing)


class TestRegistering:
    def test_register_then_withdraw(self, schema, oak, alice, bob):
        event = event_of(oak, alice)
        client = api_client_for(bob)
        body = checked(
            schema, "/api/events/{id}/register/", "post", client.post(url("register", event.pk))
        )
        assert body["status"] == "active"
        again = client.post(url("register", event.pk))
        assert again.status_code == 409
        assert checked(schema, "/api/events/{id}/register/", "post", again)["code"] == (
            "already_registered"
        )
        body = checked(
            schema, "/api/events/{id}/withdraw/", "post", client.post(url("withdraw", event.pk))
        )
        assert body["status"] == "withdrawn" and body["withdrawn_at"]
        twice = client.post(url("withdraw", event.pk))
        assert twice.status_code == 409
        assert checked(schema, "/api/events/{id}/withdraw/", "post", twice)["code"] == (
            "not_registered"
        )

    def test_a_public_clubs_event_makes_an_outsider_a_member(self, oak, alice):
        event = event_of(oak, alice)
        dora = make_user("dora")
        assert api_client_for(dora).post(url("register", event.pk)).status_code == 200
        assert oak.is_member(dora)

    def test_an_invite_only_clubs_event_refuses_outsiders(self, schema, alice, carol):
        club = club_of(alice, "Pine", invite_only=True)
        event = event_of(club, alice)
        response = api_client_for(carol).post(url("register", event.pk))
        assert response.status_code == 403
        assert checked(schema, "/api/events/{id}/register/", "post", response)["code"] == (
            "not_member"
        )
        assert not Registration.objects.exists()

    def test_registration_closed(self, schema, oak, alice, bob, carol):
        event = started(event_of(oak, alice, alice, bob), alice)
        response = api_client_for(carol).post(url("register", event.pk))
        assert response.status_code == 409
        assert checked(schema, "/api/events/{id}/register/", "post", response)["code"] == (
            "registration_closed"
        )

    def test_withdrawing_from_a_running_event_hands_the_seats_to_the_bot(self, oak, alice, bob):
        event = started(event_of(oak, alice, alice, bob), alice)
        assert api_client_for(bob).post(url("withdraw", event.pk)).status_code == 200
        seat = Table.objects.get().game.seats.get(user=bob)
        assert seat.bot == "strong"  # the game's default computer player

    def test_a_draft_or_unknown_event_is_404(self, schema, oak, alice, bob):
        draft = services.create_event(oak, alice, name="Draft", rounds=1)
        for pk in (draft.pk, 987654):
            response = api_client_for(bob).post(url("register", pk))
            assert response.status_code == 404
            checked(schema, "/api/events/{id}/register/", "post", response)


class TestAuthentication:
    def test_every_endpoint_wants_credentials(self, schema, oak, alice):
        event = event_of(oak, alice, alice)
        anonymous = api_client_for(None)
        reads = [
            ("/api/clubs/", url("clubs")),
            ("/api/clubs/{slug}/", url("club", "oak")),
            ("/api/events/", url("events")),
            ("/api/events/{id}/", url("event", event.pk)),
            ("/api/events/{id}/standings/", url("standings", event.pk)),
            ("/api/events/{id}/rounds/", url("rounds", event.pk)),
            ("/api/events/{id}/rounds/{number}/", url("round", event.pk, 1)),
        ]
        for route, path in reads:
            response = anonymous.get(path)
            assert response.status_code == 401, route
            checked(schema, route, "get", response)
        for route, path in (
            ("/api/events/{id}/register/", url("register", event.pk)),
            ("/api/events/{id}/withdraw/", url("withdraw", event.pk)),
        ):
            response = anonymous.post(path)
            assert response.status_code == 401
            checked(schema, route, "post", response)
        bad_token = api_client_for(None)
        bad_token.credentials(HTTP_AUTHORIZATION="Token nope")
        assert bad_token.get(url("clubs")).status_code == 401
