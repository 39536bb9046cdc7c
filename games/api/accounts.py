"""The API's endpoints about the player rather than a game: logging in for a token,
going on vacation."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate, get_user_model
from django.db.models import Q
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers as drf_serializers
from rest_framework.authtoken.models import Token
from rest_framework.decorators import (
    api_view,
    authentication_classes,
    parser_classes,
    permission_classes,
    throttle_classes,
)
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle

from evergreen.proxy import client_ip
from games import services
from games.services import ServiceError

from . import serializers as s
from .parsers import JSONParser
from .requests import _errors, _valid


class LoginThrottle(AnonRateThrottle):
    """Slows down password guessing: the rate is per client address."""

    scope = "api-token"
    rate = "30/minute"

    def get_rate(self) -> str:
        return self.rate

    def get_ident(self, request: Request) -> str:
        return client_ip(request)  # X-Forwarded-For only as far as our proxies wrote it


@extend_schema(
    operation_id="token_create",
    summary="Get an API token",
    description="Exchange an e-mail address and password for the token to send as "
    "`Authorization: Token <token>`. The same token is returned until it is deleted.",
    request=s.LoginSerializer,
    responses={200: s.TokenSerializer, **_errors(400, 429)},
    auth=[],
    tags=["auth"],
)
@api_view(["POST"])
@authentication_classes([])
@permission_classes([AllowAny])
@parser_classes([JSONParser, FormParser, MultiPartParser])
@throttle_classes([LoginThrottle])
def token(request: Request) -> Response:
    data = _valid(s.LoginSerializer, request.data)
    user = _user_by_email(request, data["email"], data["password"])
    if user is None:
        raise ServiceError(_("The e-mail address or the password is wrong."), "bad_credentials")
    key, _created = Token.objects.get_or_create(user=user)
    return Response({"token": key.key})


def _user_by_email(request: Request, email: str, password: str) -> Any:
    """The active user with this address and password (users log in by e-mail)."""
    User = get_user_model()
    candidates = list(
        User.objects.filter(Q(email__iexact=email) | Q(emailaddress__email__iexact=email))
        .distinct()
        .order_by("pk")
    )
    if not candidates:
        User().set_password(password)  # as long as a real check: no hint that nobody has it
    for candidate in candidates:
        user = authenticate(request._request, username=candidate.get_username(), password=password)
        if user is not None:
            return user
    return None


@extend_schema(
    summary="Go on vacation / come back",
    description='POST `{"days": n}` pauses your clocks in every game for n days '
    "(at most 30 days a year); DELETE ends the vacation early and gives unused days back.",
    request=s.VacationSerializer,
    responses={200: s.VacationResponseSerializer, **_errors(400, 401, 409)},
    tags=["players"],
)
@api_view(["POST", "DELETE"])
def vacation(request: Request) -> Response:
    if request.method == "POST":
        data = _valid(s.VacationSerializer, request.data)
        player = services.start_vacation(request.user, data["days"])
    else:
        player = services.end_vacation(request.user)
    return Response(
        {
            "vacation_until": serializers_datetime(player.vacation_until),
            "days_used_this_year": player.vacation_days_used,
        }
    )


def serializers_datetime(value: Any) -> str | None:
    return None if value is None else drf_serializers.DateTimeField().to_representation(value)
