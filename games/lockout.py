"""Login throttling with django-axes: whose account an attempt is for, and the refusal.

Failed logins are counted per account and client address (``AXES_LOCKOUT_PARAMETERS``).
The account is its e-mail address, lowercased, whether the attempt came from the log-in
page (allauth passes ``email``) or from the API's token endpoint (which authenticates by
username), so both count towards the same limit. A locked-out attempt gets a 429: a page
on the site, ``{"code": "locked_out", "message": ...}`` from the API.
"""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def account_of(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """The e-mail address (lowercased) that a login attempt is for, or None."""
    credentials = credentials or {}
    email = credentials.get("email") or credentials.get("login")
    username = credentials.get("username")
    if not email and isinstance(username, str) and username:
        user = get_user_model().objects.filter(username=username).only("email").first()
        email = user.email if user is not None and user.email else username
    if not email:
        post = getattr(request, "POST", {})
        email = post.get("login") or post.get("email")
    return email.strip().lower() if isinstance(email, str) and email.strip() else None


def lockout_message() -> str:
    minutes = max(1, math.ceil(settings.AXES_COOLOFF_TIME.total_seconds() / 60))
    return ngettext(
        "Too many failed logins to this account from your address. Wait %(minutes)d minute "
        "and try again, or reset your password.",
        "Too many failed logins to this account from your address. Wait %(minutes)d minutes "
        "and try again, or reset your password.",
        minutes,
    ) % {"minutes": minutes}


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: Any = None
) -> HttpResponse:
    status = getattr(settings, "AXES_HTTP_RESPONSE_CODE", 429)  # axes's own setting
    if request.path.startswith("/api/"):
        return JsonResponse({"code": "locked_out", "message": lockout_message()}, status=status)
    context = {"message": lockout_message(), "title": _("Log-in locked")}
    return render(request, "account/lockout.html", context, status=status)
