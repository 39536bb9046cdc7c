"""The conversations' pages and mails in every language, with no English left beyond names
(the words players write are their own: they are kept out of the comparison by writing
them in no language at all)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from conversations import services
from games.models import Notification
from tests.games.gamehelpers import make_user
from tests.i18n.i18nworld import two_player_game
from tests.i18n.test_i18n_mails import check_mails
from tests.i18n.test_i18n_pages import check_pages
from tournaments import services as clubs

pytestmark = pytest.mark.django_db

WORDS = "12345 67890"  # a message that is in no language


def test_the_game_chat_of_a_player_a_spectator_and_a_moderator(
    alice: Any, bob: Any, carol: Any
) -> None:
    game = two_player_game(alice, bob)
    services.post_to_game(bob, game, WORDS)
    services.post_to_game(alice, game, WORDS)
    services.shield(alice, carol.pk, "block")
    services.shield(alice, bob.pk, "mute")
    services.set_mail(alice, True)
    root = make_user("root", staff=True)
    root.is_superuser = True
    root.save()
    hidden = services.post_to_game(bob, game, WORDS)
    services.hide(root, hidden)
    pages = [
        reverse("games:detail", args=[game.pk]),
        reverse("conversations:game_chat", args=[game.pk]),
    ]
    check_pages(alice, pages)
    check_pages(carol, pages)
    check_pages(root, pages)
    services.report(alice, services.post_to_game(bob, game, WORDS))
    check_pages(
        root,
        [
            reverse("admin:conversations_report_changelist"),
            reverse("admin:conversations_message_changelist"),
        ],
        names={"root"},
    )


def test_a_clubs_announcements_and_discussion(alice: Any, bob: Any, carol: Any) -> None:
    club = clubs.create_club(alice, "Pine")
    clubs.join_club(club, bob)
    services.post_to_club(alice, club, "announce", WORDS)
    services.post_to_club(bob, club, "discuss", WORDS)
    pages = [reverse("conversations:club_talk", args=[club.slug]), club.get_absolute_url()]
    for user in (alice, bob, carol):
        check_pages(user, pages, names={"pine"})


def test_the_new_message_mail(alice: Any, bob: Any) -> None:
    game = two_player_game(alice, bob)
    services.set_mail(bob, True)
    services.post_to_game(alice, game, WORDS)
    check_mails(list(Notification.objects.filter(kind="chat")))
