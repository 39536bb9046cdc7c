from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        import evergreen.celery  # noqa: F401 - the app the tasks bind to

        from . import checks, receivers, signals  # noqa: F401  (registers and connects them)
