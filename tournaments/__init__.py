"""Clubs, leagues, tournaments, pairings and standings."""
