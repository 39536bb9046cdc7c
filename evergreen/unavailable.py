"""When the database cannot be reached: a plain 503, never a traceback.

Django turns an exception anywhere (a view, a middleware reading the session) into its
500 answer through ``handler500``; this handler looks at the exception being handled.
A lost or refused database connection becomes a 503 with ``Retry-After``: JSON
``{"code": "unavailable", "message": ...}`` under ``/api/``, else a small HTML page in
the visitor's language, rendered without the database (no user, no session, no base
template). Any other error keeps Django's plain 500 page.
"""

from __future__ import annotations

import json
import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.defaults import server_error

RETRY_AFTER_SECONDS = 30


def database_unreachable(exc: BaseException | None) -> bool:
    return isinstance(exc, OperationalError | InterfaceError)


def server_error_or_unavailable(request: HttpRequest) -> HttpResponse:
    if not database_unreachable(sys.exc_info()[1]):
        return server_error(request)
    language = translation.get_language_from_request(request)
    with translation.override(language):
        message = _(
            "The site cannot reach its database just now. Nothing was changed: try again in a minute."
        )
        if request.path.startswith("/api/"):
            response = HttpResponse(
                json.dumps({"code": "unavailable", "message": message}),
                content_type="application/json",
                status=503,
            )
        else:
            html = render_to_string("503.html", {"message": message, "language": language})
            response = HttpResponse(html, status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        response["Content-Language"] = language
    return response
