"""Display names: normalised (NFKC), nothing invisible or text-direction, no look-alike of
another player's name (case, full-width letters, letters of another alphabet that look
the same), unique in the database too."""

from __future__ import annotations

from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.urls import reverse

from games import names
from games.models import Player
from tests.games.gamehelpers import PASSWORD, client_for, make_user

pytestmark = pytest.mark.django_db

PROFILE = {
    "time_zone": "UTC",
    "language": "en",
    "email_mode": "every",
    "email_every_hours": "6",
    "digest_hour": "8",
}


def rename(user: Any, name: str) -> Any:
    return client_for(user).post(reverse("games:profile"), {**PROFILE, "display_name": name})


def name_of(user: Any) -> str:
    return str(Player.objects.get(user=user).display_name)


@pytest.fixture
def rowan(db: Any) -> Any:
    user = make_user("rowan")
    assert name_of(user) == "Rowan"
    return user


@pytest.mark.parametrize(
    "look_alike",
    [
        "Rowan",
        "rowan",
        "ROWAN",
        "Ｒｏｗａｎ",  # noqa: RUF001 - full-width letters
        " Rowan  ",
        "R\u043ewan",  # a Cyrillic o among Latin letters
        "R\u043ew\u0430n",  # Cyrillic o and a
    ],
)
def test_a_look_alike_of_another_players_name_is_refused(rowan: Any, look_alike: str) -> None:
    mallory = make_user("mallory")
    response = rename(mallory, look_alike)
    assert response.status_code == 200  # the form again, with its error
    assert name_of(mallory) == "Mallory"
    assert "look" in response.content.decode()


def test_a_name_all_in_another_alphabet_that_looks_the_same_is_refused(db: Any) -> None:
    poe = make_user("poe")
    assert name_of(poe) == "Poe"
    mallory = make_user("mallory")
    cyrillic = "\u0420\u043e\u0435"  # Cyrillic Er, o, ie: one alphabet, and it reads "Poe"
    assert names.refusal(cyrillic) is None
    response = rename(mallory, cyrillic)
    assert "Another player has this name, or one that looks the same." in response.content.decode()
    assert name_of(mallory) == "Mallory"


@pytest.mark.parametrize(
    "hidden",
    ["Ro\u200bwan", "Ro\u202ewan", "\u2066Ro\u2069", "Ro\u00adwan", "Ro\x07wan", "A\ufeff"],
)
def test_invisible_and_text_direction_characters_are_refused(db: Any, hidden: str) -> None:
    mallory = make_user("mallory")
    response = rename(mallory, hidden)
    assert "invisible or text-direction characters" in response.content.decode()
    assert name_of(mallory) == "Mallory"


def test_a_name_is_stored_normalised(db: Any) -> None:
    mallory = make_user("mallory")
    rename(mallory, "  Ｊｅａｎ   Luc\u00a0ﬁn ")  # noqa: RUF001 - full-width, ligature
    assert name_of(mallory) == "Jean Luc fin"


def test_a_player_keeps_their_own_name_in_another_case(rowan: Any) -> None:
    assert rename(rowan, "ROWAN").status_code == 302
    assert name_of(rowan) == "ROWAN"


def test_names_of_other_alphabets_are_welcome(db: Any) -> None:
    for user, name in (
        (make_user("ivan"), "Иван"),
        (make_user("zoe"), "Zoë"),
        (make_user("li"), "李"),
    ):
        assert rename(user, name).status_code == 302
        assert name_of(user) == name


def test_a_new_player_chooses_their_public_name_when_signing_up(db: Any) -> None:
    response = client_for(None).post(
        reverse("account_signup"),
        {
            "email": "d.smith@example.org",
            "display_name": "  Dana   Smith ",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302
    assert Player.objects.get(user__email="d.smith@example.org").display_name == "Dana Smith"


def test_sign_up_refuses_another_players_name_in_any_case(rowan: Any) -> None:
    response = client_for(None).post(
        reverse("account_signup"),
        {
            "email": "mallory@example.org",
            "display_name": "ROWAN",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 200
    assert "looks the same" in response.content.decode()
    assert not Player.objects.filter(user__email="mallory@example.org").exists()


def test_sign_up_asks_for_the_public_name(db: Any) -> None:
    response = client_for(None).post(
        reverse("account_signup"),
        {"email": "dana@example.org", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 200
    assert not Player.objects.filter(user__email="dana@example.org").exists()


def test_players_made_outside_the_sign_up_page_get_a_name_of_their_own(db: Any) -> None:
    for number, email in enumerate(("dana@example.org", "dana@example.net", "DANA@example.com")):
        get_user_model().objects.create_user(f"user{number}", email, PASSWORD)
    assert sorted(Player.objects.values_list("display_name", flat=True)) == [
        "DANA 3",
        "dana",
        "dana 2",
    ]


def test_the_database_refuses_two_names_that_look_the_same(rowan: Any) -> None:
    mallory = make_user("mallory")
    player = Player.objects.get(user=mallory)
    player.display_name = "R\u043ewan"
    with pytest.raises(IntegrityError), transaction.atomic():
        player.save()


def test_the_migration_numbers_names_that_already_looked_the_same(rowan: Any) -> None:
    from importlib import import_module

    mallory = make_user("mallory")
    Player.objects.filter(user=mallory).update(display_name="ROWAN", name_key=None)
    Player.objects.update(name_key=None)
    import_module("games.migrations.0006_player_name_key_calendar_secret").fill_name_keys(
        apps, None
    )
    assert name_of(rowan) == "Rowan"
    assert name_of(mallory) == "ROWAN 2"
    assert Player.objects.filter(name_key=None).count() == 0


def test_a_name_taken_between_the_check_and_the_save_is_refused_not_a_500(
    rowan: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two players choosing look-alike names at once: the database refuses the second."""
    mallory = make_user("mallory")
    monkeypatch.setattr(names, "unique_refusal", lambda name, taken: None)  # the check passed
    response = client_for(mallory).post(
        reverse("games:profile"), {**PROFILE, "display_name": "ROWAN"}
    )
    assert response.status_code == 200
    assert name_of(mallory) == "Mallory"
    assert "Another player has this name, or one that looks the same." in response.content.decode()
