"""API errors: every refusal is ``{"code": ..., "message": ...}`` with the right status.

* a refused write (``games.services.ServiceError``): its own status, code and message
  (illegal move 400 with the engine's code, not a player 403, not your turn or stale
  version 409);
* no credentials or a bad token: 401 with a ``WWW-Authenticate`` header;
* an unknown game: 404; a malformed body: 400 with the problems under ``errors``.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.models import Game
from games.services import ServiceError


def error_body(code: str, message: str) -> dict[str, str]:
    return {"code": code, "message": message}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ServiceError):
        answer = Response(exc.as_dict(), status=exc.status)
        retry_after = getattr(exc, "retry_after", None)
        if retry_after:
            answer["Retry-After"] = str(retry_after)
        return answer
    if isinstance(exc, Game.DoesNotExist | Http404):
        exc = exceptions.NotFound(_("There is no such game."), code="not_found")
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None, code=getattr(exc, "code", None))
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response  # an unexpected error: Django's 500 handling
    if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        # DRF answers 401 only when an authenticator names a scheme (TokenAuthentication
        # does, as "Token"); keep it 401 whatever the configuration.
        response.status_code = status.HTTP_401_UNAUTHORIZED
        code = exc.get_codes()
        response.data = error_body(
            code if isinstance(code, str) else exc.default_code, str(exc.detail)
        )
        return response
    if isinstance(exc, exceptions.ValidationError):
        response.data = {
            **error_body("invalid", _first_message(exc.detail) or str(exc.default_detail)),
            "errors": exc.detail
            if isinstance(exc.detail, dict)
            else {"non_field_errors": exc.detail},
        }
        return response
    codes = exc.get_codes()
    code = codes if isinstance(codes, str) else exc.default_code
    detail = exc.detail
    response.data = error_body(code, str(detail if isinstance(detail, str) else exc.default_detail))
    return response


def _first_message(detail: Any, field: str | None = None) -> str | None:
    """ "field: message" for the first problem in a ValidationError's nested detail."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            found = _first_message(value, key if key != "non_field_errors" else field)
            if found:
                return found
        return None
    if isinstance(detail, list):
        for item in detail:
            found = _first_message(item, field)
            if found:
                return found
        return None
    return f"{field}: {detail}" if field else str(detail)
