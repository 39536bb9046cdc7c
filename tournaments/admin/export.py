"""The standings of events as a CSV file, for organizers' spreadsheets."""

from __future__ import annotations

import csv

from django.http import HttpResponse
from django.utils.text import slugify
from django.utils.translation import gettext

from .. import presenters
from ..models import Event

# A cell starting with one of these is run as a formula by spreadsheets (and a player's
# name such as =HYPERLINK(...) would become a link): OWASP's "CSV injection".
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_text(value: object) -> object:
    """``value`` as a spreadsheet shows it: text that would start a formula gets a leading
    apostrophe (shown as text, not run); anything else is left as it is."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def standings_csv(events: list[Event]) -> HttpResponse:
    """The standings of ``events`` as one CSV file (a row per player and event)."""
    if len(events) == 1:
        event = events[0]
        filename = f"{event.club.slug}-{event.slug}-standings.csv"
    else:
        filename = "standings.csv"
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slugify(filename[:-4])}.csv"'
    response.write("\ufeff")  # a byte order mark: spreadsheets then read UTF-8 names right
    writer = csv.writer(response)
    writer.writerow(
        [  # the headings are ours (translated), never a formula
            gettext("club"),
            gettext("event"),
            gettext("division"),
            gettext("rank"),
            gettext("player"),
            gettext("player id"),
            gettext("points"),
            gettext("opponents' points"),
            gettext("game score"),
            gettext("head-to-head"),
            gettext("played"),
            gettext("byes"),
            gettext("seat 1"),
            gettext("seat 2"),
            gettext("seat 3"),
            gettext("seat 4"),
            gettext("withdrawn"),
            gettext("knocked out in round"),
        ]
    )
    for event in events:
        for group in presenters.standing_groups(event):
            for s in group.rows:
                row = [
                    event.club.name,
                    event.name,
                    str(group.division) if group.division else "",
                    s.row.rank,
                    s.name,
                    s.user_id,
                    f"{s.row.points:g}",
                    f"{s.row.opponents:g}",
                    s.row.score,
                    f"{s.row.head_to_head:g}",
                    s.row.played,
                    s.row.byes,
                    *s.row.seats,
                    gettext("yes") if s.withdrawn else "",
                    s.eliminated_in or "",
                ]
                writer.writerow([spreadsheet_text(cell) for cell in row])
    return response
