"""Every operator is a leaf class with its own visitor method, and every visitor says what each one means.

A new operator is a new class in ``paimon_codec.expressions.leaves``.  These tests fail until it has a
method on ``LeafVisitor`` (and the method name matches the class), and until every visitor of the library
implements that method - so an index, a filter or a renderer can never treat it as a silent REMAIN.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re

import pytest

import paimon_codec
from paimon_codec.errors import InvalidPredicateError
from paimon_codec.expressions import (
    LEAF_CLASSES,
    LEAF_OPS,
    And,
    Leaf,
    LeafVisitor,
    Or,
    PredicateVisitor,
    make_leaf,
    parse_where,
    predicate_from_json,
)
from paimon_codec.expressions.visitor import visit, visit_leaf
from paimon_codec.types import parse_row_type

#: the visitors the library is known to have (the discovery below must find at least these)
KNOWN_VISITORS = {
    "paimon_codec.fileindex.ask_reader.ReaderAsker",
    "paimon_codec.fileindex.float_keys._Widen",
    "paimon_codec.reading.arrow_filter._ArrowFilter",
    "paimon_codec.planning.partition_prune._MayMatch",
    "paimon_codec.spark.filters._SparkFilter",
}


def _subclasses(cls: type) -> list[type]:
    out = []
    for sub in cls.__subclasses__():
        out.append(sub)
        out.extend(_subclasses(sub))
    return out


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _concrete_leaf_classes() -> list[type[Leaf]]:
    return [c for c in _subclasses(Leaf) if not inspect.isabstract(c) and hasattr(c, "op")]


def _leaf_methods() -> set[str]:
    return {name for name in LeafVisitor.__abstractmethods__}


def _sample(cls: type[Leaf]) -> Leaf:
    arity = cls.arity
    return make_leaf(cls.op, "s", ("x",) * (2 if arity is None else arity))


def _library_visitors() -> dict[str, type]:
    for info in pkgutil.walk_packages(paimon_codec.__path__, "paimon_codec."):
        if ".generated" in info.name or info.name.endswith("__main__"):
            continue
        importlib.import_module(info.name)
    return {f"{c.__module__}.{c.__qualname__}": c for c in _subclasses(LeafVisitor)
            if c.__module__.startswith("paimon_codec.") and c is not PredicateVisitor}


def test_every_leaf_class_has_its_own_visitor_method():
    classes = _concrete_leaf_classes()
    assert {c.op for c in classes} == set(LEAF_CLASSES) == set(LEAF_OPS)
    assert sorted(LEAF_CLASSES.values(), key=lambda c: c.op) == sorted(classes, key=lambda c: c.op)
    # one abstract method per leaf class, named after it - no more, no fewer
    assert _leaf_methods() == {f"visit_{_snake(c.__name__)}" for c in classes}
    assert set(PredicateVisitor.__abstractmethods__) == _leaf_methods() | {"visit_and", "visit_or"}


def test_every_leaf_dispatches_to_its_own_method():
    calls = {}
    methods = {name: (lambda self, leaf, _name=name: _name) for name in PredicateVisitor.__abstractmethods__}
    recorder = type("Recorder", (PredicateVisitor,), methods)()
    for cls in _concrete_leaf_classes():
        leaf = _sample(cls)
        calls[cls] = visit(leaf, recorder)
        assert visit_leaf(leaf, recorder) == calls[cls]
        assert calls[cls] == f"visit_{_snake(cls.__name__)}", cls
    assert len(set(calls.values())) == len(calls)
    assert visit(And(()), recorder) == "visit_and" and visit(Or(()), recorder) == "visit_or"
    with pytest.raises(InvalidPredicateError, match="not a predicate"):
        visit("a = 1", recorder)


def test_every_visitor_of_the_library_implements_every_operator():
    visitors = _library_visitors()
    assert KNOWN_VISITORS <= set(visitors), "the discovery is blind: known visitors not found"
    for name, cls in visitors.items():
        missing = sorted(getattr(cls, "__abstractmethods__", ()))
        assert not missing, f"{name} does not say what {', '.join(missing)} mean"
        for method in _leaf_methods():
            impl = getattr(cls, method)
            assert not getattr(impl, "__isabstractmethod__", False), (name, method)


def test_a_visitor_missing_a_method_cannot_be_instantiated():
    methods = {name: (lambda self, leaf: None) for name in PredicateVisitor.__abstractmethods__ if name != "visit_like"}
    incomplete = type("Incomplete", (PredicateVisitor,), methods)
    with pytest.raises(TypeError, match="visit_like"):
        incomplete()
    # and one that forgets a leaf operator of a LeafVisitor alike
    leaf_methods = {name: (lambda self, leaf: None) for name in _leaf_methods() if name != "visit_not_in"}
    with pytest.raises(TypeError, match="visit_not_in"):
        type("IncompleteLeaves", (LeafVisitor,), leaf_methods)()


def test_leaf_base_is_abstract_and_leaves_are_immutable():
    with pytest.raises(TypeError, match="abstract"):
        Leaf("eq", "a", (1,))
    from paimon_codec.expressions.leaves import _NoNegation
    with pytest.raises(TypeError, match="_NoNegation is abstract"):  # a shared base names no operator
        _NoNegation("a", "x")
    leaf = make_leaf("eq", "a", (1,))
    with pytest.raises(AttributeError):
        leaf.column = "b"  # type: ignore[misc]
    with pytest.raises(InvalidPredicateError, match="unknown predicate operator"):
        make_leaf("almost_eq", "a", (1,))
    with pytest.raises(InvalidPredicateError, match="takes 2 literal"):
        make_leaf("between", "a", (1,))


@pytest.mark.parametrize("op", sorted(LEAF_OPS))
def test_every_operator_round_trips_through_json(op):
    rt = parse_row_type("s STRING")
    leaf = _sample(LEAF_CLASSES[op])
    for style in ("latest", "paimon-0.9"):
        back = predicate_from_json(leaf.to_dict(style=style), rt)
        assert back == leaf.bind(rt), (op, style)
        assert type(back) is type(leaf)


@pytest.mark.parametrize("op", sorted(set(LEAF_OPS) - {"ends_with", "contains"}))
def test_every_operator_with_a_sql_form_round_trips_through_sql(op):
    leaf = _sample(LEAF_CLASSES[op])
    if op == "like":
        leaf = make_leaf("like", "s", ("a_b%",))
    back = parse_where(leaf.to_sql())
    assert back == leaf and type(back) is type(leaf)
