"""The analysis and the hint in the REST API (names in the "analysis_api" namespace)."""

from django.urls import path

from . import api

app_name = "analysis_api"

urlpatterns = [
    path("games/<int:pk>/analysis/", api.analysis, name="analysis"),
    path("games/<int:pk>/hint/", api.hint, name="hint"),
]
