from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChallengesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "challenges"
    verbose_name = _("Daily challenges")

    def ready(self) -> None:
        from . import tasks  # noqa: F401  (registers the tasks services sends by name)
