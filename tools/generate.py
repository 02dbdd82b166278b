#!/usr/bin/env python3
"""Regenerate everything derived from ``schemas/*.ksy``.

One command (``python tools/generate.py``) writes

* ``generated/construct/<id>.py`` - Construct codecs that parse AND build (jinja2 templates in
  ``tools/templates``), translated from the Kaitai schemas by this script;
* ``generated/kaitai/<id>.py`` - Kaitai Struct Python parsers from kaitai-struct-compiler 0.11.0,
  driven through its library API by ``tools/ksc.js`` (``npm ci --prefix tools`` installs it);
* ``generated/javascript/*.js`` and ``generated/java/paimoncodec/formats/*.java`` - the same parsers for
  JavaScript (debug mode: field offsets) and Java, see ``tools/langgen.py``;
* ``docs/formats/<id>.dot`` + ``.svg`` - one diagram per format (the compiler's graphviz target
  rendered with ``dot``).

``--check`` regenerates into a temporary directory and exits non-zero, listing the files, when
anything committed is stale.  Without ``node`` it says so and fails (the Kaitai parsers and .dot
sources cannot be checked); without ``dot`` the SVGs are not compared (the .dot sources still are).

Schema extensions (keys starting with ``-`` are ignored by the Kaitai compiler):

* ``-build: <python expr>`` on a seq field: value derived on build (``this`` = Construct context,
  ``_rt`` = runtime).  Counts (``repeat-expr: n``) and sizes (``size: n``, also ``a.n`` one level
  down) are derived automatically.
* ``-construct: <python expr>`` on a type: its Construct codec; ``-construct: skip`` on an
  instance: Kaitai-only (e.g. lazily positioned V2 index blocks).
* ``-plain: mutf8`` on a type / ``-plain-embedded`` + ``-construct-embedded`` in ``meta``: how the
  type is presented when embedded, for the Kaitai-to-plain normaliser (the Construct code is evaluated once per
  embedding module as ``_E_<schema>`` and may name generated constants); ``-min-size: n`` in such a
  ``meta``: the fewest bytes one embedded value takes (bounds repeat counts; default 8, a Roaring32).
* ``-dtype-name: NAME`` on a repeated field: extra alias for the exported numpy dtype; on a single
  number field: export ``NAME``, that field's numpy dtype (for semantic code that packs or reads such
  fields in bulk, e.g. the length prefix of string keys).  ``-at-name: NAME`` on a single number field
  after plain numbers only: export ``NAME``, its byte offset in its type (with ``-dtype-name``, semantic
  code reads one field - a version to refuse before parsing - without restating where it is or how wide).
* ``-dtypes: NAME`` on a type: export ``NAME``, the numpy record dtype of the type (per key kind when
  it has parameters; an ``if`` on parameters only keeps or drops its field) - for semantic code that
  decodes many such records at once; parsing is not changed by it.
* ``-fast-head: {name: last_field | true}`` on a type: emit ``fast_parse_<name>`` /
  ``fast_build_<name>`` (plain Python, see ``tools/fastgen.py``) for the sequence through
  ``last_field``; positioned payload instances are skipped on parse and laid out after the sequence
  on build.  ``-fast-runtime: <name>`` on a ``-construct`` type: the fast path calls
  ``_rt.fast_parse_<name>`` / ``_rt.fast_build_<name>`` (in the ``meta`` of an embedded schema, e.g.
  varint: the fast paths call ``_E_<schema>.fast_parse`` / ``.fast_build``).  ``-fast-build: seq-size`` on an integer
  field: the fast builder patches it with the size of the built sequence.

* ``-struct-formats: NAME`` on a type of fixed-size fields: export ``NAME``, its ``struct.Struct``; on a
  type whose one field switches on its one parameter: a dict of them per case (sizes pad narrower cases)
  - for semantic code that packs or reads one such record at a time (BinaryRow slots, index keys);
  ``-struct-formats-fixed-only: true`` leaves out the cases of no fixed size (string keys).  The byte order is
  the one the type's numbers name (``s8be`` in a little-endian schema) when they agree, else the schema's.
* ``sizeof<type>`` in an expression: the fixed byte size of a type of plain numbers (or a primitive), computed
  here as Kaitai computes it at compile time (a blob record's data ends ``sizeof<blob_record_tail>`` before
  the record's end).
* ``-export-values: true`` on a type: each of its value instances becomes ``<type>_<instance>(...)``, a
  function of the fields and parameters it reads (e.g. ``binary_row_null_bits_size(arity)``).
* ``-runtime-layout: true`` in a schema's ``meta``: its field dtypes and value functions go to
  ``constants.py`` (re-exported by the schema's module), so the hand-written codec runtime can use them without
  importing a generated codec (roaring32: the size scan of embedded bitmaps).

Constants: every member of a schema's Kaitai ``enums`` becomes ``ENUM_MEMBER`` and every
``contents`` field ``TYPE_FIELD`` (bytes) in ``generated/construct/constants.py`` (no imports, so the
runtime can use them too), re-exported by the schema's module; ``-values-name: NAME`` on a root parameter
exports ``NAME``, the tuple of the case labels of the root field that switches on it (a vocabulary such as
paimon_key's key kinds); ``enum::member`` (``.to_i``) in
expressions, ``valid`` lists and switch cases is translated to that name.
"""

from __future__ import annotations

import argparse
import atexit
import filecmp
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import jinja2
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fastgen  # noqa: E402
import kexpr  # noqa: E402
import langgen  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools"
TEMPLATES = TOOLS / "templates"

_PRIM = re.compile(r"^(?P<k>[us])(?P<n>[1248])(?P<e>le|be)?$|^f(?P<fn>[48])(?P<fe>le|be)?$")


def camel(name: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in name.split("_") if p)


@dataclass
class TypeInfo:
    sid: str
    name: str
    d: dict
    is_root: bool
    endian: str

    @property
    def params(self) -> list[str]:
        return [p["id"] for p in self.d.get("params", []) or []]

    @property
    def cname(self) -> str:
        return camel(self.sid if self.is_root else self.name)

    @property
    def key(self) -> tuple[str, str]:
        return (self.sid, self.name)

    def seq(self) -> list[dict]:
        return self.d.get("seq", []) or []

    def instances(self) -> dict:
        return self.d.get("instances", {}) or {}


@dataclass
class Model:
    schemas: dict[str, dict]
    types: dict[tuple[str, str], TypeInfo] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.constants: dict[str, dict[str, tuple[object, str]]] = {}
        #: ``-runtime-layout`` schemas: source lines and names of their dtypes and value functions, which go to
        #: constants.py (importable by the hand-written runtime without importing the generated codecs)
        self.runtime_layout: dict[str, list[str]] = {}
        self.runtime_names: dict[str, list[str]] = {}
        seen: dict[str, str] = {}
        for sid, d in self.schemas.items():
            consts = self.constants[sid] = schema_constants(sid, d)
            for name in consts:
                if name in seen:
                    raise ValueError(f"{sid}: constant {name} is also generated from {seen[name]}")
                seen[name] = sid
        for sid, d in self.schemas.items():
            endian = d.get("meta", {}).get("endian", "be")
            self.types[(sid, sid)] = TypeInfo(sid, sid, d, True, endian)
            for tn, td in (d.get("types") or {}).items():
                self.types[(sid, tn)] = TypeInfo(sid, tn, td, False, endian)

    def resolve(self, sid: str, ref: str) -> TypeInfo | None:
        name = ref.split("(", 1)[0].strip()
        if (sid, name) in self.types and name != sid:
            return self.types[(sid, name)]
        if name in self.schemas:
            return self.types[(name, name)]
        return None


def schema_constants(sid: str, d: dict) -> dict[str, tuple[object, str]]:
    """Named constants of a schema: ``{NAME: (value, doc)}``.

    * every member of the schema's ``enums`` (``ENUM_MEMBER``, the name ``enum::member`` translates to
      in expressions, ``valid`` lists and switch cases - see ``kexpr.enum_constant``);
    * every ``contents`` field (magic bytes) of the root type and its user types: ``TYPE_FIELD``
      (``FILE_INDEX_MAGIC``; the root type is named by the schema id); with ``-contents-int: true`` also
      ``TYPE_FIELD_INT``, the bytes as the signed integer of the schema's byte order (Java's long magic).
    """
    out: dict[str, tuple[object, str]] = {}
    for enum, members in (d.get("enums") or {}).items():
        for value, member in members.items():
            label = member["id"] if isinstance(member, dict) else member
            doc = str(member.get("doc", "")) if isinstance(member, dict) else ""
            out[kexpr.enum_constant(enum, label)] = (int(value), doc or f"{sid}: {enum}::{label}")
    for tname, td in [(sid, d), *((d.get("types") or {}).items())]:
        for f in td.get("seq") or []:
            if "contents" in f:
                c = f["contents"]
                data = bytes(c) if isinstance(c, list) else str(c).encode()
                out[f"{tname}_{f['id']}".upper()] = (data, str(f.get("doc", "")).strip() or f"{tname}.{f['id']}")
                if f.get("-contents-int"):
                    order = "little" if (d.get("meta") or {}).get("endian") == "le" else "big"
                    out[f"{tname}_{f['id']}_INT".upper()] = (
                        int.from_bytes(data, order, signed=True),
                        f"``{tname}_{f['id']}`` as the signed {order}-endian integer the writer writes")
    for p in d.get("params") or []:
        name = p.get("-values-name")
        if name:
            cases = [f["type"]["cases"] for f in d.get("seq") or []
                     if isinstance(f.get("type"), dict) and f["type"].get("switch-on") == p["id"]]
            if len(cases) != 1:
                raise ValueError(f"{sid}: -values-name on {p['id']} needs one root field switching on it")
            values = tuple(str(k).strip('"') for k in cases[0])
            out[name] = (values, f"{sid}: the values of the ``{p['id']}`` parameter (its switch cases)")
    return out


def struct_calcsize(t: TypeInfo, fmt: str) -> int:
    import struct  # noqa: PLC0415

    return struct.calcsize(("<" if t.endian == "le" else ">") + fmt)


def parse_ref(ref: str) -> tuple[str, list[str]]:
    m = re.fullmatch(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*", ref)
    if not m:
        raise ValueError(f"bad type reference {ref!r}")
    args = [a.strip() for a in m.group(2).split(",")] if m.group(2) else []
    return m.group(1), args


def prim(t: object, endian: str) -> tuple[str, str, int] | None:
    """(construct name, numpy dtype, size) of a Kaitai primitive type name, else None."""
    if not isinstance(t, str):
        return None
    m = _PRIM.match(t)
    if not m:
        return None
    if m.group("k"):
        k, n, e = m.group("k"), int(m.group("n")), m.group("e") or endian
        bits = n * 8
        if n == 1:
            return ("Int8sb" if k == "s" else "Int8ub", ("i1" if k == "s" else "u1"), 1)
        cn = f"Int{bits}{'s' if k == 's' else 'u'}{'b' if e == 'be' else 'l'}"
        dt = f"{'>' if e == 'be' else '<'}{'i' if k == 's' else 'u'}{n}"
        return (cn, dt, n)
    n, e = int(m.group("fn")), m.group("fe") or endian
    return (f"Float{n * 8}{'b' if e == 'be' else 'l'}", f"{'>' if e == 'be' else '<'}f{n}", n)


# ---------------------------------------------------------------------------------------------
# Construct backend


class ConstructGen:
    def __init__(self, model: Model, sid: str) -> None:
        self.m = model
        self.sid = sid
        self.schema = model.schemas[sid]
        self.derive: dict[tuple[tuple[str, str], str], str] = {}
        self.dtype_exports: list[tuple[str, str, bool]] = []
        self._collect_derivations()
        self.fast = fastgen.FastGen(self)
        self.fast_src: list[str] = []
        self.fast_api: list[str] = []  # public fast-path functions (columns_*, fast_parse_*, fast_build_*)
        self.embedded: dict[str, str] = {}  # _E_<sid> -> the -construct-embedded code of an embedded schema

    # -- names and expressions ----------------------------------------------------------------
    def parent_code(self, t: TypeInfo) -> str:
        return "this['_']['_']" if t.params else "this['_']"

    def resolver(self, t: TypeInfo, value_var: str = "obj_"):
        inst = t.instances()
        root = self.m.types[(t.sid, t.sid)]

        def resolve(name: str) -> str:
            if name.startswith("sizeof<"):
                return str(self.sizeof(t, name[len("sizeof<"):-1]))
            if name == "_root":
                return "this['_root']"
            if name == "_parent":
                return self.parent_code(t)
            if name == "_index":
                return "this['_index']"
            if name == "_io":
                return "this['_io']"
            if name == "_":
                return value_var
            if name in t.params:
                return f"this['_'][{name!r}]"
            if name in inst and "value" in inst[name]:
                return "(" + kexpr.emit(kexpr.parse(inst[name]["value"]), resolve) + ")"
            return f"this[{name!r}]"

        self._root_params = root.params
        return resolve

    def sizeof(self, t: TypeInfo, ref: str) -> int:
        """``sizeof<ref>`` in ``t``'s expressions: the byte size of a type of plain numbers and magics (what
        Kaitai computes at compile time), so an expression never restates another type's size."""
        p = prim(ref, t.endian)
        if p:
            return p[2]
        u = self.m.resolve(t.sid, ref)
        size = None if u is None else self.fast.fixed_size(u, u.seq())
        if size is None:
            raise ValueError(f"{t.sid}.{t.name}: sizeof<{ref}> is not a type of fixed-size fields")
        return size

    def expr(self, t: TypeInfo, src: object, value_var: str = "obj_") -> str:
        code = kexpr.emit(kexpr.parse(src), self.resolver(t, value_var))
        # parameters of the root type live one level above the root context
        root = self.m.types[(t.sid, t.sid)]
        for p in root.params:
            code = code.replace(f"this['_root'][{p!r}]", f"this['_root']['_'][{p!r}]")
        return code

    def lam(self, t: TypeInfo, src: object) -> str:
        if isinstance(src, int) and not isinstance(src, bool):
            return str(src)
        return f"lambda this: {self.expr(t, src)}"

    # -- derivations -----------------------------------------------------------------------------
    def _collect_derivations(self) -> None:
        for t in [ti for (s, _), ti in self.m.types.items() if s == self.sid]:
            seq = t.seq()
            names = {f.get("id") for f in seq}
            for g in seq:
                for attr, kind in (("repeat-expr", "count"), ("size", "size")):
                    if attr not in g or (attr == "repeat-expr" and g.get("repeat") != "expr"):
                        continue
                    path = kexpr.bare_name(g[attr])
                    if path is None:
                        continue
                    parts = path.split(".")
                    if len(parts) == 1 and parts[0] in names:
                        self._add_derive(t, parts[0], kind, "this", g)
                    elif len(parts) == 2 and parts[0] in names:
                        holder = next(f for f in seq if f.get("id") == parts[0])
                        ht = self.m.resolve(self.sid, parse_ref(holder["type"])[0]) if isinstance(
                            holder.get("type"), str) else None
                        if ht is not None and ht.sid == self.sid:
                            self._add_derive(ht, parts[1], kind, self.parent_code(ht), g, via=t)

    def _add_derive(self, t: TypeInfo, fname: str, kind: str, ctx: str, g: dict, via: TypeInfo | None = None) -> None:
        owner = via or t
        gname = g["id"]
        if kind == "count":
            code = f"len({ctx}[{gname!r}])"
        elif g.get("type") is None:
            code = f"len({ctx}[{gname!r}])"
        elif g.get("type") == "str":
            code = f"len({ctx}[{gname!r}].encode({g.get('encoding', 'UTF-8')!r}))"
        else:
            sub = self.base_code(owner, g, sized=False)
            code = f"_rt.measure({ctx}, {gname!r}, lambda: {sub})"
        self.derive.setdefault((t.key, fname), code)

    # -- fields ------------------------------------------------------------------------------------
    def embedded_ref(self, sid: str) -> str:
        """The module-level name (``_E_<sid>``) of the object an embedded schema's ``-construct-embedded`` code
        makes - once per module, shared by its fields and (``-fast-runtime`` in that schema's ``meta``) its
        fast paths' ``fast_parse`` / ``fast_build``; the code may name the generated constants (varint's
        group layout), so an edit of the embedded schema reaches every codec embedding it."""
        self.embedded[f"_E_{sid}"] = self.m.schemas[sid]["meta"]["-construct-embedded"]
        return f"_E_{sid}"

    def user_code(self, t: TypeInfo, ref: str) -> str:
        name, args = parse_ref(ref)
        u = self.m.resolve(t.sid, name)
        if u is None:
            raise ValueError(f"{t.sid}.{t.name}: unknown type {ref}")
        if u.sid != self.sid:
            meta = self.m.schemas[u.sid].get("meta", {})
            if meta.get("-construct-embedded"):
                return self.embedded_ref(u.sid)
            code = f"_m_{u.sid}.{u.cname}"
        elif u.d.get("-construct"):
            code = u.d["-construct"]
        else:
            code = u.cname
        if args:
            if len(args) != len(u.params):
                raise ValueError(f"{ref}: {len(args)} arguments for {len(u.params)} parameters")
            kw = ", ".join(f"{p}=lambda this: {self.expr(t, a)}" for p, a in zip(u.params, args, strict=True))
            code = f"_rt.WithParams({code}, {kw})"
        return code

    def elem_code(self, t: TypeInfo, ty: object) -> str:
        p = prim(ty, t.endian)
        if p:
            return p[0]
        if isinstance(ty, dict):
            on = self.lam(t, ty["switch-on"])
            cases = ", ".join(
                f"{self._case_key(k)}: {self.elem_code(t, v)}" for k, v in ty["cases"].items())
            return f"Switch({on}, {{{cases}}}, default=Pass)"
        return self.user_code(t, ty)

    @staticmethod
    def _case_key(k: object) -> str:
        if kexpr.enum_ref(k):
            return kexpr.enum_ref(k)  # type: ignore[return-value]
        if isinstance(k, str) and k[:1] in "\"'":
            return repr(k[1:-1])
        return str(k)

    def constant_value(self, k: object) -> object:
        """The value a ``valid`` entry stands for (an enum member's number, else the literal)."""
        name = kexpr.enum_ref(k)
        return self.m.constants[self.sid][name][0] if name else k

    def valid_text(self, src: object) -> str:
        """A ``valid`` expression as the error's ``expected`` text: enum members by their numbers."""
        return re.sub(r"\w+::\w+(?:\.to_i)?", lambda m: str(self.constant_value(m.group(0))), str(src))

    def base_code(self, t: TypeInfo, f: dict, sized: bool = True) -> str:
        name = f["id"]
        if "contents" in f:
            c = f["contents"]
            data = bytes(c) if isinstance(c, list) else str(c).encode()
            return f"_rt.Magic({data!r}, {name!r})"
        ty = f.get("type")
        size = None if f.get("size-eos") else (self.lam(t, f["size"]) if "size" in f else None)
        has_size = "size" in f or f.get("size-eos")
        if ty is None:
            return f"_rt.SizedBytes({size}, {name!r})"
        if ty == "str":
            pad = f.get("pad-right")
            return f"_rt.SizedString({size}, {f.get('encoding', 'UTF-8')!r}, {name!r}, {pad!r})"
        code = self.elem_code(t, ty)
        if has_size and sized:
            # a literal size around cases of different widths: the narrower ones are zero-padded on build
            pad = ", pad=True" if isinstance(f.get("size"), int) and isinstance(ty, dict) else ""
            code = f"_rt.Sized({size}, {code}, {name!r}{pad})"
        return code

    def dtype_of(self, t: TypeInfo, ty: object, env: dict[str, str] | None = None,
                 param_ifs: bool = False) -> str | None:
        """Python code (in the caller's context) of the numpy dtype of ``ty`` or None if not fixed."""
        p = prim(ty, t.endian)
        if p:
            return repr(p[1])
        if not isinstance(ty, str):
            return None
        name, args = parse_ref(ty)
        u = self.m.resolve(t.sid, name)
        if u is None or u.d.get("-construct") or (u.sid != t.sid and self.m.schemas[u.sid].get("meta", {}).get(
                "-construct-embedded")):
            return None
        sub_env: dict[str, str] = {}
        for pn, a in zip(u.params, args, strict=False):
            if a in (env or {}):
                sub_env[pn] = env[a]  # type: ignore[index]
            elif kexpr.bare_name(a) or a.startswith("_root"):
                sub_env[pn] = self.expr(t, a)
            else:
                return None
        return self.type_dtype(u, sub_env, param_ifs)

    def type_dtype(self, u: TypeInfo, env: dict[str, str], param_ifs: bool = False) -> str | None:
        """Code of the numpy record dtype of type ``u`` whose parameters are the codes in ``env``.

        With ``param_ifs``, a field whose ``if`` depends on parameters only is kept when the
        condition holds and left out of the record otherwise (``_rt.present_if``).
        """
        if u.instances():
            return None
        fields = []
        for f in u.seq():
            if any(k in f for k in ("repeat", "size", "size-eos", "contents", "valid", "-build")):
                return None
            fty = f.get("type")
            if isinstance(fty, dict):
                on = kexpr.bare_name(fty["switch-on"])
                if on not in env:
                    return None
                table = {}
                for k, v in fty["cases"].items():
                    d = self.dtype_of(u, v, env, param_ifs)
                    if d is not None and not d.startswith("'"):
                        return None
                    table[self._case_key(k)] = d if d is not None else "None"
                items = ", ".join(f"{k}: {v}" for k, v in table.items())
                d = f"_rt.switch_dtype({env[on]}, {{{items}}})"
            else:
                d = self.dtype_of(u, fty, env, param_ifs)
                if d is None:
                    return None
            if "if" in f:
                cond = self.param_expr(f["if"], env) if param_ifs else None
                if cond is None:
                    return None
                d = f"_rt.present_if({cond}, {d})"
            fields.append((f["id"], d))
        if self.unwrap_field(u) and len(fields) == 1:
            return fields[0][1]
        inner = ", ".join(f"({n!r}, {d})" for n, d in fields)
        return f"_rt.record_dtype([{inner}])"

    @staticmethod
    def param_expr(src: object, env: dict[str, str]) -> str | None:
        """Code of a Kaitai expression over parameters only (names resolved by ``env``), else None."""
        def resolve(name: str) -> str:
            if name not in env:
                raise KeyError(name)
            return env[name]

        try:
            return kexpr.emit(kexpr.parse(src), resolve)
        except KeyError:
            return None

    def field_at(self, t: TypeInfo, field: dict) -> int:
        """Byte offset of ``field`` in ``t``'s sequence; every field before it must be a plain number."""
        at = 0
        for f in t.seq():
            if f is field:
                return at
            p = prim(f.get("type"), t.endian)
            if p is None or any(k in f for k in ("if", "repeat", "size", "contents")):
                raise ValueError(f"{t.sid}.{t.name}.{field['id']}: -at-name after {f['id']}, not a plain number")
            at += p[2]
        raise ValueError(f"{t.sid}.{t.name}: -at-name field not in the sequence")

    def min_size(self, t: TypeInfo, ty: object, depth: int = 0) -> int:
        p = prim(ty, t.endian)
        if p:
            return p[2]
        if not isinstance(ty, str) or depth > 8:
            return 0
        u = self.m.resolve(t.sid, parse_ref(ty)[0])
        if u is None:
            return 0
        meta = self.m.schemas[u.sid].get("meta", {})
        if u.sid != t.sid and meta.get("-construct-embedded"):
            return int(meta.get("-min-size", 8))  # default: an embedded Roaring32 bitmap is at least 8 bytes
        total = 0
        for f in u.seq():
            if "if" in f or "repeat" in f:
                continue
            if "contents" in f:
                total += len(f["contents"]) if isinstance(f["contents"], list) else len(str(f["contents"]))
            elif "size" not in f and not f.get("size-eos") and isinstance(f.get("type"), str):
                total += self.min_size(u, f["type"], depth + 1)
        return total

    def field_code(self, t: TypeInfo, f: dict) -> str:
        name = f["id"]
        rep = f.get("repeat")
        if rep:
            ty = f.get("type")
            elem = self.base_code(t, f)
            count = None if rep != "expr" else self.lam(t, f["repeat-expr"])
            dt = self.dtype_of(t, ty) if ty is not None and "size" not in f else None
            numpy = dt is not None and rep in ("expr", "eos")
            static = numpy and "this" not in dt  # no parameter in the dtype: one dtype for every parse
            fa = None
            if not static and isinstance(ty, str) and not prim(ty, t.endian):
                fa = self.fast.array_functions(t, f, f"{t.name}_{name}")
                col = self.fast.columnar_functions(t, f, f"{t.name}_{name}")
                if col is not None:
                    self.fast_api.append(col[0])
                    self.fast_src += col[1]
            if static:
                fallback = None  # the numpy array always applies
            elif fa is not None:
                self.fast_src += fa[1]
                u = self.m.resolve(t.sid, parse_ref(ty)[0])
                kw = ", ".join(f"{p!r}: lambda this: {self.expr(t, a)}"
                               for p, a in zip(u.params, parse_ref(ty)[1], strict=True))
                fallback = f"_rt.FastArray({count}, _fp_{t.name}_{name}, _fb_{t.name}_{name}, {name!r}, {{{kw}}})"
            elif rep == "expr":
                fallback = f"_rt.CheckedArray({count}, {elem}, {max(1, self.min_size(t, ty))}, {name!r})"
            elif rep == "eos":
                fallback = f"_rt.UntilEof({elem}, {name!r})"
            else:
                pred = self.expr(t, f["repeat-until"])
                fallback = f"_rt.RepeatUntilProgress(lambda obj_, lst_, this: {pred}, {elem}, {name!r})"
            if numpy:
                self.dtype_exports.append((t.name, name, static, dt, f.get("-dtype-name")))
                dcode = dt if static else f"lambda this: {dt}"
                code = f"_rt.NumpyArray({dcode}, {count}, {name!r}, fallback={fallback})"
            else:
                code = fallback
        else:
            code = self.base_code(t, f)
        if "valid" in f:
            v = f["valid"]
            if isinstance(v, dict) and "any-of" in v:
                vals = ", ".join(self._case_key(x) for x in v["any-of"])
                check, exp = f"lambda obj_, this: obj_ in ({vals},)", " or ".join(
                    str(self.constant_value(x)) for x in v["any-of"])
            elif isinstance(v, dict) and "expr" in v:
                check, exp = f"lambda obj_, this: {self.expr(t, v['expr'])}", self.valid_text(v["expr"])
            else:
                val = v["eq"] if isinstance(v, dict) else v
                check, exp = f"lambda obj_, this: obj_ == {self._case_key(val)}", str(self.constant_value(val))
            kind = "version" if "version" in name else "corrupt"
            code = f"_rt.Valid({code}, {check}, {exp!r}, {name!r}, {kind!r})"
        build = f.get("-build")
        if build is not None:
            code = f"Rebuild({code}, lambda this: {build})"
        elif (t.key, name) in self.derive:
            code = f"Rebuild({code}, lambda this: {self.derive[(t.key, name)]})"
        if "if" in f:
            code = f"_rt.If(lambda this: {self.expr(t, f['if'])}, {code})"
        return f"{name!r} / {code}"

    def instance_code(self, t: TypeInfo, name: str, d: dict) -> str | None:
        if "value" in d or d.get("-construct") == "skip" or "pos" not in d:
            return None
        f = dict(d, id=name)
        base = self.base_code(t, f)
        io = f"lambda this: {self.expr(t, d['io'])}" if "io" in d else None
        code = f"_rt.RootPointer({self.lam(t, d['pos'])}, {base}, {io}, {name!r})"
        if "if" in d:
            code = f"_rt.If(lambda this: {self.expr(t, d['if'])}, {code})"
        return f"{name!r} / {code}"

    def derived_names(self, t: TypeInfo) -> set[str]:
        return {f["id"] for f in t.seq() if "-build" in f or (t.key, f["id"]) in self.derive}

    def unwrap_field(self, t: TypeInfo) -> str | None:
        visible = [f["id"] for f in t.seq() if f["id"] not in self.derived_names(t)]
        emitted = [n for n, d in t.instances().items() if self.instance_code(t, n, d)]
        if visible == ["value"] and not emitted:
            return "value"
        return None

    def type_code(self, t: TypeInfo) -> str:
        if t.d.get("-construct"):
            return t.d["-construct"]
        lines = [self.field_code(t, f) for f in t.seq()]
        for n, d in t.instances().items():
            c = self.instance_code(t, n, d)
            if c:
                lines.append(c)
        body = "_rt.Struct(\n" + "".join(f"    {ln},\n" for ln in lines) + ")"
        uw = self.unwrap_field(t)
        if uw:
            body = f"_rt.Unwrap({body}, {uw!r})"
        return body

    # -- layout for the Kaitai normaliser ----------------------------------------------------
    def layout(self, t: TypeInfo) -> dict:
        info: dict = {"fields": []}
        if t.d.get("-plain"):
            info["plain"] = t.d["-plain"]
        uw = self.unwrap_field(t)
        if uw:
            info["unwrap"] = uw
        entries = [(f["id"], f, False) for f in t.seq()]
        entries += [(n, d, True) for n, d in t.instances().items() if self.instance_code(t, n, d)]
        for name, f, is_inst in entries:
            fi: dict = {"name": name}
            if "if" in f or is_inst:
                fi["optional"] = True
            types: dict[str, str] = {}
            ty = f.get("type")
            tys = list(ty["cases"].values()) if isinstance(ty, dict) else [ty]
            for one in tys:
                if not isinstance(one, str) or prim(one, t.endian) or one in ("str", "strz"):
                    continue
                u = self.m.resolve(t.sid, parse_ref(one)[0])
                assert u is not None
                types[u.cname] = u.name if u.sid == t.sid else f"{u.sid}.{u.sid}"
                if u.sid != t.sid and self.m.schemas[u.sid].get("meta", {}).get("-plain-embedded"):
                    fi["embedded"] = self.m.schemas[u.sid]["meta"]["-plain-embedded"]
            if types:
                fi["types"] = types
            info["fields"].append(fi)
        return info

    def ordered_types(self) -> list[TypeInfo]:
        out: list[TypeInfo] = []
        seen: set[str] = set()

        def refs(t: TypeInfo) -> list[str]:
            found = []
            for f in list(t.seq()) + list(t.instances().values()):
                ty = f.get("type")
                for one in (list(ty["cases"].values()) if isinstance(ty, dict) else [ty]):
                    if isinstance(one, str) and not prim(one, t.endian) and one not in ("str", "strz"):
                        found.append(parse_ref(one)[0])
            return found

        def visit(t: TypeInfo) -> None:
            if t.name in seen:
                return
            seen.add(t.name)
            for r in refs(t):
                u = self.m.resolve(self.sid, r)
                if u is not None and u.sid == self.sid:
                    visit(u)
            out.append(t)

        visit(self.m.types[(self.sid, self.sid)])
        for (s, _n), ti in self.m.types.items():
            if s == self.sid:
                visit(ti)
        return out

    def render(self, env: jinja2.Environment, schema_rel: str) -> str:
        types = self.ordered_types()
        blocks = []
        for t in types:
            blocks.append({"name": t.cname, "doc": str(t.d.get("doc", "")).strip(), "code": self.type_code(t),
                           "kaitai_id": t.name})
        layout = {t.name: self.layout(t) for t in types}
        imports = sorted(set(self.schema.get("meta", {}).get("imports", []) or []))
        dtypes = []
        for tname, fname, static, dt, alias in self.dtype_exports:
            base = (fname if tname == self.sid else f"{tname}_{fname}").upper()
            doc = "numpy dtype of each element"
            if static:
                dtypes.append({"name": f"{base}_DTYPE", "code": f"np.dtype({dt})", "alias": alias, "doc": doc})
            else:
                dtypes.append({"name": f"{base}_DTYPES", "dynamic": True, "code": dt, "alias": alias, "doc": doc})
        for t in types:
            export = t.d.get("-dtypes")
            if export:
                code = self.type_dtype(t, {p: f"this[{p!r}]" for p in t.params}, param_ifs=True)
                if code is None:
                    raise ValueError(f"{t.sid}.{t.name}: -dtypes on a type without a fixed-size form")
                dtypes.append({"name": export, "dynamic": bool(t.params), "alias": None,
                               "code": code if t.params else f"np.dtype({code})",
                               "doc": f"numpy record dtype of one {t.name} (``if`` fields left out when false)"})
        for t in types:
            for f in t.seq():
                alias = f.get("-dtype-name")
                if alias and "repeat" not in f:
                    p = prim(f.get("type"), t.endian)
                    if p is None:
                        raise ValueError(f"{t.sid}.{t.name}.{f['id']}: -dtype-name on a field that is not a number")
                    dtypes.append({"name": alias, "dynamic": False, "alias": None, "code": f"np.dtype({p[1]!r})",
                                   "doc": f"numpy dtype of the ``{t.name}.{f['id']}`` field"})
                if f.get("-at-name"):
                    dtypes.append({"name": f["-at-name"], "dynamic": False, "alias": None,
                                   "code": str(self.field_at(t, f)),
                                   "doc": f"byte offset of the ``{t.name}.{f['id']}`` field in its ``{t.name}``"})
        for t in types:
            if t.d.get("-struct-formats"):
                names, src = self.struct_formats(t)
                self.fast_api += names
                self.fast_src += src
            if t.d.get("-export-values"):
                names, src = self.value_functions(t)
                if self.schema.get("meta", {}).get("-runtime-layout"):
                    self.m.runtime_layout.setdefault(self.sid, []).extend(src)
                    self.m.runtime_names.setdefault(self.sid, []).extend(names)
                else:
                    self.fast_api += names
                    self.fast_src += src
        for t in types:
            if t.d.get("-fast-head") is not None:
                names, src = self.fast.type_functions(t)
                self.fast_api += names
                self.fast_src += src
        meta = self.schema.get("meta", {})
        if meta.get("-runtime-layout"):  # dtypes and value functions live in constants.py (re-exported here)
            for d in dtypes:
                code = d["code"].replace("_rt.record_dtype(", "(")
                if d.get("dynamic") or "_rt." in code:
                    raise ValueError(f"{self.sid}: -runtime-layout needs plain dtypes ({d['name']})")
                self.m.runtime_layout.setdefault(self.sid, []).extend(
                    [f"#: {d['doc']}.", f"{d['name']} = {code}", ""]
                    + ([f"{d['alias']} = {d['name']}", ""] if d.get("alias") else []))
                self.m.runtime_names.setdefault(self.sid, []).extend([d["name"]] + ([d["alias"]] if d.get("alias") else []))
            dtypes = []
        fast = "\n".join(f"{k} = _struct.Struct({v!r})" for k, v in sorted(self.fast.structs.items()))
        fast += "\n\n\n" + "\n".join(self.fast_src) if self.fast_src else ""
        return env.get_template("construct_module.py.j2").render(fast=fast, embedded=sorted(self.embedded.items()),
            sid=self.sid, title=meta.get("title", self.sid), doc=str(self.schema.get("doc", "")).strip(),
            schema_rel=schema_rel, imports=imports, blocks=blocks, layout=layout, dtypes=dtypes,
            root=camel(self.sid), params=self.m.types[(self.sid, self.sid)].params,
            types=[t.cname for t in types], fast_api=self.fast_api,
            constants=self.visible_constants() + self.m.runtime_names.get(self.sid, []),
        )

    # -- struct formats and value functions (semantic code that packs / reads one record at a time) --
    def struct_format(self, t: TypeInfo, ty: object, depth: int = 0, order: str | None = None) -> str:
        """``struct`` format (no byte-order prefix) of a fixed-size ``ty``: numbers and sized byte fields,
        nested types inlined; raises ``ValueError`` when ``ty`` is not of one fixed size or its numbers are
        not all of the byte ``order`` (``<`` / ``>``; default: the schema's)."""
        order = order or ("<" if t.endian == "le" else ">")
        p = prim(ty, t.endian)
        if p:
            if (p[2] > 1 and p[1][0] != order):
                raise ValueError(f"{t.sid}.{t.name}: -struct-formats needs one byte order")
            return fastgen._FMT[p[0]].lstrip("<>")
        if not isinstance(ty, str) or depth > 6:
            raise ValueError(f"{t.sid}.{t.name}: {ty!r} has no struct format")
        u = self.m.resolve(t.sid, parse_ref(ty)[0])
        if u is None or u.params or u.d.get("-construct"):
            raise ValueError(f"{t.sid}.{t.name}: {ty!r} has no struct format")
        return self.seq_format(u, u.seq(), depth + 1, order)

    def seq_format(self, t: TypeInfo, seq: list[dict], depth: int = 0, order: str | None = None) -> str:
        out = ""
        for f in seq:
            if any(k in f for k in ("if", "repeat", "contents", "size-eos")):
                raise ValueError(f"{t.sid}.{t.name}.{f['id']}: -struct-formats needs fixed fields")
            size = f.get("size")
            if size is not None and not isinstance(size, int):
                raise ValueError(f"{t.sid}.{t.name}.{f['id']}: -struct-formats needs literal sizes")
            ty = f.get("type")
            if ty is None:
                out += f"{size}s"
                continue
            fmt = self.struct_format(t, ty, depth, order)
            if size is not None:
                n = struct_calcsize(t, fmt)
                if n > size:
                    raise ValueError(f"{t.sid}.{t.name}.{f['id']}: {fmt} is wider than its size {size}")
                fmt += f"{size - n}x" if size > n else ""
            out += fmt
        return out

    def struct_formats(self, t: TypeInfo) -> tuple[list[str], list[str]]:
        """``-struct-formats: NAME``: ``NAME``, the ``struct.Struct`` of the type (one per case of the
        parameter its only field switches on, keyed by the case value)."""
        name = t.d["-struct-formats"]
        order = "<" if t.endian == "le" else ">"
        if not t.params:
            # the byte order of the type's own numbers when they name one (``s8be`` in a little-endian
            # schema), else the schema's
            orders = {p[1][0] for f in t.seq() if (p := prim(f.get("type"), t.endian)) and p[2] > 1}
            order = orders.pop() if len(orders) == 1 else order
            fmt = order + self.seq_format(t, t.seq(), order=order)
            return [name], [f"#: ``struct.Struct`` of one ``{t.name}`` (generated from its fields).",
                            f"{name} = _struct.Struct({fmt!r})", "", ""]
        seq = t.seq()
        ty = seq[0].get("type") if len(seq) == 1 else None
        if len(t.params) != 1 or not isinstance(ty, dict) or ty.get("switch-on") != t.params[0]:
            raise ValueError(f"{t.sid}.{t.name}: -struct-formats needs one field switching on the one parameter")
        items = []
        for k, v in ty["cases"].items():
            try:
                fmt = order + self.seq_format(t, [dict(seq[0], type=v)])
            except ValueError:
                if not t.d.get("-struct-formats-fixed-only"):
                    raise
                continue  # a variable-size case (e.g. a string key) has no struct: left out, by the schema's word
            items.append(f"    {self._case_key(k)}: _struct.Struct({fmt!r}),")
        return [name], [f"#: ``struct.Struct`` of one ``{t.name}`` per ``{t.params[0]}`` (generated from its "
                        f"{'fixed-size ' if t.d.get('-struct-formats-fixed-only') else ''}cases).",
                        f"{name} = {{", *items, "}", "", ""]

    def value_functions(self, t: TypeInfo) -> tuple[list[str], list[str]]:
        """``-export-values: true``: each value instance of the type as a function of the fields and
        parameters it reads, ``<type>_<instance>(...)``."""
        names: list[str] = []
        src: list[str] = []
        inst = t.instances()
        for iname, d in inst.items():
            if "value" not in d:
                continue
            used: list[str] = []

            def resolve(n: str, used: list[str] = used, where: str = f"{t.sid}.{t.name}.{iname}") -> str:
                if n in inst and "value" in inst[n]:
                    return "(" + kexpr.emit(kexpr.parse(inst[n]["value"]), resolve) + ")"
                if n.startswith("_"):
                    raise ValueError(f"{where}: -export-values cannot read {n}")
                if n not in used:
                    used.append(n)
                return n

            body = kexpr.emit(kexpr.parse(d["value"]), resolve)
            fn = f"{t.name}_{iname}"
            doc = str(d.get("doc", "")).strip().splitlines()
            names.append(fn)
            src += [f"def {fn}({', '.join(used)}):",
                    f'    """{doc[0] if doc else iname} (the ``{iname}`` instance of ``{t.name}``)."""',
                    f"    return {body}", "", ""]
        return names, src

    def visible_constants(self) -> list[str]:
        """Constants of this schema and of every schema it imports (inlined fast paths use theirs)."""
        names: list[str] = []
        todo, seen = [self.sid], set()
        while todo:
            sid = todo.pop(0)
            if sid in seen:
                continue
            seen.add(sid)
            names += self.m.constants[sid]
            todo += self.m.schemas[sid].get("meta", {}).get("imports", []) or []
        return names


# ---------------------------------------------------------------------------------------------
# drivers


#: libyaml's safe loader when PyYAML has it: the same objects as ``yaml.safe_load``, ~10x faster (0.01 s for every
#: schema instead of 0.12; tests/test_schema_edit.py regenerates ~90 times)
YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_schemas(schema_dir: Path) -> dict[str, dict]:
    out = {}
    for p in sorted(schema_dir.glob("*.ksy")):
        d = yaml.load(p.read_text(), Loader=YAML_LOADER)
        sid = d["meta"]["id"]
        if sid != p.stem:
            raise SystemExit(f"{p}: meta.id {sid!r} does not match the file name")
        out[sid] = d
    return out


def gen_construct(schema_dir: Path, out_dir: Path) -> list[Path]:
    model = Model(load_schemas(schema_dir))
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), keep_trailing_newline=True,
                             trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    model.cg = {sid: ConstructGen(model, sid) for sid in model.schemas}  # type: ignore[attr-defined]
    for sid in model.schemas:
        text = model.cg[sid].render(env, f"schemas/{sid}.ksy")  # type: ignore[attr-defined]
        # the schema's digest makes every edit (even to a doc string) visible to --check
        digest = hashlib.sha256((schema_dir / f"{sid}.ksy").read_bytes()).hexdigest()
        text = text.replace("\n", f"\n# schema sha256: {digest}\n", 1)
        p = out_dir / f"{sid}.py"
        p.write_text(text)
        written.append(p)
    p = out_dir / "constants.py"
    p.write_text(env.get_template("constants.py.j2").render(constants=model.constants, layout=model.runtime_layout,
                                                            layout_names=model.runtime_names))
    written.append(p)
    p = out_dir / "__init__.py"
    p.write_text(env.get_template("construct_init.py.j2").render(schemas=list(model.schemas), camel=camel))
    written.append(p)
    return written


def have_node() -> str | None:
    node = shutil.which("node")
    if node is None:
        return "node is not installed (needed for the Kaitai compiler): install Node.js >= 18"
    if not (TOOLS / "node_modules" / "kaitai-struct-compiler").is_dir():
        return "the Kaitai compiler is not installed: run `npm ci --prefix tools`"
    return None


class _Compiler:
    """One ``node tools/ksc.js --serve`` for the rest of this process: loading the Kaitai compiler costs ~0.4
    CPU-s, compiling every schema for one target ~0.2 more once it is warm, and a generator run compiles four
    targets (tests/test_schema_edit.py regenerates once per edit, 45 times a worker).  Every job reads its
    schemas from disk afresh; ksc.js keeps nothing between jobs."""

    _shared: _Compiler | None = None

    def __init__(self) -> None:
        self.proc = subprocess.Popen(["node", str(TOOLS / "ksc.js"), "--serve"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        self.pid = os.getpid()

    @classmethod
    def shared(cls) -> _Compiler:
        """This process's compiler (a forked child starts its own: the pipes are its parent's)."""
        current = cls._shared
        if current is None or current.pid != os.getpid() or current.proc.poll() is not None:
            current = cls._shared = cls()
            atexit.register(current.close)
        return current

    def compile(self, target: str, files: list[str], out_dir: Path, debug: bool) -> None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        job = {"target": target, "out": str(out_dir), "debug": debug, "files": files}
        self.proc.stdin.write(json.dumps(job) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"kaitai-struct-compiler ({target}) failed: ksc.js exited "
                             f"(status {self.proc.wait()})")
        answer = json.loads(line)
        if not answer["ok"]:
            raise SystemExit(f"kaitai-struct-compiler ({target}) failed:\n{answer['error']}")

    def close(self) -> None:
        if self.proc.poll() is None and self.pid == os.getpid():
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            self.proc.wait()


def run_ksc(target: str, schema_dir: Path, out_dir: Path, *, debug: bool = False) -> None:
    """Compile every schema of ``schema_dir`` for ``target`` into ``out_dir`` (the process's one compiler)."""
    _Compiler.shared().compile(target, [str(p) for p in sorted(schema_dir.glob("*.ksy"))], out_dir, debug)


def gen_kaitai(schema_dir: Path, out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        run_ksc("python", schema_dir, Path(tmp))
        ids = {p.stem for p in schema_dir.glob("*.ksy")}
        for p in sorted(Path(tmp).glob("*.py")):
            text = p.read_text()
            # the compiler emits `import other_schema`; make cross-schema imports package-relative
            text = re.sub(r"^import (\w+)$", lambda m: f"from . import {m.group(1)}" if m.group(1) in ids
                          else m.group(0), text, flags=re.M)
            (out_dir / p.name).write_text(text)
    (out_dir / "__init__.py").write_text(
        '"""Kaitai Struct parsers generated from schemas/*.ksy by tools/generate.py (kaitai-struct-compiler '
        '0.11.0).\n\nDo not edit; regenerate with `python tools/generate.py`."""\n')


def gen_diagrams(schema_dir: Path, out_dir: Path, svg: bool) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        run_ksc("graphviz", schema_dir, Path(tmp))
        for p in sorted(Path(tmp).glob("*.dot")):
            if p.stem not in {s.stem for s in schema_dir.glob("*.ksy")}:
                continue
            (out_dir / p.name).write_text(p.read_text())
            if svg:
                r = subprocess.run(["dot", "-Tsvg", str(p)], capture_output=True)
                if r.returncode != 0:
                    raise SystemExit(f"dot failed on {p.name}: {r.stderr.decode()}")
                (out_dir / f"{p.stem}.svg").write_bytes(r.stdout)


#: ``generated/__init__.py``: the folder is the package ``paimon_codec.generated`` once installed (pyproject's
#: ``package-dir`` maps it), so the codecs import as ``paimon_codec.generated.construct.<id>``.
GENERATED_INIT = (
    '"""Code generated from ``schemas/*.ksy`` by ``tools/generate.py`` - do not edit; installed as\n'
    '``paimon_codec.generated`` (``construct``: parse + build codecs; ``kaitai``: Kaitai Struct parsers)."""\n'
)


def generate(root: Path, schema_dir: Path, *, need_node: bool = True) -> list[str]:
    """Generate into ``root`` (generated/..., docs/formats/...); returns warnings."""
    warnings = []
    (root / "generated").mkdir(parents=True, exist_ok=True)
    (root / "generated" / "__init__.py").write_text(GENERATED_INIT)
    gen_construct(schema_dir, root / "generated" / "construct")
    problem = have_node()
    if problem:
        if need_node:
            raise SystemExit(problem)
        warnings.append(problem)
        return warnings
    gen_kaitai(schema_dir, root / "generated" / "kaitai")
    langgen.gen_languages(schema_dir, root, run_ksc)
    svg = shutil.which("dot") is not None
    if not svg:
        warnings.append("graphviz `dot` is not installed (apt-get install graphviz): SVG diagrams not rendered")
    gen_diagrams(schema_dir, root / "docs" / "formats", svg)
    return warnings


def _tree(base: Path, sub: str, pattern: str) -> dict[str, Path]:
    d = base / sub
    if not d.is_dir():
        return {}
    return {f"{sub}/{p.name}": p for p in d.glob(pattern) if p.is_file()}


def check(schema_dir: Path, repo: Path) -> int:
    node_problem = have_node()
    dot_ok = shutil.which("dot") is not None
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        generate(t, schema_dir, need_node=False)
        groups = [("generated", "__init__.py"), ("generated/construct", "*.py")]
        if node_problem is None:
            groups += [("generated/kaitai", "*.py"), ("docs/formats", "*.dot"), *langgen.LANGUAGES.values()]
            if dot_ok:
                groups.append(("docs/formats", "*.svg"))
        stale = []
        for sub, pat in groups:
            new, old = _tree(t, sub, pat), _tree(repo, sub, pat)
            for name in sorted(set(new) | set(old)):
                if name not in old:
                    stale.append(f"missing: {name}")
                elif name not in new:
                    stale.append(f"not generated by any schema: {name}")
                elif not filecmp.cmp(new[name], old[name], shallow=False):
                    stale.append(f"stale: {name}")
    if stale:
        print("generated files are out of date (run `python tools/generate.py`):")
        for s in stale:
            print("  " + s)
        return 1
    if node_problem:
        print(f"cannot check generated/kaitai, generated/javascript, generated/java and docs/formats/*.dot: "
              f"{node_problem}")
        return 3
    if not dot_ok:
        print("note: graphviz `dot` is not installed; SVG diagrams were not compared")
    print("generated files are up to date")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="fail if anything committed is stale")
    ap.add_argument("--schemas", type=Path, default=ROOT / "schemas", help="schema directory")
    ap.add_argument("--repo", type=Path, default=ROOT, help="tree to write into / compare with")
    args = ap.parse_args(argv)
    if args.check:
        return check(args.schemas, args.repo)
    for w in generate(args.repo, args.schemas):
        print("warning: " + w)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
