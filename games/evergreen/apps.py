from django.apps import AppConfig


class EvergreenConfig(AppConfig):
    """Evergreen's own tables (the Fertility Zone) and templates, beside the platform's."""

    name = "games.evergreen"
    label = "evergreen"
    verbose_name = "Evergreen"  # a name, the same in every language
    default_auto_field = "django.db.models.BigAutoField"
