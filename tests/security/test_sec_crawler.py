"""A crawler that reads everything a visitor can reach and fails on any secret.

For games in every phase (a Draft where Bob has a private standing order, an Action
phase where Bob's turn is in but not revealed, a solo game, and a club event's table
whose game has Bob's unrevealed turn), it starts from the lobby, "My games", the profile,
the game page and the API, the club, event, player and ratings pages and the clubs and
events API, follows every link (``href``,
``hx-get``, ``src``, GET forms, URLs in JSON bodies: replay steps, the record download,
polling, paging) as Alice (the other player), Carol (an outsider) and an anonymous
visitor, page and htmx region alike, and fails if any response holds:

* the deck order: any card still face down (``state.deck``) in a game's page or JSON,
  or the deck in order anywhere; the seed of a running game; a "deck"/"rng"/"seed" key;
* Bob's unrevealed turn: a turn of another seat in JSON, its effects, or his planet
  drawn with it applied;
* Bob's standing order (his private ranking of the pool).

The notions of secret are those of tests/games/test_api_secrets.py and
test_play_secrets.py. Reading changes nothing: each game is the same afterwards.
"""

from __future__ import annotations

import html
import json
import re
from collections import deque
from typing import Any
from urllib.parse import urldefrag, urljoin, urlsplit

import pytest
from django.test import Client

from games import services
from games.evergreen import rules
from games.evergreen.rules.bots import RandomBot
from games.evergreen.rules.view import player_view
from games.models import Game
from tests.games.apihelpers import walk
from tests.games.gamehelpers import make_user, play_until
from tests.security.sechelpers import Clubs, draft_game, fingerprint, fixed_seed, solo_game

# slow: crawls every page a visitor can reach
pytestmark = [pytest.mark.django_db, pytest.mark.slow]

LINK = re.compile(r'(?:href|hx-get|src|action)="([^"]+)"')
SKIP = ("/static/", "/admin/", "/accounts/logout/", "/i18n/", "/mail/", "/api/docs/")
SECRET_KEYS = {"deck", "rng", "seed"}
MAX_PAGES = 400
HTMX = {"HTTP_HX_REQUEST": "true"}


class Secrets:
    """What must not be seen of one game by anyone but its owner."""

    def __init__(self, game: Game, *, hidden_turn_seat: int | None, ranking_seat: int | None):
        game.refresh_from_db()
        state = game.engine_state()
        self.game = game
        self.deck = list(state.deck)
        self.seed = str(game.seed)
        self.hidden_turn_seat = hidden_turn_seat
        self.turn = state.seats[hidden_turn_seat].turn if hidden_turn_seat is not None else None
        seats = player_view(state, None)["seats"]
        self.public_board = seats[hidden_turn_seat]["board"] if self.turn is not None else {}
        seat = game.seats.get(position=ranking_seat) if ranking_seat is not None else None
        self.ranking = list(seat.standing_order) if seat is not None else []

    def check(self, url: str, body: str, content_type: str) -> list[str]:
        found: list[str] = []
        about_game = f"/{self.game.pk}/" in url or f"/{self.game.pk}." in url
        if json.dumps(self.deck) in body or ", ".join(self.deck) in body:
            found.append("the deck in order")
        if self.seed in body:
            found.append("the seed")
        if about_game:
            found += [f"face-down card {card}" for card in self.deck if card in body]
        if content_type.startswith("application/json"):
            found += self._check_json(json.loads(body))
        else:
            found += self._check_html(body)
            page = url.split("?")[0]
            if self.turn is not None and re.fullmatch(rf"/games/{self.game.pk}/(poll/)?", page):
                found += self._check_planet(body)
        return found

    def _check_planet(self, body: str) -> list[str]:
        """The hidden seat's planet is drawn as everyone may see it: without the turn."""
        planet = re.search(rf'id="planet-{self.hidden_turn_seat}".*?</figure>', body, re.S)
        if planet is None:
            return []
        pairs = re.findall(r'data-space="(\d+,\d+)" data-piece="(\w*)"', planet.group(0))
        drawn = {space: piece for space, piece in pairs if piece}
        return [] if drawn == self.public_board else ["the unrevealed turn on the planet"]

    def _check_json(self, document: Any) -> list[str]:
        found = []
        for path, value in walk(document):
            if path.rsplit(".", 1)[-1] in SECRET_KEYS:
                found.append(f"secret key at {path}")
            if (
                isinstance(value, dict)
                and value.get("type") == "turn"
                and value.get("seat") == self.hidden_turn_seat
                and self.turn is not None
                and value == self.turn.to_json()
            ):
                found.append(f"the unrevealed turn at {path}")
            if self.ranking and isinstance(value, dict) and value.get("cards") == self.ranking:
                found.append(f"the standing order at {path}")
        return found

    def _check_html(self, body: str) -> list[str]:
        found = []
        if self.turn is not None and json.dumps(self.turn.to_json()["effects"]) in body:
            found.append("the unrevealed turn's effects")
        for rank, card in enumerate(self.ranking, start=1):
            pattern = rf'name="rank_{re.escape(card)}"[^>]*value="{rank}"'
            if re.search(pattern, body):
                found.append(f"the standing order ({card} ranked {rank})")
        return found


def links(base: str, body: str, content_type: str) -> list[str]:
    if content_type.startswith("application/json"):
        found = [
            value
            for _path, value in walk(json.loads(body))
            if isinstance(value, str) and value.startswith(("http://testserver/", "/"))
        ]
    else:
        found = [html.unescape(link) for link in LINK.findall(body)]
    result = []
    for link in found:
        link = urljoin(base, urldefrag(link).url).removeprefix("http://testserver")
        if link.startswith("/") and not link.startswith(SKIP) and "{" not in link:
            result.append(link)
    return result


def crawl(client: Client, starts: list[str], secrets: list[Secrets]) -> tuple[int, list[str]]:
    seen: set[tuple[str, bool]] = set()
    queue = deque((url, htmx) for url in starts for htmx in (False, True))
    problems: list[str] = []
    visited = 0
    while queue and visited < MAX_PAGES:
        url, htmx = queue.popleft()
        if (url, htmx) in seen:
            continue
        seen.add((url, htmx))
        response = client.get(url, **(HTMX if htmx else {}))
        visited += 1
        assert response.status_code < 500, (url, response.status_code)
        if response.status_code in (301, 302, 303):
            queue.append((response["Location"].removeprefix("http://testserver"), htmx))
            continue
        if response.status_code != 200 or response.get("Content-Type", "").startswith(
            "text/calendar"
        ):
            continue
        content_type = response.get("Content-Type", "")
        body = response.content.decode()
        for secret in secrets:
            problems += [
                f"{url} (htmx={htmx}): {what}" for what in secret.check(url, body, content_type)
            ]
        for link in links(url, body, content_type):
            path = urlsplit(link).path
            if any(
                f"/{s.game.pk}/" in path or f"/{s.game.pk}." in path for s in secrets
            ) or not re.search(r"/\d+[/.]", path):
                queue.append((link, False))
                queue.append((link, True))
    return visited, problems


@pytest.fixture
def world(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    fixed_seed(monkeypatch)
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    drafting = draft_game(bob, alice)  # bob in seat 0, alice in seat 1
    state = drafting.engine_state()
    if state.awaiting == (0,):  # bob to pick: let him, so that alice picks next
        services.submit_move(drafting.pk, bob, rules.Pick(0, state.pool[0]))
        drafting.refresh_from_db()
        state = drafting.engine_state()
    ranking = [state.pool[-1], state.pool[0]]
    services.set_standing_order(drafting.pk, bob, ranking)
    # Round 2's Action phase (round 1 revealed, so the replay has turns): bob (seat 1) has
    # submitted his turn, alice has not.
    acting = play_until(
        draft_game(alice, bob), lambda s: s.round == 2 and s.phase is rules.Phase.ACTION
    )
    state = acting.engine_state()
    services.submit_move(acting.pk, bob, RandomBot(3).choose(state, 1))
    solo = solo_game(bob)
    # A club's running event: round 1's table is alice against bob, in its Action phase,
    # bob's turn in and not revealed; reached from the club, event and player pages.
    clubs = Clubs(make_user("oscar"), make_user("olga"), alice, bob, make_user("erin"))
    secrets = [
        Secrets(drafting, hidden_turn_seat=None, ranking_seat=0),
        Secrets(acting, hidden_turn_seat=1, ranking_seat=None),
        Secrets(solo, hidden_turn_seat=None, ranking_seat=None),
        Secrets(clubs.game, hidden_turn_seat=clubs.bob_seat, ranking_seat=None),
    ]
    assert secrets[0].ranking == ranking
    return {
        "users": {"alice": alice, "carol": carol, "anonymous": None},
        "secrets": secrets,
        "clubs": clubs,
    }


def event_starts(clubs: Clubs) -> list[str]:
    """The club, event and player pages and the events API: the event's games are linked
    from them (followed: they are the secrets' games)."""
    event = clubs.event.pk
    players = [seat.user_id for seat in clubs.game.seats.all()]
    return [
        "/clubs/",
        clubs.club.get_absolute_url(),
        clubs.event.get_absolute_url(),
        *[f"/players/{pk}/" for pk in players],
        *[f"/ratings/{pk}/" for pk in players],
        "/ratings/",
        "/api/clubs/",
        f"/api/clubs/{clubs.club.slug}/",
        "/api/events/",
        f"/api/events/{event}/",
        f"/api/events/{event}/standings/",
        f"/api/events/{event}/rounds/",
        f"/api/events/{event}/rounds/1/",
        "/api/ratings/",
    ]


def starts(secrets: list[Secrets], clubs: Clubs) -> list[str]:
    found = ["/", "/lobby/", "/games/mine/", "/profile/", "/profile/token/", "/api/games/"]
    found += event_starts(clubs)
    for secret in secrets:
        pk = secret.game.pk
        found += [
            f"/games/{pk}/",
            f"/games/{pk}/poll/?version=0",
            f"/games/{pk}/replay/",
            f"/games/{pk}/record.json",
            f"/api/games/{pk}/",
            f"/api/games/{pk}/record/",
            f"/api/games/{pk}/ranking/",
            f"/api/games/{pk}/targets/?effect=plant",
            f"/api/games/{pk}/targets/?effect=plant&partial=%7B%22action%22%3A%22A%22%7D",
        ]
    return found


@pytest.mark.parametrize("who", ["alice", "carol", "anonymous"])
def test_nothing_a_visitor_can_reach_reveals_a_secret(world: dict[str, Any], who: str) -> None:
    secrets = world["secrets"]
    before = [fingerprint(secret.game.pk) for secret in secrets]
    client = Client()
    client.raise_request_exception = True
    user = world["users"][who]
    if user is not None:
        client.force_login(user)
    visited, problems = crawl(client, starts(secrets, world["clubs"]), secrets)
    import os

    if os.environ.get("CRAWL_PRINT"):
        print("VISITED", visited)
    assert not problems, "\n".join(problems[:40])
    assert visited > (60 if user is not None else 40)  # the crawl did get around
    assert [fingerprint(secret.game.pk) for secret in secrets] == before


def test_the_owner_does_see_them_so_the_checks_can_fail(world: dict[str, Any]) -> None:
    """Bob sees his own turn and ranking: the same checks, pointed at him, find them."""
    bob = world["secrets"][1].game.seats.get(position=1).user
    client = Client()
    client.force_login(bob)
    _visited, problems = crawl(client, starts(world["secrets"], world["clubs"]), world["secrets"])
    assert any("the unrevealed turn at" in problem for problem in problems)  # the API
    assert any("the unrevealed turn on the planet" in problem for problem in problems)
    assert any("standing order" in problem for problem in problems)
    assert not any("deck" in problem or "face-down" in problem for problem in problems)


def test_the_event_pages_lead_the_crawler_to_the_events_games(world: dict[str, Any]) -> None:
    """The event's game is reached through its pages (not only from the start list), and
    its owner's view of it is flagged: the checks do look at the event's game."""
    clubs = world["clubs"]
    game = f"/games/{clubs.game.pk}/"
    client = Client()
    client.force_login(world["users"]["carol"])
    for url in (clubs.event.get_absolute_url(), f"/api/events/{clubs.event.pk}/rounds/"):
        response = client.get(url)
        found = links(url, response.content.decode(), response["Content-Type"])
        assert any(
            link.startswith(("/games/", "/api/games/")) and f"/{clubs.game.pk}/" in link
            for link in found
        ), (url, found)
    bob = clubs.game.seats.get(position=clubs.bob_seat).user
    owner = Client()
    owner.force_login(bob)
    _visited, problems = crawl(owner, event_starts(clubs), world["secrets"])
    assert any(p.startswith(game) and "unrevealed turn" in p for p in problems), problems[:5]
