"""Deployment checks of this site's own (``manage.py check --deploy``), beside Django's."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.security, deploy=True)
def sign_up_tells_no_one_about_accounts(app_configs: Any, **kwargs: Any) -> list[Warning]:
    """allauth hides whether an address has an account only when every address is verified
    (the owner of a known address gets a mail instead of a second account)."""
    if settings.ACCOUNT_PREVENT_ENUMERATION and settings.ACCOUNT_EMAIL_VERIFICATION == "mandatory":
        return []
    return [
        Warning(
            "Signing up with a known address says that it has an account.",
            hint="Set ACCOUNT_EMAIL_VERIFICATION=mandatory (the default when DEBUG=0).",
            id="evergreen.W001",
        )
    ]
