"""The organizer's pages: the tournament, its players, staff, rounds, the draw, the day's changes, links and cards."""

from django.urls import path

from tournaments.organizer import (
    backups,
    clubs,
    duplicate,
    manage,
    middle,
    pages,
    players,
    seasons,
    staff_accounts,
    table_cards,
    views,
)

urlpatterns = [
    path("", pages.home, name="home"),
    path("t/<slug:slug>/", pages.tournament_detail, name="tournament_detail"),
    path("t/<slug:slug>/rounds/<id:number>/", pages.round_detail, name="round_detail"),
    path("new/", views.tournament_create, name="tournament_create"),
    # clubs and the players' register (issue 23)
    path("clubs/", clubs.clubs_list, name="clubs"),
    path("clubs/<slug:club>/", clubs.club_page, name="club"),
    path("licences/", clubs.licences_import, name="licences_import"),
    # the clubs' seasons and their championships (tournaments/seasons)
    path("gestion/saisons/", seasons.seasons, name="seasons"),
    path("gestion/saisons/<slug:season>/", seasons.season_detail, name="season_detail"),
    path("gestion/saisons/<slug:season>/supprimer/", seasons.season_delete, name="season_delete"),
    path("gestion/saisons/<slug:season>/championnats/nouveau/", seasons.championship_edit,
         name="championship_create"),
    path("gestion/saisons/<slug:season>/championnats/<slug:champ_slug>/", seasons.championship_edit,
         name="championship_edit"),
    path("gestion/saisons/<slug:season>/championnats/<slug:champ_slug>/supprimer/", seasons.championship_delete,
         name="championship_delete"),
    # the site's backups and the service's health in words (tournaments/operations)
    path("backups/", backups.backups, name="backups"),
    path("backups/<str:name>/", backups.backup_download, name="backup_download"),
    path("t/<slug:slug>/status/", views.tournament_status, name="tournament_status"),
    path("t/<slug:slug>/settings/", views.tournament_settings, name="tournament_settings"),
    path("t/<slug:slug>/public/", views.tournament_public, name="tournament_public"),
    path("t/<slug:slug>/players/", views.players, name="players"),
    path("t/<slug:slug>/players/<id:entry_id>/", players.player_edit, name="player_edit"),
    path("t/<slug:slug>/players/<id:entry_id>/remove/", players.entry_remove, name="entry_remove"),
    path("t/<slug:slug>/players/<id:entry_id>/merge/", players.players_merge, name="players_merge"),
    path("t/<slug:slug>/players/<id:entry_id>/merge-records/", players.records_merge, name="records_merge"),
    path("t/<slug:slug>/players/<id:entry_id>/anonymize/", players.player_anonymize, name="player_anonymize"),
    path("t/<slug:slug>/staff/", views.staff, name="staff"),
    path("t/<slug:slug>/staff/accounts/new/", staff_accounts.staff_account_create, name="staff_account_create"),
    path("t/<slug:slug>/staff/accounts/<id:user_id>/password/", staff_accounts.staff_password_reset,
         name="staff_password_reset"),
    path("t/<slug:slug>/rounds/new/", views.round_create, name="round_create"),
    path("t/<slug:slug>/rounds/<id:number>/seat/", views.round_seat, name="round_seat"),
    path("t/<slug:slug>/rounds/<id:number>/status/", views.round_status, name="round_status"),
    path("t/<slug:slug>/rounds/<id:number>/release/", views.round_release, name="round_release"),
    path("t/<slug:slug>/rounds/<id:number>/draw/", manage.round_draw, name="round_draw"),
    path("t/<slug:slug>/teams/", manage.teams, name="teams"),
    # the table links and their cards (QR codes), the table policy
    path("t/<slug:slug>/rounds/<id:number>/cards/", table_cards.table_cards, name="table_cards"),
    path("t/<slug:slug>/player-cards/", table_cards.player_cards, name="player_cards"),
    path("t/<slug:slug>/links/", table_cards.links_page, name="table_links"),
    path("t/<slug:slug>/links/<id:pk>/revoke/", table_cards.link_revoke, name="link_revoke"),
    # the organizer's day: arrivals, late arrivals and leavers; seat changes of a round; the round clock
    path("t/<slug:slug>/arrivals/", middle.arrivals, name="arrivals"),
    path("t/<slug:slug>/rounds/<id:number>/changes/", middle.round_changes, name="round_changes"),
    path("t/<slug:slug>/rounds/<id:number>/clock/", middle.round_clock, name="round_clock"),
    # duplicate Tarot: the movement, the étuis' cards and records
    path("t/<slug:slug>/duplicate/", duplicate.duplicate_setup, name="duplicate_setup"),
    path("t/<slug:slug>/rounds/<id:number>/duplicate-cards/", duplicate.table_cards, name="duplicate_cards"),
    path("t/<slug:slug>/etuis/print/", duplicate.etui_records, name="duplicate_records"),
    path("t/<slug:slug>/etuis/import/", duplicate.etuis_import_view, name="duplicate_import"),
]
