from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        import evergreen.celery  # noqa: F401 - the app the tasks bind to
        from evergreen import checks  # noqa: F401 - registers the deployment checks

        # The receivers connect themselves (pollcache's publish each game's version, pagecache's
        # each viewer's records, usercache and the API's tokencache forget changed rows,
        # handoff's send a request's tasks after its response); the tasks register with the
        # Celery app, which the services and the outbox call by name.
        from . import handoff, pagecache, pollcache, receivers, signals, tasks, usercache  # noqa: F401
        from .api import tokencache  # noqa: F401
