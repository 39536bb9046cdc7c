"""The player's profile (name, time zone, language, e-mail preferences) and API token."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.http import require_POST
from rest_framework.authtoken.models import Token

from .. import notifications, services, signed_links
from ..forms import ProfileForm
from ..models import Game, Player, Seat

GAMES_SHOWN = 30


def set_language_cookie(response: HttpResponse, language: str) -> None:
    """The cookie LocaleMiddleware reads, set as Django's ``set_language`` view sets it."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The language switcher: Django's ``set_language`` (cookie, back to ``next``), and for
    a signed-in player the profile too, which is what follows them to another browser and
    what their e-mails use."""
    response = i18n.set_language(request)
    language = request.POST.get("language", "")
    if (
        request.user.is_authenticated
        and language in dict(settings.LANGUAGES)
        and translation.check_for_language(language)
    ):
        player = getattr(request.user, "player", None)  # loaded with the user
        if player is not None:
            # Saved (not update()): its post_save tells the cached game pages and API tokens.
            player.language = language
            player.save(update_fields=["language"])
    return response


def _saved(form: ProfileForm) -> bool:
    """Save; False (with the form's error) when another player took a name that looks
    the same between the check and the save (the database keeps names apart)."""
    try:
        with transaction.atomic():
            form.save()
    except IntegrityError:
        form.add_error(
            "display_name", _("Another player has this name, or one that looks the same.")
        )
        return False
    return True


@login_required
def edit_profile(request: HttpRequest) -> HttpResponse:
    assert request.user.is_authenticated  # login_required
    player = Player.for_user(request.user)
    form = ProfileForm(request.POST or None, instance=player)
    if request.method == "POST" and form.is_valid() and _saved(form):
        player = form.instance
        translation.activate(player.language)
        messages.success(request, _("Your profile has been saved."))
        response = redirect("games:profile")
        set_language_cookie(response, player.language)
        return response
    games = (
        Game.objects.filter(seats__user=request.user)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user__player")))
        .order_by("status", "-updated_at")[:GAMES_SHOWN]
    )
    rows = [{"game": game, "seats": list(game.seats.all())} for game in games]
    return render(
        request,
        "games/profile.html",
        {
            "form": form,
            "player": player,
            "rows": rows,
            "games_shown": GAMES_SHOWN,
            "calendar_url": notifications.calendar_url(request.user),
            "now_time": timezone.now(),
        },
    )


@login_required
def api_token(request: HttpRequest) -> HttpResponse:
    assert request.user.is_authenticated  # login_required
    if request.method == "POST":
        with transaction.atomic():
            Token.objects.filter(user=request.user).delete()
            Token.objects.create(user=request.user)
        messages.success(request, _("A new API token has been made; the old one no longer works."))
        return redirect("games:api_token")
    token = Token.objects.filter(user=request.user).first()
    return render(request, "games/api_token.html", {"token": token})


@require_POST
@login_required
def reset_calendar(request: HttpRequest) -> HttpResponse:
    signed_links.reset_calendar(request.user)
    messages.success(request, _("Your calendar has a new address; the old one no longer works."))
    return redirect(f"{reverse('games:profile')}#calendar")


@require_POST
@login_required
def vacation(request: HttpRequest) -> HttpResponse:
    """Start a vacation (POST days) or end it early (POST end=1)."""
    try:
        if request.POST.get("end"):
            services.end_vacation(request.user)
            messages.success(request, _("Welcome back: your clocks run again."))
        else:
            try:
                days = int(request.POST.get("days", ""))
            except ValueError:
                raise services.ServiceError(
                    _("Give the number of days, 1 to 30."), "bad_vacation"
                ) from None
            player = services.start_vacation(request.user, days)
            messages.success(
                request,
                _("Your clocks are paused until %(until)s.")
                % {
                    "until": formats.date_format(
                        timezone.localtime(player.vacation_until), "DATETIME_FORMAT"
                    )
                },
            )
    except services.ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("games:profile")
