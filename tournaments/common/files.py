"""The PDF files and the big downloads (:mod:`downloads`), kept on disk: one file per document and published
state, written whole or not at all, and a claim that lets one render of a document run at a time.

The folder is ``settings.LEVEE_PDF_ROOT`` (``var/pdf`` in the project folder unless set), one sub-folder per
tournament. A file's name carries its document (kind, language, round, part) and its key (the published state's
ETag), so a file is never rewritten: a new state makes a new file, and the older files of the same document are
removed once it is written. A claim is a ``.claim`` file created exclusively (``O_EXCL``: one process wins, on
one machine or on a shared folder); a claim older than :data:`CLAIM_STALE` seconds belongs to a render that died
and is taken over.

A kept file is sent by :func:`response`: by the web process itself (a ``FileResponse``), or, when
``settings.LEVEE_ACCEL_REDIRECT`` names the internal location of a proxy in front (nginx: ``/_kept/``, aliased to
this folder; ``deploy/nginx-levee.conf``), by that proxy: the request still decides who may read which file, its
ETag and the 304, and answers an empty body with ``X-Accel-Redirect``; the web worker never streams the file.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.http import FileResponse, HttpResponse
from django.http.response import HttpResponseBase
from django.utils.cache import patch_vary_headers

#: seconds after which a claim is taken over (a render bounded in size ends well before)
CLAIM_STALE = 600


def root() -> Path:
    return Path(settings.LEVEE_PDF_ROOT)


def preparing(answer: HttpResponse, private: bool) -> HttpResponse:
    """The caching headers of an « en préparation » answer (202). A public document's is the same page for every
    reader of its language, so the proxy in front may keep it a second (nginx's micro-cache stores only what is
    marked ``public``: 64 phones asking for a PDF not made yet cost the web one request a second), and a browser asks
    again each time (``no-cache``); a private document's (the staff's, a tournament not public) is kept by no one.
    The language comes from a cookie: ``Vary: Cookie``."""
    answer["Cache-Control"] = "private, no-store" if private else "public, no-cache"
    patch_vary_headers(answer, ("Cookie",))
    return answer


def response(path: Path, content_type: str, *, encoding: str = "") -> HttpResponseBase:
    """The kept file ``path`` as an answer: its bytes streamed from here, or (``LEVEE_ACCEL_REDIRECT`` set) an empty
    answer telling the proxy in front which file to send (``X-Accel-Redirect``: that prefix, then the file's path
    under :func:`root`). ``encoding``: the file is that ``Content-Encoding`` (its gzip copy). Raises
    ``FileNotFoundError`` when the file is gone (an older state's, removed this instant by a newer one's write)."""
    prefix = settings.LEVEE_ACCEL_REDIRECT
    if prefix:
        relative = path.resolve().relative_to(root().resolve())  # a file outside the folder is a bug: ValueError
        if not path.is_file():
            raise FileNotFoundError(path)
        answer: HttpResponseBase = HttpResponse(content_type=content_type)
        answer["X-Accel-Redirect"] = prefix.rstrip("/") + "/" + quote(relative.as_posix())
    else:
        answer = FileResponse(path.open("rb"), content_type=content_type)
    if encoding:
        answer["Content-Encoding"] = encoding
    return answer


def accepted_encoding(header: str, offered: Sequence[str]) -> str:
    """Which of the ``offered`` content codings (the server's order of preference) an ``Accept-Encoding`` header
    takes, the best it weighs (``q``; a tie: the server's order); "" for none (the file as it is). A coding it does
    not name is taken only under ``*``; ``q=0`` refuses one (RFC 9110, 12.5.3)."""
    weights: dict[str, float] = {}
    for item in header.split(","):
        name, _, params = item.strip().partition(";")
        if not name.strip():
            continue
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        weights[name.strip().lower()] = q
    best, best_q = "", 0.0
    for coding in offered:
        q = weights.get(coding, weights.get("*", 0.0))
        if q > best_q:
            best, best_q = coding, q
    return best


def path_of(tournament_id: int, document: str, key: str, suffix: str = "pdf") -> Path:
    """Where the PDF (or the ``suffix`` file) of ``document`` (« ranking-fr-0-1 ») in the state ``key`` is kept."""
    return root() / str(tournament_id) / f"{document}--{key}.{suffix}"


def ready(path: Path) -> bool:
    return path.is_file()


def _claim_path(path: Path) -> Path:
    return path.with_suffix(".claim")


def claim(path: Path) -> bool:
    """Take the right to render ``path``; False when a render of it is queued or running."""
    marker = _claim_path(path)
    marker.parent.mkdir(parents=True, exist_ok=True)
    for _ in range(2):
        try:
            os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
            return True
        except FileExistsError:
            try:
                if time.time() - marker.stat().st_mtime < CLAIM_STALE:
                    return False
                marker.unlink()  # a render that died: take it over
            except FileNotFoundError:
                pass  # released meanwhile: try again
    return False


def claimed(path: Path) -> bool:
    marker = _claim_path(path)
    try:
        return time.time() - marker.stat().st_mtime < CLAIM_STALE
    except FileNotFoundError:
        return False


def claimed_for(path: Path) -> float | None:
    """How many seconds ago the render of ``path`` was claimed (queued or running); None when it is not."""
    try:
        age = time.time() - _claim_path(path).stat().st_mtime
    except FileNotFoundError:
        return None
    return age if age < CLAIM_STALE else None


def release(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        _claim_path(path).unlink()


def hold(path: Path, seconds: float) -> None:
    """Keep the claim of ``path`` (a render that failed) ``seconds`` more, then let it be taken over."""
    with contextlib.suppress(FileNotFoundError):
        stamp = time.time() - CLAIM_STALE + seconds
        os.utime(_claim_path(path), (stamp, stamp))


def write(path: Path, data: bytes) -> None:
    """Write ``path`` whole (a temporary file renamed), then remove the older states of the same document."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)
    document, rest = path.name.split("--", 1)
    suffix = rest.split(".", 1)[1]  # « pdf », « csv », « csv.gz » (a key holds no dot)
    for older in path.parent.glob(f"{document}--*.{suffix}"):
        if older != path:
            with contextlib.suppress(FileNotFoundError):
                older.unlink()
