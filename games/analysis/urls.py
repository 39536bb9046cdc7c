"""The analysis' pages (names in the "analysis" namespace)."""

from django.urls import path

from . import views

app_name = "analysis"

urlpatterns = [
    path("games/<int:pk>/analysis/", views.ask, name="ask"),
    path("games/<int:pk>/analysis/panel/", views.panel, name="panel"),
    path("games/<int:pk>/hint/", views.hint, name="hint"),
]
