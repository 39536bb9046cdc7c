"""The admin site, with one guard for the query parameters every admin page reads.

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
