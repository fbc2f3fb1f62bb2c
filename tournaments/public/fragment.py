"""The ranking's live fragment for one reader (« ma place »: ``?me=``, htmx's refresh every 10 seconds) made of
bytes kept for every reader and the reader's own line spliced in: no template, no cache entry per reader.

At a 10,000-player event each phone polls its own « ma place »; rendered and kept per reader as the other pages
are, every publication (every few seconds during play) made each web process render the fragment's template again
for each reader (50 rows and the reader's line) and keep 10,000 variants that no other reader asks for. Here the
fragment of a page (its language, page and refresh) is rendered once per published state with markers where the
reader's parts go (:func:`pages.ranking_page`'s ``slots``), and so is the « ma place » section (``_me.html``, with
and without its link): a :class:`Skeleton`, kept in the process and in Django's cache under the page's key. A
reader's answer is the skeleton's pieces, his poll URL, his row (already built once per snapshot by :mod:`lines`)
and the link to his page, his row marked when it is on the page shown. The skeleton's key holds the published
state (:func:`published.validator`), as every page's does: a new ranking or a deal entered shows at once.

The gzip copy is joined the same way: each constant piece is compressed once into raw deflate blocks that end on
a byte (``Z_SYNC_FLUSH``, no final block), the reader's pieces are compressed now, and an empty final block, the
CRC-32 and the length close the one gzip member (RFC 1951 §3.2.3, RFC 1952).
"""

from __future__ import annotations

import re
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from tournaments.common import kept

#: where the reader's parts go in a skeleton: text that no page holds and that escaping and URL-encoding leave as
#: they are (the reader's id ``ME`` in the pager's links, his poll URL, his section; his row and his page's link
#: in the section)
ME = "levee-slot-me-5d1e"
POLL = "levee-slot-poll-url-5d1e"
SECTION = "levee-slot-my-place-5d1e"
ROW = "levee-slot-my-row-5d1e"
LINK = "levee-slot-my-page-url-5d1e"
_SLOTS = re.compile("(" + "|".join((ME, POLL, SECTION, ROW, LINK)) + ")")
#: seconds a skeleton stays in Django's cache (its key holds the published state: this only bounds the memory)
TIMEOUT = 3600
#: gzip's header: no name, no time, « unknown » system (as Python's ``gzip.compress(..., mtime=0)`` writes)
_GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
#: an empty final block with fixed Huffman codes: BFINAL 1, BTYPE 01, end of block (RFC 1951 §3.2.6)
_FINAL_BLOCK = b"\x03\x00"


def deflated(data: bytes, level: int = 6) -> bytes:
    """``data`` as raw deflate blocks ending on a byte boundary and without a final block, so that pieces compressed
    apart can follow one another in one stream."""
    compressor = zlib.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS)
    return compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)


def gzip_joined(pieces: Iterable[tuple[bytes, bytes]]) -> bytes:
    """One gzip member of the pieces in order, each given as (its bytes, :func:`deflated` of them)."""
    crc, size, blocks = 0, 0, [_GZIP_HEADER]
    for data, compressed in pieces:
        crc = zlib.crc32(data, crc)
        size += len(data)
        blocks.append(compressed)
    blocks += [_FINAL_BLOCK, struct.pack("<II", crc & 0xFFFFFFFF, size & 0xFFFFFFFF)]
    return b"".join(blocks)


def _piece(text: str) -> tuple[bytes, bytes]:
    data = text.encode()
    return data, deflated(data)


#: a piece of a skeleton: constant text with its deflate blocks, or the name of a reader's part
Piece = tuple[bytes, bytes] | str


@dataclass(frozen=True)
class Skeleton:
    """A page's fragment cut at the reader's parts (:data:`ME`, :data:`POLL`, :data:`SECTION`), and the « ma place »
    section cut at his row and his page's link (``linked``) or at his row alone (``plain``): constant pieces, each
    with its deflate blocks, between the names of the reader's parts."""

    page: tuple[Piece, ...]
    linked: tuple[Piece, ...]
    plain: tuple[Piece, ...]


def _cut(text: str, once: tuple[str, ...]) -> tuple[Piece, ...]:
    parts = _SLOTS.split(text)
    slots = parts[1::2]
    if any(slots.count(name) != 1 for name in once):
        raise ValueError(f"the fragment's templates must hold {', '.join(once)} once each")
    return tuple(part if n % 2 else _piece(part) for n, part in enumerate(parts))


def build(fragment: str, section_linked: str, section_plain: str) -> Skeleton:
    """The skeleton of a fragment rendered with the markers (POLL and SECTION once, ME in the pager's links), and of
    the « ma place » section rendered with ROW and LINK, and with ROW and no link."""
    return Skeleton(_cut(fragment, (POLL, SECTION)), _cut(section_linked, (ROW, LINK)), _cut(section_plain, (ROW,)))


def assemble(skeleton: Skeleton, me: int, poll_url: str, row: str | None, link: str = "",
             marked: tuple[str, str] | None = None) -> tuple[bytes, bytes]:
    """One reader's fragment and its gzip copy: ``poll_url`` and ``link`` already escaped for an attribute, ``row``
    his ``<tr>`` (None: he is not in the ranking, no section), ``marked`` = (his row as on the page, marked) when
    his row is on the page shown."""
    own: dict[str, tuple[bytes, bytes]] = {ME: _piece(str(me)), POLL: _piece(poll_url)}
    if row is not None:
        own |= {ROW: _piece(row), LINK: _piece(link)}
        section = skeleton.linked if link else skeleton.plain
        own[SECTION] = (b"".join(own[p][0] if isinstance(p, str) else p[0] for p in section),
                        b"".join(own[p][1] if isinstance(p, str) else p[1] for p in section))
    else:
        own[SECTION] = (b"", b"")
    page = skeleton.page
    if marked is not None:  # his row among the page's (one reader in 200 at a 10,000-player event): its piece again
        was, now = marked[0].encode(), marked[1].encode()
        page = tuple(_marked(p, was, now) if not isinstance(p, str) and was in p[0] else p for p in page)
    pieces = [own[p] if isinstance(p, str) else p for p in page]
    return b"".join(data for data, _ in pieces), gzip_joined(pieces)


def _marked(piece: tuple[bytes, bytes], was: bytes, now: bytes) -> tuple[bytes, bytes]:
    data = piece[0].replace(was, now, 1)
    return data, deflated(data)


# -- kept: in the process (a few pages: language, page, refresh) and in Django's cache ----------------------------

_KEPT = 64
_skeletons: OrderedDict[str, Skeleton] = OrderedDict()
_lock = threading.Lock()


def skeleton(key: str, render: Callable[[], Skeleton]) -> Skeleton:
    """The skeleton kept under ``key`` (this process, then Django's cache), rendered by ``render()`` the first time."""
    with _lock:
        found = _skeletons.get(key)
        if found is not None:
            _skeletons.move_to_end(key)
            return found
    found = kept.get(key)
    if not isinstance(found, Skeleton):
        found = render()
        kept.set(key, found, TIMEOUT)
    with _lock:
        _skeletons[key] = found
        while len(_skeletons) > _KEPT:
            _skeletons.popitem(last=False)
    return found


def forget(prefixes: Iterable[str]) -> int:
    """Drop this process's skeletons whose keys begin with one of ``prefixes`` (a player made anonymous); how many."""
    starts = tuple(prefixes)
    with _lock:
        gone = [key for key in _skeletons if key.startswith(starts)] if starts else []
        for key in gone:
            del _skeletons[key]
    return len(gone)
