"""The public club, event and player pages, and the buttons on them.

Thin views: each fetches what is asked for through ``tournaments.access`` (404 for what
does not exist or is not shown), calls one function of ``tournaments.services`` for a
write (which checks every rule and permission) and renders. A refused write comes back
as a message on the page it came from.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from games import kinds, ratings
from games.services import ServiceError

from . import presenters, results, services
from .access import club_or_404, event_for_viewer, may_run
from .forms import ClubForm, JoinRequestForm
from .models import Club, Event, JoinRequest, Membership, Registration

CLUBS_PER_PAGE = 30
EVENTS_SHOWN = 30
LEADERBOARD_SHOWN = 20


def _refused(request: HttpRequest, write: Callable[[], Any], success: str) -> bool:
    """Run a service call; on a refusal show its message. True if it went through."""
    try:
        write()
    except ServiceError as exc:
        messages.error(request, exc.message)
        return False
    messages.success(request, success)
    return True


# --- Clubs -------------------------------------------------------------------------------------


@require_safe
def clubs(request: HttpRequest) -> HttpResponse:
    found = Club.objects.annotate(
        members=Count("memberships", distinct=True),
        running=Count("events", filter=Q(events__status=Event.Status.RUNNING), distinct=True),
    ).order_by("name")
    page = Paginator(found, CLUBS_PER_PAGE).get_page(request.GET.get("page"))
    mine: set[int] = set()
    if request.user.is_authenticated:
        mine = set(Membership.objects.filter(user=request.user).values_list("club_id", flat=True))
    return render(request, "tournaments/clubs.html", {"page": page, "mine": mine})


@login_required
def club_create(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            club = services.create_club(
                request.user, data["name"], data["description"], data["invite_only"]
            )
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(
                request,
                _("Your club is ready. Run its events from the club page's organizer tools."),
            )
            return redirect(club)
    return render(request, "tournaments/club_form.html", {"form": form})


@require_safe
def club(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_or_404(slug)
    memberships = list(
        club.memberships.select_related("user__player").order_by("-role", "joined_at")
    )
    me = next((m for m in memberships if m.user_id == request.user.pk), None)
    organizer = may_run(request.user, club)
    shown = club.events.all() if organizer else club.events.exclude(status=Event.Status.DRAFT)
    events = list(
        shown.annotate(
            players=Count(
                "registrations", filter=Q(registrations__status=Registration.Status.ACTIVE)
            )
        ).order_by("status", "-created_at")[:EVENTS_SHOWN]
    )
    member_ids = [m.user_id for m in memberships]
    pending = None
    if organizer:
        pending = list(
            club.join_requests.filter(status=JoinRequest.Status.PENDING)
            .select_related("user__player")
            .order_by("created_at")
        )
    asked = (
        request.user.is_authenticated
        and me is None
        and club.join_requests.filter(user=request.user, status=JoinRequest.Status.PENDING).exists()
    )
    context = {
        "club": club,
        "memberships": memberships,
        "me": me,
        "organizer": organizer,
        "running": [e for e in events if e.status == Event.Status.RUNNING],
        "upcoming": [
            e for e in events if e.status in (Event.Status.REGISTRATION, Event.Status.DRAFT)
        ],
        "finished": [e for e in events if e.status == Event.Status.FINISHED],
        "leaderboard": ratings.leaderboard(user_ids=member_ids, limit=LEADERBOARD_SHOWN),
        "pending": pending,
        "asked": asked,
        "request_form": JoinRequestForm(),
        "invite_url": request.build_absolute_uri(
            reverse("tournaments:club_invite", args=[club.invite_code])
        )
        if organizer
        else None,
    }
    return render(request, "tournaments/club.html", context)


@require_POST
@login_required
def club_join(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_or_404(slug)
    _refused(
        request,
        lambda: services.join_club(club, request.user),
        _("Welcome to %(club)s!") % {"club": club.name},
    )
    return redirect(club)


@require_POST
@login_required
def club_request(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_or_404(slug)
    form = JoinRequestForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("A message has at most 1000 characters."))
        return redirect(club)
    _refused(
        request,
        lambda: services.request_to_join(club, request.user, form.cleaned_data["message"]),
        _("Your request has been sent to the organizers."),
    )
    return redirect(club)


@require_POST
@login_required
def club_leave(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_or_404(slug)
    _refused(
        request,
        lambda: services.leave_club(club, request.user),
        _("You have left %(club)s.") % {"club": club.name},
    )
    return redirect(club)


@require_POST
@login_required
def club_decide(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club = club_or_404(slug)
    join_request = JoinRequest.objects.filter(club=club, pk=pk).select_related("club").first()
    if join_request is None:
        raise Http404("No such request")
    accept = request.POST.get("accept") == "1"
    name = presenters.names_of([join_request.user_id]).get(join_request.user_id, "?")
    _refused(
        request,
        lambda: services.decide_join_request(join_request, request.user, accept),
        (_("%(name)s is now a member.") if accept else _("You declined %(name)s's request."))
        % {"name": name},
    )
    return redirect(club)


@require_POST
@login_required
def club_new_invite(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_or_404(slug)
    _refused(
        request,
        lambda: services.new_invite_code(club, request.user),
        _("A new invitation link has been made; the old one no longer works."),
    )
    return redirect(club)


def club_invite(request: HttpRequest, code: str) -> HttpResponse:
    club = Club.objects.filter(invite_code=code).first()
    if club is None:
        return render(request, "tournaments/club_invite.html", {"club": None}, status=404)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if _refused(
            request,
            lambda: services.join_by_invite(code, request.user),
            _("Welcome to %(club)s!") % {"club": club.name},
        ):
            return redirect(club)
        return redirect("tournaments:club_invite", code=code)
    context = {
        "club": club,
        "member": club.is_member(request.user),
        "members": club.memberships.count(),
    }
    return render(request, "tournaments/club_invite.html", context)


# --- Events ------------------------------------------------------------------------------------


def _game_title(event: Event) -> str:
    try:
        return str(kinds.get(event.game).title)
    except LookupError:
        return event.game


@require_safe
def event(request: HttpRequest, slug: str, event_slug: str) -> HttpResponse:
    event = event_for_viewer(slug, event_slug, request.user)
    registration = None
    if request.user.is_authenticated:
        registration = Registration.objects.filter(event=event, user=request.user).first()
    open_now = services.registration_open(event)
    member = event.club.is_member(request.user)
    used = presenters.used_tiebreaks(event)
    tiebreaks = [
        (name, presenters.tiebreak_label(name), name in used)
        for name in presenters.tiebreaks(event)
    ]
    context = {
        "event": event,
        "game_title": _game_title(event),
        "club": event.club,
        "organizer": may_run(request.user, event.club),
        "registration": registration,
        "registration_open": open_now,
        "may_register": open_now
        and (registration is None or not registration.is_active)
        and (member or event.club.is_public),
        "needs_membership": open_now and not member and not event.club.is_public,
        "may_withdraw": registration is not None
        and registration.is_active
        and event.status in (Event.Status.REGISTRATION, Event.Status.RUNNING, Event.Status.DRAFT),
        "players": presenters.registered_count(event),
        "groups": presenters.standing_groups(event),
        "tiebreaks": tiebreaks,
        "unused_tiebreaks": any(not used for _name, _label, used in tiebreaks),
        "seat_columns": presenters.seat_columns(event),
        "rounds": list(reversed(presenters.rounds(event))),
        "total_rounds": services.total_rounds(event)
        if event.status != Event.Status.DRAFT
        else event.rounds,
        "points_scheme": presenters.points_scheme_text(event),
        "next_season": Event.objects.filter(previous_season=event)
        .exclude(status=Event.Status.DRAFT)
        .select_related("club")
        .first(),
    }
    return render(request, "tournaments/event.html", context)


@require_POST
@login_required
def event_register(request: HttpRequest, slug: str, event_slug: str) -> HttpResponse:
    event = event_for_viewer(slug, event_slug, request.user)
    _refused(
        request,
        lambda: services.register(event, request.user),
        _("You are registered for %(event)s.") % {"event": event.name},
    )
    return redirect(event)


@require_POST
@login_required
def event_withdraw(request: HttpRequest, slug: str, event_slug: str) -> HttpResponse:
    event = event_for_viewer(slug, event_slug, request.user)
    running = event.is_running
    if running and request.POST.get("confirm") != "1":
        # Withdrawing from a running event cannot be undone: ask once more.
        return render(request, "tournaments/event_withdraw.html", {"event": event})
    _refused(
        request,
        lambda: services.withdraw(event, request.user),
        (
            _("You have withdrawn: a computer player finishes your games.")
            if running
            else _("You have withdrawn from %(event)s.") % {"event": event.name}
        ),
    )
    return redirect(event)


# --- Players -----------------------------------------------------------------------------------


@require_safe
def player(request: HttpRequest, pk: int) -> HttpResponse:
    user = get_user_model().objects.filter(pk=pk, is_active=True).select_related("player").first()
    if user is None:
        raise Http404("No such player")
    name = presenters.names_of([user.pk])[user.pk]
    registrations = list(
        Registration.objects.filter(user=user)
        .exclude(event__status=Event.Status.DRAFT)
        .select_related("event__club")
        .order_by("-event__created_at")[:EVENTS_SHOWN]
    )
    played = []
    for registration in registrations:
        row = None
        if registration.event.status != Event.Status.REGISTRATION:
            row = next(
                (
                    r
                    for _division, rows in results.division_standings(registration.event)
                    for r in rows
                    if r.player == user.pk
                ),
                None,
            )
        played.append({"registration": registration, "event": registration.event, "row": row})
    points = ratings.history(user)
    context = {
        "profile_user": user,
        "name": name,
        "rating": ratings.rating_of(user),
        "chart": mark_safe(ratings.chart_svg(points)),  # escaped inside chart_svg
        "rated_games": len(points),
        "played": played,
        "clubs": list(
            Membership.objects.filter(user=user).select_related("club").order_by("club__name")
        ),
    }
    return render(request, "tournaments/player.html", context)
