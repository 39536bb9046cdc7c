"""Every kind of e-mail, in every language, with no English left beyond names.

Each notification is rendered for its recipient in English and in the recipient's other
languages (``notifications.render`` uses the recipient's profile): subject, plain text and
HTML part are compared word by word with the English mail.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from conversations import services as talk
from games import notifications, services
from games.evergreen import rules
from games.models import Game, Notification, Player
from games.rematches import services as rematches
from tests.games.gamehelpers import Clock, make_user, play_until, user_at
from tests.i18n.i18nhelpers import leftovers, readable
from tests.i18n.i18nworld import CLUB_NAMES, LANGUAGES, speak, tournament, two_player_game
from tournaments import services as events
from tournaments.models import Club, Event

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)


@pytest.fixture
def clock(monkeypatch: Any) -> Clock:
    return Clock.installed(monkeypatch, T0)


def parts(note: Notification) -> tuple[str, str, str]:
    note = Notification.objects.select_related("user__player").get(pk=note.pk)
    message = notifications.render(note)
    html = message.alternatives[0][0]
    return message.subject, message.body, readable(html)


def check_mails(notes: list[Notification]) -> None:
    problems = []
    for note in notes:
        speak(note.user, "en")
        english = " ".join(parts(note))
        for language in LANGUAGES:
            speak(note.user, language)
            subject, body, html = parts(note)
            for part, text in (("subject", subject), ("text", body), ("html", html)):
                problems += [
                    f"{language} {note.kind} {part}: {item}"
                    for item in leftovers(english, text, language, CLUB_NAMES)
                ]
        speak(note.user, "en")
    assert not problems, "English left in translated mails:\n" + "\n".join(problems)


def tournament_club(organizer: Any) -> Any:
    return Club.objects.get(memberships__user=organizer, memberships__role="organizer")


def test_every_kind_of_mail_is_translated(clock, alice, bob, carol):
    Player.objects.update(email_mode="every")  # the mode that has every kind of mail
    game = two_player_game(alice, bob, days_per_move=1)
    play_until(game, lambda s: s.season == 2 and s.phase is rules.Phase.DRAFT)
    game = Game.objects.get(pk=game.pk)
    state = game.engine_state()
    seat = game.seats.select_related("user__player").get(position=state.awaiting[0])
    Notification.objects.all().delete()
    pick = notifications.your_move(game, seat, state)
    assert seat.deadline is not None
    reminder = notifications.reminder(game, seat, state, 2, seat.deadline - timedelta(hours=1))
    season = notifications.season_scored(game, seat, state, 1)
    notifications.handover(game, seat)
    handovers = list(Notification.objects.filter(kind="handover"))
    # The turn to plan, a finished game and a digest of both.
    play_until(game, lambda s: s.phase is rules.Phase.ACTION)
    game = Game.objects.get(pk=game.pk)
    state = game.engine_state()
    seat = game.seats.select_related("user__player").get(position=state.awaiting[0])
    Notification.objects.filter(kind="your_move").exclude(pk=pick.pk).delete()
    plan = notifications.your_move(game, seat, state)
    finished = two_player_game(alice, bob)
    play_until(finished, lambda s: s.is_over)
    over = Notification.objects.filter(kind="game_over", game=finished).first()
    Player.objects.filter(user=alice).update(email_mode="digest", digest_hour=10)
    clock.advance(hours=1)
    notifications.send_digests(T0 + timedelta(hours=1))
    digest = Notification.objects.get(kind="digest", user=alice)
    # A round of an event seated: a table of a round, and the final table of a knockout
    # where a timeout ranks last.
    dora = make_user("dora")
    tournament(carol, bob, dora)
    cup = events.create_event(
        tournament_club(carol), carol, name="Quorvin 4", format=Event.Format.KNOCKOUT,
        table_size=2, min_table_size=2, knockout_advance=1, timeout_policy="last",
    )  # fmt: skip
    events.open_registration(cup, carol)
    for player in (carol, dora):
        events.register(cup, player)
    events.start_event(cup, carol)
    seated = list(Notification.objects.filter(kind="event_table", user=dora).order_by("pk"))
    assert [n.context["final"] for n in seated][-2:] == [False, True]
    # A rematch offered, new messages in a game's chat, a club's announcement (the
    # messages are made of names: words of players are no words of the site).
    rematches.accept(finished.pk, alice)
    rematch = Notification.objects.get(kind="rematch", user=bob)
    talk.set_mail(bob, True)
    talk.post_to_game(alice, game, "Zorblax!")
    chat = Notification.objects.get(kind="chat", user=bob)
    talk.post_to_club(carol, tournament_club(carol), "announce", "Quorvin, Zorblax.")
    announcement = Notification.objects.get(kind="announcement", user=dora)
    notes = [pick, reminder, season, plan, over, digest, *handovers, *seated[-2:]]
    notes += [rematch, chat, announcement]
    assert None not in notes, notes
    assert {n.kind for n in notes} == {k for k, _ in Notification.Kind.choices}
    check_mails(notes)


def test_a_solo_game_over_mail_gives_the_title_in_the_player_s_language(clock, alice):
    game = services.create_game(alice, players=1)
    play_until(game, lambda s: s.is_over)
    note = Notification.objects.get(kind="game_over", game=game)
    check_mails([note])
    title = Game.objects.get(pk=game.pk).engine_state().outcome.title
    speak(alice, "de")
    from django.utils import translation

    with translation.override("de"):
        german_title = translation.gettext(title)
    assert german_title != title
    assert f"Dein Titel: {german_title}" in parts(note)[1]


def test_the_mail_of_a_seat_waiting_for_a_pick_names_the_player_who_must_act(clock, alice, bob):
    game = two_player_game(alice, bob, days_per_move=1)
    state = game.engine_state()
    seat = game.seats.select_related("user__player").get(position=state.awaiting[0])
    Notification.objects.all().delete()
    note = notifications.your_move(game, seat, state)
    speak(user_at(game, state.awaiting[0]), "ru")
    subject, body, _html = parts(note)
    assert subject == f"Ваш ход в партии Evergreen № {game.pk}"
    assert "Ваша очередь брать карту" in body
