"""``{% load zoned %}``: ``{{ moment|zoned }}`` writes a moment in the reader's time zone
with the zone's name ("27 Nov 2026, 14:00 CET"), so a correspondence player never wonders
whose clock a deadline is on."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import formats, timezone

register = template.Library()


@register.filter
def zoned(moment: datetime | None, format_name: str = "DATETIME_FORMAT") -> str:
    if moment is None:
        return ""
    local = timezone.localtime(moment) if timezone.is_aware(moment) else moment
    return f"{formats.date_format(local, format_name)} {local.tzname() or ''}".strip()
