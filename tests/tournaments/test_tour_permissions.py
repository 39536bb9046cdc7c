"""Who may see and do what: an organizer runs only their own clubs' events, a member
organizes nothing, and every page and endpoint answers each kind of visitor rightly."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games.models import Seat
from tests.games.gamehelpers import api_client_for, client_for, make_user
from tests.tournaments.tourpageshelpers import club_of, event_of, started
from tournaments import services
from tournaments.models import (
    Event,
    JoinRequest,
    Membership,
    Registration,
    Round,
    Table,
    TimeoutDecision,
)

pytestmark = pytest.mark.django_db


def admin_url(model: str, action: str = "changelist", *args: Any) -> str:
    return reverse(f"admin:tournaments_{model}_{action}", args=args)


def act(client: Any, model: str, action: str, *objects: Any) -> Any:
    return client.post(
        admin_url(model),
        {"action": action, "_selected_action": [str(o.pk) for o in objects], "post": "yes"},
    )


class World:
    """Alice organizes Oak (Bob a member), Carol organizes Pine (Dora a member); each club
    runs an event with a seated table and a timeout decision, and has a join request."""

    def __init__(self, alice: Any, bob: Any, carol: Any) -> None:
        self.alice, self.bob, self.carol = alice, bob, carol
        self.dora, self.erin = make_user("dora"), make_user("erin")
        self.oak = club_of(alice, "Oak", bob, invite_only=True)
        self.pine = club_of(carol, "Pine", self.dora, invite_only=True)
        self.oak_event = started(event_of(self.oak, alice, alice, bob, name="Oak Open"), alice)
        self.pine_event = started(
            event_of(self.pine, carol, carol, self.dora, name="Pine Open", timeout_policy="last"),
            carol,
        )
        self.pine_table = Table.objects.get(round__event=self.pine_event)
        late = Seat.objects.get(game=self.pine_table.game, user=carol)
        Seat.objects.filter(pk=late.pk).update(timeouts_in_row=1)
        services.apply_timeout_policy(self.pine_table.game_id, late.position)
        self.pine_decision = TimeoutDecision.objects.get()
        self.pine_request = services.request_to_join(self.pine, self.erin)
        self.pine_draft = services.create_event(self.pine, carol, name="Pine Draft", rounds=1)


@pytest.fixture
def world(alice, bob, carol) -> World:
    return World(alice, bob, carol)


class TestAnOrganizerOfAnotherClub:
    """Alice (Oak) against Pine's data in the admin."""

    def test_changelists_show_only_their_clubs_rows(self, world):
        client = client_for(world.alice)
        pages = {
            "club": ("Oak", "Pine"),
            "event": ("Oak Open", "Pine Open"),
            "membership": ("bob", "dora"),
            "registration": ("Oak Open", "Pine Open"),
        }
        for model, (mine, theirs) in pages.items():
            result = client.get(admin_url(model)).context["cl"].result_list
            shown = " ".join(str(row) for row in result)
            assert mine in shown and theirs not in shown, model
        assert list(client.get(admin_url("table")).context["cl"].result_list) == list(
            Table.objects.filter(round__event=world.oak_event)
        )
        assert not client.get(admin_url("timeoutdecision")).context["cl"].result_list
        assert not client.get(admin_url("joinrequest")).context["cl"].result_list
        rounds = client.get(admin_url("round")).context["cl"].result_list
        assert {r.event_id for r in rounds} == {world.oak_event.pk}

    def test_the_filters_do_not_name_other_clubs(self, world):
        html = client_for(world.alice).get(admin_url("event")).content.decode()
        assert "Pine" not in html

    def test_change_pages_of_other_clubs_are_not_found(self, world):
        client = client_for(world.alice)
        for model, obj in (
            ("club", world.pine),
            ("event", world.pine_event),
            ("event", world.pine_draft),
            ("table", world.pine_table),
            ("round", Round.objects.get(event=world.pine_event)),
            ("registration", Registration.objects.filter(event=world.pine_event).first()),
            ("timeoutdecision", world.pine_decision),
            ("joinrequest", world.pine_request),
            ("membership", Membership.objects.get(user=world.dora)),
        ):
            response = client.get(admin_url(model, "change", obj.pk))
            # The admin answers "no such object" with a redirect to its index.
            assert response.status_code == 302, model
            assert response["Location"] == reverse("admin:index"), model
            assert str(obj) not in client.get(reverse("admin:index")).content.decode()

    def test_posting_a_change_to_another_clubs_event_changes_nothing(self, world):
        response = client_for(world.alice).post(
            admin_url("event", "change", world.pine_draft.pk), {"name": "Hijacked"}
        )
        assert response.status_code == 302
        world.pine_draft.refresh_from_db()
        assert world.pine_draft.name == "Pine Draft"

    def test_actions_never_reach_other_clubs(self, world):
        client = client_for(world.alice)
        act(client, "event", "close_events", world.pine_event)
        act(client, "event", "open_registration", world.pine_draft)
        act(client, "table", "adjudicate", world.pine_table)
        act(
            client,
            "registration",
            "withdraw_and_replace",
            *Registration.objects.filter(event=world.pine_event),
        )
        act(client, "timeoutdecision", "rank_normally", world.pine_decision)
        act(client, "joinrequest", "accept_requests", world.pine_request)
        act(client, "membership", "remove_members", Membership.objects.get(user=world.dora))
        world.pine_event.refresh_from_db()
        world.pine_draft.refresh_from_db()
        world.pine_table.refresh_from_db()
        world.pine_decision.refresh_from_db()
        world.pine_request.refresh_from_db()
        assert world.pine_event.status == Event.Status.RUNNING
        assert world.pine_draft.status == Event.Status.DRAFT
        assert not world.pine_table.adjudicated
        # Carol's seat went to the bot by the timeout policy; Dora's was not replaced.
        assert Seat.objects.get(game=world.pine_table.game, user=world.dora).bot == ""
        assert world.pine_decision.ranks_last and not world.pine_decision.is_overridden
        assert world.pine_request.status == JoinRequest.Status.PENDING
        assert world.pine.is_member(world.dora)
        assert not Registration.objects.filter(event=world.pine_event, status="withdrawn").exists()

    def test_the_event_buttons_and_the_csv_of_another_club_are_404(self, world):
        client = client_for(world.alice)
        for operation in ("open", "start", "next", "close"):
            url = reverse("admin:tournaments_event_run", args=[world.pine_event.pk, operation])
            assert client.post(url).status_code == 404
        csv_url = reverse("admin:tournaments_event_standings", args=[world.pine_event.pk])
        assert client.get(csv_url).status_code == 404
        world.pine_event.refresh_from_db()
        assert world.pine_event.status == Event.Status.RUNNING

    def test_the_export_action_leaves_other_clubs_out(self, world):
        response = act(
            client_for(world.alice), "event", "export_standings", world.oak_event, world.pine_event
        )
        text = response.content.decode("utf-8-sig")
        assert "Oak Open" in text and "Pine Open" not in text

    def test_the_add_form_cannot_make_an_event_for_another_club(self, world):
        response = client_for(world.alice).post(
            admin_url("event", "add"),
            {"club": world.pine.pk, "name": "Sneaky", "slug": "sneaky", "format": "swiss"},
        )
        assert response.status_code == 200
        assert not Event.objects.filter(name="Sneaky").exists()

    def test_the_pages_buttons_for_another_club_are_refused(self, world):
        client = client_for(world.alice)
        client.post(
            reverse("tournaments:club_decide", args=[world.pine.slug, world.pine_request.pk]),
            {"accept": "1"},
        )
        client.post(reverse("tournaments:club_new_invite", args=[world.pine.slug]))
        world.pine_request.refresh_from_db()
        assert world.pine_request.status == JoinRequest.Status.PENDING
        assert world.pine.invite_code == type(world.pine).objects.get(pk=world.pine.pk).invite_code
        html = client.get(world.pine.get_absolute_url()).content.decode()
        assert "Organizer tools" not in html and world.pine.invite_code not in html
        assert client.get(world.pine_draft.get_absolute_url()).status_code == 404


class TestAMemberCannotOrganize:
    def test_a_member_has_no_admin(self, world):
        client = client_for(world.bob)
        for url in (admin_url("event"), admin_url("event", "change", world.oak_event.pk)):
            response = client.get(url)
            assert response.status_code == 302
            assert reverse("admin:login") in response["Location"]
        run = reverse("admin:tournaments_event_run", args=[world.oak_event.pk, "close"])
        assert reverse("admin:login") in client.post(run)["Location"]

    def test_a_member_is_refused_by_every_organizer_service(self, world):
        table = Table.objects.get(round__event=world.oak_event)
        for write in (
            lambda: services.start_event(world.oak_event, world.bob),
            lambda: services.seat_next_round(world.oak_event, world.bob),
            lambda: services.close_event(world.oak_event, world.bob),
            lambda: services.adjudicate_table(table, world.bob),
            lambda: services.replace_with_bot(world.oak_event, world.alice, world.bob),
            lambda: services.new_invite_code(world.oak, world.bob),
            lambda: services.set_role(world.oak, world.bob, "organizer", world.bob),
            lambda: services.create_event(world.oak, world.bob, name="Mine", rounds=1),
            lambda: services.update_event(world.oak_event, world.bob, name="Mine"),
            lambda: services.remove_member(world.oak, world.alice, world.bob),
        ):
            with pytest.raises(services.NotAPlayer) as refused:
                write()
            assert refused.value.code == "not_organizer"

    def test_staff_who_organize_nothing_see_no_club_data(self, world, staff):
        client = client_for(staff)
        assert client.get(admin_url("event")).status_code == 403
        assert "Tournaments" not in client.get(reverse("admin:index")).content.decode()

    def test_a_demoted_organizer_loses_the_admin(self, world):
        services.set_role(world.oak, world.bob, "organizer", world.alice)
        assert client_for(world.bob).get(admin_url("event")).status_code == 200
        services.set_role(world.oak, world.bob, "member", world.alice)
        response = client_for(world.bob).get(admin_url("event"))
        assert reverse("admin:login") in response["Location"]


class TestASuperuser:
    def test_sees_and_runs_every_club(self, world, superuser):
        client = client_for(superuser)
        assert len(client.get(admin_url("event")).context["cl"].result_list) == 3
        response = client.get(
            reverse("admin:tournaments_event_standings", args=[world.pine_event.pk])
        )
        assert response.status_code == 200
        act(client, "table", "adjudicate", world.pine_table)
        world.pine_table.refresh_from_db()
        assert world.pine_table.adjudicated


# --- Every page and endpoint, for each kind of visitor -------------------------------------------

VISITORS = ("anonymous", "member", "organizer", "staff")


def visitor(world: World, kind: str, staff: Any) -> Any:
    return {"anonymous": None, "member": world.bob, "organizer": world.alice, "staff": staff}[kind]


def public_pages(world: World) -> list[str]:
    return [
        reverse("tournaments:clubs"),
        world.oak.get_absolute_url(),
        world.oak_event.get_absolute_url(),
        reverse("tournaments:player", args=[world.bob.pk]),
        reverse("tournaments:club_invite", args=[world.oak.invite_code]),
    ]


@pytest.mark.parametrize("kind", VISITORS)
def test_the_public_pages_answer_everyone(world, staff, kind):
    client = client_for(visitor(world, kind, staff))
    for url in public_pages(world):
        assert client.get(url).status_code == 200, url


@pytest.mark.parametrize(
    ("kind", "status"), [("anonymous", 404), ("member", 404), ("organizer", 200), ("staff", 404)]
)
def test_a_draft_page(world, staff, kind, status):
    world.oak_draft = services.create_event(world.oak, world.alice, name="Oak Draft", rounds=1)
    response = client_for(visitor(world, kind, staff)).get(world.oak_draft.get_absolute_url())
    assert response.status_code == status


@pytest.mark.parametrize("kind", VISITORS)
def test_the_forms_and_buttons(world, staff, kind):
    user = visitor(world, kind, staff)
    client = client_for(user)
    create = client.get(reverse("tournaments:club_create"))
    assert create.status_code == (302 if user is None else 200)
    buttons = [
        reverse("tournaments:club_join", args=[world.oak.slug]),
        reverse("tournaments:club_request", args=[world.oak.slug]),
        reverse("tournaments:club_leave", args=[world.oak.slug]),
        reverse("tournaments:club_new_invite", args=[world.oak.slug]),
        reverse("tournaments:event_register", args=[world.oak.slug, world.oak_event.slug]),
        reverse("tournaments:event_withdraw", args=[world.oak.slug, world.oak_event.slug]),
    ]
    for url in buttons:
        response = client.post(url, {"confirm": "1"})  # withdrawing from a running event asks
        assert response.status_code == 302, url
        if user is None:
            assert reverse("account_login") in response["Location"]
    html = client.get(world.oak.get_absolute_url()).content.decode()
    assert ("Organizer tools" in html) == (kind == "organizer")


@pytest.mark.parametrize(
    ("kind", "status"), [("anonymous", 401), ("member", 200), ("organizer", 200), ("staff", 200)]
)
def test_the_api_reads(world, staff, kind, status):
    client = api_client_for(visitor(world, kind, staff))
    event = world.oak_event.pk
    for name, args in (
        ("clubs", []),
        ("club", ["oak"]),
        ("events", []),
        ("event", [event]),
        ("standings", [event]),
        ("rounds", [event]),
        ("round", [event, 1]),
    ):
        response = client.get(reverse(f"tournaments_api:{name}", args=args))
        assert response.status_code == status, name


@pytest.mark.parametrize(
    ("kind", "register", "withdraw"),
    [
        ("anonymous", 401, 401),
        ("member", 409, 200),  # registration closed; withdrawing hands the seats to the bot
        ("organizer", 409, 200),
        ("staff", 409, 409),  # not registered
    ],
)
def test_the_api_writes(world, staff, kind, register, withdraw):
    client = api_client_for(visitor(world, kind, staff))
    event = world.oak_event.pk
    assert client.post(reverse("tournaments_api:register", args=[event])).status_code == register
    assert client.post(reverse("tournaments_api:withdraw", args=[event])).status_code == withdraw
