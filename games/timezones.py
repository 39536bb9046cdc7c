"""The time zones a player chooses from, grouped by region with their offset now.

The IANA database holds about 600 names, many of them aliases kept for old software
("Factory", "GB", "US/Eastern", "Etc/GMT+3"): a person looks for their region and a
city. ``zone_choices`` offers the zones of the database's own list of places
(``zone.tab``: one or more per country, about 400) grouped by region, each labelled with
its current UTC offset, plus UTC; where the system has no ``zone.tab``, every
"Region/City" name. ``is_known`` accepts any name the database knows, so a zone chosen
earlier (or sent by a browser) keeps working.
"""

from __future__ import annotations

import zoneinfo
from datetime import datetime, timedelta
from functools import lru_cache
from pathlib import Path

from django.utils import timezone
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


def _label(name: str, now: datetime) -> str:
    place = name.split("/", 1)[1].replace("_", " ").replace("/", " \u2013 ")
    return f"({offset_text(_offset(name, now))}) {place}"


def zone_choices(current: str = "", now: datetime | None = None) -> list[tuple[str, object]]:
    """Choices for a select: UTC, then one group per region ordered by offset then city,
    then the player's ``current`` zone if it is none of these (an old alias)."""
    now = now or timezone.now()
    grouped: dict[str, list[str]] = {region: [] for region in REGIONS}
    for name in _places():
        region, _sep, city = name.partition("/")
        if region in grouped and city:
            grouped[region].append(name)
    choices: list[tuple[str, object]] = [("UTC", "(UTC) UTC")]
    for region, label in REGIONS.items():
        zones = sorted(grouped[region], key=lambda n: (_offset(n, now), n))
        choices.append((str(label), [(n, _label(n, now)) for n in zones]))
    offered = {"UTC"} | {n for zones in grouped.values() for n in zones}
    if current and current not in offered and is_known(current):
        choices.append((str(_("Other")), [(current, current)]))
    return choices
