"""Every write to clubs and events goes through here: one function per kind of write.

The admin, the pages, the API and the Celery tasks call these functions, so a rule,
permission or transition is written once. Each write runs in one transaction with the
rows it changes locked (the event row for anything that seats, starts or finishes, so
two workers or a retried task never seat a round twice: the second one waits for the
lock, re-reads and finds nothing to do; the unique round number backs this up). Writes
to games go through ``games.services``.

Refusals raise ``games.services.ServiceError`` (400), ``NotAPlayer`` (403) or
``Conflict`` (409) with a stable code and a sentence a player understands.

Club writes live in ``tournaments.clubs`` and vacation limits in ``tournaments.vacations``;
the club writes are re-exported here, so every caller writes ``services.<write>``.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, OuterRef, Subquery
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from games import kinds, notifications
from games import services as games
from games.models import Game, Notification, Player, Rating, Seat
from games.services import Conflict, NotAPlayer, ServiceError

from . import pairing, results, standings, vacations
from .clubs import (  # noqa: F401 - club writes are re-exported: services.create_club, ...
    RESERVED_CLUB_SLUGS,
    _organizer_access,
    _organizers,
    _require_organizer,
    _require_user,
    _unique_slug,
    create_club,
    decide_join_request,
    is_organizer,
    join_by_invite,
    join_club,
    leave_club,
    new_invite_code,
    request_to_join,
    set_role,
)
from .models import (
    Bye,
    Club,
    Division,
    Event,
    Membership,
    Registration,
    Round,
    Table,
    TimeoutDecision,
)

log = logging.getLogger(__name__)

EVENT_TABLE_KIND = Notification.Kind.EVENT_TABLE
DAYS_PER_MOVE = (1, 2, 3, 5, 7)


# --- Events: creating, registering ------------------------------------------------------------

EVENT_FIELDS = {
    "game",
    "name",
    "slug",
    "description",
    "format",
    "table_size",
    "min_table_size",
    "rounds",
    "rated",
    "days_per_move",
    "hours_per_move",
    "time_bank_hours",
    "timeout_policy",
    "timeouts_before_decision",
    "bye_points",
    "points_scheme",
    "tiebreaks",
    "knockout_advance",
    "division_size",
    "promote",
    "relegate",
    "registration_opens",
    "registration_closes",
    "vacation_limit_days",
    "seed",
}


def check_event(event: Event) -> None:
    """Raise ``ServiceError`` for settings an event cannot run with (also used by forms)."""
    try:
        kind = kinds.get(event.game)
    except LookupError:
        raise ServiceError(_("Unknown game."), "bad_game") from None
    if not 2 <= event.table_size <= kind.max_players:
        raise ServiceError(
            _("A table of %(game)s seats 2 to %(high)s players.")
            % {"game": kind.title, "high": kind.max_players},
            "bad_table_size",
        )
    if not 2 <= event.min_table_size <= event.table_size:
        raise ServiceError(
            _("The smallest table seats at least 2 and at most the table size."),
            "bad_min_table_size",
        )
    if event.format == Event.Format.SWISS and not event.rounds:
        raise ServiceError(_("A Swiss event needs a number of rounds."), "bad_rounds")
    if event.rounds is not None and not 1 <= event.rounds <= 50:
        raise ServiceError(_("An event has 1 to 50 rounds."), "bad_rounds")
    if event.days_per_move is not None and event.days_per_move not in DAYS_PER_MOVE:
        raise ServiceError(_("Days per move are 1, 2, 3, 5 or 7."), "bad_time_control")
    if event.hours_per_move is not None and not 1 <= event.hours_per_move <= 72:
        raise ServiceError(_("Hours per move are 1 to 72."), "bad_time_control")
    if not 0 <= event.time_bank_hours <= 24 * 14:
        raise ServiceError(_("A time bank is at most 14 days."), "bad_time_control")
    if event.timeout_policy not in Event.TimeoutPolicy.values:
        raise ServiceError(_("Unknown timeout policy."), "bad_timeout_policy")
    if not 1 <= event.timeouts_before_decision <= 3:
        raise ServiceError(
            _("The timeout policy applies after 1 to 3 timeouts in a row."), "bad_timeouts"
        )
    if event.bye_points < 0:
        raise ServiceError(_("A bye cannot cost points."), "bad_bye_points")
    scheme = event.points_scheme or []
    if not isinstance(scheme, list) or len(scheme) > 4:
        raise ServiceError(
            _("Points by place are a list of at most four numbers."), "bad_points_scheme"
        )
    try:
        values = [float(p) for p in scheme]
    except (TypeError, ValueError):
        raise ServiceError(
            _("Points by place are a list of at most four numbers."), "bad_points_scheme"
        ) from None
    if any(v < 0 for v in values) or values != sorted(values, reverse=True):
        raise ServiceError(
            _("Points by place cannot be negative and cannot grow for a worse place."),
            "bad_points_scheme",
        )
    tiebreaks = event.tiebreaks if event.tiebreaks is not None else []
    if (
        not isinstance(tiebreaks, list)
        or len(set(tiebreaks)) != len(tiebreaks)
        or any(t not in standings.TIEBREAKS for t in tiebreaks)
    ):
        raise ServiceError(
            _("Tie-breaks are any of: opponents, score, head_to_head, each at most once."),
            "bad_tiebreaks",
        )
    if event.format == Event.Format.KNOCKOUT and not 1 <= event.knockout_advance < event.table_size:
        raise ServiceError(
            _("Fewer players advance from a knockout table than sit at it."), "bad_advance"
        )
    if event.division_size is not None and event.division_size < event.min_table_size:
        raise ServiceError(
            _("A division holds at least one table's worth of players."), "bad_division_size"
        )
    opens, closes = event.registration_opens, event.registration_closes
    if opens and closes and closes <= opens:
        raise ServiceError(_("Registration must close after it opens."), "bad_registration_window")
    if event.vacation_limit_days > 365:
        raise ServiceError(_("A vacation limit is at most 365 days."), "bad_vacation_limit")


@transaction.atomic
def create_event(club: Club, by: Any, **fields: Any) -> Event:
    """A new event of ``club`` in draft; ``fields`` are Event fields (see ``EVENT_FIELDS``)."""
    _require_organizer(club, by)
    unknown = set(fields) - EVENT_FIELDS
    if unknown:
        raise ServiceError(
            _("Unknown event settings: %(names)s.") % {"names": ", ".join(sorted(unknown))},
            "bad_field",
        )
    name = (fields.get("name") or "").strip()
    if not name:
        raise ServiceError(_("An event needs a name."), "bad_name")
    fields["name"] = name
    if not fields.get("slug"):
        fields["slug"] = _unique_slug(
            name, lambda s: Event.objects.filter(club=club, slug=s).exists()
        )
    elif Event.objects.filter(club=club, slug=fields["slug"]).exists():
        raise Conflict(_("Another event of this club uses this short name."), "slug_taken")
    fields.setdefault("seed", secrets.randbits(31))
    event = Event(club=club, created_by=by, **fields)
    check_event(event)
    try:
        event.full_clean()
    except ValidationError as exc:
        raise ServiceError(" ".join(exc.messages), "bad_event") from None
    event.save()
    return event


def _locked_event(event: Event | int) -> Event:
    pk = event.pk if isinstance(event, Event) else event
    return Event.objects.select_for_update().select_related("club").get(pk=pk)


@transaction.atomic
def open_registration(event: Event, by: Any) -> Event:
    _require_organizer(event.club, by)
    event = _locked_event(event)
    if event.status != Event.Status.DRAFT:
        raise Conflict(_("Registration can only be opened for a draft event."), "bad_status")
    event.status = Event.Status.REGISTRATION
    event.save(update_fields=["status"])
    return event


def registration_open(event: Event, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    if event.status != Event.Status.REGISTRATION:
        return False
    if event.registration_opens and now < event.registration_opens:
        return False
    return not (event.registration_closes and now >= event.registration_closes)


@transaction.atomic
def register(event: Event, user: Any, now: datetime | None = None) -> Registration:
    """Register ``user``; a public club's event makes them a member, an invite-only club's
    event needs them to be one."""
    _require_user(user)
    event = _locked_event(event)
    if not registration_open(event, now):
        raise Conflict(_("Registration for this event is not open."), "registration_closed")
    if not event.club.is_member(user):
        if not event.club.is_public:
            raise NotAPlayer(
                _("Only members of this club can register for its events."), "not_member"
            )
        Membership.objects.get_or_create(club=event.club, user=user)
    Player.for_user(user)
    registration, created = Registration.objects.get_or_create(event=event, user=user)
    if not created:
        if registration.is_active:
            raise Conflict(_("You are already registered."), "already_registered")
        registration.status = Registration.Status.ACTIVE
        registration.withdrawn_at = None
        registration.save(update_fields=["status", "withdrawn_at"])
    return registration


@transaction.atomic
def withdraw(event: Event, user: Any) -> Registration:
    """Leave an event. Before it starts the place is simply given up; during it, the
    player's seats in unfinished games pass to the bot (those results still count as
    played out) and they are not seated again (a round robin's fixed schedule seats the
    bot in their place)."""
    _require_user(user)
    event = _locked_event(event)
    registration = Registration.objects.filter(event=event, user=user).first()
    if registration is None or not registration.is_active:
        raise Conflict(_("You are not registered for this event."), "not_registered")
    if event.status == Event.Status.FINISHED:
        raise Conflict(_("This event is over."), "event_finished")
    registration.status = Registration.Status.WITHDRAWN
    registration.withdrawn_at = timezone.now()
    registration.save(update_fields=["status", "withdrawn_at"])
    if event.status == Event.Status.RUNNING:
        _hand_over_seats(event, user)
    return registration


def _unfinished_seats(event: Event, user: Any) -> list[Seat]:
    return list(
        Seat.objects.filter(
            user=user,
            game__event_table__round__event=event,
            game__status=Game.Status.ACTIVE,
            bot="",
        ).order_by("game_id")
    )


def _hand_over_seats(event: Event, user: Any) -> int:
    handed = 0
    for seat in _unfinished_seats(event, user):
        handed += games.hand_seat_to_bot(seat.game_id, seat.position)
    return handed


@transaction.atomic
def replace_with_bot(event: Event, user: Any, by: Any, withdraw_player: bool = False) -> int:
    """An organizer hands a player's seats in the event's unfinished games to the bot
    (and, with ``withdraw_player``, withdraws them from later rounds). Returns how many
    seats were handed over."""
    _require_organizer(event.club, by)
    event = _locked_event(event)
    if event.status != Event.Status.RUNNING:
        raise Conflict(_("This event is not running."), "event_not_running")
    registration = Registration.objects.filter(event=event, user=user).first()
    if registration is None:
        raise Conflict(_("This player is not registered for this event."), "not_registered")
    if withdraw_player and registration.is_active:
        registration.status = Registration.Status.WITHDRAWN
        registration.withdrawn_at = timezone.now()
        registration.save(update_fields=["status", "withdrawn_at"])
    return _hand_over_seats(event, user)


# --- Starting and seating -------------------------------------------------------------------------


# Strongest first: the organizer's seeding, then the rating in the event's game (the
# ``game_rating`` of ``_by_seeding``), then who registered first.
SEEDING = (
    F("seed_rank").asc(nulls_last=True),
    F("game_rating").desc(nulls_last=True),
    "registered_at",
    "pk",
)


def _by_seeding(event: Event, registrations: Any) -> Any:
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


@transaction.atomic
def start_event(event: Event, by: Any) -> Round:
    """Close registration, form divisions (round robins, leagues) and seat round 1."""
    _require_organizer(event.club, by)
    event = _locked_event(event)
    if event.status not in (Event.Status.DRAFT, Event.Status.REGISTRATION):
        raise Conflict(_("This event has already started."), "already_started")
    check_event(event)
    active = list(
        _by_seeding(
            event, Registration.objects.filter(event=event, status=Registration.Status.ACTIVE)
        )
    )
    needed = max(event.min_table_size, 2)
    if len(active) < needed:
        raise Conflict(
            _("At least %(n)d players must be registered to start.") % {"n": needed},
            "too_few_players",
        )
    if not event.seed:
        event.seed = secrets.randbits(31)
    event.status = Event.Status.RUNNING
    event.started_at = timezone.now()
    event.save(update_fields=["status", "started_at", "seed"])
    try:
        if event.has_divisions:
            _form_divisions(event, active)
        seating = _seating(event, 1)
    except pairing.PairingError as exc:
        raise Conflict(exc.message, exc.code) from None
    return _seat(event, 1, seating)


def _form_divisions(event: Event, active: list[Registration]) -> None:
    """Players with a division (carried over from the last season) keep it; the others
    fill divisions of ``division_size`` from the bottom up (new ones below)."""
    size = event.division_size or len(active)
    divisions = {d.number: d for d in event.divisions.all()}
    placed: dict[int, list[Registration]] = {n: [] for n in divisions}
    newcomers = []
    for registration in active:
        if registration.division_id and registration.division.number in placed:
            placed[registration.division.number].append(registration)
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


def _seating(event: Event, number: int) -> Seating:
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
        _by_seeding(
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


def _seat(event: Event, number: int, seating: Seating) -> Round:
    """Create round ``number`` with one started game per table and tell the players."""
    try:
        with transaction.atomic():
            round_ = Round.objects.create(event=event, number=number, is_final=seating.is_final)
    except IntegrityError:
        raise Conflict(_("This round has already been seated."), "round_seated") from None
    withdrawn = set(
        Registration.objects.filter(event=event, status=Registration.Status.WITHDRAWN).values_list(
            "user_id", flat=True
        )
    )
    tables = []
    for index, (players, division) in enumerate(seating.tables, start=1):
        game = _table_game(event, players, withdrawn)
        tables.append(
            (
                Table.objects.create(round=round_, number=index, division=division, game=game),
                players,
            )
        )
    # Players away on vacation: their new clocks, within the event's limit, before the mail
    # tells them their deadline.
    seated = [user_id for _table, players in tables for user_id in players]
    away = Player.objects.filter(user_id__in=seated, vacation_until__gt=timezone.now()).values_list(
        "user_id", flat=True
    )
    for user_id in away:
        vacations.enforce_vacation_limits(user_id)
    for table, players in tables:
        _tell_players(event, table, players, withdrawn)
    Bye.objects.bulk_create(
        Bye(round=round_, user_id=user_id, points=event.bye_points) for user_id in seating.byes
    )
    event.current_round = number
    event.save(update_fields=["current_round"])
    return round_


def _table_game(event: Event, players: Sequence[int], withdrawn: set[int]) -> Game:
    """A started game with ``players`` in this seat order, the event's time control and
    rating; withdrawn players' seats are played by the bot from the start."""
    from django.contrib.auth import get_user_model

    users = get_user_model().objects.in_bulk(list(players))
    first = users[players[0]]
    game = games.create_game(
        first,
        kind=event.game,
        players=len(players),
        # A withdrawn player's seat is the bot's from the start: such a game is not rated.
        rated=event.rated and not withdrawn.intersection(players),
        days_per_move=event.days_per_move if not event.hours_per_move else None,
        hours_per_move=event.hours_per_move,
        time_bank_hours=event.time_bank_hours,
        timeout_policy="bot",
    )
    # The organizer hears of hand-overs to the bot, as the creator of a game does.
    Game.objects.filter(pk=game.pk).update(created_by=event.created_by or first)
    for user_id in players[1:]:
        games.join_game(game.pk, users[user_id])
    for position, user_id in enumerate(players):
        if user_id in withdrawn:
            games.hand_seat_to_bot(game.pk, position)
    game.refresh_from_db()
    return game


def _url(name: str, *args: Any, fallback: str = "") -> str:
    try:
        return notifications._site(reverse(name, args=args))
    except NoReverseMatch:
        return fallback


def _tell_players(event: Event, table: Table, players: Sequence[int], withdrawn: set[int]) -> None:
    """An "event round seated" mail to every player at the table (key: table and user)."""
    seats = list(
        Seat.objects.filter(game=table.game).select_related("user__player").order_by("position")
    )
    names = [seat.name for seat in seats]
    game_url = _url("games:detail", table.game_id)
    event_url = _url("tournaments:event", event.club.slug, event.slug, fallback=game_url)
    for seat in seats:
        if seat.user is None or seat.user_id in withdrawn:
            continue
        context = {
            "event": event.name,
            "club": event.club.name,
            "round": table.round.number,
            "final": table.round.is_final,
            "table": table.number,
            "seat": seat.position,
            "names": names,
            "game_id": table.game_id,
            "game_url": game_url,
            "event_url": event_url,
            "deadline": seat.deadline.isoformat() if seat.deadline else None,
            "timeout_policy": event.timeout_policy,
        }
        notifications.create(
            seat.user,
            table.game,
            EVENT_TABLE_KIND,
            f"table:{table.pk}:{seat.user_id}",
            context,
        )


# --- The next round ---------------------------------------------------------------------------


def round_complete(round_: Round) -> bool:
    """Every game of the round is over (finished, adjudicated or aborted)."""
    return not Table.objects.filter(round=round_, game__status__lt=Game.Status.FINISHED).exists()


def _event_over(event: Event, current: Round) -> bool:
    if event.format == Event.Format.KNOCKOUT:
        return current.is_final or len(knockout_advancing(event, current.number)) < 2
    return current.number >= (total_rounds(event) or 0)


def _finish(event: Event) -> None:
    event.status = Event.Status.FINISHED
    event.finished_at = timezone.now()
    event.save(update_fields=["status", "finished_at"])
    if event.format == Event.Format.KNOCKOUT:
        _mark_knockout_eliminations(event)


def _mark_knockout_eliminations(event: Event) -> None:
    last = event.current_round
    for number in range(1, last + 1):
        going_on = set(knockout_advancing(event, number)) if number < last else set()
        seated = set(
            Seat.objects.filter(game__event_table__round__event=event, user__isnull=False)
            .filter(game__event_table__round__number=number)
            .values_list("user_id", flat=True)
        )
        out = seated - going_on
        if number == last:
            # The final table: nobody is knocked out of it (its places rank the winners).
            continue
        Registration.objects.filter(event=event, user_id__in=out, eliminated_in=None).update(
            eliminated_in=number
        )


def advance(event_id: int, by: Any = None) -> Round | None:
    """Seat the next round when every game of the current one is over; finish the event
    after its last round. Idempotent: returns None (and changes nothing) when the round
    is still being played or was already followed up — by another worker, a retried task
    or the organizer. With ``by`` (an organizer seating by hand) a refusal says why."""
    with transaction.atomic():
        event = _locked_event(event_id)
        if by is not None:
            _require_organizer(event.club, by)
        if event.status != Event.Status.RUNNING:
            if by is not None:
                raise Conflict(_("This event is not running."), "event_not_running")
            return None
        current = Round.objects.filter(event=event, number=event.current_round).first()
        if current is None:
            return None
        if not round_complete(current):
            if by is not None:
                raise Conflict(
                    _("Some games of this round are still being played: wait, or adjudicate them."),
                    "round_not_finished",
                )
            return None
        if current.status != Round.Status.FINISHED:
            current.status = Round.Status.FINISHED
            current.finished_at = timezone.now()
            current.save(update_fields=["status", "finished_at"])
        if _event_over(event, current):
            _finish(event)
            return None
        try:
            seating = _seating(event, current.number + 1)
        except pairing.PairingError as exc:
            log.error("event %s: round %s cannot be seated: %s", event.pk, current.number + 1, exc)
            raise Conflict(exc.message, exc.code) from None
        return _seat(event, current.number + 1, seating)


def seat_next_round(event: Event, by: Any) -> Round | None:
    """The organizer seats the next round by hand (the same step the task takes).

    Returns the new round, or None when the round just completed was the last one and
    the event is now finished. Raises ``Conflict`` while games of the round are still
    being played or when the event is not running."""
    return advance(event.pk, by=by)


@transaction.atomic
def close_event(event: Event, by: Any) -> Event:
    """End the event early (after a complete round): no further round is seated."""
    _require_organizer(event.club, by)
    event = _locked_event(event)
    if event.status == Event.Status.FINISHED:
        raise Conflict(_("This event is already over."), "event_finished")
    if event.status != Event.Status.RUNNING:
        raise Conflict(_("This event has not started."), "event_not_running")
    current = Round.objects.filter(event=event, number=event.current_round).first()
    if current is not None and not round_complete(current):
        raise Conflict(
            _("Some games of this round are still being played: wait, or adjudicate them."),
            "round_not_finished",
        )
    if current is not None and current.status != Round.Status.FINISHED:
        current.status = Round.Status.FINISHED
        current.finished_at = timezone.now()
        current.save(update_fields=["status", "finished_at"])
    _finish(event)
    return event


def events_ready_to_advance() -> list[int]:
    """Running events whose current round has no game left to play (the beat safety net)."""
    running = Event.objects.filter(status=Event.Status.RUNNING).values_list("pk", "current_round")
    ready = []
    for event_id, number in running:
        pending = Table.objects.filter(
            round__event_id=event_id, round__number=number, game__status__lt=Game.Status.FINISHED
        ).exists()
        if not pending:
            ready.append(event_id)
    return ready


def event_of_game(game_id: int) -> int | None:
    return Table.objects.filter(game_id=game_id).values_list("round__event_id", flat=True).first()


# --- Adjudication and timeouts ------------------------------------------------------------------


@transaction.atomic
def adjudicate_table(table: Table, by: Any) -> Table:
    """End a stalled game of the event with its current scores (an organizer's ruling)."""
    event = table.round.event
    _require_organizer(event.club, by)
    _locked_event(event)
    table = Table.objects.select_for_update().get(pk=table.pk)
    games.adjudicate_game(table.game_id, by)
    table.adjudicated = True
    table.adjudicated_by = by
    table.adjudicated_at = timezone.now()
    table.save(update_fields=["adjudicated", "adjudicated_by", "adjudicated_at"])
    return table


def apply_timeout_policy(game_id: int, position: int, outcome: str = "timed out") -> str:
    """Log what the event's timeout policy decides for a seat that ran out of time.

    Once the seat has timed out ``timeouts_before_decision`` times in a row (or the games
    app handed it to the bot), the policy applies: the bot finishes the seat, and with
    the "ranks last" policy the player is ranked last at the table. Before that, the
    timeout is logged. Idempotent (one row per game and seat, decisions never taken
    twice); an organizer's override is kept. Returns the decision's outcome, or "" for a
    game outside events.
    """
    with transaction.atomic():
        table = (
            Table.objects.select_for_update()
            .select_related("round__event")
            .filter(game_id=game_id)
            .first()
        )
        if table is None:
            return ""
        event = table.round.event
        seat = Seat.objects.get(game_id=game_id, position=position)
        decision, _created = TimeoutDecision.objects.get_or_create(
            game_id=game_id,
            position=position,
            defaults={
                "table": table,
                "user_id": seat.user_id,
                "policy": event.timeout_policy,
                "outcome": TimeoutDecision.Outcome.TIMED_OUT,
                "timeouts": max(1, seat.timeouts_in_row),
            },
        )
        decision.timeouts = max(decision.timeouts, seat.timeouts_in_row)
        due = outcome == "handed to bot" or seat.timeouts_in_row >= event.timeouts_before_decision
        if due and decision.outcome == TimeoutDecision.Outcome.TIMED_OUT:
            decision.policy = event.timeout_policy
            if event.timeout_policy == Event.TimeoutPolicy.LAST:
                decision.outcome = TimeoutDecision.Outcome.RANKS_LAST
                decision.ranks_last = not decision.is_overridden or decision.ranks_last
            else:
                decision.outcome = TimeoutDecision.Outcome.BOT_FINISHES
            games.hand_seat_to_bot(game_id, position)
        decision.save()
        return str(decision.outcome)


@transaction.atomic
def override_timeout_decision(
    decision: TimeoutDecision, by: Any, ranks_last: bool, note: str = ""
) -> TimeoutDecision:
    """The organizer rules otherwise: the player is (or is not) ranked last at the table."""
    event = decision.table.round.event
    _require_organizer(event.club, by)
    decision = TimeoutDecision.objects.select_for_update().get(pk=decision.pk)
    if len(note or "") > 2000:
        raise ServiceError(_("A note has at most 2000 characters."), "bad_note")
    decision.ranks_last = bool(ranks_last)
    decision.overridden_by = by
    decision.overridden_at = timezone.now()
    decision.note = note or ""
    decision.save(update_fields=["ranks_last", "overridden_by", "overridden_at", "note"])
    return decision


def pending_timeout_decisions() -> list[tuple[int, int]]:
    """(game, seat) of running events' games whose seat timed out often enough for the
    policy but has no decision yet (the beat safety net for a lost signal)."""
    seats = [
        (game_id, position)
        for game_id, position, timeouts, needed in Seat.objects.filter(
            game__event_table__round__event__status=Event.Status.RUNNING,
            game__status=Game.Status.ACTIVE,
            timeouts_in_row__gte=1,
        ).values_list(
            "game_id",
            "position",
            "timeouts_in_row",
            "game__event_table__round__event__timeouts_before_decision",
        )
        if timeouts >= needed
    ]
    decided = set(
        TimeoutDecision.objects.filter(game_id__in={game_id for game_id, _p in seats})
        .exclude(outcome=TimeoutDecision.Outcome.TIMED_OUT)
        .values_list("game_id", "position")
    )
    return [seat for seat in seats if seat not in decided]


# --- League seasons -----------------------------------------------------------------------------


@transaction.atomic
def create_next_season(event: Event, by: Any, name: str | None = None) -> Event:
    """The next season of a finished league: the same settings, its divisions formed by
    promotion and relegation from this season's final standings (withdrawn players
    leave); registration is open for newcomers, who start in the bottom division."""
    _require_organizer(event.club, by)
    event = _locked_event(event)
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
        slug=_unique_slug(
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
            name_: getattr(event, name_)
            for name_ in EVENT_FIELDS
            - {"name", "slug", "description", "seed", "registration_opens", "registration_closes"}
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


# --- Organizer edits from the admin (written by PAGES) ---------------------------------------------

EDITABLE_WHILE_RUNNING = frozenset({"name", "description"})


@transaction.atomic
def update_event(event: Event, by: Any, **fields: Any) -> Event:
    """An organizer changes an event's settings (``EVENT_FIELDS``): its name and
    description at any time, the rest only before it starts (rounds already seated were
    seated by them)."""
    _require_organizer(event.club, by)
    unknown = set(fields) - EVENT_FIELDS
    if unknown:
        raise ServiceError(
            _("Unknown event settings: %(names)s.") % {"names": ", ".join(sorted(unknown))},
            "bad_field",
        )
    event = _locked_event(event)
    started = event.status not in (Event.Status.DRAFT, Event.Status.REGISTRATION)
    if started and set(fields) - EDITABLE_WHILE_RUNNING:
        raise Conflict(
            _("Once an event has started only its name and description can change."),
            "event_started",
        )
    if (
        "slug" in fields
        and Event.objects.filter(club=event.club, slug=fields["slug"]).exclude(pk=event.pk).exists()
    ):
        raise Conflict(_("Another event of this club uses this short name."), "slug_taken")
    if "name" in fields:
        fields["name"] = (fields["name"] or "").strip()
        if not fields["name"]:
            raise ServiceError(_("An event needs a name."), "bad_name")
    for name, value in fields.items():
        setattr(event, name, value)
    check_event(event)
    try:
        event.full_clean()
    except ValidationError as exc:
        raise ServiceError(" ".join(exc.messages), "bad_event") from None
    if fields:
        event.save(update_fields=sorted(fields))
    return event


@transaction.atomic
def remove_member(club: Club, user: Any, by: Any) -> None:
    """An organizer removes a member from the club (never its last organizer). Their
    event registrations stay: withdraw them from an event separately."""
    _require_organizer(club, by)
    club = Club.objects.select_for_update().get(pk=club.pk)
    membership = Membership.objects.filter(club=club, user=user).first()
    if membership is None:
        raise Conflict(_("This player is not a member of the club."), "not_member")
    if membership.is_organizer and _organizers(club) == 1:
        raise Conflict(_("A club keeps at least one organizer."), "last_organizer")
    membership.delete()
    if membership.is_organizer:
        _organizer_access(user, False)


CLUB_FIELDS = frozenset({"name", "slug", "description", "visibility"})


@transaction.atomic
def update_club(club: Club, by: Any, **fields: Any) -> Club:
    """An organizer changes the club's name, short name, description or who can join."""
    _require_organizer(club, by)
    unknown = set(fields) - CLUB_FIELDS
    if unknown:
        raise ServiceError(
            _("Unknown club settings: %(names)s.") % {"names": ", ".join(sorted(unknown))},
            "bad_field",
        )
    club = Club.objects.select_for_update().get(pk=club.pk)
    if "name" in fields:
        fields["name"] = (fields["name"] or "").strip()
        if not fields["name"]:
            raise ServiceError(_("A club needs a name."), "bad_name")
    slug = fields.get("slug", club.slug)
    if slug != club.slug and (
        slug in RESERVED_CLUB_SLUGS or Club.objects.filter(slug=slug).exclude(pk=club.pk).exists()
    ):
        raise Conflict(_("Another club already uses this short name."), "slug_taken")
    if "visibility" in fields and fields["visibility"] not in Club.Visibility.values:
        raise ServiceError(_("A club is public or invite only."), "bad_visibility")
    for name, value in fields.items():
        setattr(club, name, value)
    try:
        club.full_clean()
    except ValidationError as exc:
        raise ServiceError(" ".join(exc.messages), "bad_club") from None
    if fields:
        club.save(update_fields=sorted(fields))
    return club


@transaction.atomic
def set_seed_ranks(event: Event, by: Any, ranks: dict[int, int | None]) -> int:
    """An organizer seeds players before the start (1 = strongest; None: unseeded), by
    registration id. Knockouts seat by seed; other formats order their entrants by it.
    Returns how many registrations changed."""
    _require_organizer(event.club, by)
    event = _locked_event(event)
    if event.status not in (Event.Status.DRAFT, Event.Status.REGISTRATION):
        raise Conflict(_("Seeding is fixed once the event has started."), "event_started")
    if any(rank is not None and (not isinstance(rank, int) or rank < 1) for rank in ranks.values()):
        raise ServiceError(_("A seeding rank is a whole number from 1."), "bad_seed_rank")
    changed = 0
    for registration in Registration.objects.filter(event=event, pk__in=list(ranks)):
        rank = ranks[registration.pk]
        if registration.seed_rank != rank:
            registration.seed_rank = rank
            registration.save(update_fields=["seed_rank"])
            changed += 1
    return changed
