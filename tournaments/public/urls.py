"""Public pages and exports (``public-*``), under /p/<slug>/; organizer print-outs and draw too."""

from django.urls import path

from tournaments.public import clubs, duplicate, exports, health, language, ledger, pages, pdf, seasons, views

urlpatterns = [
    path("c/<slug:slug>/", clubs.club, name="public-club"),
    path("p/<slug:slug>/", pages.home, name="public-home"),
    path("p/<slug:slug>/ranking/", pages.ranking, name="public-ranking"),
    # a player's own page through his link: polled by phones like the ranking (Django tries the patterns in order:
    # 30th, it spent 22 µs resolving; 3rd, 14 µs)
    path("j/<str:token>/parcours/", seasons.player_private_page, name="player-history-private"),
    path("p/<slug:slug>/ranking.csv", views.ranking_csv, name="public-ranking-csv"),
    path("p/<slug:slug>/ranking/print/", pages.ranking_print, name="public-ranking-print"),
    path("p/<slug:slug>/screen/", pages.screen, name="public-screen"),
    path("p/<slug:slug>/screen/seating/", views.screen_seating, name="public-screen-seating"),
    path("p/<slug:slug>/screen/clock/", views.screen_clock, name="public-screen-clock"),
    path("p/<slug:slug>/rounds/<id:number>/", views.round_results, name="public-round"),
    path("p/<slug:slug>/results.csv", views.results_csv, name="public-results-csv"),
    path("p/<slug:slug>/results/print/", views.results_print, name="public-results-print"),
    path("p/<slug:slug>/players/<id:entry_id>/", pages.player, name="public-player"),
    path("p/<slug:slug>/rounds/<id:number>/sheets/", views.score_sheets, name="public-score-sheets"),
    path("p/<slug:slug>/rounds/<id:number>/draw/", views.round_draw, name="public-round-draw"),
    # PDF print-outs made on the server (public/pdf.py)
    path("p/<slug:slug>/ranking.pdf", pdf.ranking_pdf, name="print-ranking"),
    path("p/<slug:slug>/rounds/<id:number>/results.pdf", pdf.results_pdf, name="print-round-results"),
    path("p/<slug:slug>/rounds/<id:number>/sheets.pdf", pdf.sheets_pdf, name="print-score-sheets"),
    path("p/<slug:slug>/rounds/<id:number>/seating.pdf", pdf.seating_pdf, name="print-seating"),
    path("p/<slug:slug>/results.json", exports.results_json, name="public-results-file"),
    path("p/-/language/", language.set_language, name="public-language"),
    # the service's health, for the load balancer and the director (tournaments/operations/health.py)
    path("health/", health.health, name="health"),
    # duplicate Tarot: the étuis and their travellers once released
    path("p/<slug:slug>/etuis/", duplicate.etuis, name="public-etuis"),
    path("p/<slug:slug>/etuis/<id:number>/", duplicate.etui_traveller, name="public-etui"),
    # seasons: a season, its championships' rankings (page, CSV, PDF), a player's page across events
    path("saisons/<slug:slug>/", seasons.season_page, name="public-season"),
    path("saisons/<slug:season_slug>/<slug:slug>/", seasons.championship_page, name="public-championship"),
    path("saisons/<slug:season_slug>/<slug:slug>/classement.csv", seasons.championship_csv,
         name="public-championship-csv"),
    path("saisons/<slug:season_slug>/<slug:slug>/classement.pdf", seasons.championship_pdf,
         name="public-championship-pdf"),
    path("joueurs/<id:player_id>/", seasons.player_page, name="public-player-history"),
    # what changed after the results became official
    path("p/<slug:slug>/ledger/", ledger.ledger, name="public-ledger"),
]
