"""Tournament URLs, by audience: public pages, the organizer's, the arbiters' desk; the REST API under api/."""

from importlib.util import find_spec

from django.contrib.auth import views as auth_views
from django.urls import include, path

from . import views
from .views import middle

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
    path("desk/deals/<id:pk>/approve/", views.deal_approve_view, name="deal_approve"),
    path("desk/deals/<id:pk>/restore/", views.deal_restore_view, name="deal_restore"),
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
