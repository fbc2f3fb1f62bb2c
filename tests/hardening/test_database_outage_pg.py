"""The database unavailable under a stream of entries (issue 11 §10), against the real PostgreSQL.

The outage is simulated on this test's own database only — never the server, which others share: new
connections are refused (``ALTER DATABASE … ALLOW_CONNECTIONS false``) and the live server's connections are
terminated (``pg_terminate_backend``, on ``current_database()`` only), for about a second, as a restart would.
Entries meanwhile get 503 with Retry-After (JSON), never a 500; once the database answers the service recovers by
itself. The client retries a 503 with the same Idempotency-Key, as the API advises (a connection cut after a commit
answers 503 for a saved deal): every entry is then saved exactly once and whole (deal numbers 1..n, score rows for
each)."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
import uuid

import pytest
from django.db import connection

from tests.tournaments.factories import tarot_summary
from tournaments.deals.models import Deal, ScoreRow

pytestmark = [pytest.mark.django_db(transaction=True)]


def _post(url: str, token: str, body: dict, key: str) -> tuple[int, dict, str | None]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST", headers={
        "Content-Type": "application/json", "Authorization": f"Token {token}", "Idempotency-Key": key})
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, json.loads(response.read()), response.headers.get("Retry-After")
    except urllib.error.HTTPError as error:
        raw = error.read()
        try:
            data = json.loads(raw)
        except ValueError:
            data = {"html": raw[:200].decode(errors="replace")}
        return error.code, data, error.headers.get("Retry-After")


def _outage(on: bool) -> None:
    """Refuse (or allow again) new connections to this test's database and cut the live server's; run from the
    server's maintenance database, as a database cannot refuse connections to itself."""
    import psycopg

    settings = connection.settings_dict
    name = settings["NAME"]
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        mine = cursor.fetchone()[0]
    with psycopg.connect(host=settings["HOST"] or None, port=settings["PORT"] or None, user=settings["USER"],
                         password=settings["PASSWORD"] or None, dbname="postgres", autocommit=True) as admin:
        quoted = connection.ops.quote_name(name)
        admin.execute(f"ALTER DATABASE {quoted} ALLOW_CONNECTIONS {'false' if on else 'true'}")
        if on:
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> %s",
                          [name, mine])


def test_entries_during_a_database_outage_get_503_then_recover(live_server, tarot_table, staff):
    if connection.vendor != "postgresql":
        pytest.skip("the outage is simulated on PostgreSQL (CI runs it)")
    from rest_framework.authtoken.models import Token

    token = Token.objects.create(user=staff["arbiter"]).key
    url = f"{live_server.url}/api/tables/{tarot_table.pk}/deals/"
    answers: list[tuple[float, int, dict, str | None]] = []
    stop = threading.Event()

    entries: list[str] = []

    def stream() -> None:
        while not stop.is_set():
            key = str(uuid.uuid4())
            entries.append(key)
            for _attempt in range(200):  # an entry is retried with its key until it is saved
                code, data, retry = _post(url, token, tarot_summary(), key)
                answers.append((time.monotonic(), code, data, retry))
                if code != 503:
                    break
                time.sleep(0.05)

    worker = threading.Thread(target=stream)
    worker.start()
    try:
        deadline = time.monotonic() + 30
        while sum(1 for a in answers if a[1] == 201) < 5 and time.monotonic() < deadline:
            time.sleep(0.05)
        _outage(True)
        try:
            down_from = time.monotonic()
            while (time.monotonic() - down_from < 1.0 or not any(a[1] == 503 for a in answers)) \
                    and time.monotonic() - down_from < 15:
                time.sleep(0.05)
        finally:
            _outage(False)
        up_at = time.monotonic()
        while sum(1 for a in answers if a[1] == 201 and a[0] > up_at) < 5 and time.monotonic() < up_at + 30:
            time.sleep(0.05)
    finally:
        stop.set()
        worker.join(timeout=60)

    codes = [a[1] for a in answers]
    assert set(codes) <= {201, 503}, [(a[1], a[2]) for a in answers if a[1] not in (201, 503)][:3]
    unavailable = [a for a in answers if a[1] == 503]
    assert unavailable and all(a[3] and a[2]["error"] == "unavailable" for a in unavailable)
    assert sum(1 for a in answers if a[1] == 201 and a[0] > up_at) >= 5  # recovered by itself
    saved = list(Deal.objects.filter(table=tarot_table).order_by("number").values_list("number", flat=True))
    assert saved == list(range(1, len(entries) + 1))  # every entry saved once, no gap, no double
    assert ScoreRow.objects.filter(deal__table=tarot_table).count() == 4 * len(saved)


def _get(url: str, data: bytes | None = None, headers: dict | None = None) -> tuple[int, str | None, str]:
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, response.headers.get("Retry-After"), response.read().decode(errors="replace")
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Retry-After"), error.read().decode(errors="replace")


def test_the_login_page_during_a_database_outage_says_when_to_retry(live_server, staff):
    """The login page (shown and sent, with a session cookie as a browser has one) during an outage: 503 with
    Retry-After, as every other page, so the browser and a proxy know when to come back."""
    if connection.vendor != "postgresql":
        pytest.skip("the outage is simulated on PostgreSQL (CI runs it)")
    import http.cookiejar
    import re

    url = f"{live_server.url}/accounts/login/"
    jar = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    with browser.open(url, timeout=20) as page:  # the service is up: the form and its CSRF cookie
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.read().decode())[1]

    def send() -> tuple[int, str | None, str]:
        body = f"csrfmiddlewaretoken={csrf}&username=arbiter&password=faux".encode()
        request = urllib.request.Request(url, data=body, headers={"Referer": url})
        try:
            with browser.open(request, timeout=20) as response:
                return response.status, response.headers.get("Retry-After"), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get("Retry-After"), error.read().decode(errors="replace")

    _outage(True)
    try:
        answers = {
            "shown": _get(url),
            "shown with a session": _get(url, headers={"Cookie": "sessionid=" + "x" * 32}),
            "sent": send(),
        }
    finally:
        _outage(False)
    print({k: v[:2] for k, v in answers.items()})
    for what, (code, retry, _body) in answers.items():
        assert code in (200, 503), what  # the login form needs no database to be shown; never a 500
        if code == 503:
            assert retry and int(retry) > 0, f"{what}: 503 without Retry-After"
