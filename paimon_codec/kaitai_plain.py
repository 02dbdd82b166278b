"""Kaitai objects -> the same plain shape the Construct codecs produce (for cross-checks by
:mod:`paimon_codec.formats`).  It reads the generated modules' ``LAYOUT`` tables, so it sits above the
generated code, not in the runtime the generated code imports.
"""

from __future__ import annotations

from typing import Any

from construct import (
    Container,
)

from .codec_runtime.strings import mutf8_decode
from .generated.construct import roaring32 as _r32

# --------------------------------------------------------------------------------------------
# Kaitai objects -> the same plain shape the Construct codecs produce (for cross-checks)


def kaitai_to_plain(obj: Any, layout: dict, tname: str) -> Any:
    """Convert a Kaitai-parsed object of type ``tname`` into the Construct codec's shape.

    ``layout`` is the ``LAYOUT`` table a generated Construct module exports: per type its fields
    (``name``, kind ``prim|bytes|str|user|switch``, element type) and presentation rules.
    """
    info = layout[tname]
    if info.get("plain") == "mutf8":
        return mutf8_decode(obj.value)
    out = Container()
    for f in info["fields"]:
        v = getattr(obj, f["name"], None)
        out[f["name"]] = _plain_value(v, layout, f)
    if info.get("unwrap"):
        return out[info["unwrap"]]
    return out


def _plain_value(v: Any, layout: dict, f: dict) -> Any:
    if v is None:
        return None
    if isinstance(v, list):
        return [_plain_one(e, layout, f) for e in v]
    return _plain_one(v, layout, f)


def _plain_one(v: Any, layout: dict, f: dict) -> Any:
    if isinstance(v, (int, float, str, bytes, bool)):
        return v
    if f.get("embedded") == "roaring32_bytes":
        return _r32.Roaring32.build(kaitai_to_plain(v, _r32.LAYOUT, "roaring32"))
    cls = type(v).__name__
    tl = f.get("types", {})
    tname = tl.get(cls)
    if tname is None:
        raise TypeError(f"no layout for Kaitai class {cls} in field {f['name']}")
    mod_layout = layout
    if "." in tname:
        modname, tname = tname.split(".", 1)
        import importlib  # noqa: PLC0415

        mod_layout = importlib.import_module(f"paimon_codec.generated.construct.{modname}").LAYOUT
    return kaitai_to_plain(v, mod_layout, tname)
