"""The time zones a player chooses from, grouped by region with their offset now.

The IANA database holds about 600 names, many of them aliases kept for old software
("Factory", "GB", "US/Eastern", "Etc/GMT+3"): a person looks for their region and a
city, in their own language. ``zone_choices`` offers the zones of the database's own
list of places (``zone.tab``: one or more per country, about 400; without it, every
"Region/City" name) grouped by region, each labelled with its current UTC offset and
its city in the reader's language (CLDR's names, through Babel), plus UTC.
``is_known`` accepts any name the database knows, so a zone chosen earlier (or sent by
a browser) keeps working.
"""

from __future__ import annotations

import zoneinfo
from datetime import datetime, timedelta
from functools import lru_cache
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.core import get_global
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

# The regions of the IANA database's canonical names (its "zone1970.tab" areas).
REGIONS = {
    "Africa": _("Africa"),
    "America": _("America"),
    "Antarctica": _("Antarctica"),
    "Asia": _("Asia"),
    "Atlantic": _("Atlantic"),
    "Australia": _("Australia"),
    "Europe": _("Europe"),
    "Indian": _("Indian Ocean"),
    "Pacific": _("Pacific"),
}


@lru_cache(maxsize=1)
def _names() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


@lru_cache(maxsize=1)
def _places() -> frozenset[str]:
    """The zones of ``zone.tab`` (its third column), or every known name without it."""
    for folder in zoneinfo.TZPATH:
        table = Path(folder) / "zone.tab"
        if table.is_file():
            lines = table.read_text(encoding="utf-8").splitlines()
            rows = (line.split("\t") for line in lines if line and not line.startswith("#"))
            return frozenset(row[2] for row in rows if len(row) > 2) & _names()
    return _names()


def is_known(name: str) -> bool:
    return name in _names()


def offset_text(offset: timedelta) -> str:
    """ "UTC+05:30" for an offset of five and a half hours ("UTC" for none)."""
    minutes = int(offset.total_seconds()) // 60
    if minutes == 0:
        return "UTC"
    sign = "+" if minutes > 0 else "\u2212"  # a true minus sign
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours:02d}:{rest:02d}"


def _offset(name: str, now: datetime) -> timedelta:
    return now.astimezone(zoneinfo.ZoneInfo(name)).utcoffset() or timedelta(0)


@lru_cache(maxsize=1)
def _older_names() -> dict[str, list[str]]:
    """IANA name -> the older names it replaced ("Asia/Kolkata" -> ["Asia/Calcutta"]):
    CLDR files some cities under one of these."""
    older: dict[str, list[str]] = {}
    for old, new in get_global("zone_aliases").items():
        older.setdefault(new, []).append(old)
    return older


@lru_cache(maxsize=8)
def _cities(language: str) -> dict[str, str]:
    """The zones' cities in ``language`` (CLDR, through Babel): "Москва", "Wien"."""
    try:
        zones = Locale.parse(language.replace("-", "_")).time_zones
    except (UnknownLocaleError, ValueError):
        return {}
    cities = {}
    for name in _names():
        for key in (name, *_older_names().get(name, [])):
            if "city" in zones.get(key, {}):
                cities[name] = str(zones[key]["city"])
                break
    return cities


def city(name: str, language: str) -> str:
    """The city a zone is named after, in ``language`` where CLDR has it."""
    found = _cities(language).get(name)
    return found or name.rsplit("/", 1)[-1].replace("_", " ")


def _label(name: str, now: datetime, language: str) -> str:
    return f"({offset_text(_offset(name, now))}) {city(name, language)}"


def zone_choices(current: str = "", now: datetime | None = None) -> list[tuple[str, object]]:
    """Choices for a select: UTC, then one group per region ordered by offset then city,
    then the player's ``current`` zone if it is none of these (an old alias)."""
    now = now or timezone.now()
    language = translation.get_language() or "en"
    grouped: dict[str, list[str]] = {region: [] for region in REGIONS}
    for name in _places():
        region, _sep, city = name.partition("/")
        if region in grouped and city:
            grouped[region].append(name)
    choices: list[tuple[str, object]] = [("UTC", "(UTC) UTC")]
    for region, label in REGIONS.items():
        labels = {n: _label(n, now, language) for n in grouped[region]}
        zones = sorted(grouped[region], key=lambda n: (_offset(n, now), labels[n]))
        choices.append((str(label), [(n, labels[n]) for n in zones]))
    offered = {"UTC"} | {n for zones in grouped.values() for n in zones}
    if current and current not in offered and is_known(current):
        choices.append((str(_("Other")), [(current, current)]))
    return choices
