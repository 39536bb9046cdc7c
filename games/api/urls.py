"""The REST API under /api/ (names in the "api" namespace; schema and docs in evergreen.urls)."""

from django.urls import path

from games import kinds

from . import accounts, ratings, rematch, views

app_name = "api"

urlpatterns = [
    path("token/", accounts.token, name="token"),
    path("games/", views.games, name="games"),
    path("games/<int:pk>/", views.game_detail, name="game"),
    path("games/<int:pk>/join/", views.join, name="join"),
    path("games/<int:pk>/move/", views.move, name="move"),
    path("games/<int:pk>/record/", views.record, name="record"),
    path("games/<int:pk>/ranking/", views.ranking, name="ranking"),
    path("games/<int:pk>/rematch/", rematch.rematch, name="rematch"),
    path("me/vacation/", accounts.vacation, name="vacation"),
    path("ratings/", ratings.rating_list, name="ratings"),
    path("ratings/<int:pk>/", ratings.rating_detail, name="rating"),
]

# Each game kind's own endpoints (Evergreen's pick, turn and targets).
for _kind in kinds.kinds().values():
    urlpatterns += _kind.api_urls()
