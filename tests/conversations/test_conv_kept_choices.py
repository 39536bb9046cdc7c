"""A player's mute, block and mail choices and the creator's spectators choice are kept in
the cache for the game page's chat (``conversations.shields.kept_choices_of``,
``conversations.access.spectators_read``): each reader's own, and read afresh after every
change of them."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from conversations import services, shields
from games import fragments
from games.models import Game
from tests.games.gamehelpers import client_for, committed

pytestmark = pytest.mark.usefixtures("kept_parts")


def shield(owner: Any, other: Any, kind: str | None) -> None:
    with committed():  # what production runs after the commit (a new stamp) runs here too
        services.shield(owner, other.pk, kind)


def set_mail(user: Any, wanted: bool) -> None:
    with committed():
        services.set_mail(user, wanted)


def page(user: Any, game: Game) -> str:
    return client_for(user).get(reverse("games:detail", args=[game.pk])).content.decode()


def test_a_block_shows_on_the_blocker_s_next_page_and_is_gone_after_unblocking(game, alice, bob):
    services.post_to_game(bob, game, "spam spam")
    assert "spam spam" in page(alice, game)
    shield(alice, bob, "block")
    html = page(alice, game)
    assert "spam spam" not in html and "Unblock Bob" in html
    shield(alice, bob, None)
    html = page(alice, game)
    assert "spam spam" in html and "Unblock Bob" not in html


def test_one_player_s_choices_never_show_on_another_s_page(game, alice, bob, carol):
    services.post_to_game(bob, game, "hello all")
    shield(alice, carol, "block")
    set_mail(alice, True)
    assert "Stop mailing me new messages" in page(alice, game)  # alice's, now kept
    html = page(bob, game)
    assert "Players you blocked" not in html
    assert "Mail me new messages" in html


def test_the_mail_choice_shows_on_the_next_page(game, alice):
    assert "Mail me new messages" in page(alice, game)
    set_mail(alice, True)
    assert "Stop mailing me new messages" in page(alice, game)
    set_mail(alice, False)
    assert "Mail me new messages" in page(alice, game)


def test_spectators_read_on_the_next_page_once_the_creator_allowed_it(game, bob, carol):
    services.post_to_game(bob, game, "secret plans")
    assert "secret plans" not in page(carol, game)
    with committed():
        services.set_spectators_read(game, True)
    assert "secret plans" in page(carol, game)
    with committed():
        services.set_spectators_read(game, False)
    assert "secret plans" not in page(carol, game)


def new_user(django_user_model: Any, name: str) -> Any:
    with committed():  # the user's creation committed: a new user's choices are known
        return django_user_model.objects.create_user(name)


def test_a_new_user_s_choices_are_known_without_a_query(django_user_model, monkeypatch):
    rowan = new_user(django_user_model, "rowan")
    monkeypatch.setattr(shields, "choices_of", lambda user: pytest.fail("read the choices"))
    assert shields.kept_choices_of(rowan) == ({}, [], False)


def test_what_a_new_user_is_known_to_have_chosen_is_what_reading_finds(django_user_model):
    rowan = new_user(django_user_model, "rowan")
    assert shields.choices_of(rowan) == shields.NO_CHOICES


def test_a_choice_made_after_the_user_was_made_is_shown(game, alice, django_user_model):
    rowan = new_user(django_user_model, "rowan")
    assert shields.kept_choices_of(rowan) == ({}, [], False)
    shield(rowan, alice, "mute")
    set_mail(rowan, True)
    assert shields.kept_choices_of(rowan) == ({alice.pk: "mute"}, [], True)


def test_a_choice_made_with_the_user_in_one_transaction_is_shown(alice, django_user_model):
    with committed():
        rowan = django_user_model.objects.create_user("rowan")
        services.shield(rowan, alice.pk, "block")
    assert shields.kept_choices_of(rowan)[0] == {alice.pk: "block"}


def test_a_choice_kept_before_is_never_overtaken_by_what_a_new_user_has(alice, django_user_model):
    rowan = new_user(django_user_model, "rowan")
    shield(rowan, alice, "block")
    assert shields.kept_choices_of(rowan)[0] == {alice.pk: "block"}
    with committed():  # another save of the user (not a new one), and a late known value
        rowan.save()
        fragments.known_on_commit(shields.choices_name(rowan.pk), shields.NO_CHOICES)
    assert shields.kept_choices_of(rowan)[0] == {alice.pk: "block"}
