"""Time zones: a new account takes the browser's zone, the profile offers zones grouped by
region with their offset now, and times on the pages name their zone."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.urls import reverse
from django.utils import translation

from games import services, timezones
from games.models import Game, Player
from tests.games.gamehelpers import PASSWORD, client_for

WINTER = datetime(2026, 1, 15, 12, 0, tzinfo=UTC)
SUMMER = datetime(2026, 7, 15, 12, 0, tzinfo=UTC)


def sign_up(email: str, **extra: str) -> Any:
    return client_for(None).post(
        reverse("account_signup"),
        {
            "email": email,
            "display_name": email.split("@")[0],
            "password1": PASSWORD,
            "password2": PASSWORD,
            **extra,
        },
    )


def offered(choices: list[tuple[str, Any]]) -> dict[str, str]:
    """Every zone in grouped choices, by name, with its label."""
    zones: dict[str, str] = {}
    for value, label in choices:
        if isinstance(label, list):
            zones.update(dict(label))
        else:
            zones[value] = label
    return zones


def test_a_new_account_takes_the_zone_its_browser_sends(db: Any) -> None:
    assert sign_up("kim@example.org", time_zone="Asia/Seoul").status_code == 302
    assert Player.objects.get(user__email="kim@example.org").time_zone == "Asia/Seoul"


def test_a_new_account_without_a_known_zone_from_its_browser_is_on_utc(db: Any) -> None:
    assert sign_up("lee@example.org", time_zone="Mars/Olympus_Mons").status_code == 302
    assert sign_up("max@example.org").status_code == 302
    zones = Player.objects.filter(user__email__in=["lee@example.org", "max@example.org"])
    assert set(zones.values_list("time_zone", flat=True)) == {"UTC"}


def test_the_sign_up_page_loads_the_script_that_reads_the_browsers_zone(db: Any) -> None:
    page = client_for(None).get(reverse("account_signup")).content.decode()
    assert 'name="time_zone"' in page
    assert "js/timezone.js" in page


def test_zones_are_grouped_by_region_and_show_their_offset_now() -> None:
    winter = timezones.zone_choices(now=WINTER)
    regions = [label for _value, label in winter if not isinstance(label, str)]
    assert regions, "zones come in groups"
    groups = {value: label for value, label in winter if isinstance(label, list)}
    assert {"Europe", "America", "Asia", "Africa", "Pacific"} <= set(groups)
    assert offered(winter)["Europe/Berlin"] == "(UTC+01:00) Berlin"
    assert offered(timezones.zone_choices(now=SUMMER))["Europe/Berlin"] == "(UTC+02:00) Berlin"
    assert offered(winter)["Asia/Kolkata"] == "(UTC+05:30) Kolkata"
    assert offered(winter)["America/Argentina/Buenos_Aires"] == "(UTC\u221203:00) Buenos Aires"


def test_cities_are_named_in_the_readers_language() -> None:
    with translation.override("ru"):
        zones = offered(timezones.zone_choices(now=WINTER))
    assert zones["Europe/Moscow"] == "(UTC+03:00) Москва"
    assert zones["Asia/Kolkata"] == "(UTC+05:30) Калькутта"
    with translation.override("de"):
        assert offered(timezones.zone_choices(now=WINTER))["Europe/Vienna"] == "(UTC+01:00) Wien"


def test_zones_within_a_region_run_from_west_to_east() -> None:
    europe = dict(timezones.zone_choices(now=WINTER))["Europe"]
    names = [name for name, _label in europe]
    assert (
        names.index("Europe/Lisbon") < names.index("Europe/Berlin") < names.index("Europe/Moscow")
    )


def test_legacy_and_technical_names_are_not_offered() -> None:
    zones = offered(timezones.zone_choices(now=WINTER))
    assert 300 < len(zones) < 450, "the places of zone.tab, not every alias"
    for name in ("Factory", "GB", "US/Eastern", "Etc/GMT+3", "EST", "localtime"):
        assert name not in zones


def test_a_player_keeps_an_old_zone_name_they_chose_before(alice: Any) -> None:
    zones = offered(timezones.zone_choices("US/Eastern", now=WINTER))
    assert "US/Eastern" in zones


def test_the_profile_saves_a_zone_from_the_list_and_refuses_one_not_in_it(alice: Any) -> None:
    client = client_for(alice)
    form = client.get(reverse("games:profile")).context["form"]
    fields = {name: form.initial.get(name, field.initial) for name, field in form.fields.items()}
    data = {k: ("" if v is None else v) for k, v in fields.items()}
    data["reminder_hours"] = "24, 2"
    client.post(reverse("games:profile"), {**data, "time_zone": "Pacific/Auckland"})
    assert Player.objects.get(user=alice).time_zone == "Pacific/Auckland"
    response = client.post(reverse("games:profile"), {**data, "time_zone": "Factory"})
    assert response.status_code == 200
    assert Player.objects.get(user=alice).time_zone == "Pacific/Auckland"


def test_my_games_shows_a_deadline_with_its_zone(alice: Any, bob: Any) -> None:
    game = services.create_game(alice, players=2, days_per_move=3)
    services.join_game(game.pk, bob)
    due = Game.objects.get(pk=game.pk).seats.exclude(deadline=None).get()
    # Off the hour: Django writes a time on the hour as "1 a.m.", without ":00".
    due.deadline = due.deadline.replace(minute=37)
    due.save(update_fields=["deadline"])
    Player.objects.filter(user=due.user).update(time_zone="Asia/Tokyo")
    page = client_for(due.user).get(reverse("games:my_games")).content.decode()
    local = due.deadline.astimezone(ZoneInfo("Asia/Tokyo"))
    assert f"{local:%-I}:{local:%M} {'a.m.' if local.hour < 12 else 'p.m.'} JST" in page
