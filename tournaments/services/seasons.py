"""League seasons: the next season of a finished league, its divisions formed by
promotion and relegation."""

from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games.services import Conflict

from .. import pairing, results
from ..models import Division, Event, Registration
from .clubs import require_organizer, unique_slug
from .events import EVENT_SETTINGS, locked_event


@transaction.atomic
def create_next_season(event: Event, by: Any, name: str | None = None) -> Event:
    """The next season of a finished league: the same settings, its divisions formed by
    promotion and relegation from this season's final standings (withdrawn players
    leave); registration is open for newcomers, who start in the bottom division."""
    require_organizer(event.club, by)
    event = locked_event(event)
    if event.format != Event.Format.LEAGUE:
        raise Conflict(_("Only a league has seasons."), "not_a_league")
    if event.status != Event.Status.FINISHED:
        raise Conflict(_("A league season must be over before the next one."), "event_not_finished")
    if Event.objects.filter(previous_season=event).exists():
        raise Conflict(_("The next season already exists."), "season_exists")
    active = set(
        Registration.objects.filter(event=event, status=Registration.Status.ACTIVE).values_list(
            "user_id", flat=True
        )
    )
    ranked = [
        [row.player for row in rows if row.player in active]
        for division, rows in results.division_standings(event)
        if division is not None
    ]
    try:
        moved = pairing.next_season_divisions(
            ranked, promote=event.promote, relegate=event.relegate
        )
    except pairing.PairingError as exc:
        raise Conflict(exc.message, exc.code) from None
    season = event.season + 1
    nxt = Event.objects.create(
        club=event.club,
        name=name or f"{event.name.split(' — ')[0]} — " + _("season %(n)d") % {"n": season},
        slug=unique_slug(
            f"{event.slug}-s{season}",
            lambda s: Event.objects.filter(club=event.club, slug=s).exists(),
        ),
        description=event.description,
        created_by=by,
        previous_season=event,
        season=season,
        status=Event.Status.REGISTRATION,
        seed=secrets.randbits(31),
        **{
            setting: getattr(event, setting)
            for setting in EVENT_SETTINGS
            if setting not in ("registration_opens", "registration_closes")
        },
    )
    for number, players in enumerate(moved, start=1):
        division = Division.objects.create(
            event=nxt, number=number, promote=event.promote, relegate=event.relegate
        )
        for rank, user_id in enumerate(players, start=1):
            Registration.objects.create(
                event=nxt, user_id=user_id, division=division, seed_rank=rank
            )
    return nxt
