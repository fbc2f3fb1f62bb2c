"""The URL patterns' order: the public pages first (every phone's refresh is one of them, and Django tries the
patterns in order), and no path of one audience taken by another's pattern, whatever the order."""

from __future__ import annotations

import re
from collections.abc import Iterator

from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls.resolvers import RoutePattern

SAMPLES = {"slug": "une-epreuve", "int": "7", "id": "7", "str": "abc", "path": "a/b",
           "uuid": "12345678-1234-5678-1234-567812345678"}


def _flat(patterns: list, prefix: str = "") -> Iterator[tuple[str, URLPattern]]:
    for p in patterns:
        if isinstance(p, URLResolver):
            yield from _flat(p.url_patterns, prefix + str(p.pattern))
        else:
            yield prefix + str(p.pattern), p


def _sample(route: str) -> str:
    return "/" + re.sub(r"<(?:(\w+):)?\w+>", lambda m: SAMPLES[m.group(1) or "str"], route)


def test_every_named_route_resolves_to_itself():
    """A path made from each named route (sample values for its parameters) is served by that route: no route of
    another audience comes first and takes it."""
    checked = 0
    for route, pattern in _flat(get_resolver().url_patterns):
        if not pattern.name or not isinstance(pattern.pattern, RoutePattern) or route.startswith("admin/"):
            continue
        found = resolve(_sample(route))
        assert found.url_name == pattern.name, (route, found.url_name)
        checked += 1
    assert checked > 100


def test_a_public_page_is_found_without_trying_the_staffs_routes(monkeypatch):
    """Before: the ranking's path was tried against the organizer's and the desk's 78 routes first."""
    tried: list[str] = []
    match = RoutePattern.match

    def counting(self: RoutePattern, path: str):  # type: ignore[no-untyped-def]
        tried.append(str(self))
        return match(self, path)

    monkeypatch.setattr(RoutePattern, "match", counting)
    assert resolve("/p/une-epreuve/ranking/").url_name == "public-ranking"
    assert len(tried) <= 10, tried  # admin/, i18n/, the includes, then the public routes up to the ranking
