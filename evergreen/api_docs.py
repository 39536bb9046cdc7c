"""The API's documentation page: Redoc, served from this site (drf-spectacular-sidecar).

Redoc builds its page with inline styles and searches in a worker started from a blob:
address; the site's Content-Security-Policy allows those two things on this page only
(still no script but the site's own, no other origin).
"""

from __future__ import annotations

from csp.decorators import csp_update
from drf_spectacular.views import SpectacularRedocView

api_docs = csp_update({"style-src": ["'unsafe-inline'"], "worker-src": ["'self'", "blob:"]})(
    SpectacularRedocView.as_view(url_name="schema", template_name="api_docs.html")
)
