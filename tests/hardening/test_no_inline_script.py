"""No template carries inline JavaScript: production's Content-Security-Policy (``script-src 'self'``, settings)
refuses inline handlers and inline scripts, so a button's ``onclick="return confirm(…)"`` submitted at once without
its question (a walk: « Abandonne » and « Révoquer » acted at the first tap) and ``onclick="window.print()"`` did
nothing. The pages' small actions live in ``static/js/page-actions.js`` (``data-ask``, ``data-print``)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted(p for p in [*ROOT.glob("templates/**/*.html"), *ROOT.glob("tournaments/**/templates/**/*.html")])

HANDLER = re.compile(r"<[^>]*\son[a-z]+\s*=", re.IGNORECASE | re.DOTALL)
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
SCRIPT_URL = re.compile(r"""(href|action|src)\s*=\s*["']\s*javascript:""", re.IGNORECASE)


def test_the_templates_are_found() -> None:
    assert len(TEMPLATES) > 50


def test_no_template_has_an_inline_handler_an_inline_script_or_a_javascript_url() -> None:
    found = []
    for path in TEMPLATES:
        text = path.read_text(encoding="utf-8")
        for pattern in (HANDLER, INLINE_SCRIPT, SCRIPT_URL):
            for match in pattern.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                found.append(f"{path.relative_to(ROOT)}:{line}: {match.group(0)[:80]!r}")
    assert not found, "inline JavaScript, refused by the CSP in production:\n" + "\n".join(found)


def test_the_patterns_see_what_they_look_for() -> None:
    assert HANDLER.search('<button type="submit"\n  onclick="return confirm(this.dataset.ask)">')
    assert HANDLER.search('<body onload="go()">')
    assert not HANDLER.search('<button data-ask="Confirmer ?" data-print>')
    assert INLINE_SCRIPT.search("<script>alert(1)</script>")
    assert not INLINE_SCRIPT.search('<script src="/static/js/page-actions.js" defer></script>')
    assert SCRIPT_URL.search('<a href="javascript:history.back()">')
