"""The data of the authorization matrix (``test_sec_authz_matrix.py``): who may do what.

How to extend it
----------------
* **A new URL** fails the matrix test until it has an entry in ``EXPECTED`` (keyed by its
  namespaced URL name, or by its route when it has no name) saying, for GET and POST,
  what each role gets. ``ARGS`` says which object fills each URL parameter; a new
  parameter name needs an entry there (``"club_pk": "club"`` …) and the object in
  ``World`` (see ``test_sec_authz_matrix.world``).
* **A new role** is one entry in ``ROLES`` (its name and how to make its user, in
  ``test_sec_authz_matrix.ROLE_USERS``) and one in ``LIKE``: the role it behaves like
  wherever an entry does not name it. ``organizer_other_club`` is such a role: today a
  signed-in user who organizes nothing here, it behaves like ``other_player``; the
  tournaments app gives it a club of its own and names it in the entries of its URLs
  where it differs (its own club's pages).

Statuses: an int is the status code; ``LOGIN`` is a redirect to the log-in page with a
``next`` back; ``ADMIN_LOGIN`` the same for the admin; ``(code, "prefix")`` a redirect to a
URL starting with ``prefix``.
"""

from __future__ import annotations

from typing import Any

ROLES = ("anonymous", "player", "other_player", "staff", "organizer_other_club")
LIKE = {"organizer_other_club": "other_player"}

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


def entry(get: dict[str, Any], post: dict[str, Any], *, game: str = "active") -> dict[str, Any]:
    return {"GET": get, "POST": post, "game": game}


NOT_ALLOWED = everyone(405)
ME = (302, "/games/mine/")  # where a signed-in visitor of the log-in and sign-up pages goes
# Django's admin: only staff get in; what they get then is the admin's business (a page,
# 403 where a model admin allows no adding or deleting, back to the index for a missing row).
STAFF_IN = {200, 403, (302, "/admin/")}
ADMIN = staff_only(STAFF_IN)

EXPECTED: dict[str, dict[str, Any]] = {
    # --- the site's pages ---------------------------------------------------------------
    "games:home": entry(everyone(200), NOT_ALLOWED),
    "games:lobby": entry(everyone(200), NOT_ALLOWED),
    "games:create": entry(signed_in(200), signed_in(200)),  # POST {}: the form with its errors
    "games:my_games": entry(signed_in(200), NOT_ALLOWED),
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
    # A game: public to read (as a spectator sees it), played only from its seats.
    "games:detail": entry(everyone(200), NOT_ALLOWED),
    "games:poll": entry(everyone((303, "/games/")), NOT_ALLOWED),
    "games:replay": entry(everyone(200), NOT_ALLOWED),
    "games:record": entry(everyone(200), NOT_ALLOWED),
    "games:pick": entry(NOT_ALLOWED, seated(400)),  # the player: "this form is incomplete"
    "games:ranking": entry(NOT_ALLOWED, seated(409)),  # not drafting now
    "games:turn": entry(NOT_ALLOWED, seated(400)),
    "games:submit_turn": entry(NOT_ALLOWED, seated(400)),
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
    "api:turn": entry(api(405), api(400, others=403)),  # the player: no Action given
    "api:record": entry(api(200), api(405)),
    "api:ranking": entry(api(200, others=403), api(400, others=403)),  # POST {}: no cards
    "api:vacation": entry(api(405), api(400)),  # POST {}: no days
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
    "set_language": entry(everyone((302, "/")), everyone((302, "/"))),
    # --- Django's admin ----------------------------------------------------------------------
    "admin:index": entry(ADMIN, ADMIN),
    "admin:app_list": entry(ADMIN, ADMIN),
    "admin:password_change": entry(ADMIN, ADMIN),
    "admin:password_change_done": entry(ADMIN, staff_only(405)),
    "admin:autocomplete": entry(ADMIN, staff_only(405)),
    "admin:jsi18n": entry(ADMIN, staff_only(405)),
    "admin:view_on_site": entry(staff_only((302, "http")), staff_only((302, "http"))),
    "admin:login": entry(
        {**everyone(200), "staff": (302, "/admin/")}, everyone(200)
    ),  # a signed-in player is told this account cannot use the admin
    "admin:logout": entry(
        {**everyone((302, "/admin/")), "staff": 405}, {**everyone((302, "/admin/")), "staff": 200}
    ),
    "admin/(?P<url>.*)$": entry(staff_only(404), staff_only(404)),
    # Every model's pages, whatever the model (keys "admin:<model>_<page>").
    **{
        f"admin:<model>_{page}": entry(ADMIN, ADMIN)
        for page in (
            "changelist",
            "add",
            "change",
            "delete",
            "history",
            "password_change",
            "redirect",
        )
    },
}
