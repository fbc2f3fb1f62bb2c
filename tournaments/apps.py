from django.apps import AppConfig
from django.urls import register_converter


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournois"

    def ready(self) -> None:
        from tournaments.common.converters import IdConverter

        register_converter(IdConverter, "id")  # <id:pk> in the URL patterns
