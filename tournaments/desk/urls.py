"""The arbiters' desk and the table in the players' hands: deal entry, corrections, rulings, links, calls."""

from django.urls import path

from tournaments.desk import (
    chief,
    correct_play,
    duplicate,
    engine,
    entry,
    forfeits,
    irregular,
    offline,
    play,
    table_links,
    views,
)

urlpatterns = [
    path("desk/", views.my_tables, name="my_tables"),
    path("desk/tables/<id:pk>/", views.table_detail, name="table_detail"),
    path("desk/tables/<id:pk>/deal/", entry.deal_enter, name="deal_enter"),
    path("desk/tables/<id:pk>/deal/check/", entry.deal_check, name="deal_check"),
    path("desk/tables/<id:pk>/ruling/", entry.ruling_create, name="ruling_create"),
    path("desk/rulings/<id:pk>/withdraw/", entry.ruling_withdraw_view, name="ruling_withdraw"),
    path("desk/deals/<id:pk>/irregular/", irregular.irregular_rule_view, name="irregular_rule"),
    path("desk/tables/<id:pk>/forfeit/", forfeits.table_forfeit, name="table_forfeit"),
    path("desk/deals/<id:pk>/", views.deal_detail, name="deal_detail"),
    path("desk/deals/<id:pk>/correct/", entry.deal_correct_view, name="deal_correct"),
    path("desk/deals/<id:pk>/correct/play/", correct_play.deal_correct_play, name="deal_correct_play"),
    path("desk/deals/<id:pk>/correct/play/save/", correct_play.deal_correct_play_save, name="deal_correct_play_save"),
    path("desk/deals/<id:pk>/approve/", entry.deal_approve_view, name="deal_approve"),
    path("desk/deals/<id:pk>/restore/", entry.deal_restore_view, name="deal_restore"),
    # the tap-to-play entry of every game
    path("desk/tables/<id:pk>/deal/play/", play.deal_play, name="deal_play"),
    path("desk/tables/<id:pk>/deal/play/state/", play.deal_play_state, name="deal_play_state"),
    path("desk/tables/<id:pk>/deal/play/save/", play.deal_play_save, name="deal_play_save"),
    path("desk/tables/<id:pk>/deal/offline/", offline.desk_deal_offline, name="deal_offline"),
    path("desk/tables/<id:pk>/deal/sw.js", offline.desk_service_worker, name="deal_sw"),
    # the rules engine for the tap page without network (Pyodide runs rules/ and scoring/ from this zip)
    path("engine/rules-<str:digest>.zip", engine.rules_engine_zip, name="rules_engine_zip"),
    # duplicate Tarot at the table: the étuis played, an artificial result
    path("desk/tables/<id:pk>/etuis/", duplicate.table_etuis, name="table_etuis"),
    path("desk/tables/<id:pk>/etuis/<id:number>/artificial/", duplicate.table_artificial, name="table_artificial"),
    # the table's and the player's private links (no account)
    path("k/<str:token>/", table_links.link_home, name="link_home"),
    path("k/<str:token>/deal/", table_links.link_enter, name="link_enter"),
    path("k/<str:token>/deal/check/", table_links.link_check, name="link_deal_check"),
    path("k/<str:token>/deal/state/", table_links.link_state, name="link_deal_state"),
    path("k/<str:token>/deals/<id:number>/", table_links.link_deal, name="link_deal"),
    path("k/<str:token>/call/", table_links.link_call, name="link_call"),
    path("k/<str:token>/deal/offline/", offline.link_deal_offline, name="link_deal_offline"),
    path("k/<str:token>/manifest.webmanifest", offline.link_manifest, name="link_manifest"),
    path("k/<str:token>/sw.js", offline.link_service_worker, name="link_sw"),
    path("k/<str:token>/engine-worker.js", offline.link_engine_worker, name="link_engine_worker"),
    path("j/<str:token>/", table_links.player_home, name="player_home"),
    path("j/<str:token>/rounds/<id:round_number>/deals/<id:number>/", table_links.player_answer,
         name="player_answer"),
    # the chief arbiter's calls and queues
    path("t/<slug:slug>/arbiter/", chief.chief_page, name="chief_page"),
    path("t/<slug:slug>/calls/<id:pk>/take/", chief.call_take_view, name="call_take"),
    path("t/<slug:slug>/calls/<id:pk>/resolve/", chief.call_resolve_view, name="call_resolve"),
]
