"""Issue 23: the English pages leaked French — the Django admin's model names (the clubs', seasons' and
championships' models), and the organizer's player page (the older strings of the player's record, his removal,
his merge, his history). Rendered with the site's language switched to English (the language cookie), no French
word of a small list is left in the text a person reads (the visible text, and the aria-labels, titles,
placeholders and confirmation questions); the players' and the tournament's own names are left aside, as
tests/desk/test_tap_english.py does."""

from __future__ import annotations

import html
import re

import pytest
from django.apps import apps
from django.contrib import admin
from django.urls import reverse
from django.utils import translation
from django.utils.functional import Promise

from tests.integration.builders import add_deal, make_round, make_tournament
from tests.tournaments.factories import UserFactory, role
from tournaments.event import players as service

pytestmark = pytest.mark.django_db

#: French words that an English page must not show (the table's and the register's usual words)
FRENCH = re.compile(
    r"\b(saisons?|championnats?|classements?|lignes?|joueurs?|comités?|ligues?|rôles?|fiches?|inscriptions?|"
    r"inscrit|réunir|retirer|tournois?|manches?|historique|motif|aucune?|enregistrer|enregistrée?|corriger|"
    r"équipes?|donnes?|autres?|même|personne|déjà|début|fin|barème|départages|catégories|meilleurs|exigés|"
    r"ville|numéro|prénom|validité|importée|lecteurs|irrégulière|décision|arbitre|naissance|"
    r"appartenance|rendu|horloge|publiés?|lignes|clé|forfaits?|réponses?|appels?|feuilles?|politique|"
    r"les|des|du|et|une?|pour|avec|sans|sur|dans|qui|est|sont|à)\b", re.I)
#: (« étui » and « chien » are the table's own words, which the English pages keep, as the tap page does)
#: names of the data, not of the page
NAMES = ("Anne", "Bruno", "Chloé", "David", "Tournoi reg", "reg-Anne", "reg-Bruno", "reg-Chloé", "reg-David",
         "Joueur anonyme")  # the anonymous name a player is given, a name like any other

_ATTRS = re.compile(r'(?:aria-label|title|placeholder|alt|data-ask)="([^"]*)"')


def read_text(page: str) -> str:
    """What a person reads on a page: its text (no script nor style) and its labels and questions."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S | re.I)
    labels = _ATTRS.findall(body)
    text = re.sub(r"<[^>]+>", "\n", body)
    out = html.unescape("\n".join([text, *labels]))
    for name in NAMES:
        out = out.replace(name, "")
    return out


def french_lines(page: str) -> list[str]:
    return sorted({line.strip()[:100] for line in read_text(page).splitlines() if FRENCH.search(line)})


def test_every_model_has_its_names_in_french_and_in_english():
    """Each model's singular and plural names are gettext_lazy strings, French first, with an English translation
    (the historical models name themselves after their model)."""
    untranslated = []
    for model in apps.get_app_config("tournaments").get_models():
        meta = model._meta
        if meta.model_name.startswith("historical"):
            continue
        assert "verbose_name" in meta.original_attrs and "verbose_name_plural" in meta.original_attrs, model
        for name in (meta.original_attrs["verbose_name"], meta.original_attrs["verbose_name_plural"]):
            assert isinstance(name, Promise), (model, name)  # gettext_lazy: the language of the request
            with translation.override("fr"):
                french = str(name)
            with translation.override("en"):
                english = str(name)
            accented = re.search(r"[éèêàùçô]", re.sub(r"étuis?", "", english))
            if (english == french and FRENCH.search(french)) or accented:
                untranslated.append(french)
    assert untranslated == []


def test_the_admin_in_english_shows_no_french_model_name(client):
    client.force_login(UserFactory(username="admin", is_staff=True, is_superuser=True))
    client.cookies["django_language"] = "en"
    urls = [reverse("admin:index"), reverse("admin:app_list", args=["tournaments"])]
    for model in admin.site._registry:
        if model._meta.app_label == "tournaments":
            urls.append(reverse(f"admin:tournaments_{model._meta.model_name}_changelist"))
            urls.append(reverse(f"admin:tournaments_{model._meta.model_name}_add"))
    found = {}
    for url in urls:
        response = client.get(url)
        if url.endswith("/add/") and response.status_code == 403:
            continue  # a model the admin only reads (the deals, the rulings …)
        assert response.status_code == 200, url
        lines = french_lines(response.content.decode())
        if lines:
            found[url] = lines
    assert found == {}, "\n".join(f"{u}: {line}" for u, lines in found.items() for line in lines)


def test_the_organizers_player_page_in_english_shows_no_french(client):
    t, e = make_tournament(["Anne", "Bruno", "Chloé", "David"], slug="reg")
    organizer = UserFactory(username="organisateur")
    role(t, organizer, "organizer")
    (table,) = make_round(t, 1, [[e["Anne"], e["Bruno"], e["Chloé"], e["David"]]])
    add_deal(table, [90, -30, -30, -30], taker=0)  # Anne has played: her removal is refused, with its words
    service.player_update(player=e["Anne"].player, name="Anne", club="Vanves", licence="reg-Anne",
                          user=organizer, reason="faute de frappe")  # a line of history, with its reason
    client.force_login(organizer)
    client.cookies["django_language"] = "en"
    for entry in (e["Anne"], e["Bruno"]):
        response = client.get(reverse("player_edit", args=[t.slug, entry.pk]))
        assert response.status_code == 200
        page = response.content.decode()
        assert 'lang="en"' in page
        found = french_lines(page.replace("faute de frappe", ""))
        assert found == [], "\n".join(found)
