"""The size a record may have, checked before anything else reads it.

Judging costs time in proportion to the record: without bounds, one anonymous request to the stateless check
(``POST /api/arbitrate/``) could keep a server busy for seconds. The bounds are far above any real deal or match
(a Tarot deal has 78 cards, a match rarely a hundred deals) and are published in the JSON Schema
(``rules/schema/deal-record.schema.json``); :func:`check_size` enforces them, and that every text is valid
Unicode (a lone surrogate such as ``\\ud800`` can be neither stored nor printed), naming the first field at fault.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import MalformedRecord

#: lists holding deals or adjustments (a match)
MAX_DEALS = 500
#: any other list: a hand, a trick, the tricks of a deal, the players, a poignée, the chien …
MAX_ITEMS = 78
#: fields of one object
MAX_FIELDS = 64
#: characters of one text (a name, a reason, a card code)
MAX_TEXT = 1000
#: objects and lists within each other (record → deals → deal → tricks → trick is 4)
MAX_DEPTH = 10
#: values in the whole record
MAX_VALUES = 100_000

_LONG_LISTS = frozenset({"deals", "adjustments"})


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def _text_error(path: str, value: str) -> MalformedRecord | None:
    if len(value) > MAX_TEXT:
        return MalformedRecord(path or "$", f"a text of at most {MAX_TEXT} characters ({len(value)} given)",
                               fr=f"un texte de {MAX_TEXT} caractères au plus ({len(value)} donnés)")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return MalformedRecord(path or "$", "a text that is not valid Unicode (a lone surrogate such as \\ud800)",
                               fr="un texte qui n'est pas de l'Unicode valide (un demi-caractère tel que \\ud800)")
    return None


def _text_fits(value: str) -> bool:
    if len(value) > MAX_TEXT:
        return False
    if value.isascii():
        return True
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


_ONLY_TEXT = {str}


def _text_fits_joined(texts: list[str]) -> bool:
    joined = "".join(texts)
    if joined.isascii():
        return True
    try:
        joined.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _fits(record: Any) -> bool:
    """Whether the record is within every bound: the fast pass, keeping no paths (a few percent of a judgement)."""
    stack: list[tuple[Any, int, bool]] = [(record, 1, False)]
    pop, push = stack.pop, stack.append
    seen = 0
    while stack:
        value, depth, long_list = pop()
        if depth > MAX_DEPTH:
            return False
        if isinstance(value, Mapping):
            if len(value) > MAX_FIELDS:
                return False
            seen += len(value)
            for name, item in value.items():
                if isinstance(name, str) and not _text_fits(name):
                    return False
                if isinstance(item, str):
                    if not _text_fits(item):
                        return False
                elif isinstance(item, (Mapping, list)):
                    push((item, depth + 1, depth == 1 and name in _LONG_LISTS))
        else:
            if len(value) > (MAX_DEALS if long_list else MAX_ITEMS):
                return False
            seen += len(value)
            if value and set(map(type, value)) == _ONLY_TEXT:  # a hand, a trick: checked at C speed
                if max(map(len, value)) > MAX_TEXT or not _text_fits_joined(value):
                    return False
                continue
            for item in value:
                if isinstance(item, str):
                    if not _text_fits(item):
                        return False
                elif isinstance(item, (Mapping, list)):
                    push((item, depth + 1, False))
        if seen > MAX_VALUES:
            return False
    return seen <= MAX_VALUES  # the lists of texts skip the check in the loop


def scan(record: Any, codes: Mapping[str, int]) -> dict[int, list[list[int]]] | None:
    """Whether the record is within every bound, in the one pass that also reads its card codes.

    The same decision as :func:`check_size` (None exactly when it would raise), keeping no paths. Along the way
    each list whose items are all keys of ``codes`` (a hand, a trick, the chien: the bulk of a record) is looked
    up there: such a list is within the text bounds at once, since every key of ``codes`` is a short ASCII text.
    The values of a list of such lists (the hands, the tricks) are returned under its ``id()``, and the reader
    takes them as read (:func:`rules.record.read_record`): each card code of a sound deal is looked at once.
    """
    decoded: dict[int, list[list[int]]] = {}
    code = codes.__getitem__
    stack: list[tuple[Any, int, bool]] = [(record, 1, False)]
    pop, push = stack.pop, stack.append
    seen = 0
    while stack:
        value, depth, long_list = pop()
        if depth > MAX_DEPTH:
            return None
        kind = value.__class__
        if kind is list or (kind is not dict and not isinstance(value, Mapping)):
            size = len(value)
            if size > (MAX_DEALS if long_list else MAX_ITEMS):
                return None
            seen += size
            if not size:
                continue
            first = value[0].__class__
            if first is str:
                if value[0] in codes:
                    try:
                        [*map(code, value)]  # a hand, the chien
                        continue
                    except (KeyError, TypeError):
                        pass
                if set(map(type, value)) == _ONLY_TEXT:  # names, texts: checked at C speed
                    if max(map(len, value)) > MAX_TEXT or not _text_fits_joined(value):
                        return None
                    continue
            elif first is list and depth < MAX_DEPTH:  # the hands, the tricks: read here, nothing pushed
                inner = 0
                groups: list[list[int]] = []
                for item in value:
                    if item.__class__ is not list or len(item) > MAX_ITEMS:
                        break
                    try:
                        groups.append([*map(code, item)])
                    except (KeyError, TypeError):
                        break
                    inner += len(item)
                else:
                    decoded[id(value)] = groups
                    seen += inner
                    if seen > MAX_VALUES:
                        return None
                    continue
            for item in value:  # anything else, item by item (a list read above in part is read again)
                if isinstance(item, str):
                    if not _text_fits(item):
                        return None
                elif isinstance(item, (Mapping, list)):
                    push((item, depth + 1, False))
        else:
            size = len(value)
            if size > MAX_FIELDS:
                return None
            seen += size
            try:
                names = "".join(value)
            except TypeError:  # not every name is a text (not from JSON)
                names = None
            if names is None or len(names) > MAX_TEXT or not names.isascii():
                for name in value:
                    if isinstance(name, str) and not _text_fits(name):
                        return None
            top = depth == 1
            for name, item in value.items():
                kind = item.__class__
                if kind is str:
                    if len(item) > MAX_TEXT or (not item.isascii() and not _text_fits(item)):
                        return None
                elif kind is list or kind is dict:
                    push((item, depth + 1, top and name in _LONG_LISTS))
                elif kind is int or kind is bool or item is None or kind is float:
                    continue
                elif isinstance(item, str):
                    if not _text_fits(item):
                        return None
                elif isinstance(item, (Mapping, list)):
                    push((item, depth + 1, top and name in _LONG_LISTS))
        if seen > MAX_VALUES:
            return None
    return decoded if seen <= MAX_VALUES else None  # (the lists of texts above skip the check in the loop)


def check_size(record: Any) -> None:
    """Raise :class:`MalformedRecord` naming the first field past a bound (see the module's constants).

    Iterative, so that a record nested thousands deep costs no recursion. A record within bounds is checked by a
    fast pass; only one past a bound is walked again, keeping the paths, to name the field at fault."""
    if _fits(record):
        return
    stack: list[tuple[str, Any, int, str | None]] = [("", record, 1, None)]
    seen = 0
    while stack:
        path, value, depth, key = stack.pop()
        seen += 1
        if seen > MAX_VALUES:
            raise MalformedRecord("$", f"a record of at most {MAX_VALUES} values",
                                  fr=f"un record de {MAX_VALUES} valeurs au plus")
        if isinstance(value, str):
            error = _text_error(path, value)
            if error is not None:
                raise error
            continue
        if not isinstance(value, (Mapping, list)):
            continue
        if depth > MAX_DEPTH:
            raise MalformedRecord(path or "$", f"nested too deep (at most {MAX_DEPTH} levels)",
                                  fr=f"imbrication trop profonde ({MAX_DEPTH} niveaux au plus)")
        if isinstance(value, Mapping):
            if len(value) > MAX_FIELDS:
                raise MalformedRecord(path or "$", f"an object of at most {MAX_FIELDS} fields ({len(value)} given)",
                                      fr=f"un objet de {MAX_FIELDS} champs au plus ({len(value)} donnés)")
            items = list(value.items())
            for name, _item in items:
                if isinstance(name, str):
                    error = _text_error(_join(path, name), name)
                    if error is not None:
                        raise error
            stack.extend((_join(path, str(name)), item, depth + 1, str(name)) for name, item in reversed(items))
        else:
            limit = MAX_DEALS if key in _LONG_LISTS and depth == 2 else MAX_ITEMS
            if len(value) > limit:
                raise MalformedRecord(path or "$", f"a list of at most {limit} items ({len(value)} given)",
                                      fr=f"une liste de {limit} éléments au plus ({len(value)} donnés)")
            stack.extend((_join(path, i), item, depth + 1, None) for i, item in reversed(list(enumerate(value))))
