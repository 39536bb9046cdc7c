"""Every page, in every language, with no English left beyond names.

Each page is rendered in English and in German, French and Russian from the same data;
``i18nhelpers.leftovers`` lists the English words still in the translated rendering.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import notifications, services
from games.evergreen import rules
from games.models import Game, Player
from tests.games.gamehelpers import (
    PASSWORD,
    client_for,
    make_user,
    play_until,
    turn_text,
    user_at,
)
from tests.i18n.i18nhelpers import leftovers, readable
from tests.i18n.i18nworld import CLUB_NAMES, LANGUAGES, speak, tournament, two_player_game

pytestmark = pytest.mark.django_db


def check_pages(
    user: Any, urls: list[str], *, names: set[str] = frozenset(), post: bool = False
) -> None:
    """Render each of ``urls`` for ``user`` in English and in each language; no leftovers.

    ``post``: the page is the answer to an empty POST (a confirmation page)."""
    client = client_for(user)
    fetch = client.post if post else client.get
    problems: list[str] = []
    for url in urls:
        speak(user, "en")
        response = fetch(url)
        assert response.status_code in (200, 403, 404), (url, response.status_code)
        english = readable(response.content.decode())
        for language in LANGUAGES:
            speak(user, language)
            translated_response = fetch(url)
            html = translated_response.content.decode()
            assert f'<html lang="{language}"' in html, url
            found = leftovers(english, readable(html), language, names)
            problems += [f"{language} {url}: {item}" for item in found]
    speak(user, "en")
    assert not problems, "English left in translated pages:\n" + "\n".join(problems)


def check_visitor_pages(urls: list[str], *, names: set[str] = frozenset()) -> None:
    """The same for a visitor, whose language is the browser's Accept-Language."""
    problems: list[str] = []
    for url in urls:
        english = readable(Client(HTTP_ACCEPT_LANGUAGE="en").get(url).content.decode())
        for language in LANGUAGES:
            html = Client(HTTP_ACCEPT_LANGUAGE=language).get(url).content.decode()
            assert f'<html lang="{language}"' in html, url
            found = leftovers(english, readable(html), language, names)
            problems += [f"{language} {url}: {item}" for item in found]
    assert not problems, "English left in translated pages:\n" + "\n".join(problems)


def detail(game: Game, **query: str) -> str:
    url = reverse("games:detail", args=[game.pk])
    if query:
        url += "?" + urlencode(query)
    return url


class TestGamePage:
    def test_the_draft_for_the_picking_player_and_the_one_who_waits(self, alice, bob):
        game = two_player_game(alice, bob, days_per_move=2, time_bank_hours=24)
        state = game.engine_state()
        picking = user_at(game, state.to_pick)
        waiting = bob if picking == alice else alice
        check_pages(picking, [detail(game)])
        check_pages(waiting, [detail(game), reverse("games:replay", args=[game.pk])])

    def test_turn_building_with_its_steps_and_preview(self, alice, bob):
        game = two_player_game(alice, bob, days_per_move=1)
        play_until(game, lambda s: s.phase is rules.Phase.ACTION)
        check_pages(
            alice,
            [
                detail(game),
                detail(game, turn=turn_text("A")),
                detail(game, turn=turn_text("C", "before")),
            ],
        )

    def test_a_submitted_turn_and_a_scored_season(self, alice, bob):
        game = two_player_game(alice, bob, days_per_move=1)
        play_until(game, lambda s: s.season == 2 and s.phase is rules.Phase.ACTION)
        state = Game.objects.get(pk=game.pk).engine_state()
        seat = 0 if 0 in state.awaiting else state.awaiting[0]
        services.submit_move(game.pk, user_at(game, seat), {"type": "turn", "action": "D"})
        check_pages(user_at(game, seat), [detail(game), detail(game, focus=str(1 - seat))])

    def test_a_finished_game_and_its_replay(self, alice, bob):
        game = two_player_game(alice, bob)
        play_until(game, lambda s: s.is_over)
        check_pages(alice, [detail(game), reverse("games:replay", args=[game.pk]) + "?move=5"])

    def test_a_finished_solo_game_with_its_title(self, alice):
        game = services.create_game(alice, players=1)
        play_until(game, lambda s: s.is_over)
        check_pages(alice, [detail(game)])

    def test_an_open_game_seen_by_a_visitor_and_an_opponent_on_vacation(self, alice, bob, carol):
        open_game = services.create_game(alice, players=3)
        game = two_player_game(alice, bob, days_per_move=1)
        Player.objects.filter(user=bob).update(vacation_until=timezone.now() + timedelta(days=3))
        check_pages(
            carol, [detail(open_game), reverse("games:invite", args=[open_game.invite_code])]
        )
        check_pages(alice, [detail(game)])


class TestOtherPages:
    def test_home_lobby_my_games_profile_and_the_rest(self, alice, bob, carol):
        services.create_game(carol, players=3, days_per_move=3)
        mine = two_player_game(alice, bob, days_per_move=1)
        finished = two_player_game(alice, bob)
        play_until(finished, lambda s: s.is_over)
        Player.objects.filter(user=alice).update(vacation_until=timezone.now() + timedelta(days=2))
        check_pages(
            alice,
            [
                reverse("games:home"),
                reverse("games:lobby"),
                reverse("games:my_games"),
                reverse("games:profile"),
                reverse("games:api_token"),
                reverse("games:create"),
                reverse("games:rules"),
                reverse("games:invite", args=[mine.invite_code]),
                reverse(
                    "games:unsubscribe",
                    args=[notifications.unsubscribe_url(alice).rstrip("/").rsplit("/", 1)[1]],
                ),
                "/no-such-page/",
                reverse("games:detail", args=[999999]),
            ],
        )

    def test_the_pages_of_a_visitor(self, alice, bob):
        game = two_player_game(alice, bob)
        open_game = services.create_game(alice, players=3)
        check_visitor_pages(
            [
                reverse("games:home"),
                reverse("games:lobby"),
                reverse("games:rules"),
                reverse("games:detail", args=[game.pk]),
                reverse("games:invite", args=[open_game.invite_code]),
                reverse("account_login"),
                reverse("account_signup"),
                reverse("account_reset_password"),
            ]
        )

    def test_the_lockout_page_after_too_many_failed_logins(self, alice):
        def log_in(language: str, password: str) -> Any:
            client = Client(HTTP_ACCEPT_LANGUAGE=language, REMOTE_ADDR="10.9.8.7")
            return client.post(
                reverse("account_login"), {"login": "alice@example.org", "password": password}
            )

        for _attempt in range(settings.AXES_FAILURE_LIMIT):
            log_in("en", "wrong password")
        english = log_in("en", PASSWORD)
        assert english.status_code == 429
        assert "Too many failed logins" in english.content.decode()
        problems: list[str] = []
        for language in LANGUAGES:
            response = log_in(language, PASSWORD)
            assert response.status_code == 429
            html = response.content.decode()
            assert f'<html lang="{language}"' in html
            found = leftovers(readable(english.content.decode()), readable(html), language)
            problems += [f"{language}: {item}" for item in found]
        assert not problems, "English left on the lockout page:\n" + "\n".join(problems)

    def test_the_account_pages_of_a_new_player(self, db):
        visitor = make_user("dora")
        check_pages(
            visitor,
            [reverse("games:home"), reverse("account_email"), reverse("account_change_password")],
        )

    def test_the_admin_of_our_models(self, alice, bob):
        staff = make_user("staff", staff=True)
        staff.is_superuser = True
        staff.save()
        game = two_player_game(alice, bob)
        check_pages(
            staff,
            [
                reverse("admin:games_game_changelist"),
                reverse("admin:games_game_change", args=[game.pk]),
                reverse("admin:games_player_changelist"),
            ],
            # identifiers shown as they are: the edition and the invitation code
            names={"standard", *re.findall(r"[^\W\d_]{2,}", game.invite_code)},
        )


class TestClubPages:
    """Clubs, events with their standings and rounds, players, ratings, and their admin."""

    @staticmethod
    def event_url(event: Any, name: str = "tournaments:event") -> str:
        return reverse(name, args=[event.club.slug, event.slug])

    def test_the_pages_of_an_organizer_a_member_and_a_newcomer(self, alice, bob, carol):
        dora = make_user("dora")
        world = tournament(alice, bob, carol, newcomer=dora)
        club = reverse("tournaments:club", args=[world.club.slug])
        invite = reverse("tournaments:club_invite", args=[world.club.invite_code])
        check_pages(
            alice,
            [
                reverse("tournaments:clubs"),
                club,
                invite,
                reverse("tournaments:club_create"),
                self.event_url(world.swiss),
                self.event_url(world.league),
                self.event_url(world.draft),
                reverse("tournaments:player", args=[alice.pk]),
                reverse("tournaments:player", args=[dora.pk]),
                reverse("games:ratings"),
                reverse("games:rating_player", args=[alice.pk]),
                reverse("games:rating_player", args=[dora.pk]),
            ],
            names=CLUB_NAMES,
        )
        check_pages(
            bob, [club, self.event_url(world.swiss), self.event_url(world.league)], names=CLUB_NAMES
        )
        # Withdrawing from a running event asks once more (the answer to a POST).
        check_pages(
            bob, [self.event_url(world.swiss, "tournaments:event_withdraw")], post=True,
            names=CLUB_NAMES,
        )  # fmt: skip
        check_pages(
            dora,
            [reverse("tournaments:clubs"), club, invite, self.event_url(world.league)],
            names=CLUB_NAMES,
        )

    def test_the_pages_of_a_visitor(self, alice, bob, carol):
        world = tournament(alice, bob, carol)
        check_visitor_pages(
            [
                reverse("tournaments:clubs"),
                reverse("tournaments:club", args=[world.club.slug]),
                reverse("tournaments:club_invite", args=[world.club.invite_code]),
                reverse("tournaments:club_invite", args=["no-such-code"]),
                self.event_url(world.swiss),
                self.event_url(world.league),
                reverse("tournaments:player", args=[bob.pk]),
                reverse("games:ratings"),
                reverse("games:rating_player", args=[bob.pk]),
            ],
            names=CLUB_NAMES,
        )

    def test_the_admin_of_clubs_and_events(self, alice, bob, carol):
        from tournaments.models import Round, Table, TimeoutDecision

        world = tournament(alice, bob, carol, newcomer=make_user("dora"))
        table = Table.objects.filter(round__event=world.swiss).first()
        game = table.game
        seat = game.seats.order_by("position").first()
        TimeoutDecision.objects.create(
            table=table, game=game, position=seat.position, user=seat.user, policy="bot",
            outcome="bot", timeouts=1,
        )  # fmt: skip
        staff = make_user("staff", staff=True)
        staff.is_superuser = True
        staff.save()
        urls = [
            reverse(f"admin:tournaments_{model}_changelist")
            for model in (
                "club", "membership", "joinrequest", "event", "registration", "round", "table",
                "timeoutdecision",
            )
        ]  # fmt: skip
        urls += [
            reverse("admin:tournaments_club_change", args=[world.club.pk]),
            reverse("admin:tournaments_event_change", args=[world.swiss.pk]),
            reverse("admin:tournaments_event_change", args=[world.league.pk]),
            reverse("admin:tournaments_event_add"),
            reverse("admin:tournaments_round_change", args=[Round.objects.first().pk]),
            reverse("admin:tournaments_table_change", args=[table.pk]),
        ]
        # identifiers shown as they are: the edition, the tie-breaks an organizer types in
        # the event's JSON field (named in its help text), the invitation code
        identifiers = {"standard", "opponents", "score", "head", "to"}
        invite_words = set(re.findall(r"[^\W\d_]{2,}", world.club.invite_code.lower()))
        check_pages(staff, urls, names={*CLUB_NAMES, *identifiers, *invite_words})
