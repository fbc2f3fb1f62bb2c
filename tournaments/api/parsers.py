"""The API's JSON parser, bounded: a body that is too large, nested too deep or not valid Unicode is a 4xx.

DRF's parser reads the stream without Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE`` and lets Python's ``json`` recurse
as deep as the body goes (20 KB of ``[`` was a 500). This one reads at most the limit (413 past it), answers
400 for a body nested deeper than :data:`MAX_DEPTH` (or than Python may recurse) and for a lone surrogate
(``\\ud800``), which neither PostgreSQL nor a UTF-8 page can hold.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.parsers import JSONParser

#: lists and objects within each other in any API body (a deal record needs 5; rules.limits bounds records)
MAX_DEPTH = 32
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"


def too_large(limit: int) -> PayloadTooLarge:
    return PayloadTooLarge(_("The request body is too large (at most %(n)s bytes).") % {"n": f"{limit:,}"})


def _too_deep(value: Any) -> bool:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return True
        children = item.values() if isinstance(item, Mapping) else item
        stack.extend((child, depth + 1) for child in children if isinstance(child, (Mapping, list)))
    return False


def _has_lone_surrogate(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(item, Mapping):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def loads_bounded(body: bytes) -> Any:
    """Parse a JSON body, raising :class:`rest_framework.exceptions.ParseError` (400) for anything unreadable."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise exceptions.ParseError(_("The body is not UTF-8 text.")) from exc
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        if isinstance(exc, RecursionError):  # json's C scanner recurses once per level: hundreds deep
            raise exceptions.ParseError(_too_deep_message()) from exc
        raise exceptions.ParseError(_("The JSON cannot be read: %(error)s") % {"error": str(exc)[:200]}) from exc
    if (text.count("[") + text.count("{") > MAX_DEPTH) and _too_deep(data):  # fewer brackets cannot be too deep
        raise exceptions.ParseError(_too_deep_message())
    if _SURROGATE_ESCAPE.search(body) and _has_lone_surrogate(data):
        raise exceptions.ParseError(_("The JSON holds a text that is not valid Unicode (a lone surrogate such as "
                                      "\\ud800)."))
    return data


def _too_deep_message() -> str:
    return _("The JSON is nested too deep (at most %(n)s levels).") % {"n": MAX_DEPTH}


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


class BoundedJSONParser(JSONParser):
    """``application/json`` within :attr:`max_bytes` (``DATA_UPLOAD_MAX_MEMORY_SIZE`` unless a view says less)."""

    max_bytes: int | None = None

    def parse(self, stream: Any, media_type: str | None = None, parser_context: dict | None = None) -> Any:
        limit = self.max_bytes or settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 2_621_440
        body = stream.read(limit + 1) if stream is not None else b""
        if len(body) > limit:
            raise too_large(limit)
        return loads_bounded(body)
