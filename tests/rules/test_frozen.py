"""``rules.frozen.quick_init``: the quicker ``__init__`` of the judgement's frozen dataclasses changes nothing
a caller can see."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import dataclass, field

import pytest

from rules.frozen import quick_init


@dataclass(frozen=True)
class Slow:
    a: int
    b: str = "b"
    c: list[int] = field(default_factory=list)
    d: tuple[int, ...] = ()


@quick_init
@dataclass(frozen=True)
class Quick:
    a: int
    b: str = "b"
    c: list[int] = field(default_factory=list)
    d: tuple[int, ...] = ()


@pytest.mark.parametrize(("args", "kwargs"), [((1,), {}), ((1, "x"), {}), ((1,), {"c": [2], "d": (3,)}),
                                              ((), {"a": 4, "b": "y", "c": [5], "d": (6, 7)}),
                                              ((1, "x", [2], (3,)), {})])
def test_the_same_fields_defaults_and_factories(args, kwargs):
    slow, quick = Slow(*args, **kwargs), Quick(*args, **kwargs)
    assert dataclasses.asdict(slow) == dataclasses.asdict(quick)
    assert repr(quick) == repr(slow).replace("Slow", "Quick")
    assert quick == Quick(*args, **kwargs) and quick != Quick(9)


def test_each_instance_its_own_default_list_and_still_frozen():
    one, two = Quick(1), Quick(2)
    assert one.c == [] and one.c is not two.c
    with pytest.raises(dataclasses.FrozenInstanceError):
        one.a = 3  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del one.b  # type: ignore[misc]

    @quick_init
    @dataclass(frozen=True)
    class Hashable:
        a: int
        b: tuple[int, ...] = ()

    assert hash(Hashable(1, (2,))) == hash(Hashable(1, (2,))) == hash((1, (2,)))


def test_replace_copy_and_pickle_keep_the_fields():
    quick = Quick(1, "x", [2], (3,))
    assert dataclasses.replace(quick, b="y") == Quick(1, "y", [2], (3,))
    assert copy.deepcopy(quick) == quick and pickle.loads(pickle.dumps(quick)) == quick


def test_missing_and_unknown_arguments_are_refused_as_before():
    with pytest.raises(TypeError):
        Quick()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Quick(1, e=2)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Quick(1, "x", [], (), 5)  # type: ignore[call-arg]


def test_what_it_cannot_keep_is_refused():
    @dataclass
    class Plain:
        a: int

    @dataclass(frozen=True, slots=True)
    class Slots:
        a: int

    @dataclass(frozen=True)
    class Post:
        a: int

        def __post_init__(self) -> None:
            pass

    @dataclass(frozen=True)
    class KwOnly:
        a: int = field(kw_only=True)

    for cls in (Plain, Slots, Post, KwOnly):
        with pytest.raises(TypeError):
            quick_init(cls)
