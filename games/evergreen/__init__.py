"""Evergreen, the game: its pure rules engine (``rules``, no Django), and its presentation
for the platform (board drawing, turn builder, view models, refusal texts, recap).

This package imports nothing of Django itself, so ``games.evergreen.rules`` loads
without it (the command line, the bots, the engine tests). Its Django parts are the
modules beside ``rules`` and the ``games.evergreen`` app (``apps.EvergreenConfig``).
"""
