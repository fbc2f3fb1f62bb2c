"""API routes, mounted under ``/api/`` (schema at ``/api/schema/``, Swagger UI at ``/api/docs/``)."""

from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from tournaments.api import arbitrate, base, clubs, deals, duplicate, players, rounds, rulings, tables, tournaments
from tournaments.api.token import TokenView

app_name = "api"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
    path("auth/token/", TokenView.as_view(), name="token"),
    path("arbitrate/", arbitrate.ArbitrateView.as_view(), name="arbitrate"),
    path("tournaments/", tournaments.TournamentListView.as_view(), name="tournaments"),
    path("tournaments/<id:pk>/", tournaments.TournamentDetailView.as_view(), name="tournament"),
    path("tournaments/<id:pk>/status/", tournaments.TournamentStatusView.as_view(), name="tournament-status"),
    path("tournaments/<id:pk>/roles/", tournaments.RoleListView.as_view(), name="tournament-roles"),
    path("tournaments/<id:pk>/registrations/", players.RegistrationListView.as_view(), name="registrations"),
    path("tournaments/<id:pk>/players.csv", players.PlayersCsvView.as_view(), name="players-csv"),
    path("tournaments/<id:pk>/teams/", players.TeamListView.as_view(), name="teams"),
    path("tournaments/<id:pk>/rounds/", rounds.RoundListView.as_view(), name="rounds"),
    path("tournaments/<id:pk>/rulings/", rulings.RulingListView.as_view(), name="rulings"),
    path("tournaments/<id:pk>/export/", tournaments.TournamentExportView.as_view(), name="tournament-export"),
    path("tournaments/<id:pk>/duplicate/", duplicate.DuplicateSetupView.as_view(), name="duplicate"),
    path("tournaments/<id:pk>/duplicate/etuis/", duplicate.EtuiListView.as_view(), name="duplicate-etuis"),
    path("tournaments/<id:pk>/duplicate/etuis/import/", duplicate.EtuisImportView.as_view(),
         name="duplicate-etuis-import"),
    path("tournaments/<id:pk>/duplicate/etuis/<int:number>/", duplicate.TravellerView.as_view(),
         name="duplicate-traveller"),
    path("tables/<id:pk>/etuis/<int:number>/artificial/", duplicate.ArtificialView.as_view(),
         name="duplicate-artificial"),
    path("registrations/<id:pk>/", players.RegistrationDetailView.as_view(), name="registration"),
    path("players/", players.PlayerListView.as_view(), name="players"),
    path("clubs/<id:pk>/members/", clubs.ClubMembersView.as_view(), name="club-members"),
    path("players/<id:pk>/", players.PlayerDetailView.as_view(), name="player"),
    path("rounds/<id:pk>/", rounds.RoundDetailView.as_view(), name="round"),
    path("rounds/<id:pk>/seating/", rounds.RoundSeatingView.as_view(), name="round-seating"),
    path("rounds/<id:pk>/release/", rounds.RoundReleaseView.as_view(), name="round-release"),
    path("tables/<id:pk>/", tables.TableDetailView.as_view(), name="table"),
    path("tables/<id:pk>/deals/", deals.TableDealsView.as_view(), name="table-deals"),
    path("tables/<id:pk>/export/", tables.TableExportView.as_view(), name="table-export"),
    path("tables/<id:pk>/import/", tables.TableImportView.as_view(), name="table-import"),
    path("deals/<id:pk>/", deals.DealDetailView.as_view(), name="deal"),
    path("deals/<id:pk>/versions/", deals.DealVersionsView.as_view(), name="deal-versions"),
    path("deals/<id:pk>/annul/", deals.DealAnnulView.as_view(), name="deal-annul"),
    path("deals/<id:pk>/restore/", deals.DealRestoreView.as_view(), name="deal-restore"),
    path("deals/<id:pk>/approve/", deals.DealApproveView.as_view(), name="deal-approve"),
    path("deals/<id:pk>/ruling/", rulings.IrregularRuleView.as_view(), name="deal-irregular-ruling"),
    path("rulings/<id:pk>/withdraw/", rulings.RulingWithdrawView.as_view(), name="ruling-withdraw"),
    path("", include("tournaments.api.forfeits")),  # tables/<id>/forfeit/
    path("", include("tournaments.api.ranking")),  # tournaments/<id>/ranking/, …/<version>/, …/diff/
    path("", include("tournaments.api.links")),  # tournaments/<id>/links/, links/<id>/revoke/, …/renew/
    path("", include("tournaments.api.calls")),  # tournaments/<id>/calls/, calls/<id>/take/, …/resolve/, k/…/calls/
    path("", include("tournaments.api.answers")),  # k/<token>/deals/, j/<token>/deals/, deals/<id>/answers/
    path("", include("tournaments.api.seasons")),  # clubs/, seasons/, championships/<id>/ranking/, people/<id>/…
    re_path(r"", base.not_found),  # last: any other path under /api/ is a 404 in the API's shape
]
