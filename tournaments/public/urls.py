"""Public pages and exports (``public-*``), under /p/<slug>/; organizer print-outs and draw too."""

from django.urls import path

from . import language, pages, views

urlpatterns = [
    path("p/<slug:slug>/", pages.home, name="public-home"),
    path("p/<slug:slug>/ranking/", pages.ranking, name="public-ranking"),
    path("p/<slug:slug>/ranking.csv", views.ranking_csv, name="public-ranking-csv"),
    path("p/<slug:slug>/ranking/print/", pages.ranking_print, name="public-ranking-print"),
    path("p/<slug:slug>/screen/", pages.screen, name="public-screen"),
    path("p/<slug:slug>/rounds/<id:number>/", views.round_results, name="public-round"),
    path("p/<slug:slug>/results.csv", views.results_csv, name="public-results-csv"),
    path("p/<slug:slug>/results/print/", views.results_print, name="public-results-print"),
    path("p/<slug:slug>/players/<id:entry_id>/", pages.player, name="public-player"),
    path("p/<slug:slug>/rounds/<id:number>/sheets/", views.score_sheets, name="public-score-sheets"),
    path("p/<slug:slug>/rounds/<id:number>/draw/", views.round_draw, name="public-round-draw"),
    path("p/-/language/", language.set_language, name="public-language"),
]
