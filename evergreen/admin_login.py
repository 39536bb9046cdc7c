"""The admin's login form: accounts log in by e-mail, on the admin as on the site."""

from __future__ import annotations

from typing import Any

from django.contrib.admin.forms import AdminAuthenticationForm
from django.utils.translation import gettext_lazy as _


class EmailLoginForm(AdminAuthenticationForm):
    """Accounts log in by e-mail (allauth's backend reads the address from ``username``):
    the admin's login form asks for it by that name."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["username"]
        field.label = _("E-mail")
        field.widget.attrs.update({"autocomplete": "email", "inputmode": "email"})
