"""The benchmarks cover every page and export a user can open (issue 22; the developers' guide): each URL name of the
public URLconf has a target in bench/public.py's run, and each staff page (the organizer's, the desk's and the
chief's, the API's GETs) one in bench/staff_pages.py, or a reason why not (bench/every_page.py). No server, no
database: the URL patterns are walked and each staff target's path resolved back to its name."""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import fields
from pathlib import Path

from django.urls import resolve

from tournaments.public import urls as public_urls

ROOT = Path(__file__).resolve().parents[2]


def _every_page():
    spec = importlib.util.spec_from_file_location("levee_bench_every_page", ROOT / "bench" / "every_page.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


every_page = _every_page()


def _covered(names: set[str], targets: dict, excluded: dict, what: str) -> None:
    missing = names - set(targets) - set(excluded)
    assert not missing, f"{what} no benchmark measures (add them in bench/every_page.py): {missing}"
    gone = (set(targets) | set(excluded)) - names
    assert not gone, f"bench/every_page.py names {what} that are no more (or API views without GET): {gone}"
    assert not set(targets) & set(excluded)


def test_every_public_page_and_export_has_a_bench_target_or_a_reason():
    _covered({p.name for p in public_urls.urlpatterns}, every_page.PUBLIC, every_page.PUBLIC_EXCLUDED,
             "public pages")


def test_the_only_public_names_left_out_are_the_language_switch_and_the_health_probe():
    assert set(every_page.PUBLIC_EXCLUDED) == {"public-language", "health"}


def test_every_staff_page_and_api_get_has_a_bench_target_or_a_reason():
    _covered(set(every_page.staff_names()), every_page.STAFF, every_page.STAFF_EXCLUDED, "staff pages")


def test_an_api_view_with_a_get_is_a_staff_name_and_one_without_is_not():
    names = every_page.staff_names()
    assert names["api:ranking"] == "api"  # RankingLatestView.get
    assert "api:arbitrate" not in names  # ArbitrateView: post only
    assert names["deal_detail"] == "desk" and names["tournament_detail"] == "organizer"


def test_each_staff_target_asks_for_its_own_page():
    values = {f.name: 7 for f in fields(every_page.Extra)}
    values |= {name: "abc" for name in ("tarot_slug", "duplicate_slug", "club_slug", "season_slug",
                                        "championship_slug", "player_token", "table_token", "staff_session")}
    extra = every_page.Extra(**{**values, "player_ids": [7]})
    for name, path in every_page.STAFF.items():
        match = resolve(path(extra).split("?", 1)[0])
        assert (f"{match.namespace}:{match.url_name}" if match.namespace else match.url_name) == name
