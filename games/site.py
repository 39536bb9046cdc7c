"""The site's public address, for links that leave it (mails, calendars, the API's links).

Apart from the outbox so that modules the models import (signed links) can use it too.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings


def site_url(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def host() -> str:
    return urlsplit(settings.SITE_URL).hostname or "evergreen.invalid"
