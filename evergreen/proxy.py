"""The visitor's address, read the same way for every limit the site keeps.

``X-Forwarded-For`` is written by whoever sends the request, so it is believed only as
far as the site's own proxies wrote it: with ``NUM_PROXIES`` proxies in front, the
address the outermost of them saw is the ``NUM_PROXIES``-th from the right; with none
(the default), the header is ignored and the connection's own address counts. DRF's
throttles read ``REST_FRAMEWORK["NUM_PROXIES"]`` with this same rule; django-axes asks
``client_ip`` (``AXES_CLIENT_IP_CALLABLE``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings


def client_ip(request: Any) -> str:
    remote = str(request.META.get("REMOTE_ADDR", ""))
    proxies = int(getattr(settings, "NUM_PROXIES", 0) or 0)
    forwarded = str(request.META.get("HTTP_X_FORWARDED_FOR", ""))
    if proxies <= 0 or not forwarded:
        return remote
    addresses = [address.strip() for address in forwarded.split(",") if address.strip()]
    if not addresses:
        return remote
    return addresses[-min(proxies, len(addresses))]
