"""The checks of the load and fault runs (``loadaudit``) hold on a game played right, and
catch each way a game can go wrong: a move lost or doubled, a round closed twice or
never, a state that is not its replay, a mail lost or received twice."""

from __future__ import annotations

import uuid
from collections import Counter

import pytest
from django.db.models import F

from games import notifications, services
from games.evergreen import rules
from games.evergreen.rules.bots import RandomBot
from games.models import Game, Move, Notification
from tests.benchmarks.loadaudit import audit_game, audit_mails, rounds_to_close, unsettled
from tests.games.gamehelpers import make_user, submit, user_at

pytestmark = pytest.mark.django_db


@pytest.fixture
def played() -> tuple[Game, list[str]]:
    """A 2-player game played through the services to the third round of season 1 (each
    move committed: its round closes after it, Celery is eager here), every move with an
    idempotency key."""
    users = [make_user(name) for name in ("ann", "ben")]
    game = services.create_game(users[0], players=2)
    for user in users[1:]:
        services.join_game(game.pk, user)
    bot, keys = RandomBot(3), []
    while True:
        game.refresh_from_db()
        state = game.engine_state()
        if (state.season, state.round) == (1, 3):
            return game, keys
        seat = state.awaiting[0]
        key = uuid.uuid4().hex
        submit(game.pk, user_at(game, seat), bot.choose(state, seat), idempotency_key=key)
        keys.append(key)


def test_a_game_played_right_passes_every_check(played: tuple[Game, list[str]]) -> None:
    game, keys = played
    audit = audit_game(game, keys)
    assert (audit.replay, audit.moves, audit.closing) == ([], [], [])
    assert audit.moves_by_people == len(keys) == 8
    assert audit.closings == audit.rounds_to_close == 2


def test_a_move_accepted_but_not_stored_or_stored_unaccepted_is_caught(
    played: tuple[Game, list[str]],
) -> None:
    game, keys = played
    assert audit_game(game, [*keys, "accepted-but-lost"]).moves
    assert audit_game(game, keys[:-1]).moves


def test_a_move_stored_twice_is_caught(played: tuple[Game, list[str]]) -> None:
    game, keys = played
    last = Move.objects.filter(game=game).order_by("-number").first()
    assert last is not None
    last.pk, last.number, last.idempotency_key = None, last.number + 1, None
    last.save()  # the same move once more, as a server that played a retry again would
    assert audit_game(game, keys).moves


def test_a_lost_move_row_breaks_the_replay(played: tuple[Game, list[str]]) -> None:
    game, keys = played
    Move.objects.filter(game=game, number=5).delete()
    audit = audit_game(game, keys)
    assert audit.replay
    assert audit.moves


def test_a_second_closing_and_a_missing_one_are_caught(played: tuple[Game, list[str]]) -> None:
    game, keys = played
    Game.objects.filter(pk=game.pk).update(version=F("version") + 1)  # closed once more
    game.refresh_from_db()
    assert audit_game(game, keys).closing
    Game.objects.filter(pk=game.pk).update(version=F("version") - 2)  # one closing fewer
    game.refresh_from_db()
    assert audit_game(game, keys).closing


def test_a_round_left_unclosed_is_caught(played: tuple[Game, list[str]]) -> None:
    game, keys = played
    Game.objects.filter(pk=game.pk).update(needs_closing=True)
    game.refresh_from_db()
    assert audit_game(game, keys).closing
    assert unsettled([game.pk]) is not None


def test_mails_each_received_once_pass_and_lost_or_doubled_ones_are_caught(
    played: tuple[Game, list[str]],
) -> None:
    game, _keys = played
    notes = list(Notification.objects.filter(game=game))
    assert notes
    Notification.objects.filter(game=game).update(status=Notification.Status.SENT)
    received = Counter(notifications.message_id(n) for n in notes)
    assert audit_mails([game.pk], received).problems == []
    assert unsettled([game.pk]) is None

    doubled = received + Counter([notifications.message_id(notes[0])])
    assert audit_mails([game.pk], doubled).problems
    lost = received - Counter([notifications.message_id(notes[0])])
    assert audit_mails([game.pk], lost).problems
    assert audit_mails([game.pk], received + Counter(["<stranger@example>"])).problems
    Notification.objects.filter(pk=notes[0].pk).update(status=Notification.Status.PENDING)
    assert audit_mails([game.pk], received).problems
    assert unsettled([game.pk]) is not None


def test_the_closings_counted_are_the_engines(played: tuple[Game, list[str]]) -> None:
    game, _keys = played
    closings, final = rounds_to_close(game)
    assert closings == 2
    assert rules.state_to_json(final) == game.state
    assert (final.season, final.round) == (1, 3)
