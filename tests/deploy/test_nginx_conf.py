"""deploy/nginx-levee.conf in front of a stand-in for gunicorn (issue 22): what it keeps, what it never keeps, and
the kept files it sends itself. nginx runs as a child of the test with the file's shared parts
(bench/proxy.py, the same as ``bench/public.py --proxy nginx``); skipped where nginx is not installed, except in CI
(``LEVEE_REQUIRE_SERVICES=1``: .ci/run installs Debian's nginx-light, and its absence fails the tests)."""

from __future__ import annotations

import http.client
import importlib.util
import os
import shutil
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
REQUIRE = os.environ.get("LEVEE_REQUIRE_SERVICES") == "1"
pytestmark = pytest.mark.skipif(NGINX is None and not REQUIRE, reason="nginx is not installed")


@pytest.fixture(autouse=True)
def _nginx_required() -> None:
    if NGINX is None:
        pytest.fail("LEVEE_REQUIRE_SERVICES=1 and nginx is not installed (apt-get install nginx-light)")


def _proxy_module():
    spec = importlib.util.spec_from_file_location("levee_bench_proxy", ROOT / "bench" / "proxy.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class App(BaseHTTPRequestHandler):
    """What the web answers, by path; ``calls`` counts the requests that reached it."""

    calls: dict[str, int] = {}

    def log_message(self, *args):  # quiet
        pass

    def do_GET(self):
        path = self.path.split("?")[0]
        App.calls[path] = App.calls.get(path, 0) + 1
        headers = {"Content-Type": "text/html; charset=utf-8", "Vary": "Cookie, Accept-Encoding"}
        status, body = 200, f"{path} #{App.calls[path]}".encode()
        if path == "/p/t/ranking/":
            headers.update({"Cache-Control": "public, no-cache", "ETag": '"rank-1"'})
        elif path == "/p/t/private/":  # a tournament not public, the staff's page
            headers.update({"Cache-Control": "private, no-cache", "ETag": '"priv-1"'})
        elif path == "/p/t/unmarked/":  # no Cache-Control: an error page, a view that says nothing
            pass
        elif path == "/p/t/ranking.pdf":  # a kept file: the web names it, nginx sends it
            headers.update({"Cache-Control": "public, no-cache", "ETag": '"pdf-1"', "Content-Type": "application/pdf",
                            "X-Accel-Redirect": "/_kept/7/ranking--pdf-1.pdf"})
            body = b""
        elif path == "/p/t/results.csv":  # its brotli or gzip copy, chosen by the web
            coding = "br" if "br" in self.headers.get("Accept-Encoding", "") else "gzip"
            suffix = {"br": "br", "gzip": "gz"}[coding]
            headers.update({"Cache-Control": "public, no-cache", "ETag": '"csv-1"', "Content-Type": "text/csv",
                            "Content-Encoding": coding, "X-Accel-Redirect": f"/_kept/7/results--csv-1.csv.{suffix}"})
            body = b""
        elif path == "/k/token/":  # a table's link: never through the cache
            headers.update({"Cache-Control": "public, no-cache"})
        elif path == "/p/t/whoami/":
            body = f"{self.headers.get('X-Forwarded-For')}|{self.headers.get('X-Forwarded-Proto')}".encode()
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def front(tmp_path_factory):
    """nginx on a free port in front of :class:`App`; the kept files' folder holds 7/ranking--pdf-1.pdf."""
    kept = tmp_path_factory.mktemp("kept")
    (kept / "7").mkdir()
    (kept / "7" / "ranking--pdf-1.pdf").write_bytes(b"%PDF-1.7 the ranking")
    (kept / "7" / "results--csv-1.csv.gz").write_bytes(b"\x1f\x8b gzip bytes")
    (kept / "7" / "results--csv-1.csv.br").write_bytes(b"brotli bytes")
    kept.chmod(0o755)
    app = ThreadingHTTPServer(("127.0.0.1", 0), App)
    threading.Thread(target=app.serve_forever, daemon=True).start()
    proxy = _proxy_module()
    port, process = proxy.start_nginx(app.server_address[1], str(kept))
    yield port
    process.terminate()
    process.wait(timeout=10)
    app.shutdown()


def get(port: int, path: str, **headers: str) -> tuple[int, bytes, dict[str, str]]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", path, headers={"Cookie": "django_language=fr", **headers})
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, body, {k.lower(): v for k, v in response.getheaders()}


def test_a_public_page_is_kept_and_its_304_answered_by_nginx(front):
    App.calls.pop("/p/t/ranking/", None)
    first = get(front, "/p/t/ranking/")
    second = get(front, "/p/t/ranking/")
    assert first[0] == second[0] == 200 and first[1] == second[1] == b"/p/t/ranking/ #1"
    assert second[2]["x-cache"] == "HIT" and second[2]["etag"] == '"rank-1"'
    status, body, _ = get(front, "/p/t/ranking/", **{"If-None-Match": '"rank-1"'})
    assert status == 304 and body == b""
    assert App.calls["/p/t/ranking/"] == 1  # one request reached the web for the three


def test_the_language_cookie_makes_a_variant_of_its_own(front):
    App.calls.pop("/p/t/ranking/", None)
    get(front, "/p/t/ranking/?v=lang")
    _, body, _ = get(front, "/p/t/ranking/?v=lang", Cookie="django_language=en")
    assert body == b"/p/t/ranking/ #2"  # Vary: Cookie honoured: not the French copy


def test_a_private_or_unmarked_answer_is_never_kept(front):
    for path in ("/p/t/private/", "/p/t/unmarked/"):
        App.calls.pop(path, None)
        bodies = [get(front, path)[1] for _ in range(3)]
        assert bodies == [f"{path} #{n}".encode() for n in (1, 2, 3)], path


def test_a_signed_in_user_is_neither_served_from_the_cache_nor_stored(front):
    App.calls.pop("/p/t/ranking/", None)
    path = "/p/t/ranking/?v=staff"
    staff = get(front, path, Cookie="django_language=fr; sessionid=abc")
    assert staff[2]["x-cache"] == "BYPASS"
    reader = get(front, path)
    assert reader[1] == b"/p/t/ranking/ #2"  # the staff's answer was not stored for the readers
    again = get(front, path, Cookie="sessionid=abc; django_language=fr")
    assert again[1] == b"/p/t/ranking/ #3"


def test_the_live_fragments_go_to_the_web_each_time(front):
    App.calls.pop("/p/t/ranking/", None)
    path = "/p/t/ranking/?v=live"
    bodies = [get(front, path, **{"HX-Request": "true"})[1] for _ in range(2)]
    assert bodies == [b"/p/t/ranking/ #1", b"/p/t/ranking/ #2"]  # a deal entered shows at once
    assert get(front, path)[1] == b"/p/t/ranking/ #3"  # and the fragment was not stored for the full page


def test_a_kept_file_is_sent_by_nginx_with_the_apps_etag(front):
    status, body, headers = get(front, "/p/t/ranking.pdf")
    assert status == 200 and body == b"%PDF-1.7 the ranking"
    assert headers["etag"] == '"pdf-1"' and headers["content-type"] == "application/pdf"
    assert headers["cache-control"] == "public, no-cache" and "Cookie" in headers["vary"]
    assert get(front, "/p/t/ranking.pdf", **{"If-None-Match": '"pdf-1"'})[0] == 304
    status, body, headers = get(front, "/p/t/results.csv", **{"Accept-Encoding": "gzip"})
    assert status == 200 and body == b"\x1f\x8b gzip bytes" and headers["content-encoding"] == "gzip"


def test_the_micro_cache_keeps_each_encoding_apart(front):
    """A browser that takes brotli and one that takes only gzip, in the same second: each gets its own copy, though
    nginx keeps the web's answer a second (the app's ``Vary: Accept-Encoding``)."""
    gzipped, brotli = ("gzip", b"\x1f\x8b gzip bytes", "gzip"), ("gzip, deflate, br", b"brotli bytes", "br")
    for accept, body, coding in (gzipped, brotli, gzipped, brotli):
        status, got, headers = get(front, "/p/t/results.csv", **{"Accept-Encoding": accept})
        assert (status, got, headers["content-encoding"]) == (200, body, coding), accept


def test_the_kept_files_cannot_be_asked_for_directly(front):
    assert get(front, "/_kept/7/ranking--pdf-1.pdf")[0] == 404


def test_the_tables_links_go_to_the_web_untouched(front):
    App.calls.pop("/k/token/", None)
    bodies = [get(front, "/k/token/")[1] for _ in range(2)]
    assert bodies == [b"/k/token/ #1", b"/k/token/ #2"]


def test_the_web_sees_one_forwarded_address(front):
    _, body, _ = get(front, "/p/t/whoami/")
    assert body == b"127.0.0.1|http"  # NUM_PROXIES=1 still right: the inner server appends nothing
