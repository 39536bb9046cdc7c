from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Clubs and events")

    def ready(self) -> None:
        from . import receivers  # noqa: F401  (connects the receivers)
