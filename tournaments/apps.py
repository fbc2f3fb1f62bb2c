"""The one Django app of the service: its packages by concern and by audience are described in
``docs/architecture.md``."""

from django.apps import AppConfig
from django.urls import register_converter
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournois")

    def ready(self) -> None:
        # Models and tasks are importable only once the registry is ready, hence the imports here.
        from tournaments.common import hooks
        from tournaments.common.converters import IdConverter
        from tournaments.deals import anonymous as deals_anonymous
        from tournaments.duplicate import service as duplicate
        from tournaments.duplicate.models import DuplicateTable
        from tournaments.links import service as links
        from tournaments.public import anonymous as public_anonymous
        from tournaments.public import tasks as public_tasks
        from tournaments.seasons import tasks as season_tasks
        from tournaments.standings import tasks

        register_converter(IdConverter, "id")  # <id:pk> in the URL patterns
        # the standings learn that scores changed through the one hook (tournaments/common/hooks.py)
        hooks.subscribe(tasks.ranking_refresh_on_commit)
        # a deal saved at a duplicate table is tied to its étui and checked against its cards
        # (and, before it is saved, a summary's poignées are checked against the étui's hands)
        hooks.subscribe_deal_saved(duplicate.deal_saved, table_model=DuplicateTable, check=duplicate.deal_check)
        # a deal saved as irregular: the arbiter is called to its table
        hooks.subscribe_deal_irregular(links.irregular_deal_call)
        # a ruling on an irregular deal answers the table's call
        hooks.subscribe_irregular_ruled(links.irregular_ruled_answer)
        # a ranking published: its public pages and PDFs are rendered outside the web requests
        hooks.subscribe_ranking_published(public_tasks.ranking_published)
        # a counted tournament's ranking published: the championships it counts in are recomputed by the workers
        hooks.subscribe_ranking_published(season_tasks.tournament_published)
        # a championship's ranking published: its PDF, CSVs and page rendered by the prints worker
        hooks.subscribe_championship_published(public_tasks.championship_published)
        # a player made anonymous: his name goes from the records of the deals he played
        hooks.subscribe_player_anonymized(deals_anonymous.records_renamed)
        # … what the public pages keep that shows his name is dropped (first: on commit, before the renders) …
        hooks.subscribe_player_anonymized(public_anonymous.player_anonymized)
        # … and the championships that rank him publish a new version, rendered again under his new name
        hooks.subscribe_player_anonymized(season_tasks.player_anonymized)
        # a counted tournament finished (or reopened): its championships say « provisoire » no more (or again)
        hooks.subscribe_tournament_finished_changed(season_tasks.tournament_finished_changed)
