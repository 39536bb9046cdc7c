from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from evergreen.api_docs import api_docs
from games.views.profile import set_language

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("i18n/setlang/", set_language, name="set_language"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", api_docs, name="api-docs"),
    path("api/", include("games.api.urls")),
    path("api/", include("tournaments.api_urls")),
    path("api/", include("games.analysis.api_urls")),
    path("api/", include("challenges.api_urls")),
    path("api/", include("conversations.api_urls")),
    path("", include("games.urls")),
    path("", include("games.analysis.urls")),
    path("", include("tournaments.urls")),
    path("", include("challenges.urls")),
    path("", include("conversations.urls")),
]

# A lost database connection answers 503 (HTML, or JSON under /api/), never a traceback.
handler500 = "evergreen.unavailable.server_error_or_unavailable"
