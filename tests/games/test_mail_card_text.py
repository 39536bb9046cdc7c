"""Cards in mails: as text, the biome and the Power ("Grassland · Plant Bush"), in the
reader's language."""

from __future__ import annotations

from django.utils import translation

from games import notifications
from games.evergreen import rules
from games.evergreen.words import BIOME_NAMES, POWER_NAMES
from games.models import Game, Notification, Player
from tests.games.gamehelpers import play_until


def test_the_your_move_mail_names_cards_by_biome_and_power_in_the_readers_language(
    two_player_game, alice, bob
):
    game = play_until(two_player_game, lambda s: (s.season, s.round) == (1, 2))
    game = Game.objects.get(pk=game.pk)
    state = game.engine_state()
    seat = game.seats.select_related("user__player").get(position=state.awaiting[0])
    Player.objects.filter(user=seat.user).update(language="de")
    seat.user.player.refresh_from_db()
    Notification.objects.all().delete()
    note = notifications.your_move(game, seat, state)
    assert note is not None
    body = notifications.render(Notification.objects.get(pk=note.pk)).body
    edition = rules.load_edition(rules.DEFAULT_EDITION)
    with translation.override("de"):
        german = {f"{BIOME_NAMES[c.suit]} · {POWER_NAMES[c.power]}" for c in edition.cards.values()}
    english = {f"{BIOME_NAMES[c.suit]} · {POWER_NAMES[c.power]}" for c in edition.cards.values()}
    assert any(name in body for name in german), body
    assert not any(name in body for name in english - german)
