from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EvergreenConfig(AppConfig):
    """Evergreen's own tables (the Fertility Zone) and templates, beside the platform's."""

    name = "games.evergreen"
    label = "evergreen"
    verbose_name = _("Evergreen")
    default_auto_field = "django.db.models.BigAutoField"
