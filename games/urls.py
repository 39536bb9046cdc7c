from django.urls import path

from . import kinds
from .views import gamelog, lobby, mail, play, profile, ratings, rematch

app_name = "games"

urlpatterns = [
    path("", lobby.home, name="home"),
    # The addresses asked most (every viewer's page and poll) first: the resolver tries
    # the patterns in order.
    path("games/<int:pk>/", play.detail, name="detail"),
    path("games/<int:pk>/poll/", play.poll, name="poll"),
    path("lobby/", lobby.lobby, name="lobby"),
    path("games/new/", lobby.create, name="create"),
    path("games/solo/", lobby.try_solo, name="try_solo"),
    path("games/mine/", lobby.my_games, name="my_games"),
    path("games/<int:pk>/join/", lobby.join, name="join"),
    path("invite/<str:code>/", lobby.invite, name="invite"),
    path("profile/", profile.edit_profile, name="profile"),
    path("profile/token/", profile.api_token, name="api_token"),
    path("profile/vacation/", profile.vacation, name="vacation"),
    path("profile/calendar/reset/", profile.reset_calendar, name="reset_calendar"),
    path("games/<int:pk>/move/", play.move, name="move"),
    path("games/<int:pk>/replay/", play.replay, name="replay"),
    path("games/<int:pk>/log/earlier/", gamelog.earlier_rounds, name="earlier_rounds"),
    path("games/<int:pk>/record.json", play.record, name="record"),
    path("games/<int:pk>/rematch/", rematch.accept, name="rematch"),
    path("ratings/", ratings.leaderboard, name="ratings"),
    path("ratings/<int:user_id>/", ratings.player, name="rating_player"),
    path("mail/unsubscribe/<str:token>/", mail.unsubscribe, name="unsubscribe"),
    path("calendar/<str:token>.ics", mail.calendar, name="calendar"),
]

# Each game kind's own pages and steps (Evergreen's rules page and turn builder).
for _kind in kinds.kinds().values():
    urlpatterns += _kind.urls()
