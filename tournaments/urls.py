"""Tournament URLs, by audience: public pages, the organizer's, the arbiters' desk; the REST API under api/."""

from importlib.util import find_spec

from django.contrib.auth import views as auth_views
from django.urls import include, path

from . import views
from .views import arbiter_calls, ledger, middle, offline, staff_accounts, table_cards, tables

urlpatterns = [
    # public
    path("", views.home, name="home"),
    path("t/<slug:slug>/", views.tournament_detail, name="tournament_detail"),
    path("t/<slug:slug>/rounds/<id:number>/", views.round_detail, name="round_detail"),
    # accounts
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # organizer
    path("new/", views.tournament_create, name="tournament_create"),
    path("t/<slug:slug>/status/", views.tournament_status, name="tournament_status"),
    path("t/<slug:slug>/players/", views.players, name="players"),
    path("t/<slug:slug>/staff/", views.staff, name="staff"),
    path("t/<slug:slug>/staff/accounts/new/", staff_accounts.staff_account_create, name="staff_account_create"),
    path("t/<slug:slug>/staff/accounts/<id:user_id>/password/", staff_accounts.staff_password_reset,
         name="staff_password_reset"),
    path("t/<slug:slug>/rounds/new/", views.round_create, name="round_create"),
    path("t/<slug:slug>/rounds/<id:number>/seat/", views.round_seat, name="round_seat"),
    path("t/<slug:slug>/rounds/<id:number>/status/", views.round_status, name="round_status"),
    path("t/<slug:slug>/rounds/<id:number>/release/", views.round_release, name="round_release"),
    path("t/<slug:slug>/rounds/<id:number>/draw/", views.round_draw, name="round_draw"),
    path("t/<slug:slug>/teams/", views.teams, name="teams"),
    # the arbiters' desk
    path("desk/", views.my_tables, name="my_tables"),
    path("desk/tables/<id:pk>/", views.table_detail, name="table_detail"),
    path("desk/tables/<id:pk>/deal/", views.deal_enter, name="deal_enter"),
    path("desk/tables/<id:pk>/deal/check/", views.deal_check, name="deal_check"),
    path("desk/tables/<id:pk>/ruling/", views.ruling_create, name="ruling_create"),
    path("desk/rulings/<id:pk>/withdraw/", views.ruling_withdraw_view, name="ruling_withdraw"),
    path("desk/tables/<id:pk>/forfeit/", views.table_forfeit, name="table_forfeit"),
    path("desk/deals/<id:pk>/", views.deal_detail, name="deal_detail"),
    path("desk/deals/<id:pk>/correct/", views.deal_correct_view, name="deal_correct"),
    path("desk/deals/<id:pk>/correct/play/", views.deal_correct_play, name="deal_correct_play"),
    path("desk/deals/<id:pk>/correct/play/save/", views.deal_correct_play_save, name="deal_correct_play_save"),
    path("desk/deals/<id:pk>/approve/", views.deal_approve_view, name="deal_approve"),
    path("desk/deals/<id:pk>/restore/", views.deal_restore_view, name="deal_restore"),
    # the tap-to-play entry of every game (views/play.py)
    path("desk/tables/<id:pk>/deal/play/", views.deal_play, name="deal_play"),
    path("desk/tables/<id:pk>/deal/play/state/", views.deal_play_state, name="deal_play_state"),
    path("desk/tables/<id:pk>/deal/play/save/", views.deal_play_save, name="deal_play_save"),
    # the table in the players' hands (tournaments/views/tables.py, table_cards.py, arbiter_calls.py)
    path("k/<str:token>/", tables.link_home, name="link_home"),
    path("k/<str:token>/deal/", tables.link_enter, name="link_enter"),
    path("k/<str:token>/deal/check/", tables.link_check, name="link_deal_check"),
    path("k/<str:token>/deals/<id:pk>/", tables.link_deal, name="link_deal"),
    path("k/<str:token>/call/", tables.link_call, name="link_call"),
    path("j/<str:token>/", tables.player_home, name="player_home"),
    path("j/<str:token>/deals/<id:pk>/", tables.player_answer, name="player_answer"),
    path("t/<slug:slug>/rounds/<id:number>/cards/", table_cards.table_cards, name="table_cards"),
    path("t/<slug:slug>/player-cards/", table_cards.player_cards, name="player_cards"),
    path("t/<slug:slug>/links/", table_cards.links_page, name="table_links"),
    path("t/<slug:slug>/links/<id:pk>/revoke/", table_cards.link_revoke, name="link_revoke"),
    path("t/<slug:slug>/arbiter/", arbiter_calls.chief_page, name="chief_page"),
    path("t/<slug:slug>/calls/<id:pk>/take/", arbiter_calls.call_take_view, name="call_take"),
    path("t/<slug:slug>/calls/<id:pk>/resolve/", arbiter_calls.call_resolve_view, name="call_resolve"),
    path("p/<slug:slug>/ledger/", ledger.ledger, name="public-ledger"),
    path("k/<str:token>/deal/offline/", offline.link_deal_offline, name="link_deal_offline"),
    path("k/<str:token>/manifest.webmanifest", offline.link_manifest, name="link_manifest"),
    path("k/<str:token>/sw.js", offline.link_service_worker, name="link_sw"),
    path("desk/tables/<id:pk>/deal/offline/", offline.desk_deal_offline, name="deal_offline"),
    # the organizer's day: arrivals, late arrivals and leavers; seat changes of a round (views/middle.py)
    path("t/<slug:slug>/arrivals/", middle.arrivals, name="arrivals"),
    path("t/<slug:slug>/rounds/<id:number>/changes/", middle.round_changes, name="round_changes"),
    path("t/<slug:slug>/rounds/<id:number>/clock/", middle.round_clock, name="round_clock"),
]

# The REST API (tournaments/api/urls.py, written separately) lives under /api/.
def _has_api() -> bool:
    try:
        return find_spec("tournaments.api.urls") is not None
    except ModuleNotFoundError:
        return False


if _has_api():
    urlpatterns.append(path("api/", include("tournaments.api.urls")))

urlpatterns += [path("", include("tournaments.public.urls"))]  # public pages and exports (tournaments/public)

from .views import duplicate as duplicate_views  # noqa: E402

urlpatterns += [
    path("desk/tables/<id:pk>/etuis/", duplicate_views.table_etuis, name="table_etuis"),
    path("desk/tables/<id:pk>/etuis/<id:number>/artificial/", duplicate_views.table_artificial,
         name="table_artificial"),
    path("t/<slug:slug>/duplicate/", duplicate_views.duplicate_setup, name="duplicate_setup"),
    path("t/<slug:slug>/rounds/<id:number>/cards/", duplicate_views.table_cards, name="duplicate_cards"),
    path("t/<slug:slug>/etuis/print/", duplicate_views.etui_records, name="duplicate_records"),
    path("t/<slug:slug>/etuis/import/", duplicate_views.etuis_import_view, name="duplicate_import"),
]
