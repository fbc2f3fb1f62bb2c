"""Playwright driving Debian's Chromium (/usr/bin/chromium) against pytest-django's live server.

A missing Chromium is a failure, never a skip: CI installs it (``.ci/run``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
PHONE = {"width": 390, "height": 844}
OUT = Path(__file__).resolve().parents[2] / "bench" / "out"

# Playwright's sync API runs an event loop in this thread; Django's ORM calls from the test are still synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def phone(chromium) -> Iterator[object]:
    """A page the size of a phone (390×844), French first as the venue's phones are."""
    context = chromium.new_context(viewport=PHONE, device_scale_factor=1, locale="fr-FR", is_mobile=True,
                                   has_touch=True)
    context.set_default_timeout(30_000)
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()


@contextmanager
def french_page(chromium, viewport: dict[str, int]) -> Iterator[object]:
    """A page of ``viewport``'s size in French, closed after the block (the tests that look at one page at both
    widths, 390×844 and 1366×900)."""
    context = chromium.new_context(viewport=viewport, locale="fr-FR")
    context.set_default_timeout(30_000)
    try:
        yield context.new_page()
    finally:
        context.close()


def size_name(viewport: dict[str, int]) -> str:
    """« phone » or « desktop », for a screenshot's file name."""
    return "phone" if viewport["width"] < 500 else "desktop"


@pytest.fixture
def screenshots() -> Path:
    OUT.mkdir(parents=True, exist_ok=True)
    return OUT
