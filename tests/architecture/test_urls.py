"""No URL declared twice: two patterns for one path (the second never answers: the campaign of issue 21 found the
round's table cards declared twice, the duplicate's cards unreachable) or one name for two patterns (``{% url %}``
then silently picks one)."""

from __future__ import annotations

import re
from collections import Counter

from django.urls import URLPattern, URLResolver, get_resolver, path


def _routes(patterns, prefix: str = "", namespace: str = "") -> list[tuple[str, str | None]]:
    """Every pattern as (its full route with the converters' names dropped, its namespaced name)."""
    rows: list[tuple[str, str | None]] = []
    for p in patterns:
        if isinstance(p, URLResolver):
            rows += _routes(p.url_patterns, prefix + str(p.pattern),
                            namespace + (f"{p.namespace}:" if p.namespace else ""))
        elif isinstance(p, URLPattern):
            route = re.sub(r"<(?:(\w+):)?\w+>", lambda m: f"<{m[1] or 'str'}>", prefix + str(p.pattern))
            rows.append((route, namespace + p.name if p.name else None))
    return rows


def _declared_twice(patterns) -> tuple[list[str], list[str]]:
    rows = [(route, name) for route, name in _routes(patterns) if not route.startswith("admin/")]
    routes = Counter(route for route, _name in rows)
    names = Counter(name for _route, name in rows if name)
    return sorted(r for r, n in routes.items() if n > 1), sorted(m for m, n in names.items() if n > 1)


def test_no_url_pattern_or_name_is_declared_twice():
    routes, names = _declared_twice(get_resolver().url_patterns)
    assert routes == [], f"declared twice: {routes}"
    assert names == [], f"names given twice: {names}"


def test_the_check_finds_a_pattern_declared_twice():
    """The check itself, on the duplicate the campaign found (the round's cards and the duplicate's cards)."""
    def view(request):  # pragma: no cover
        return None

    found = _declared_twice([
        path("t/<slug:slug>/rounds/<id:number>/cards/", view, name="table_cards"),
        path("t/<slug:slug>/rounds/<id:number>/cards/", view, name="duplicate_cards"),
        path("t/<slug:s>/players/", view, name="players"),
        path("t/<slug:slug>/staff/", view, name="players"),
    ])
    assert found == (["t/<slug>/rounds/<id>/cards/"], ["players"])
