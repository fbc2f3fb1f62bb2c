"""/favicon.ico, which every phone asks for with its first page: a small icon served by WhiteNoise before any view
(it was a 404 page of 44 KB rendered by Django for each spectator)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_the_favicon_is_an_icon_served_without_a_statement(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        answer = client.get("/favicon.ico")
    assert answer.status_code == 200
    body = b"".join(answer.streaming_content) if answer.streaming else answer.content
    assert body[:4] == b"\x00\x00\x01\x00" and len(body) < 1024  # an ICO of one small image
    assert answer["Content-Type"] in ("image/x-icon", "image/vnd.microsoft.icon")
