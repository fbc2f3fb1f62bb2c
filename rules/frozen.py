"""A quicker ``__init__`` for the frozen dataclasses a judgement builds.

A frozen dataclass's own ``__init__`` sets each field through ``object.__setattr__`` (its ``__setattr__``
refuses): one call per field, about three times the cost of a plain class's. A judgement builds some fifty
such fields (the record, its deals, their replays, the scores, the verdict). :func:`quick_init` gives a
frozen dataclass an ``__init__`` that writes the fields straight into the instance's ``__dict__``: the same
parameters, defaults and default factories, and the object stays frozen (assigning a field still raises
``FrozenInstanceError``); equality, hashing, ``repr`` and ``dataclasses.replace`` are the dataclass's own.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")

_FACTORY = object()
"""The default of a field with a default factory (the factory is called when the argument is left out)."""


def quick_init(cls: type[T]) -> type[T]:
    """Replace the ``__init__`` of a frozen dataclass (without slots, ``__post_init__``, init-only or
    keyword-only fields) by one storing its fields in ``__dict__``; anything else is refused."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" in cls.__dict__ or hasattr(cls, "__post_init__"):
        raise TypeError(f"quick_init: {cls.__name__} is not a frozen dataclass with a __dict__ and no __post_init__")
    names: dict[str, object] = {"_FACTORY": _FACTORY}
    args = []
    body = ["    s = self.__dict__"]
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if not f.init or f.kw_only or not f.name.isidentifier():
            raise TypeError(f"quick_init: {cls.__name__}.{f.name} is not a plain positional field")
        if f.default is not dataclasses.MISSING:
            names[f"_default_{f.name}"] = f.default
            args.append(f"{f.name}=_default_{f.name}")
            body.append(f"    s[{f.name!r}] = {f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            names[f"_factory_{f.name}"] = f.default_factory
            args.append(f"{f.name}=_FACTORY")
            body.append(f"    s[{f.name!r}] = _factory_{f.name}() if {f.name} is _FACTORY else {f.name}")
        else:
            args.append(f.name)
            body.append(f"    s[{f.name!r}] = {f.name}")
    source = f"def __init__(self, {', '.join(args)}):\n" + "\n".join(body) + "\n"
    exec(source, names)
    init: Any = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    setattr(cls, "__init__", init)  # noqa: B010  (mypy refuses assigning a method)
    return cls
