"""API routes, mounted under ``/api/`` (schema at ``/api/schema/``, Swagger UI at ``/api/docs/``)."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from tournaments.api import views as v
from tournaments.api.token import TokenView

app_name = "api"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
    path("auth/token/", TokenView.as_view(), name="token"),
    path("arbitrate/", v.ArbitrateView.as_view(), name="arbitrate"),
    path("tournaments/", v.TournamentListView.as_view(), name="tournaments"),
    path("tournaments/<id:pk>/", v.TournamentDetailView.as_view(), name="tournament"),
    path("tournaments/<id:pk>/status/", v.TournamentStatusView.as_view(), name="tournament-status"),
    path("tournaments/<id:pk>/roles/", v.RoleListView.as_view(), name="tournament-roles"),
    path("tournaments/<id:pk>/registrations/", v.RegistrationListView.as_view(), name="registrations"),
    path("tournaments/<id:pk>/players.csv", v.PlayersCsvView.as_view(), name="players-csv"),
    path("tournaments/<id:pk>/teams/", v.TeamListView.as_view(), name="teams"),
    path("tournaments/<id:pk>/rounds/", v.RoundListView.as_view(), name="rounds"),
    path("tournaments/<id:pk>/rulings/", v.RulingListView.as_view(), name="rulings"),
    path("tournaments/<id:pk>/export/", v.TournamentExportView.as_view(), name="tournament-export"),
    path("registrations/<id:pk>/", v.RegistrationDetailView.as_view(), name="registration"),
    path("players/", v.PlayerListView.as_view(), name="players"),
    path("players/<id:pk>/", v.PlayerDetailView.as_view(), name="player"),
    path("rounds/<id:pk>/", v.RoundDetailView.as_view(), name="round"),
    path("rounds/<id:pk>/seating/", v.RoundSeatingView.as_view(), name="round-seating"),
    path("rounds/<id:pk>/release/", v.RoundReleaseView.as_view(), name="round-release"),
    path("tables/<id:pk>/", v.TableDetailView.as_view(), name="table"),
    path("tables/<id:pk>/deals/", v.TableDealsView.as_view(), name="table-deals"),
    path("tables/<id:pk>/export/", v.TableExportView.as_view(), name="table-export"),
    path("tables/<id:pk>/import/", v.TableImportView.as_view(), name="table-import"),
    path("deals/<id:pk>/", v.DealDetailView.as_view(), name="deal"),
    path("deals/<id:pk>/versions/", v.DealVersionsView.as_view(), name="deal-versions"),
    path("deals/<id:pk>/annul/", v.DealAnnulView.as_view(), name="deal-annul"),
    path("deals/<id:pk>/restore/", v.DealRestoreView.as_view(), name="deal-restore"),
    path("deals/<id:pk>/approve/", v.DealApproveView.as_view(), name="deal-approve"),
    path("rulings/<id:pk>/withdraw/", v.RulingWithdrawView.as_view(), name="ruling-withdraw"),
    path("", include("tournaments.api.forfeits")),  # tables/<id>/forfeit/
    path("", include("tournaments.api.ranking")),  # tournaments/<id>/ranking/, …/<version>/, …/diff/
]
