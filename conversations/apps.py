from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ConversationsConfig(AppConfig):
    name = "conversations"
    verbose_name = _("Conversations")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import usercache

        from . import shields  # its receiver: a new user's choices, known

        usercache.read_with_user(shields.names_read_with_user)
