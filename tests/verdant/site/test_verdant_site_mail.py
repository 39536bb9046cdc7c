"""Verdant's "your move" and "game over" mails: the game's name and a recap in words."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import notifications
from games.models import Notification, Player
from games.verdant import rules
from tests.verdant.site.verdant_site_helpers import play_moves


def mail_for_awaited(game):
    game.refresh_from_db()
    state = game.engine_state()
    seat = game.seats.select_related("user__player").get(position=state.awaiting[0])
    Notification.objects.filter(user=seat.user, game=game).delete()
    note = notifications.your_move(game, seat, state)
    assert note is not None
    return notifications.render(note)


def test_your_move_names_verdant_and_tells_what_the_others_took(verdant_game):
    game = play_moves(verdant_game, lambda s: s.phase is rules.Phase.PLAY and s.turn >= 3)
    message = mail_for_awaited(game)
    assert message.subject == f"Your move in Verdant game #{game.pk}"
    assert f"It is your move in Verdant game #{game.pk}." in message.body
    record = game.record()
    other = 1 - game.engine_state().to_play
    name = game.seats.get(position=other).name
    facts = [line for line in message.body.splitlines() if line.startswith(f"- {name} took ")]
    assert len(facts) == 1 and " and a" in facts[0]
    assert "Round 2 of 13" in message.body
    assert len(record.moves) >= 5


def test_the_recap_says_what_a_completion_took(verdant_game):
    from games.verdant import recap

    game = play_moves(verdant_game, seed=7)
    lines = recap.lines(game.record(), ["Rowan", "Hazel"])
    completed = [line for line in lines if ", completed " in line]
    assert completed and all(line.startswith(("Rowan took ", "Hazel took ")) for line in completed)
    assert any(line.rstrip(".").endswith(" pot") for line in completed)


def test_the_game_over_mail_names_verdant(verdant_game):
    game = play_moves(verdant_game, seed=8)
    note = Notification.objects.filter(game=game, kind="game_over").first()
    assert note is not None
    message = notifications.render(note)
    assert message.subject == f"Verdant game #{game.pk} is over"


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "Verdant game #"), ("de", "Verdant-Partie Nr. "), ("fr", "partie Verdant n° "),
     ("ru", "партии Verdant № ")],
)  # fmt: skip
def test_reminders_and_hand_overs_name_verdant_in_every_language(verdant_game, language, words):
    game = play_moves(verdant_game, lambda s: s.phase is rules.Phase.PLAY and s.turn >= 2)
    game.refresh_from_db()
    state = game.engine_state()
    seat = game.seats.select_related("user__player").get(position=state.awaiting[0])
    Player.objects.filter(user=seat.user).update(language=language)
    Notification.objects.filter(game=game).delete()
    seat.awaiting_since = timezone.now() - timedelta(hours=23)  # a day per move, 1 h left
    seat.deadline = timezone.now() + timedelta(hours=1)
    reminder = notifications.reminder(game, seat, state, 2, timezone.now())
    notifications.handover(game, seat)
    handover = Notification.objects.get(game=game, kind="handover", user=seat.user)
    assert reminder is not None
    for note in Notification.objects.filter(pk__in=[reminder.pk, handover.pk]):
        message = notifications.render(note)  # in the player's language, read anew
        assert f"{words}{game.pk}" in message.subject
        assert "Evergreen" not in message.subject + message.body.split("\n-- ")[0]
        if note.kind == "reminder":
            assert f"{words}{game.pk}" in message.body
