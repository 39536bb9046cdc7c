"""The admin site: people log in with their e-mail, as on the site, and one guard for
the query parameters every admin page reads.

Django's admin looks up ``?_to_field=`` as a field name before it checks it; an empty
value reaches the model's field lookup and fails with a KeyError (a 500). Here such a
request is refused with 400 before any admin view runs.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import admin
from django.contrib.admin.apps import AdminConfig
from django.contrib.admin.options import TO_FIELD_VAR
from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse


class AdminSite(admin.AdminSite):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Imported here: the auth forms need the app registry, which is not ready yet
        # when this module is first imported (by the admin's app config).
        from .admin_login import EmailLoginForm

        self.login_form = EmailLoginForm

    def admin_view(self, view: Callable[..., Any], cacheable: bool = False) -> Callable[..., Any]:
        inner = super().admin_view(view, cacheable)

        @wraps(inner)
        def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            for source in (request.GET, request.POST):
                if TO_FIELD_VAR in source and not source[TO_FIELD_VAR]:
                    raise BadRequest(f"{TO_FIELD_VAR} must name a field")
            return inner(request, *args, **kwargs)  # type: ignore[no-any-return]

        return guarded


class EvergreenAdminConfig(AdminConfig):
    default_site = "evergreen.admin_site.AdminSite"
