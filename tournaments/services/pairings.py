"""Who sits at which table in a round: the event's players, standings and history
handed to the pure pairing (``tournaments.pairing``), and a league's divisions formed
with their fixed schedules. Reads only, but for the divisions formed at the start."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import F, OuterRef, Subquery
from django.utils.translation import gettext as _

from games.models import Rating
from games.services import Conflict

from .. import pairing, results, standings
from ..models import Bye, Division, Event, Registration, Round

# Strongest first: the organizer's seeding, then the rating in the event's game (the
# ``game_rating`` of ``by_seeding``), then who registered first.
SEEDING = (
    F("seed_rank").asc(nulls_last=True),
    F("game_rating").desc(nulls_last=True),
    "registered_at",
    "pk",
)


def by_seeding(event: Event, registrations: Any) -> Any:
    rating = Rating.objects.filter(user_id=OuterRef("user_id"), kind=event.game)
    return registrations.annotate(game_rating=Subquery(rating.values("rating")[:1])).order_by(
        *SEEDING
    )


@dataclass
class Seating:
    """One round to seat: tables (user ids in seat order) with their divisions, byes."""

    tables: list[tuple[tuple[int, ...], Division | None]] = field(default_factory=list)
    byes: list[int] = field(default_factory=list)
    is_final: bool = False


def form_divisions(event: Event, active: list[Registration]) -> None:
    """Players with a division (carried over from the last season) keep it; the others
    fill divisions of ``division_size`` from the bottom up (new ones below)."""
    size = event.division_size or len(active)
    divisions = {d.number: d for d in event.divisions.all()}
    placed: dict[int, list[Registration]] = {n: [] for n in divisions}
    number_of = {division.pk: n for n, division in divisions.items()}
    newcomers = []
    for registration in active:
        carried = number_of.get(registration.division_id) if registration.division_id else None
        if carried is not None:
            placed[carried].append(registration)
        else:
            newcomers.append(registration)
    number = max(divisions, default=0)
    if number and newcomers:
        bottom = placed[number]
        room = max(0, size - len(bottom))
        bottom.extend(newcomers[:room])
        newcomers = newcomers[room:]
    for start in range(0, len(newcomers), size):
        chunk = newcomers[start : start + size]
        if number and len(chunk) < event.min_table_size:
            placed[number].extend(chunk)  # too few for a division of their own
            continue
        number += 1
        divisions[number] = Division.objects.create(
            event=event, number=number, promote=event.promote, relegate=event.relegate
        )
        placed[number] = list(chunk)
    for number, members in placed.items():
        division = divisions[number]
        if len(members) < event.min_table_size:
            raise Conflict(
                _("Division %(n)d has too few players to seat a table.") % {"n": number},
                "division_too_small",
            )
        Registration.objects.filter(pk__in=[r.pk for r in members]).update(division=division)
        players = sorted(r.user_id for r in members)
        schedule = pairing.round_robin(
            players,
            table_size=event.table_size,
            rounds=event.rounds,
            seed=event.seed + number,
            min_size=event.min_table_size,
        )
        division.schedule = [
            {"tables": [list(t) for t in p.tables], "byes": list(p.byes)} for p in schedule
        ]
        division.save(update_fields=["schedule"])


def total_rounds(event: Event) -> int | None:
    """How many rounds the event has, or None for a knockout (it ends at its final)."""
    if event.format == Event.Format.KNOCKOUT:
        return None
    if event.has_divisions:
        return max((len(d.schedule) for d in event.divisions.all()), default=0)
    return event.rounds or 0


def seating_for(event: Event, number: int) -> Seating:
    if event.has_divisions:
        seating = Seating()
        for division in event.divisions.order_by("number"):
            if number <= len(division.schedule):
                entry = division.schedule[number - 1]
                seating.tables.extend((tuple(t), division) for t in entry["tables"])
                seating.byes.extend(entry["byes"])
        return seating
    if event.format == Event.Format.KNOCKOUT:
        return _knockout_seating(event, number)
    return _swiss_seating(event, number)


def _active_players(event: Event) -> list[int]:
    return list(
        by_seeding(
            event, Registration.objects.filter(event=event, status=Registration.Status.ACTIVE)
        ).values_list("user_id", flat=True)
    )


def _swiss_seating(event: Event, number: int) -> Seating:
    tables = results.played_tables(event)
    players = _active_players(event)
    rows = {row.player: row for row in results.table_standings(event, players, tables)}
    history = results.seat_history(tables)
    entrants = [
        pairing.Entrant(
            id=player,
            points=rows[player].points,
            score=rows[player].score,
            seats=tuple(history.get(player, ())),
            byes=rows[player].byes,
        )
        for player in players
    ]
    meetings = pairing.meetings_from(t.players for t in tables)
    result = pairing.swiss(
        entrants,
        meetings,
        table_size=event.table_size,
        min_size=event.min_table_size,
        seed=event.seed * 100 + number,
    )
    return Seating(tables=[(t, None) for t in result.tables], byes=list(result.byes))


def knockout_advancing(event: Event, round_number: int) -> list[int]:
    """Who goes on from a knockout round, best first: the top ``knockout_advance`` of
    each table (timeout decisions and withdrawals count against a player; ties at the
    cut go to the better seed, i.e. the earlier entrant of the round), then the
    round's byes. Ordered by place, then game score, then seed."""
    round_ = Round.objects.get(event=event, number=round_number)
    withdrawn = set(
        Registration.objects.filter(event=event, status=Registration.Status.WITHDRAWN).values_list(
            "user_id", flat=True
        )
    )
    seed_order = {p: i for i, p in enumerate(_knockout_order(event, round_number))}
    ranked: list[tuple[int, int, int, int]] = []
    for played in results.played_tables(event):
        if played.table.round_id != round_.pk:
            continue
        at = standings.places(played.result())
        score = dict(zip(played.players, played.scores, strict=True))
        eligible = sorted(
            (p for p in played.players if p not in withdrawn),
            key=lambda p: (at[p], -score[p], seed_order.get(p, 10**6)),
        )
        for p in eligible[: event.knockout_advance]:
            ranked.append((at[p], -score[p], seed_order.get(p, 10**6), p))
    ranked.sort()
    byes = [
        b
        for b in Bye.objects.filter(round=round_).values_list("user_id", flat=True)
        if b not in withdrawn
    ]
    return [p for *_, p in ranked] + sorted(byes, key=lambda p: seed_order.get(p, 10**6))


def _knockout_order(event: Event, round_number: int) -> list[int]:
    """The entrants of a knockout round, best seed first."""
    if round_number == 1:
        return _active_players(event)
    return knockout_advancing(event, round_number - 1)


def _knockout_seating(event: Event, number: int) -> Seating:
    ranked = _knockout_order(event, number)
    if len(ranked) < 2:
        return Seating()
    history = results.seat_history(results.played_tables(event))
    result = pairing.knockout(
        ranked,
        table_size=event.table_size,
        min_size=min(event.min_table_size, len(ranked)),
        seed=event.seed * 100 + number,
        seat_history=history,
    )
    return Seating(
        tables=[(t, None) for t in result.tables],
        byes=list(result.byes),
        is_final=len(result.tables) == 1 and not result.byes,
    )
