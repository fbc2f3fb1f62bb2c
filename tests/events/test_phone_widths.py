"""No page wider than 390 px: every page of one finished event (Tarot, 9 players: tables of 5 and 4, a deal
corrected, a ruling, both rounds released), as the organizer and as the public, in Chromium at 390×844."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.events import invariants
from tournaments.deals.models import Deal

pytestmark = [pytest.mark.browser, pytest.mark.events, pytest.mark.django_db(transaction=True)]

SKIP = ("api", )
#: pages known to be wider than a phone (each with its strict xfail)
KNOWN_WIDE: tuple[str, ...] = ()


#: the labels of buttons and marks with a short word (12 letters or fewer) broken across two lines: more
#: line boxes than words (a name longer than its box may break; « Révoqu|er », « 35|4 » may not)
BROKEN_WORDS_JS = """() => {
  const out = [];
  for (const el of document.querySelectorAll('button, .btn, .mark')) {
    if (el.getClientRects().length === 0) continue;
    const text = (el.innerText || '').trim();
    const words = text.split(/\\s+/).filter(Boolean);
    if (!words.length || words.some(w => w.length > 12)) continue;
    const range = document.createRange();
    range.selectNodeContents(el);
    const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
    if (tops.size > words.length) out.push(text);
  }
  return out;
}"""


def html_pages(ev) -> list[tuple[str, str]]:
    """(role, url) of every HTML page of the event a role opens with a 200."""
    scope = invariants.Scope(ev, full=True)
    out = []
    for page in invariants.pages():
        if page.audience in SKIP or page.audience == "link" or page.name in KNOWN_WIDE:
            continue
        for kwargs in scope.kwargs(page):
            url = reverse(page.name, kwargs=kwargs)
            for role in ("organizer", "anonymous"):
                response = ev.get(role, url)
                if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
                    out.append((role, url))
                    break
    for table_id in ev.link_clients:
        token = next(iter(ev.link_tokens.get(table_id, [])), None)
        if token:
            out.append((f"link:{table_id}", reverse("link_home", args=[token])))
    return out


def _phone(chromium, ev, live_server, role: str):
    context = chromium.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR", is_mobile=True,
                                   has_touch=True, device_scale_factor=1)
    client = ev.clients.get(role) or ev.link_clients[int(role.split(":")[1])]
    host = live_server.url.split("//")[1].split(":")[0]
    context.add_cookies([{"name": k, "value": v.value, "domain": host, "path": "/"} for k, v in client.cookies.items()])
    return context.new_page()


def test_no_page_is_wider_than_a_phone(event, chromium, live_server):
    ev = event(label="phone", game="tarot", seed=390, rounds=2, players_per_table=4, deals_per_round=1)
    ev.register(9)
    ev.start()
    r1, _r2 = ev.run_rounds(2, method="rotation", vias=("desk", "link"))
    ev.correct(Deal.objects.filter(table__round=r1).first(), reason="Une poignée oubliée")
    ev.ruling(r1.tables.first(), {r1.tables.first().seats.first().entry_id: -10}, penalty=True)
    pages = html_pages(ev)
    assert len(pages) > 30
    contexts = {}
    wide = []
    for role, url in pages:
        if role not in contexts:
            contexts[role] = _phone(chromium, ev, live_server, role)
        page = contexts[role]
        page.goto(live_server.url + url, wait_until="domcontentloaded")
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 392:
            wide.append(f"{url} ({role}): {width}px")
        wide += [f"{url} ({role}): « {label} » broken in a button" for label in page.evaluate(BROKEN_WORDS_JS)]
    for page in contexts.values():
        page.context.close()
    assert not wide, "pages wider than 390 px:\n" + "\n".join(wide)


def test_the_score_sheets_fit_a_phone(event, chromium, live_server):
    # a table of five, the widest sheet (5 players at tables of 4 drew nothing: the round then began with no table,
    # which is refused now, and this test looked at an empty page)
    ev = event(label="phone-sheets", game="tarot", seed=391, rounds=1, players_per_table=5, tarot_five="mort",
               deals_per_round=1)
    ev.register(5)
    ev.start()
    ev.run_rounds(1, method="rotation", vias=("desk",))
    page = _phone(chromium, ev, live_server, "organizer")
    page.goto(live_server.url + reverse("public-score-sheets", args=[ev.slug, 1]), wait_until="domcontentloaded")
    width = page.evaluate("document.documentElement.scrollWidth")
    page.context.close()
    assert width <= 392, f"{width}px"
