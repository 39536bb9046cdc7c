"""Clubs, events, rounds and tables."""
