"""Screenshots of every page an event visits, at 390×844 and 1366×900 (the hall screen also at 1920×1080), with a
long name in the data (« Marie-Bernadette Delacroix-Montfort »), each page checked as it is shot: nothing wider than
the screen, no text spilling out of its box (a button, a cell), no field code or English word on a French screen.

Run by ``make test`` like every rehearsal (about a minute: 72 pages, 148 images); to keep the images elsewhere:
``LEVEE_EVENT_SHOTS=/some/folder pytest tests/events/test_screenshots.py``.
The images go to that folder (default ``/tmp/events-shots``), named after the page
(``organizer--t-<slug>-…-390.png``), with ``report.txt``."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.urls import reverse

from tests.browser.test_tap_entry import OVERFLOW_JS
from tests.events.test_phone_widths import BROKEN_WORDS_JS, html_pages
from tests.tournaments.factories import TournamentFactory, role, seated_table
from tournaments.deals.models import Deal
from tournaments.event.models import Player
from tournaments.links.service import link_for_entry

SHOTS = os.environ.get("LEVEE_EVENT_SHOTS", "/tmp/events-shots")
pytestmark = [pytest.mark.browser, pytest.mark.events, pytest.mark.django_db(transaction=True)]

LONG = "Marie-Bernadette Delacroix-Montfort"
OTHERS = ["Jean-Christophe Vandenberghe-Lefèvre", "Anne-Sophie de La Tour-d'Auvergne", "Zoé Bœuf"]
SIZES = {"390": (390, 844), "1366": (1366, 900)}
#: words that show a code or English on a French page (the English page is never visited here)
CODE = re.compile(r"\b[a-z]+_[a-z_]+\b|\bNone\b|\bTrue\b|\bFalse\b|\b(?:Save|Cancel|Deal|Round|Player|Ranking|"
                  r"Submit|Delete|Edit|Back|Total score)\b")


#: the page's visible text but what it marks ``translate="no"``: a link's first letters, shown so that the organizer
#: tells his links apart (« ss_yqp… », random: it read as a rule code one run in a few)
VISIBLE_PROSE_JS = """() => {
  const kept = [...document.querySelectorAll('[translate="no"]')];
  const before = kept.map(el => el.style.display);
  kept.forEach(el => { el.style.display = 'none'; });
  const text = document.body.innerText;
  kept.forEach((el, i) => { el.style.display = before[i]; });
  return text;
}"""


def _context(chromium, live_server, client, size):
    width, height = SIZES.get(size, (1920, 1080))
    context = chromium.new_context(viewport={"width": width, "height": height}, locale="fr-FR",
                                   is_mobile=size == "390", has_touch=size == "390", device_scale_factor=1)
    host = live_server.url.split("//")[1].split(":")[0]
    context.add_cookies([{"name": k, "value": v.value, "domain": host, "path": "/"} for k, v in client.cookies.items()])
    return context


def _name(role_name: str, url: str, size: str) -> str:
    return f"{role_name.replace(':', '-')}-{re.sub(r'[^a-z0-9]+', '-', url.lower()).strip('-')}-{size}.png"


def test_screenshots_of_every_page(event, chromium, live_server):
    out = Path(SHOTS)
    out.mkdir(parents=True, exist_ok=True)
    ev = event(label="shots", game="tarot", seed=1366, rounds=2, players_per_table=4, deals_per_round=1)
    ev.register(9)
    first = ev.tournament.entries.order_by("id").first()
    Player.objects.filter(pk=first.player_id).update(name=LONG, club="Cercle des Amis du Tarot de Saint-Jean-de-Luz")
    ev.start()
    r1, _r2 = ev.run_rounds(2, method="rotation", vias=("desk", "link"))
    ev.correct(Deal.objects.filter(table__round=r1).first(), reason="Une poignée oubliée")
    ev.ruling(r1.tables.first(), {r1.tables.first().seats.first().entry_id: -10}, penalty=True)
    pages = html_pages(ev)
    # the tap page (and the « Résumé ») of every game, four long names at the table, as the chief arbiter
    for game, options, count in (("triomphe", {"mode": "forcee", "target": 5}, 2), ("ecarte", {"target": 5}, 2),
                                 ("imperiale", {"target": 5}, 2), ("vingt-quatre", {"target": 24}, 4)):
        tournament = TournamentFactory(name=f"Coupe de {game}", game=game, options=options)
        table = seated_table(tournament, players=count, names=[LONG, *OTHERS][:count])
        role(tournament, ev.users["chief"], "chief_arbiter")
        play = reverse("deal_play", args=[table.pk])
        pages += [("chief", play), ("chief", play + "?mode=summary")]
    pages.append(("anonymous", reverse("public-screen", args=[ev.slug])))
    # the player's own link (his deals, to confirm or dispute), the long name's, opened by an anonymous device
    link = link_for_entry(entry=first, user=ev.users["organizer"])
    pages.append(("anonymous", reverse("player_home", args=[link.token])))
    tarot_table = r1.tables.order_by("number").first()
    pages.append(("chief", reverse("deal_play", args=[tarot_table.pk]) + "?mode=summary"))
    problems: list[str] = []
    contexts = {}
    for role_name, url in pages:
        sizes = [*SIZES, "1920"] if "/screen/" in url else list(SIZES)
        client = ev.clients.get(role_name) or ev.link_clients[int(role_name.split(":")[1])]
        for size in sizes:
            key = (role_name, size)
            if key not in contexts:
                contexts[key] = _context(chromium, live_server, client, size).new_page()
            page = contexts[key]
            page.goto(live_server.url + url, wait_until="load")
            page.screenshot(path=str(out / _name(role_name, url, size)), full_page=size != "1920")
            bad = page.evaluate(OVERFLOW_JS)
            text = page.evaluate(VISIBLE_PROSE_JS)
            codes = sorted(set(CODE.findall(text)))
            bad += [f"« {label} » broken in a button" for label in page.evaluate(BROKEN_WORDS_JS)]
            if bad:
                problems.append(f"{url} ({role_name}, {size}): spills {bad[:4]}")
            if codes:
                problems.append(f"{url} ({role_name}, {size}): codes or English {codes[:8]}")
    for page in contexts.values():
        page.context.close()
    (out / "report.txt").write_text("\n".join([f"{len(pages)} pages", *problems]) + "\n", encoding="utf-8")
    assert not problems, "\n".join(problems)
