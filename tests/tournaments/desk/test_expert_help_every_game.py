"""The expert entry's one-line help above the JSON record showed the record's field names (« turn_up : … »): b49181d
put the game's phases and declarations there in the table's words (EntryForm.outline, from the game registry), and
test_expert_help_words holds Tarot at 4 and each other game to it in French, La Triomphe in English. This holds
every game's page to it in both languages: Tarot at 3, 4 and 5, La Triomphe, L'Impériale, Le Vingt-quatre,
L'Écarté: no key of the game's record in the French line, no snake_case key nor JSON path in either."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.tournaments.factories import TournamentFactory, UserFactory, role, seated_table
from tournaments.common import games

pytestmark = pytest.mark.django_db

GAMES = [
    ("tarot", {"players": 3}, 3),
    ("tarot", {"players": 4}, 4),
    ("tarot", {"players": 5}, 5),
    ("triomphe", {"mode": "forcee"}, 2),
    ("imperiale", {"players": 2}, 2),
    ("vingt-quatre", {"players": 4, "honours": "figures"}, 4),
    ("ecarte", {"players": 2}, 2),
]


def _keys(value, prefix=""):
    """Every key and key path of a record's own fields (« turn_up », « summary.tricks »)."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield prefix + k
            yield from _keys(v, prefix + k + ".")
    elif isinstance(value, list):
        for v in value:
            yield from _keys(v, prefix)


def _help(client, table, lang: str) -> str:
    client.cookies["django_language"] = lang
    page = client.get(reverse("deal_enter", args=[table.pk]) + "?mode=record", HTTP_ACCEPT_LANGUAGE=lang)
    assert page.status_code == 200
    html = page.content.decode()
    match = re.search(r'<p class="help small muted">(.*?)</p>', html, re.S)
    assert match, html
    return re.sub(r"<[^>]+>", "\n", match.group(1))


@pytest.mark.parametrize(("game", "options", "players"), GAMES)
def test_every_games_expert_help_has_no_record_key_in_either_language(client, game, options, players):
    tournament = TournamentFactory(game=game, options=options, target=24 if game == "vingt-quatre" else 5)
    table = seated_table(tournament, players=players)
    arbiter = UserFactory()
    role(tournament, arbiter, "arbiter", [table])
    client.force_login(arbiter)
    names = {k for k in _keys(games.record_fields(game)) if len(k) > 1}
    names |= {k for k in _keys({"hands": None, "tricks": [], "summary": {}, "bid": {}, "dealer": 0})}
    for lang in ("fr", "en"):
        text = _help(client, table, lang)
        if lang == "fr":  # (in English a label may be the key's own word: « dealer », « tricks »)
            assert not (set(re.findall(r"[\w.]+", text)) & names), text
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), text  # no snake_case key
        assert not re.search(r"\b[a-z]+\.[a-z]+\b", text), text  # no JSON path
