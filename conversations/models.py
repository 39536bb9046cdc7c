"""Messages (of a game's chat or of a club's channels), reports, the game's chat setting,
mute and block, and whether a player wants a mail for new messages."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

MAX_LENGTH = 1000  # characters of one message: a few paragraphs, not a document
# How long after writing it its author may still change a message (deleting it has no
# limit): long enough to fix a typo, short enough that answers do not lose their sense.
EDIT_WINDOW_MINUTES = 15


class GameChat(models.Model):
    """A game's chat setting, chosen by its creator when the game is made."""

    game = models.OneToOneField(
        "games.Game", on_delete=models.CASCADE, related_name="chat", verbose_name=_("game")
    )
    spectators_read = models.BooleanField(_("spectators may read the chat"), default=False)

    class Meta:
        verbose_name = _("game chat")
        verbose_name_plural = _("game chats")

    def __str__(self) -> str:
        return str(self.game)


class Message(models.Model):
    class Channel(models.TextChoices):
        GAME = "game", _("Game chat")
        ANNOUNCEMENTS = "announce", _("Announcements")
        DISCUSSION = "discuss", _("Discussion")

    channel = models.CharField(_("channel"), max_length=8, choices=Channel.choices)
    game = models.ForeignKey(
        "games.Game",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="messages",
        verbose_name=_("game"),
    )
    club = models.ForeignKey(
        "tournaments.Club",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="messages",
        verbose_name=_("club"),
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="messages",
        verbose_name=_("author"),
    )
    text = models.TextField(_("text"), max_length=MAX_LENGTH)
    created_at = models.DateTimeField(_("written"), auto_now_add=True, db_index=True)
    hidden = models.BooleanField(_("hidden"), default=False)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("hidden by"),
    )
    hidden_at = models.DateTimeField(_("hidden at"), null=True, blank=True)
    # Its author may change it for a while and delete it at any time (``services.edit``,
    # ``services.delete``); a deleted message keeps its place, shown as "message deleted",
    # and its text is emptied (a report keeps the text it was about: ``Report.text``).
    edited_at = models.DateTimeField(_("edited at"), null=True, blank=True)
    deleted_at = models.DateTimeField(_("deleted at"), null=True, blank=True)
    # Bumped by each edit and deletion, so the panels' poll stamp sees the change.
    revision = models.PositiveIntegerField(_("revision"), default=0)

    class Meta:
        verbose_name = _("message")
        verbose_name_plural = _("messages")
        ordering = ["created_at", "pk"]
        indexes = [
            models.Index(fields=["game", "created_at"], name="message_game_time"),
            models.Index(fields=["club", "channel", "created_at"], name="message_club_time"),
        ]
        constraints = [
            # A game's message belongs to its game, a club's to its club: never both.
            models.CheckConstraint(
                condition=(Q(channel="game", game__isnull=False, club__isnull=True))
                | (Q(channel__in=["announce", "discuss"], game__isnull=True, club__isnull=False)),
                name="message_one_place",
            )
        ]

    def __str__(self) -> str:
        return self.text[:60]

    @property
    def deleted(self) -> bool:
        return self.deleted_at is not None


class Report(models.Model):
    """A reader's report of a message; staff see them all, organizers their club's."""

    message = models.ForeignKey(
        Message, on_delete=models.CASCADE, related_name="reports", verbose_name=_("message")
    )
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("reported by"),
    )
    # The club whose organizers deal with it: the message's club, or the club of the
    # event whose table the game is; none for a friendly game (staff only).
    club = models.ForeignKey(
        "tournaments.Club",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("club"),
    )
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    # The message's text as it was when reported: an edit or a deletion by its author
    # does not take it away from the staff.
    text = models.TextField(_("text as reported"), blank=True)
    created_at = models.DateTimeField(_("reported"), auto_now_add=True)
    resolved = models.BooleanField(_("dealt with"), default=False)

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        ordering = ["resolved", "-created_at"]
        constraints = [models.UniqueConstraint(fields=["message", "reporter"], name="report_once")]

    def __str__(self) -> str:
        return f"{self.reporter} → {self.message_id}"


class Shield(models.Model):
    """What one player chose about another: mute (no mail of theirs, no lines of theirs
    in my mails) or block (also their messages are hidden from me and they cannot
    invite me)."""

    class Kind(models.TextChoices):
        MUTE = "mute", _("muted")
        BLOCK = "block", _("blocked")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="shields"
    )
    other = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(_("kind"), max_length=5, choices=Kind.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("mute or block")
        verbose_name_plural = _("mutes and blocks")
        constraints = [
            models.UniqueConstraint(fields=["owner", "other"], name="shield_once"),
            models.CheckConstraint(condition=~Q(owner=models.F("other")), name="shield_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.owner_id} {self.kind} {self.other_id}"


class ChatMail(models.Model):
    """Whether a player wants a mail when a game of theirs has new messages (off unless
    chosen; the mail follows their e-mail preferences and quiet hours)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mail"
    )
    new_messages = models.BooleanField(_("mail me new messages"), default=False)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.new_messages}"
