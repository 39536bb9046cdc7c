from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class VerdantConfig(AppConfig):
    """Verdant's templates (``games/verdant/templates``) beside the platform's."""

    name = "games.verdant"
    label = "verdant"
    verbose_name = _("Verdant")
    default_auto_field = "django.db.models.BigAutoField"
