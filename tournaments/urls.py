"""The club, event and player pages (names in the "tournaments" namespace)."""

from django.urls import path

from . import views

app_name = "tournaments"

urlpatterns = [
    path("clubs/", views.clubs, name="clubs"),
    path("clubs/new/", views.club_create, name="club_create"),
    path("clubs/invite/<str:code>/", views.club_invite, name="club_invite"),
    path("clubs/<slug:slug>/", views.club, name="club"),
    path("clubs/<slug:slug>/join/", views.club_join, name="club_join"),
    path("clubs/<slug:slug>/request/", views.club_request, name="club_request"),
    path("clubs/<slug:slug>/leave/", views.club_leave, name="club_leave"),
    path("clubs/<slug:slug>/requests/<int:pk>/", views.club_decide, name="club_decide"),
    path("clubs/<slug:slug>/invite/", views.club_new_invite, name="club_new_invite"),
    path("clubs/<slug:slug>/events/<slug:event_slug>/", views.event, name="event"),
    path(
        "clubs/<slug:slug>/events/<slug:event_slug>/register/",
        views.event_register,
        name="event_register",
    ),
    path(
        "clubs/<slug:slug>/events/<slug:event_slug>/withdraw/",
        views.event_withdraw,
        name="event_withdraw",
    ),
    path("players/<int:pk>/", views.player, name="player"),
]
