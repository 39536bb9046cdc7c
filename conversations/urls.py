from django.urls import path

from . import views

app_name = "conversations"

urlpatterns = [
    path("games/<int:pk>/chat/", views.game_chat, name="game_chat"),
    path("games/<int:pk>/chat/post/", views.game_post, name="game_post"),
    path("clubs/<slug:slug>/talk/", views.club_talk, name="club_talk"),
    path("clubs/<slug:slug>/talk/<str:channel>/", views.club_panel, name="club_panel"),
    path("clubs/<slug:slug>/talk/<str:channel>/post/", views.club_post, name="club_post"),
    path("chat/messages/<int:pk>/hide/", views.hide, name="hide"),
    path("chat/messages/<int:pk>/report/", views.report, name="report"),
    path("chat/messages/<int:pk>/edit/", views.edit, name="edit"),
    path("chat/messages/<int:pk>/delete/", views.delete, name="delete"),
    path("chat/players/<int:pk>/shield/", views.shield, name="shield"),
    path("chat/mail/", views.mail_choice, name="mail"),
]
