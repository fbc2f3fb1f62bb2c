"""files.accepted_encoding: which kept copy an ``Accept-Encoding`` header takes (RFC 9110, 12.5.3)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.common.files import accepted_encoding

OFFERED = ("br", "gzip")


@pytest.mark.parametrize(("header", "chosen"), [
    ("gzip, deflate, br", "br"),  # Safari, Firefox
    ("gzip, deflate, br, zstd", "br"),  # Chrome
    ("gzip", "gzip"),
    ("GZIP", "gzip"),  # codings are case-insensitive
    ("br;q=0, gzip", "gzip"),  # refused
    ("gzip;q=0.5, br;q=0.4", "gzip"),  # the better weight wins over the server's order
    ("gzip;q=0.5, br;q=0.5", "br"),  # a tie: the server's order
    ("gzip ; q=1.0 , br ; q=0.9", "gzip"),
    ("*", "br"),
    ("*;q=0.2, gzip;q=0", "br"),
    ("identity", ""),
    ("", ""),
    ("br;q=0, gzip;q=0", ""),
    ("br;q=nonsense, gzip", "gzip"),  # a weight that is no number refuses the coding
    (",,, ;q=1", ""),
])
def test_the_copy_each_header_takes(header, chosen):
    assert accepted_encoding(header, OFFERED) == chosen


def test_only_what_is_offered():
    assert accepted_encoding("gzip, br", ("gzip",)) == "gzip"
    assert accepted_encoding("br", ("gzip",)) == ""
    assert accepted_encoding("gzip, br", ()) == ""


@given(st.text(max_size=60))
def test_any_header_gives_an_offered_coding_or_none(header):
    assert accepted_encoding(header, OFFERED) in ("", *OFFERED)


def test_a_kept_page_refused_in_gzip_is_sent_as_it_is(rf):
    """« gzip;q=0 » names gzip to refuse it: the kept pages' answer used to send it gzipped all the same."""
    from tournaments.public.published import answer

    refused = answer(rf.get("/", HTTP_ACCEPT_ENCODING="gzip;q=0, identity"), "e1", b"page", b"\x1f\x8bpacked")
    assert refused.content == b"page" and not refused.has_header("Content-Encoding")
    taken = answer(rf.get("/", HTTP_ACCEPT_ENCODING="gzip, deflate, br"), "e1", b"page", b"\x1f\x8bpacked")
    assert taken.content == b"\x1f\x8bpacked" and taken["Content-Encoding"] == "gzip"
