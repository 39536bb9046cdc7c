"""Conversations: the chat of a game, a club's announcements and discussion, and what keeps
them safe (limits, reports, hiding, mute and block). See ``docs/architecture.md``."""
