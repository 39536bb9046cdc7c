from django.urls import path

from . import api

urlpatterns = [
    path("messages/<int:pk>/", api.message, name="api-message"),
    path("games/<int:pk>/messages/", api.game_messages, name="api-game-messages"),
    path(
        "clubs/<slug:slug>/messages/<str:channel>/",
        api.club_messages,
        name="api-club-messages",
    ),
]
