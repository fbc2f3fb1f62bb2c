"""The rules engine in the table's browser: ``rules/`` and ``scoring/`` as one zip, and where Pyodide is served.

Without network the tap page runs the very modules the server runs (:func:`scoring.tap.answer_json`) in Pyodide
(``static/js/rules-engine.js`` and its worker). The zip is built once per process from the packages' files (Python
sources and the record's JSON Schema), named by its digest so that a browser and the table's service worker keep it
for good and a new version of the rules is a new name. Pyodide itself comes from npm (``vendor/pyodide``, served as
static files under ``pyodide-<version>/``); when it is not installed the page asks the server only.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse
from django.templatetags.static import static
from django.urls import reverse

import rules
import scoring

#: the packages the browser runs, and the files of theirs it needs
PACKAGES = (rules, scoring)
SUFFIXES = (".py", ".json")
#: what Pyodide loads to start (its loader, the interpreter, the standard library, its lock file)
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")


@cache
def engine_zip() -> tuple[bytes, str]:
    """The zip of the engine's packages (the same bytes for the same files: fixed dates, sorted names) and the
    first 16 hex digits of its SHA-256."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for package in PACKAGES:
            folder = Path(package.__file__ or "").resolve().parent
            for path in sorted(folder.rglob("*")):
                if path.suffix in SUFFIXES and "__pycache__" not in path.parts and path.is_file():
                    name = f"{package.__name__}/{path.relative_to(folder).as_posix()}"
                    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
                    info.compress_type = zipfile.ZIP_DEFLATED
                    archive.writestr(info, path.read_bytes())
    data = out.getvalue()
    return data, hashlib.sha256(data).hexdigest()[:16]


def rules_engine_zip(request: HttpRequest, digest: str) -> HttpResponse:
    """The engine's zip under its digest (kept for good: a new digest is a new URL), 304 to a browser that holds it;
    404 for another digest (a page of an older version asks the server instead)."""
    data, current = engine_zip()
    if digest != current:
        raise Http404("no such engine")
    etag = f'"{current}"'
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
    else:
        response = HttpResponse(data, content_type="application/zip")
    response["ETag"] = etag
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


WORKER = "js/rules-engine-worker.js"


@cache
def worker_script() -> bytes:
    """The engine's worker script, served under a table link's own path as well: a dedicated worker is controlled
    by the service worker whose scope holds its URL, and only the link's service worker keeps the engine offline."""
    found = finders.find(WORKER)
    return Path(str(found)).read_bytes()


def engine_config(worker: str | None = None) -> dict[str, Any] | None:
    """What the tap page's script needs to start the engine in the browser (None when Pyodide is not installed):
    where Pyodide is, the zip of the rules, the worker's script (``worker``: its URL under a table link), the files
    to keep for a day without network."""
    version = getattr(settings, "PYODIDE_VERSION", None)
    if not version:
        return None
    base = static(f"pyodide-{version}/")
    zipped = reverse("rules_engine_zip", args=[engine_zip()[1]])
    worker = worker or static(WORKER)
    return {"pyodide": base, "rules": zipped, "worker": worker, "version": version,
            "files": [worker, zipped, *(base + name for name in PYODIDE_FILES)]}
