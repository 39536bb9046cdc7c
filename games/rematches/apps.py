from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RematchesConfig(AppConfig):
    """Rematches: the same players, a new game with the same settings, once all accept."""

    name = "games.rematches"
    label = "rematches"
    verbose_name = _("Rematches")
    default_auto_field = "django.db.models.BigAutoField"
