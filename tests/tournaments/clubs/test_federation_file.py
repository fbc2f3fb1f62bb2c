"""A real-looking federation file of 3,000 licences (generated: ``federation_file``), with expired, duplicate,
renamed, moved and unreadable entries: its report checked against the counts known by construction, and the
import timed (docs/performance.md, « Le fichier des licences »)."""

from __future__ import annotations

import time

import pytest

from tournaments.clubs.models import Club, Licence
from tournaments.event import register
from tournaments.event.models import Player
from tournaments.event.setup import _read_csv, csv_decode

from . import federation_file as ff

pytestmark = pytest.mark.django_db


def test_the_report_of_a_season_file_of_3000_licences():
    Club.objects.bulk_create([Club(name=ff.club_name(i), slug=f"club-{i}", federation_number=ff.club_number(i))
                              for i in range(ff.CLUBS)])
    known, first = ff.last_season()
    started = time.perf_counter()
    report = register.licences_import(text=first, today=ff.TODAY)
    first_seconds = time.perf_counter() - started
    assert (len(report.added), report.imported, report.errors, report.duplicates) == (2000, 2000, [], [])
    # players who hold a licence: the first 80 renamed, the first 70 moved, 50 unchanged (as the file writes them)
    holders = known[:80] + known[ff.RENAMED:ff.RENAMED + 70] + known[1700:1750]
    clubs = {c.federation_number: c for c in Club.objects.all()}
    Player.objects.bulk_create([
        Player(name=register.full_name(p.first, p.last), licence=p.licence, club=ff.club_name(p.club),
               home_club=clubs[ff.club_number(p.club)], birth_date=p.born) for p in holders])

    data = ff.this_season(known)
    started = time.perf_counter()
    _read_csv(csv_decode(data))  # the reference: decoding and splitting the file alone
    parse_seconds = time.perf_counter() - started
    started = time.perf_counter()
    preview = register.licences_import(text=data, today=ff.TODAY, dry_run=True)
    dry_seconds = time.perf_counter() - started
    started = time.perf_counter()
    report = register.licences_import(text=data, today=ff.TODAY)
    import_seconds = time.perf_counter() - started
    print(f"\nlicences: first import of 2000 {first_seconds:.3f} s; season file of 3000: parse {parse_seconds:.3f} s, "
          f"report only {dry_seconds:.3f} s, import {import_seconds:.3f} s "
          f"(x{import_seconds / parse_seconds:.1f} the parse)")

    # the counts, by construction (federation_file's docstring)
    assert report.lines == 3000
    assert len(report.added) == 1145  # 3000 - 1800 known - 50 duplicate lines - 5 unreadable
    assert len(report.renamed) == 120
    assert len(report.club_changed) == 150
    assert len(report.expired) == 400  # 300 known not renewed + 100 new of season 2025-2026
    assert len(report.duplicates) == 25 and all(len(d["lines"]) == 2 for d in report.duplicates)
    assert len(report.errors) == 5 and {e["field"] for e in report.errors} == {"date de naissance"}
    assert report.unchanged == 1800 - 120 - 150 - 300  # the 300 expired changed their validity
    assert report.imported == 3000 - 50 - 5
    assert report.players_updated == 80 + 70  # the 50 unchanged holders are left alone
    # the first renamed line: its licence, its old and new name
    first_renamed = known[0]
    assert (report.renamed[0]["licence"], report.renamed[0]["before"], report.renamed[0]["name"]) == (
        first_renamed.licence, register.full_name(first_renamed.first, first_renamed.last),
        register.full_name(first_renamed.first, first_renamed.last + "-MORVAN"))
    # the preview said the same, and changed nothing
    assert (len(preview.added), len(preview.renamed), len(preview.expired)) == (1145, 120, 400)
    # the register now: 2000 last season + 1145 new; the duplicates nowhere
    assert Licence.objects.count() == 2000 + 1145
    assert not Licence.objects.filter(number__startswith="35").exists()
    assert Player.objects.filter(name__endswith="-MORVAN").count() == 80
    moved = known[ff.RENAMED]
    assert Player.objects.get(licence=moved.licence).home_club.federation_number == ff.club_number(
        (moved.club + 1) % ff.CLUBS)
    assert import_seconds < 60  # bounded generously: the figures go to docs/performance.md
