"""The data of the authorization matrix (``test_sec_authz_matrix.py``): who may do what.

How to extend it
----------------
* **A new URL** fails the matrix test until it has an entry in ``EXPECTED`` (keyed by its
  namespaced URL name, or by its route when it has no name) saying, for GET and POST,
  what each role gets. ``ARGS`` says which object fills each URL parameter; a new
  parameter name needs an entry there (``"slug": "club"`` …) and the object in ``World``
  (see ``authzworld.World.kwargs``). Where one parameter name means different
  objects in different URLs (``pk``: a game, a join request, a player, an event), the key
  ``"<URL key>/<parameter>"`` overrides it for that URL.
* **A new role** is one entry in ``ROLES`` (its name and its user, in
  ``authzworld.World``) and one in ``LIKE``: the role it behaves like wherever
  an entry does not name it.
* **The roles**: ``player`` is Alice (seated in the games, a member of the Pine Club and
  playing its running event), ``other_player`` Carol (plays games, in no club), ``staff``
  a superuser, ``organizer`` Oscar (Pine's organizer) and ``organizer_other_club`` Olga
  (the Oak Club's organizer), both made through ``tournaments.services`` and so staff in
  the "Club organizers" group. The organizers behave like ``other_player`` on the site
  and are named in the admin's entries and the club's (``organizers``, ``in_admin``,
  ``tournaments_admin``): Olga never sees a row of Pine's in the admin ("no such row"),
  and the ``changes`` of the club's buttons show who may organize it.

Statuses: an int is the status code; ``LOGIN`` is a redirect to the log-in page with a
``next`` back; ``ADMIN_LOGIN`` the same for the admin; ``(code, "prefix")`` a redirect to a
URL starting with ``prefix``, ``(code, "=url")`` to exactly ``url``; a set: any of them.

An entry's ``changes`` (for the tournaments URLs) is the set of roles whose POST changes
the Pine Club's data (``World.pine``): a refused write comes back as a message on a
redirect like an accepted one, so the status alone would not show who may organize.
"""

from __future__ import annotations

from typing import Any

ROLES = ("anonymous", "player", "other_player", "staff", "organizer", "organizer_other_club")
LIKE = {"organizer": "other_player", "organizer_other_club": "other_player"}

LOGIN = "login"
ADMIN_LOGIN = "admin_login"

# Which object fills each URL parameter (the ``World`` attribute of that name).
ARGS = {
    "pk": "game",
    "code": "invite_code",
    "token": "token",
    "key": "bad_key",
    "uidb36": "bad_uid",
    "content_type_id": "game_content_type",
    "object_id": "admin_object",
    "id": "admin_object",
    "app_label": "app_label",
    "url": "missing_admin_path",
    "slug": "club",
    "event_slug": "event",
    "number": "round",
    "user_id": "player_id",
    "operation": "open",
    "kind": "challenge_kind",
    "day": "challenge_day",
    "admin:tournaments_event_run/object_id": "draft_id",
    # "<URL key>/<parameter>": a parameter whose name other URLs use for another object.
    "tournaments:club_invite/code": "club_invite_code",
    "tournaments:club_decide/pk": "join_request",
    "tournaments:player/pk": "player_id",
    "api:rating/pk": "player_id",
    "channel": "discussion",
    **{
        f"tournaments_api:{name}/pk": "event_id"
        for name in ("event", "standings", "rounds", "round", "register", "withdraw")
    },
}


def everyone(status: Any) -> dict[str, Any]:
    return {role: status for role in ROLES if role not in LIKE}


def signed_in(status: Any, anonymous: Any = LOGIN) -> dict[str, Any]:
    return {**everyone(status), "anonymous": anonymous}


def seated(player: Any, others: Any = 403, anonymous: Any = LOGIN) -> dict[str, Any]:
    return {**everyone(others), "player": player, "anonymous": anonymous}


def api(status: Any, others: Any | None = None) -> dict[str, Any]:
    found = signed_in(status, anonymous=401)
    if others is not None:
        found.update(other_player=others, staff=others)
    return found


def staff_only(status: Any, others: Any = ADMIN_LOGIN) -> dict[str, Any]:
    return {**everyone(others), "staff": status}


def entry(
    get: dict[str, Any],
    post: dict[str, Any],
    *,
    game: str = "active",
    changes: set[str] | None = None,
) -> dict[str, Any]:
    found = {"GET": get, "POST": post, "game": game}
    if changes is not None:
        found["changes"] = changes
    return found


def in_admin(status: Any, others: Any = ADMIN_LOGIN) -> dict[str, Any]:
    """Staff and organizers (staff too) get ``status``, the others ``others``."""
    return {**staff_only(status, others), "organizer": status, "organizer_other_club": status}


def organizers(status: Any, organizer: Any = None, other: Any = None) -> dict[str, Any]:
    """An admin page of the tournaments models: ``status`` for staff, ``organizer`` (default
    the same) for Pine's organizer, ``other`` (default: not found) for Oak's."""
    return {
        **staff_only(status),
        "organizer": status if organizer is None else organizer,
        "organizer_other_club": NOT_FOUND if other is None else other,
    }


NOT_ALLOWED = everyone(405)
ME = (302, "/games/mine/")  # where a signed-in visitor of the log-in and sign-up pages goes
# Django's admin: only staff get in; what they get then is the admin's business (a page,
# 403 where a model admin allows no adding or deleting, back to the index for a missing row).
STAFF_IN = {200, 403, (302, "/admin/")}
# Organizers are staff (for the tournaments admin) without any other permission: every
# other model's pages are forbidden to them (403, 404 for an app they have nothing of,
# or "no such row" for a missing one).
ORGANIZER_OUT = {403, 404, (302, "=/admin/")}
ADMIN = {**staff_only(STAFF_IN), "organizer": ORGANIZER_OUT, "organizer_other_club": ORGANIZER_OUT}
# What a staff member who is only an organizer gets from the admin's own pages.
ADMIN_SITE = {"organizer": STAFF_IN, "organizer_other_club": STAFF_IN}
# Django's admin for a row the user may not see: "no such row", back to the index.
NOT_FOUND = (302, "=/admin/")
# What writes change the Pine Club's data (the matrix compares it before and after).
NOBODY: set[str] = set()
JOINERS = {"other_player", "staff", "organizer_other_club"}  # not yet members of Pine
RUNNERS = {"organizer", "staff"}  # Pine's organizer and the site's superuser

CLUB = "/clubs/pine-club/"
EVENT = "/clubs/pine-club/events/spring-swiss/"


def tournaments_admin() -> dict[str, dict[str, Any]]:
    """The tournaments models' admin pages: an organizer of the club gets its rows, an
    organizer of another club "no such row", players the admin's log-in."""
    models = ("club", "membership", "joinrequest", "event", "registration", "round", "table")
    pages: dict[str, dict[str, Any]] = {}
    for model in (*models, "timeoutdecision"):
        both = {
            "changelist": organizers(200, other=200),
            "add": organizers(403, other=403),
            "history": organizers(200),
            "delete": organizers(403, other=403),
            "change": organizers(200),
            "redirect": organizers(
                (302, "/admin/tournaments/"), other=(302, "/admin/tournaments/")
            ),
        }
        for page, spec in both.items():
            pages[f"admin:tournaments_{model}_{page}"] = entry(spec, spec, changes=NOBODY)
    # Clubs are made on the site; only superusers delete one (its history stays).
    pages["admin:tournaments_club_add"] = entry(*[organizers(200, 403, 403)] * 2, changes=NOBODY)
    # (A superuser is asked to confirm, then refused: the members' rows are not deleted.)
    delete = organizers({200, 403}, 403, 403)
    pages["admin:tournaments_club_delete"] = entry(delete, delete, changes=NOBODY)
    # Each organizer adds events (for their own clubs); one with players is not deleted.
    pages["admin:tournaments_event_add"] = entry(*[organizers(200, other=200)] * 2, changes=NOBODY)
    pages["admin:tournaments_event_delete"] = entry(*[organizers(403)] * 2, changes=NOBODY)
    # Rows shown read-only: their change form takes no POST.
    for model in ("membership", "joinrequest", "registration", "table"):
        key = f"admin:tournaments_{model}_change"
        pages[key] = entry(organizers(200), organizers(403), changes=NOBODY)
    pages["admin:tournaments_round_change"] = entry(
        organizers(200), organizers(403, other=403), changes=NOBODY
    )
    # No timeout decision exists: the row is not found for anyone.
    for page in ("history", "change"):
        spec = organizers(NOT_FOUND, other=NOT_FOUND)
        pages[f"admin:tournaments_timeoutdecision_{page}"] = entry(spec, spec, changes=NOBODY)
    # The event page's buttons (here: open registration of the draft) and the CSV.
    pages["admin:tournaments_event_run"] = entry(
        organizers(405, other=405),
        organizers((302, "/admin/tournaments/event/"), other=404),
        changes=RUNNERS,
    )
    pages["admin:tournaments_event_standings"] = entry(
        organizers(200, other=404), organizers(200, other=404), changes=NOBODY
    )
    return pages


EXPECTED: dict[str, dict[str, Any]] = {
    # --- the site's pages ---------------------------------------------------------------
    "games:home": entry(everyone(200), NOT_ALLOWED),
    "games:lobby": entry(everyone(200), NOT_ALLOWED),
    "games:create": entry(signed_in(200), signed_in(200)),  # POST {}: the form with its errors
    "games:my_games": entry(signed_in(200), NOT_ALLOWED),
    # "Try a solo game now": GET asks for the click, POST starts the game and opens it.
    "games:try_solo": entry(signed_in(200), signed_in((302, "/games/"))),
    # Joining an open game: a new player joins (to the game), a seated one is told so.
    "games:join": entry(
        NOT_ALLOWED, {**signed_in((302, "/games/")), "player": (302, "/lobby/")}, game="open"
    ),
    "games:invite": entry(
        everyone(200), {**signed_in((302, "/games/")), "player": (302, "/invite/")}, game="open"
    ),
    "games:profile": entry(signed_in(200), signed_in(200)),
    "games:api_token": entry(signed_in(200), signed_in((302, "/profile/token/"))),
    "games:vacation": entry(NOT_ALLOWED, signed_in((302, "/profile/"))),
    "games:reset_calendar": entry(NOT_ALLOWED, signed_in((302, "/profile/"))),
    # A game: public to read (as a spectator sees it), played only from its seats.
    "games:detail": entry(everyone(200), NOT_ALLOWED),
    "games:poll": entry(everyone((303, "/games/")), NOT_ALLOWED),
    "games:replay": entry(everyone(200), NOT_ALLOWED),
    # without htmx, the replay (which shows the whole log); htmx's fetch: tests/games
    "games:earlier_rounds": entry(everyone((302, "/games/")), NOT_ALLOWED),
    "games:record": entry(everyone(200), NOT_ALLOWED),
    "games:rematch": entry(NOT_ALLOWED, seated(409)),  # the game is not over
    "games:pick": entry(NOT_ALLOWED, seated(400)),  # the player: "this form is incomplete"
    "games:move": entry(NOT_ALLOWED, seated(400)),  # the same form, for a game of any kind
    "games:ranking": entry(NOT_ALLOWED, seated(409)),  # not drafting now
    "games:turn": entry(NOT_ALLOWED, seated(400)),
    "games:submit_turn": entry(NOT_ALLOWED, seated(400)),
    # The analysis (of finished games only: the player's is refused while it runs) and the
    # hint (the strong player's move, for the player only).
    "analysis:ask": entry(NOT_ALLOWED, seated(409)),
    "analysis:panel": entry(everyone(200), NOT_ALLOWED),
    "analysis:hint": entry(NOT_ALLOWED, seated(200)),
    # Links from e-mails: the signed token is the permission, whoever follows it.
    "games:unsubscribe": entry(everyone(200), everyone(200)),
    "games:calendar": entry(everyone(200), NOT_ALLOWED),
    # --- the API (JSON bodies; session or token) -------------------------------------------
    "schema": entry(everyone(200), NOT_ALLOWED),
    "api-docs": entry(everyone(200), NOT_ALLOWED),
    "api:token": entry(NOT_ALLOWED, everyone(400)),  # POST {}: no e-mail, no password
    "api:games": entry(api(200), api(201)),  # POST {}: a 2-player game with default options
    "api:game": entry(api(200), api(405)),
    "api:join": entry(api(405), {**api(200), "player": 409}, game="open"),
    "api:targets": entry(api(400, others=403), api(405)),
    "api:pick": entry(api(405), api(400, others=403)),  # the player: no card given
    "api:move": entry(api(405), api(400, others=403)),  # the player: no move given
    "api:turn": entry(api(405), api(400, others=403)),  # the player: no Action given
    # Verdant's choices asked of this Evergreen game: its player is told it is not Verdant.
    "api:verdant_choices": entry(api(404, others=403), api(405)),
    "api:record": entry(api(200), api(405)),
    "api:ranking": entry(api(200, others=403), api(400, others=403)),  # POST {}: no cards
    "api:vacation": entry(api(405), api(400)),  # POST {}: no days
    "api:rematch": entry(api(200), api(409, others=403)),  # the game is not over
    # The player has asked for no analysis (404) and may not while the game runs (409).
    "analysis_api:analysis": entry({**api(403), "player": 404}, {**api(403), "player": 409}),
    "analysis_api:hint": entry(api(405), {**api(403), "player": 200}),
    # --- accounts (allauth) ----------------------------------------------------------------
    "account_login": entry(signed_in(ME, anonymous=200), signed_in(ME, anonymous=200)),
    "account_signup": entry(signed_in(ME, anonymous=200), signed_in(ME, anonymous=200)),
    "account_logout": entry(signed_in(200, anonymous=(302, "/")), everyone((302, "/"))),
    "account_inactive": entry(everyone(200), NOT_ALLOWED),
    "account_reauthenticate": entry(signed_in(200), signed_in(200)),
    "account_email": entry(signed_in(200), signed_in((302, "/accounts/email/"))),
    "account_email_verification_sent": entry(everyone(200), NOT_ALLOWED),
    "account_change_password": entry(signed_in(200), signed_in(200)),
    "account_set_password": entry(
        signed_in((302, "/accounts/password/change/")),
        signed_in((302, "/accounts/password/change/")),
    ),
    "account_reset_password": entry(everyone(200), everyone(200)),
    "account_reset_password_done": entry(everyone(200), NOT_ALLOWED),
    "account_reset_password_from_key": entry(everyone(200), everyone(200)),  # "bad link"
    "account_reset_password_from_key_done": entry(everyone(200), NOT_ALLOWED),
    "account_confirm_login_code": entry(
        signed_in(ME, anonymous=(302, "/accounts/login/")),
        signed_in(ME, anonymous=(302, "/accounts/login/")),
    ),
    "account_confirm_email": entry(everyone(200), everyone(404)),  # an unknown key
    # The language switcher (Django's, plus the profile's language): a POST, back to "/".
    "set_language": entry(NOT_ALLOWED, everyone((302, "/"))),
    # --- Django's admin ----------------------------------------------------------------------
    # Organizers of clubs are staff: they get the admin's own pages as staff do.
    "admin:index": entry(in_admin(200), in_admin(200)),
    "admin:app_list": entry(ADMIN, ADMIN),  # "games": nothing of it for organizers (404)
    "admin:password_change": entry(in_admin(STAFF_IN), in_admin(STAFF_IN)),
    "admin:password_change_done": entry(in_admin(STAFF_IN), in_admin(405)),
    "admin:autocomplete": entry(in_admin(STAFF_IN), in_admin(405)),
    "admin:jsi18n": entry(in_admin(STAFF_IN), in_admin(405)),
    "admin:view_on_site": entry(in_admin((302, "http")), in_admin((302, "http"))),
    "admin:login": entry(
        {**everyone(200), **in_admin((302, "/admin/"), others=200)}, everyone(200)
    ),  # a signed-in player is told this account cannot use the admin
    "admin:logout": entry(
        in_admin(405, others=(302, "/admin/")), in_admin(200, others=(302, "/admin/"))
    ),
    "admin/(?P<url>.*)$": entry(in_admin(404), in_admin(404)),
    # Every model's pages, whatever the model (keys "admin:<model>_<page>").
    **{
        f"admin:<model>_{page}": entry(ADMIN, ADMIN)
        for page in ("changelist", "add", "change", "delete", "history", "password_change")
    },
    "admin:<model>_redirect": entry(in_admin(STAFF_IN), in_admin(STAFF_IN)),  # the old address
    # The tournaments models: organizers see their own clubs' rows only.
    **tournaments_admin(),
    # --- Clubs, events and players ---------------------------------------------------------
    "tournaments:clubs": entry(everyone(200), NOT_ALLOWED),
    "tournaments:club": entry(everyone(200), NOT_ALLOWED),
    "tournaments:event": entry(everyone(200), NOT_ALLOWED),
    "tournaments:player": entry(everyone(200), NOT_ALLOWED),
    # --- Conversations: a game's chat, a club's announcements and discussion -------------
    # Everyone gets the pages (those who may not read are told so on them); only the
    # game's players write in its chat (POST {}: "write something"), only members in
    # Pine's discussion. The forms of a message name their conversation (POST {}: none).
    "conversations:game_chat": entry(everyone(200), NOT_ALLOWED),
    "conversations:game_post": entry(NOT_ALLOWED, seated(400)),
    "conversations:club_talk": entry(everyone(200), NOT_ALLOWED),
    "conversations:club_panel": entry(everyone(200), NOT_ALLOWED),
    "conversations:club_post": entry(
        NOT_ALLOWED, {**signed_in(403), "player": 400, "organizer": 400}
    ),
    "conversations:hide": entry(NOT_ALLOWED, signed_in(404)),
    "conversations:report": entry(NOT_ALLOWED, signed_in(404)),
    "conversations:shield": entry(NOT_ALLOWED, signed_in(404)),
    "conversations:mail": entry(NOT_ALLOWED, signed_in(404)),
    # Changing and deleting a message: its author only (no such message here: 404).
    "conversations:edit": entry(NOT_ALLOWED, signed_in(404)),
    "conversations:delete": entry(NOT_ALLOWED, signed_in(404)),
    "api-message": entry(api(405), api(405)),  # PATCH and DELETE only
    "api-game-messages": entry({**api(200), "other_player": 403}, api(400, others=403)),
    "api-club-messages": entry(
        {**api(200), "other_player": 403, "organizer": 200, "organizer_other_club": 403},
        {**api(403), "player": 400, "organizer": 400},
    ),
    # Reports and messages in the admin: staff and every organizer get in (each sees
    # their own club's rows only: tests/conversations), nobody adds one.
    **{
        f"admin:conversations_{model}_{page}": entry(in_admin(STAFF_IN), in_admin(STAFF_IN))
        for model in ("report", "message")
        for page in ("changelist", "change", "delete", "history")
    },
    **{
        f"admin:conversations_{model}_add": entry(in_admin(403), in_admin(403))
        for model in ("report", "message")
    },
    "tournaments:club_create": entry(signed_in(200), signed_in(200)),  # POST {}: the form again
    # Joining by the invitation link: members are told they are in already (back to the
    # link), the others join (to the club's page).
    "tournaments:club_invite": entry(
        everyone(200),
        {
            **signed_in((302, CLUB)),
            "player": (302, "/clubs/invite/"),
            "organizer": (302, "/clubs/invite/"),
        },
        changes=JOINERS,
    ),
    # The buttons of the club page come back to it, with a message when refused; what
    # they changed tells who may press them.
    "tournaments:club_join": entry(NOT_ALLOWED, signed_in((302, CLUB)), changes=JOINERS),
    "tournaments:club_request": entry(NOT_ALLOWED, signed_in((302, CLUB)), changes=JOINERS),
    "tournaments:club_leave": entry(  # the last organizer may not leave
        NOT_ALLOWED, signed_in((302, CLUB)), changes={"player"}
    ),
    "tournaments:club_decide": entry(NOT_ALLOWED, signed_in((302, CLUB)), changes=RUNNERS),
    "tournaments:club_new_invite": entry(NOT_ALLOWED, signed_in((302, CLUB)), changes=RUNNERS),
    # The event runs: registration is closed; withdrawing from it asks to confirm first.
    "tournaments:event_register": entry(NOT_ALLOWED, signed_in((302, EVENT)), changes=NOBODY),
    "tournaments:event_withdraw": entry(NOT_ALLOWED, signed_in(200), changes=NOBODY),
    # --- the clubs and events API ------------------------------------------------------------
    "tournaments_api:clubs": entry(api(200), api(405)),
    "tournaments_api:club": entry(api(200), api(405)),
    "tournaments_api:events": entry(api(200), api(405)),
    "tournaments_api:event": entry(api(200), api(405)),
    "tournaments_api:standings": entry(api(200), api(405)),
    "tournaments_api:rounds": entry(api(200), api(405)),
    "tournaments_api:round": entry(api(200), api(405)),
    "tournaments_api:register": entry(api(405), api(409), changes=NOBODY),  # closed
    "tournaments_api:withdraw": entry(  # only Alice plays in it
        api(405), {**api(409), "player": 200}, changes={"player"}
    ),
    # --- ratings and the rules: public -------------------------------------------------------
    "games:rules": entry(everyone(200), NOT_ALLOWED),
    "games:verdant_rules": entry(everyone(200), NOT_ALLOWED),
    "games:ratings": entry(everyone(200), NOT_ALLOWED),
    "games:rating_player": entry(everyone(200), NOT_ALLOWED),
    "api:ratings": entry(everyone(200), everyone(405)),
    "api:rating": entry(everyone(404), everyone(405)),  # Alice has no rated game yet
    # --- the daily challenge: public page, a player's start, boards hidden until finished ----
    "challenges:daily": entry(everyone(200), NOT_ALLOWED),
    "challenges:start": entry(NOT_ALLOWED, signed_in((302, "/games/"))),
    "challenges:day": entry(everyone(404), NOT_ALLOWED),  # nobody played that day
    "challenges_api:challenges": entry(api(200), api(405)),
    "challenges_api:challenge": entry(api(200), api(405)),
    "challenges_api:start": entry(api(405), api({200, 201})),
    "challenges_api:leaderboard": entry(api(403), api(405)),  # nobody has finished today's
}
