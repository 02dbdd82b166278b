"""Straight-line Python for hot repeated records ("fast path" of the Construct backend).

Construct interprets its object tree for every element, which costs microseconds per record.
For arrays whose element type is *flat* (primitives, byte fields sized by a sibling field or the
rest of a sized region, embedded Roaring32 bitmaps, nested flat types, switches, counted or
until-EOF repeats) this module emits one Python function that parses the whole array and one that
builds it, with every nested type inlined.  The functions produce / accept exactly what the
Construct tree does (Containers, numpy arrays for fixed-size repeats) and derive counts, sizes and
``-build`` values the same way; the Construct tree stays the reference and the fallback.

The parse functions get the input as a read-only ``memoryview`` (``buf``): byte fields and embedded
bitmaps are returned as slices of it and fixed-size repeats as ``np.frombuffer`` views, so bulk data
is never copied (the runtime's ``FastArray`` hands over a :class:`ViewStream`'s buffer).
"""

from __future__ import annotations

import re
import struct as _struct

import kexpr

_FMT = {"Int8ub": "B", "Int8sb": "b", "Int16ub": ">H", "Int16sb": ">h", "Int16ul": "<H", "Int16sl": "<h",
        "Int32ub": ">I", "Int32sb": ">i", "Int32ul": "<I", "Int32sl": "<i", "Int64ub": ">Q", "Int64sb": ">q",
        "Int64ul": "<Q", "Int64sl": "<q", "Float32b": ">f", "Float32l": "<f", "Float64b": ">d", "Float64l": "<d"}


_LITERAL = re.compile(r"'[^'\\]*'|-?\d+")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class NotFlat(Exception):
    pass


class FastGen:
    def __init__(self, cg) -> None:  # cg: generate.ConstructGen
        self.cg = cg
        self.m = cg.m
        self.n = 0
        self.structs: dict[str, str] = {}
        self.raw_str = False  # columnar parsers: str fields as their encoded bytes (no decode)
        self.param_switches: dict[str, set[str]] = {}  # parameter -> case keys of switches on it
        self.local_objs: set[str] = set()  # objects parsed into local variables (see parse_type)
        self.top_params: set[str] = set()  # parameters of the function being generated
        self.tail = False  # whole-type builders: root-positioned instances go to a tail after the seq
        self.whole_seq = False  # ... building the type's whole sequence (`-fast-build: seq-size` applies)

    def cgf(self, t):
        """The ConstructGen of the schema that defines ``t`` (derivations are per schema)."""
        return self.m.cg[t.sid] if t.sid in getattr(self.m, "cg", {}) else self.cg

    def var(self, base: str) -> str:
        self.n += 1
        return f"{base}{self.n}"

    def st(self, cname: str) -> str:
        fmt = _FMT[cname]
        name = "_S_" + fmt.replace(">", "be_").replace("<", "le_")
        self.structs[name] = fmt
        return name

    def size_of(self, cname: str) -> int:
        return _struct.calcsize(_FMT[cname])

    # -- eligibility ---------------------------------------------------------------------------------
    def check(self, t, depth: int = 0, parse_only: bool = False, whole: bool = False) -> None:
        """Raise :class:`NotFlat` unless ``t`` can be parsed (and built, unless ``parse_only``) by
        straight-line code.  ``whole``: a whole-type function, whose positioned instances on the
        root stream are skipped on parse and laid out after the sequence on build."""
        from generate import parse_ref, prim  # noqa: PLC0415

        if t.d.get("-construct") and t.d.get("-fast-runtime"):
            return
        if depth > 6 or t.d.get("-construct"):
            raise NotFlat(t.name)
        body_pos = self.body_fields(t) if whole else {}
        for n, d in t.instances().items():
            if "value" not in d and d.get("-construct") != "skip" and n not in body_pos.values():
                raise NotFlat(f"{t.name}.{n}")
        names = {f["id"] for f in t.seq()}
        # ``x.value`` of a sibling ``x`` of an embedded runtime type (a varint length) counts as a sibling
        names |= {f"{f['id']}.value" for f in t.seq() if isinstance(f.get("type"), str) and self.runtime_embedded(t, f["type"])}
        for f in t.seq():
            for k in ("size", "repeat-expr"):
                if k in f and (kexpr.bare_name(f[k]) not in names and f[k] not in names):
                    raise NotFlat(f"{t.name}.{f['id']}.{k}")
            if f.get("repeat") not in (None, "expr", "eos") or "pad-right" in f or "terminator" in f:
                raise NotFlat(f["id"])
            if "-build" in f and "['_" in f["-build"].replace("['__", "") and not parse_only and \
                    f["id"] not in body_pos:
                raise NotFlat(f["id"])
            ty = f.get("type")
            tys = list(ty["cases"].values()) if isinstance(ty, dict) else [ty]
            for one in tys:
                if one is None or one == "str" or prim(one, t.endian):
                    continue
                u = self.m.resolve(t.sid, parse_ref(one)[0])
                if u is None:
                    raise NotFlat(one)
                if u.sid != t.sid and self.m.schemas[u.sid].get("meta", {}).get("-construct-embedded"):
                    if u.sid != "roaring32" and not self.m.schemas[u.sid]["meta"].get("-fast-runtime"):
                        raise NotFlat(one)
                    continue
                self.check(u, depth + 1, parse_only, whole)

    def runtime_embedded(self, t, ty: str) -> str | None:
        """The ``-fast-runtime`` name of an embedded schema ``ty`` (e.g. ``varint``), else ``None``."""
        from generate import parse_ref  # noqa: PLC0415

        u = self.m.resolve(t.sid, parse_ref(ty)[0])
        if u is None or u.sid == t.sid:
            return None
        return self.m.schemas[u.sid].get("meta", {}).get("-fast-runtime")

    @staticmethod
    def body_fields(t) -> dict[str, str]:
        """``{pos field: instance}`` for instances positioned on the root stream by a sibling field
        (``io: _root._io``, ``pos: f``, ``size: g``): their bytes follow the root's sequence."""
        out = {}
        for n, d in t.instances().items():
            if d.get("io") == "_root._io" and kexpr.bare_name(d.get("pos")) and "type" not in d and \
                    kexpr.bare_name(d.get("size")):
                out[d["pos"]] = n
        return out

    # -- parse ---------------------------------------------------------------------------------------
    def resolver(self, t, obj: str, parent: str | None, env: dict[str, str]):
        inst = t.instances()
        local = obj in self.local_objs

        def resolve(name: str) -> str:
            if name in env:
                return env[name]
            if name == "_parent":
                if parent is None:
                    raise NotFlat("_parent")
                return parent
            if name.startswith("_"):
                raise NotFlat(name)
            if name in inst and "value" in inst[name]:
                return "(" + kexpr.emit(kexpr.parse(inst[name]["value"]), resolve) + ")"
            return f"{obj}_{name}" if local else f"{obj}[{name!r}]"

        return resolve

    def expr(self, t, src, obj, parent, env) -> str:
        return kexpr.emit(kexpr.parse(src), self.resolver(t, obj, parent, env))

    @staticmethod
    def prefix(t, upto: str | list | None) -> list[dict]:
        """The sequence of ``t`` through field ``upto`` (all of it when None; ``[first, last]``: the
        fields from ``first`` through ``last``, for a run of fields read on its own)."""
        seq = t.seq()
        if upto is None:
            return seq
        first, last = (upto[0], upto[-1]) if isinstance(upto, list) else (None, upto)
        ids = [f["id"] for f in seq]
        for name in (first, last):
            if name is not None and name not in ids:
                raise ValueError(f"{t.sid}.{t.name}: -fast-head names no field {name!r}")
        return seq[(ids.index(first) if first else 0):ids.index(last) + 1]

    def fixed_size(self, t, seq: list[dict]) -> int | None:
        """Byte size of ``seq`` when every field is a plain fixed-size number, else None."""
        from generate import prim  # noqa: PLC0415

        total = 0
        for f in seq:
            if "contents" in f and len(set(f) - {"-contents-int"}) <= 3:  # id, contents[, doc]
                c = f["contents"]
                total += len(c) if isinstance(c, list) else len(str(c).encode())
                continue
            p = prim(f.get("type"), t.endian)
            if p is None or any(k in f for k in ("if", "repeat", "size", "contents")):
                return None
            total += p[2]
        return total

    def parse_type(self, t, obj: str, parent: str | None, env: dict[str, str], end: str, ind: str,
                   as_locals: bool = False, upto: str | None = None) -> list[str]:
        """Lines parsing one ``t`` at ``p`` into ``obj`` (a Container, or with ``as_locals`` one
        local variable ``<obj>_<field>`` per field: no object per record)."""
        L = []
        if as_locals:
            self.local_objs.add(obj)
        else:
            L.append(f"{ind}{obj} = _C()")
        for f in self.prefix(t, upto):
            name = f["id"]
            body: list[str] = []
            i2 = ind + ("    " if "if" in f else "")
            tgt = f"{obj}_{name}" if as_locals else f"{obj}[{name!r}]"
            if "valid" in f:
                body.append(f"{i2}_v0 = p")
            if f.get("repeat"):
                body += self.parse_repeat(t, f, obj, parent, env, end, i2, tgt)
            else:
                body += self.parse_one(t, f, f.get("type"), obj, parent, env, end, i2, tgt)
            if "valid" in f:
                v = f["valid"]
                cg = self.cgf(t)
                if isinstance(v, dict) and "any-of" in v:
                    cond = f"{tgt} not in ({', '.join(cg._case_key(x) for x in v['any-of'])},)"
                    exp = " or ".join(str(cg.constant_value(x)) for x in v["any-of"])
                elif isinstance(v, dict) and "expr" in v:
                    res = self.resolver(t, obj, parent, env)
                    e = kexpr.emit(kexpr.parse(v["expr"]), lambda n, tgt=tgt, res=res: tgt if n == "_" else res(n))
                    cond, exp = f"not ({e})", cg.valid_text(v["expr"])
                else:
                    val = v["eq"] if isinstance(v, dict) else v
                    cond, exp = f"{tgt} != {cg._case_key(val)}", str(cg.constant_value(val))
                kind = "version" if "version" in name else "corrupt"
                body.append(f"{i2}if {cond}: _bad({name!r}, {tgt}, {exp!r}, {kind!r}, _v0)")
            if "if" in f:
                L.append(f"{ind}if {self.expr(t, f['if'], obj, parent, env)}:")
                L += body
                L.append(f"{ind}else:")
                L.append(f"{ind}    {tgt} = None")
            else:
                L += body
        return L

    def bind(self, t, u, args, obj, parent, env, ind, L) -> dict[str, str]:
        """Parameters of nested type ``u``: literals and plain names are substituted (so a switch on
        a parameter known at generation time is resolved then), anything else gets a variable."""
        env2: dict[str, str] = {}
        for pn, a in zip(u.params, args, strict=True):
            code = self.expr(t, a, obj, parent, env)
            if _LITERAL.fullmatch(code) or _IDENT.fullmatch(code):
                env2[pn] = code
            else:
                v = self.var("prm")
                L.append(f"{ind}{v} = {code}")
                env2[pn] = v
        return env2

    def parse_one(self, t, f, ty, obj, parent, env, end, ind, tgt) -> list[str]:
        from generate import parse_ref, prim  # noqa: PLC0415

        name = f["id"]
        size = f.get("size")
        eos = f.get("size-eos")
        L: list[str] = []
        if "contents" in f:
            c = f["contents"]
            data = bytes(c) if isinstance(c, list) else str(c).encode()
            n = len(data)
            L.append(f"{ind}if p + {n} > {end}: _short({name!r}, {n}, {end} - p, p)")
            L.append(f"{ind}{tgt} = bytes(buf[p:p + {n}])")
            L.append(f"{ind}if {tgt} != {data!r}: _bad({name!r}, {tgt}.hex(), {data.hex()!r}, 'corrupt', p)")
            L.append(f"{ind}p += {n}")
            return L
        p = prim(ty, t.endian)
        if p:
            s, n = self.st(p[0]), p[2]
            L.append(f"{ind}if p + {n} > {end}: _short({name!r}, {n}, {end} - p, p)")
            L.append(f"{ind}{tgt} = {s}.unpack_from(buf, p)[0]")
            L.append(f"{ind}p += {n}")
            return L
        if ty is None or ty == "str" or size is not None or eos:
            n = self.var("n")
            if eos:
                L.append(f"{ind}{n} = {end} - p")
            else:
                L.append(f"{ind}{n} = {self.expr(t, size, obj, parent, env)}")
                L.append(f"{ind}if {n} < 0 or p + {n} > {end}: _short({name!r}, {n}, {end} - p, p)")
            if ty is None or (ty == "str" and self.raw_str):
                L.append(f"{ind}{tgt} = buf[p:p + {n}]")
                L.append(f"{ind}p += {n}")
                return L
            if ty == "str":
                L.append(f"{ind}{tgt} = _utf(buf, p, {n}, {f.get('encoding', 'UTF-8')!r}, {name!r})")
                L.append(f"{ind}p += {n}")
                return L
            e2 = self.var("end")
            L.append(f"{ind}{e2} = p + {n}")
            L += self.parse_one(t, {"id": name}, ty, obj, parent, env, e2, ind, tgt)
            L.append(f"{ind}p = {e2}")
            return L
        if isinstance(ty, dict):
            on = self.expr(t, ty["switch-on"], obj, parent, env)
            keys = {self.cg._case_key(k): v for k, v in ty["cases"].items()}
            if _LITERAL.fullmatch(on):  # known at generation time: only that case
                if on in keys:
                    return self.parse_one(t, {"id": name}, keys[on], obj, parent, env, end, ind, tgt)
                return [f"{ind}{tgt} = None"]
            if on in self.top_params:
                self.param_switches.setdefault(on, set()).update(keys)
            first = True
            for k, v in keys.items():
                L.append(f"{ind}{'if' if first else 'elif'} {on} == {k}:")
                L += self.parse_one(t, {"id": name}, v, obj, parent, env, end, ind + "    ", tgt)
                first = False
            L.append(f"{ind}else:")
            L.append(f"{ind}    {tgt} = None")
            return L
        uname, args = parse_ref(ty)
        u = self.m.resolve(t.sid, uname)
        if u.d.get("-fast-runtime"):
            L.append(f"{ind}{tgt}, p = _rt.fast_parse_{u.d['-fast-runtime']}(buf, p, {end}, {name!r})")
            return L
        rt = self.m.schemas[u.sid].get("meta", {}).get("-fast-runtime") if u.sid != t.sid else None
        if rt:  # an embedded schema with a runtime fast path (varint): its embedded object's, made from its schema
            L.append(f"{ind}{tgt}, p = {self.cg.embedded_ref(u.sid)}.fast_parse(buf, p, {end}, {name!r})")
            return L
        if u.sid != t.sid and self.m.schemas[u.sid].get("meta", {}).get("-construct-embedded"):
            n = self.var("n")
            L.append(f"{ind}{n} = _rt.roaring32_size(buf, p, {end})")
            L.append(f"{ind}{tgt} = buf[p:p + {n}]")
            L.append(f"{ind}p += {n}")
            return L
        env2 = self.bind(t, u, args, obj, parent, env, ind, L)
        o2 = self.var("o")
        uw = self.cgf(u).unwrap_field(u)
        if uw:  # one visible field: its value, no object
            L += self.parse_type(u, o2, None, env2, end, ind, as_locals=True)
            L.append(f"{ind}{tgt} = {o2}_{uw}")
        else:
            L += self.parse_type(u, o2, None if obj in self.local_objs else obj, env2, end, ind)
            L.append(f"{ind}{tgt} = {o2}")
        return L

    def parse_repeat(self, t, f, obj, parent, env, end, ind, tgt) -> list[str]:
        ty = f.get("type")
        L: list[str] = []
        dt = self.cgf(t).dtype_of(t, ty) if ty is not None and "size" not in f else None
        if f["repeat"] == "expr":
            cnt = self.var("cnt")
            L.append(f"{ind}{cnt} = {self.expr(t, f['repeat-expr'], obj, parent, env)}")
            ms = max(1, self.cgf(t).min_size(t, ty))
            L.append(f"{ind}if {cnt} < 0 or {cnt} * {ms} > {end} - p: _count({f['id']!r}, {cnt}, {ms}, {end} - p, p)")
        else:
            cnt = None
        if dt is not None and "this" not in dt:  # one dtype for every parse
            dv = self.var("dt")
            L.append(f"{ind}{dv} = _np.dtype({dt})")
            if cnt is None:
                cnt = self.var("cnt")
                L.append(f"{ind}if ({end} - p) % {dv}.itemsize: _short({f['id']!r}, {dv}.itemsize, {end} - p, p)")
                L.append(f"{ind}{cnt} = ({end} - p) // {dv}.itemsize")
            L.append(f"{ind}if {cnt} * {dv}.itemsize > {end} - p: _short({f['id']!r}, {cnt} * {dv}.itemsize, {end} - p, p)")
            L.append(f"{ind}{tgt} = _np.frombuffer(buf, {dv}, {cnt}, p)")
            L.append(f"{ind}p += {cnt} * {dv}.itemsize")
            return L
        if dt is not None:
            raise NotFlat("dynamic dtype inside a fast record")
        lst, ev = self.var("lst"), self.var("el")
        L.append(f"{ind}{lst} = _L()")
        if cnt is not None:
            L.append(f"{ind}for _i in range({cnt}):")
        else:
            L.append(f"{ind}while p < {end}:")
            L.append(f"{ind}    _p0 = p")
        L += self.parse_one(t, {"id": f["id"]}, ty, obj, parent, env, end, ind + "    ", ev)
        L.append(f"{ind}    {lst}.append({ev})")
        if cnt is None:
            L.append(f"{ind}    if p <= _p0: _bad({f['id']!r}, p, 'progress', 'corrupt', p)")
        L.append(f"{ind}{tgt} = {lst}")
        return L

    # -- build ---------------------------------------------------------------------------------------
    def build_type(self, t, obj: str, env: dict[str, str], out: str, ind: str, upto: str | None = None) -> list[str]:
        L: list[str] = []
        uw = self.cgf(t).unwrap_field(t)
        if uw:
            o = self.var("w")
            L.append(f"{ind}{o} = {{{uw!r}: {obj}}}")
            obj = o
        seq = self.prefix(t, upto)
        body_pos = self.body_fields(t) if self.tail else {}
        # pre-build fields whose size is derived from a sibling (the size field comes first)
        sized_by: dict[str, str] = {}
        counted_by: dict[str, str] = {}
        for g in seq:
            if g.get("repeat") == "expr":
                counted_by[kexpr.bare_name(g["repeat-expr"])] = g["id"]
            elif "size" in g:
                sized_by[kexpr.bare_name(g["size"])] = g["id"]
        pre: dict[str, str] = {}
        for g in seq:
            if g["id"] in sized_by.values():
                tb = self.var("tb")
                L.append(f"{ind}{tb} = bytearray()")
                L += self.build_one(t, g, g.get("type"), f"{obj}[{g['id']!r}]", obj, env, tb, ind, sized=False)
                pre[g["id"]] = tb
        for f in seq:
            name = f["id"]
            i2 = ind + ("    " if "if" in f else "")
            body: list[str] = []
            val = f"{obj}[{name!r}]"
            if "-build" in f:
                # the value of a `-build` expression, inlined: built(this, 'g', ...) -> the bytes
                # just pre-built for field g, this[...] -> the object being built
                code = f["-build"]
                for g, tb in pre.items():
                    code = re.sub(r"_rt\.built\(this, '" + g + r"'(, lambda: \w+)?\)", tb, code)
                if "_rt.built(" in code:
                    raise NotFlat("-build of a field that is not pre-built")
                val = "(" + re.sub(r"\bthis\b", obj, code) + ")"
            elif name in sized_by and (t.key, name) in self.cgf(t).derive:
                g = sized_by[name]
                val = f"len({pre[g]})" if g in pre else f"len({obj}[{g!r}])"
            elif name in counted_by and (t.key, name) in self.cgf(t).derive:
                val = f"len({obj}[{counted_by[name]!r}])"
            if name in pre:
                body.append(f"{i2}{out} += {pre[name]}")
            elif f.get("-fast-build") == "seq-size" and self.tail and self.whole_seq:
                # the size of the whole built sequence (e.g. a head length): patched at the end
                from generate import prim  # noqa: PLC0415

                pr = prim(f.get("type"), t.endian)
                if pr is None or "if" in f:
                    raise NotFlat(f"{name}: -fast-build seq-size needs an unconditional integer")
                body += [f"{i2}_size_at.append(len({out}))", f"{i2}{out} += {bytes(pr[2])!r}"]
                self.size_struct = self.st(pr[0])
            elif name in body_pos:
                # the position of a payload laid out after the root's sequence: patched at the end
                # (its `-build` applies when the payload is absent)
                from generate import prim  # noqa: PLC0415

                pr = prim(f.get("type"), t.endian)
                if pr is None:
                    raise NotFlat(f"{name}: position field of a payload is not an integer")
                iv = self.var("pl")
                body += [f"{i2}{iv} = {obj}.get({body_pos[name]!r})",
                         f"{i2}if {iv} is not None:",
                         f"{i2}    _patch.append(len({out}))",
                         f"{i2}    _tail.append({iv})",
                         f"{i2}    {out} += {bytes(pr[2])!r}",
                         f"{i2}else:",
                         f"{i2}    {out} += {self.st(pr[0])}.pack({val})"]
                self.tail_struct = self.st(pr[0])
            else:
                body += self.build_one(t, f, f.get("type"), val, obj, env, out, i2, repeat=f.get("repeat"))
            if "if" in f:
                L.append(f"{ind}if {self.expr(t, f['if'], obj, None, env)}:")
            L += body
        return L

    def build_one(self, t, f, ty, val, obj, env, out, ind, sized=True, repeat=None) -> list[str]:
        from generate import parse_ref, prim  # noqa: PLC0415

        L: list[str] = []
        if "contents" in f:
            c = f["contents"]
            L.append(f"{ind}{out} += {bytes(c) if isinstance(c, list) else str(c).encode()!r}")
            return L
        if repeat:
            dt = self.cgf(t).dtype_of(t, ty) if ty is not None and "size" not in f else None
            if dt is not None:
                L.append(f"{ind}{out} += _rt.to_array({val}, _np.dtype({dt})).tobytes()")
                return L
            ev = self.var("el")
            L.append(f"{ind}for {ev} in {val}:")
            L += self.build_one(t, f, ty, ev, obj, env, out, ind + "    ")
            return L
        p = prim(ty, t.endian)
        if p:
            L.append(f"{ind}{out} += {self.st(p[0])}.pack({val})")
            return L
        if ty is None:
            L.append(f"{ind}{out} += {val}")
            return L
        if ty == "str":
            # a str field also takes its encoded bytes (what the columnar parsers return, undecoded)
            L.append(f"{ind}{out} += _rt.encoded({val}, {f.get('encoding', 'UTF-8')!r})")
            return L
        if isinstance(ty, dict):
            sw = self.var("sw")
            L.append(f"{ind}{sw} = {self.expr(t, ty['switch-on'], obj, None, env)}")
            first = True
            for k, v in ty["cases"].items():
                L.append(f"{ind}{'if' if first else 'elif'} {sw} == {self.cg._case_key(k)}:")
                L += self.build_one(t, {"id": f["id"]}, v, val, obj, env, out, ind + "    ")
                first = False
            return L
        uname, args = parse_ref(ty)
        u = self.m.resolve(t.sid, uname)
        if u.d.get("-fast-runtime"):
            L.append(f"{ind}{out} += _rt.fast_build_{u.d['-fast-runtime']}({val})")
            return L
        rt = self.m.schemas[u.sid].get("meta", {}).get("-fast-runtime") if u.sid != t.sid else None
        if rt:
            L.append(f"{ind}{out} += {self.cg.embedded_ref(u.sid)}.fast_build({val})")
            return L
        if u.sid != t.sid and self.m.schemas[u.sid].get("meta", {}).get("-construct-embedded"):
            L.append(f"{ind}{out} += {val}")
            return L
        env2: dict[str, str] = {}
        for pn, a in zip(u.params, args, strict=True):
            v = self.var("prm")
            L.append(f"{ind}{v} = {self.expr(t, a, obj, None, env)}")
            env2[pn] = v
        o2 = self.var("b")
        L.append(f"{ind}{o2} = {val}")
        L += self.build_type(u, o2, env2, out, ind)
        return L

    # -- the array functions ------------------------------------------------------------------------
    def array_functions(self, owner, f: dict, fname: str) -> tuple[str, list[str]] | None:
        """(params, source lines) of ``_fp_<fname>`` / ``_fb_<fname>`` for repeat field ``f``."""
        from generate import parse_ref  # noqa: PLC0415

        ty = f.get("type")
        if not isinstance(ty, str) or "size" in f:
            return None
        uname, args = parse_ref(ty)
        u = self.m.resolve(owner.sid, uname)
        if u is None:
            return None
        try:
            self.check(u)
            self.top_params = set(u.params)
            env = {pn: pn for pn in u.params}
            o = self.var("o")
            body = self.parse_type(u, o, None, env, "end", "        ")
            bo = self.var("b")
            bbody = self.build_type(u, bo, env, "out", "        ")
        except (NotFlat, KeyError):
            return None
        uw = self.cgf(u).unwrap_field(u)
        ret = f"{o}[{uw!r}]" if uw else o
        prm = "".join(f", {pn}" for pn in u.params)
        ms = max(1, self.cgf(owner).min_size(owner, ty))
        # one loop: a field repeats either until the end of its (sub)stream or a counted number of times
        if f.get("repeat") == "eos":
            loop = ["    while p < end:", "        _p0 = p"]
            tail = [f"        if p <= _p0: _bad({fname!r}, p, 'progress', 'corrupt', p)"]
        else:
            loop = [f"    if count < 0 or count * {ms} > end - p: _count({f['id']!r}, count, {ms}, end - p, p)",
                    "    for _i in range(count):"]
            tail = []
        src = [f"def _fp_{fname}(buf, p, end, count{prm}):",
               "    lst = _L()",
               *loop,
               *body,
               f"        lst.append({ret})",
               *tail,
               "    return lst, p",
               "",
               "",
               f"def _fb_{fname}(items, out{prm}):",
               f"    for {bo} in items:",
               *bbody,
               "",
               ""]
        return prm, src

    # -- columnar array parsers ----------------------------------------------------------------------
    def columnar_functions(self, owner, f: dict, fname: str) -> tuple[str, list[str]] | None:
        """(public name, source lines) of a parser of repeat field ``f`` into parallel lists.

        ``columns_<fname>(buf, pos, end, count, **params)`` returns ``({field: [value, ...]},
        end position)``: one list per field of the record type, no object per record; string
        fields come back as their encoded bytes (slices of ``buf``), undecoded.  When a parameter
        only selects switch cases (a key kind), one function per case value is generated with the
        switch resolved, and the public function dispatches on the parameter.
        """
        from generate import parse_ref  # noqa: PLC0415

        ty = f.get("type")
        if not isinstance(ty, str) or "size" in f or f.get("repeat") not in ("expr", "eos"):
            return None
        uname, _args = parse_ref(ty)
        u = self.m.resolve(owner.sid, uname)
        if u is None or not u.params or u.d.get("-construct") or self.cgf(u).unwrap_field(u):
            return None  # (parameterised records only: the others have numpy dtypes or are rare)
        ms = max(1, self.cgf(owner).min_size(owner, ty))
        names = [g["id"] for g in u.seq()]

        def one(fn: str, env: dict[str, str]) -> list[str]:
            o = self.var("o")
            body = self.parse_type(u, o, None, env, "end", "        ", as_locals=True)
            if f.get("repeat") == "eos":
                loop = ["    while p < end:", "        _p0 = p"]
                tail = [f"        if p <= _p0: _bad({f['id']!r}, p, 'progress', 'corrupt', p)"]
            else:
                loop = [f"    if count < 0 or count * {ms} > end - p: _count({f['id']!r}, count, {ms}, end - p, p)",
                        "    for _i in range(count):"]
                tail = []
            prm = "".join(f", {pn}" for pn in u.params if env.get(pn) == pn)
            # struct methods as locals (no global + attribute lookup per field per record)
            used = sorted(set(re.findall(r"\b(_S_\w+)\.unpack_from\(", "\n".join(body))))
            body = [re.sub(r"\b(_S_\w+)\.unpack_from\(", r"\1_u(", ln) for ln in body]
            return [f"def {fn}(buf, p, end, count{prm}):",
                    *[f"    {u_}_u = {u_}.unpack_from" for u_ in used],
                    *[f"    c{i} = []" for i in range(len(names))],
                    *[f"    a{i} = c{i}.append" for i in range(len(names))],
                    *loop, *body,
                    *[f"        a{i}({o}_{n})" for i, n in enumerate(names)],
                    *tail,
                    "    return {" + ", ".join(f"{n!r}: c{i}" for i, n in enumerate(names)) + "}, p",
                    "", ""]

        self.raw_str = True
        try:
            self.check(u, parse_only=True)
            self.top_params = set(u.params)
            self.param_switches = {}
            generic = one(f"_fc_{fname}", {pn: pn for pn in u.params})
            special: dict[str, list[str]] = {}
            if len(u.params) == 1 and set(self.param_switches) == set(u.params):
                pn = u.params[0]
                for k in sorted(self.param_switches[pn]):
                    fn = f"_fc_{fname}_{re.sub(r'[^A-Za-z0-9]', '', k)}"
                    walk = self.walk_function(u, {pn: k}, fn, ms, f["id"]) if f.get("repeat") == "expr" else None
                    special[k] = one(fn + "_checked", {pn: k}) + walk if walk else one(fn, {pn: k})
        except (NotFlat, KeyError):
            return None
        finally:
            self.raw_str = False
        public = f"columns_{fname}"
        src = [*generic]
        for lines in special.values():
            src += lines
        kw = "".join(f", {pn}" for pn in u.params)
        doc = (f'    """Parse ``count`` ``{u.name}`` records ({"until ``end``" if f.get("repeat") == "eos" else "counted"}) '
               f'at ``buf[pos:end]`` into parallel lists: ``({{field: [...]}}, end position)``.\n\n'
               '    String fields are their encoded bytes (slices of ``buf``).  Errors: ``CodecError`` with\n'
               '    offsets into ``buf``."""')
        if special:
            pn = u.params[0]
            table = ", ".join(f"{k}: _fc_{fname}_{re.sub(r'[^A-Za-z0-9]', '', k)}" for k in special)
            src += [f"_FC_{fname} = {{{table}}}", "", "",
                    f"def {public}(buf, pos, end, count{kw}):", doc,
                    f"    fn = _FC_{fname}.get({pn})",
                    f"    return _fc_{fname}(buf, pos, end, count{kw}) if fn is None else fn(buf, pos, end, count)",
                    "", ""]
        else:
            src += [f"def {public}(buf, pos, end, count{kw}):", doc,
                    f"    return _fc_{fname}(buf, pos, end, count{kw})", "", ""]
        return public, src

    def leaves(self, t, env: dict[str, str], col: str | None, depth: int = 0) -> list[tuple]:
        """The record ``t`` as a list of leaves ``(column or None, size field index or None, prim)``:
        fixed-size primitives and byte fields sized by an earlier primitive; switches on parameters
        must be resolved by ``env`` (literals).  Raises NotFlat otherwise."""
        from generate import parse_ref, prim  # noqa: PLC0415

        if depth > 6 or t.d.get("-construct") or any(
                "value" not in d and d.get("-construct") != "skip" for d in t.instances().values()):
            raise NotFlat(t.name)
        uw = self.cgf(t).unwrap_field(t)
        out: list[tuple] = []
        local: dict[str, int] = {}
        for f in t.seq():
            if any(k in f for k in ("if", "repeat", "valid", "contents", "size-eos")):
                raise NotFlat(f["id"])
            c = f["id"] if col is None and not uw else (col if f["id"] == uw else None)
            ty = f.get("type")
            if isinstance(ty, dict):
                on = kexpr.emit(kexpr.parse(ty["switch-on"]), lambda n: env[n] if n in env else "?")
                cases = {self.cg._case_key(k): v for k, v in ty["cases"].items()}
                if on not in cases:
                    raise NotFlat("switch not resolved")
                ty = cases[on]
            if "size" in f:
                if ty not in (None, "str") or kexpr.bare_name(f["size"]) not in local:
                    raise NotFlat(f["id"])
                local[f["id"]] = len(out)
                out.append((c, local[kexpr.bare_name(f["size"])], None))
                continue
            pr = prim(ty, t.endian)
            if pr:
                local[f["id"]] = len(out)
                out.append((c, None, pr))
                continue
            if not isinstance(ty, str):
                raise NotFlat(f["id"])
            uname, args = parse_ref(ty)
            u = self.m.resolve(t.sid, uname)
            if u is None or u.sid != t.sid and self.m.schemas[u.sid].get("meta", {}).get("-construct-embedded"):
                raise NotFlat(f["id"])
            env2 = {}
            for pn, a in zip(u.params, args, strict=True):
                code = kexpr.emit(kexpr.parse(a), lambda n: env[n] if n in env else "?")
                if not _LITERAL.fullmatch(code):
                    raise NotFlat(f"{f['id']}: parameter not known")
                env2[pn] = code
            out += [(c2, None if sz is None else sz + len(out), pr2) for c2, sz, pr2 in self.leaves(u, env2, c, depth + 1)]
        return out

    def walk_function(self, u, env: dict[str, str], fn: str, ms: int, what: str) -> list[str] | None:
        """A blind walk of records with exactly one byte field sized by a preceding integer: one
        length read per record, then the columns gathered by numpy (``_rt.walk_columns``); any
        inconsistency re-parses with the checked function ``<fn>_checked`` (precise errors)."""
        try:
            leaves = self.leaves(u, env, None)
        except (NotFlat, KeyError):
            return None
        var = [i for i, (_, sz, _) in enumerate(leaves) if sz is not None]
        if len(var) != 1:
            return None
        vi = var[0]
        size_leaf = leaves[leaves[vi][1]]
        fixed = sum(pr[2] for _, sz, pr in leaves if pr is not None)
        len_at = sum(pr[2] for _, _, pr in leaves[:leaves[vi][1]])
        var_at = sum(pr[2] for _, _, pr in leaves[:vi])
        cols, off = [], 0
        for i, (c, _sz, pr) in enumerate(leaves):
            if i == vi:
                if c is not None:
                    cols.append((c, 0, None, False))
                off = 0
                continue
            if c is not None:
                cols.append((c, off if i < vi else var_at + off, pr[1], i > vi))
            off += pr[2]
        if len({c for c, *_ in cols}) != len(cols):
            return None
        s = self.st(size_leaf[2][0])
        q = f"q + {len_at}" if len_at else "q"
        return [f"def {fn}(buf, p, end, count):",
                f"    if count < 0 or count * {ms} > end - p: _count({what!r}, count, {ms}, end - p, p)",
                "    st = []",
                "    a = st.append",
                f"    u = {s}.unpack_from",
                "    q = p",
                "    try:",
                "        for _i in range(count):",
                f"            n = u(buf, {q})[0]",
                "            a(q)",
                f"            q += n + {fixed}",
                "    except _struct.error:",
                "        pass",
                f"    cols = _rt.walk_columns(buf, end, count, st, q, {fixed}, {var_at}, {tuple(cols)!r})",
                "    if cols is None:",
                f"        return {fn}_checked(buf, p, end, count)",
                "    return cols, q",
                "",
                ""]

    # -- whole-type functions ------------------------------------------------------------------------
    def type_functions(self, t) -> tuple[list[str], list[str]]:
        """Public names and source lines of ``fast_parse_<name>`` / ``fast_build_<name>`` for each
        entry ``<name>: <last field>`` (or ``true``: the whole sequence) of a type's ``-fast-head``."""
        names: list[str] = []
        src: list[str] = []
        for name, spec in t.d["-fast-head"].items():
            upto = None if spec is True else [str(x) for x in spec] if isinstance(spec, list) else str(spec)
            n, s = self.type_function(t, name, upto)
            names += n
            src += s
            size = self.fixed_size(t, self.prefix(t, upto))
            if size is not None:
                names.append(f"{name.upper()}_SIZE")
                src += [f"#: Byte size of ``{name}`` (fixed: plain numbers only).", f"{name.upper()}_SIZE = {size}", "", ""]
        return names, src

    def type_function(self, t, name: str, upto: str | None) -> tuple[list[str], list[str]]:
        seq = self.prefix(t, upto)
        part = type(t)(t.sid, t.name, dict(t.d, seq=seq), t.is_root, t.endian)
        self.check(part, whole=True)
        self.top_params = set(t.params)
        env = {pn: pn for pn in t.params}
        o = self.var("o")
        pbody = self.parse_type(t, o, None, env, "end", "        ", upto=upto)
        self.tail, self.tail_struct, self.size_struct = True, None, None
        self.whole_seq = upto is None
        try:
            bbody = self.build_type(t, "obj", env, "out", "        ", upto=upto)
        finally:
            self.tail = False
        kw = "".join(f", {pn}" for pn in t.params)
        kw = f", *{kw}" if kw else ""
        what = (f"fields ``{upto[0]}`` .. ``{upto[-1]}``" if isinstance(upto, list) else
                f"fields through ``{upto}``" if upto else "its whole sequence")
        lazy = "; positioned payloads are not read" if self.body_fields(t) else ""
        src = [f"def fast_parse_{name}(buf, pos=0, end=None{kw}):",
               f'    """Parse one ``{t.name}`` ({what}{lazy}) at ``buf[pos:end]``: ``(Container, end position)``.',
               "",
               '    Straight-line equivalent of the Construct codec; errors are ``CodecError`` with offsets into ``buf``."""',
               "    p = pos",
               "    if end is None:",
               "        end = len(buf)",
               "    try:",
               *pbody,
               "    except _struct.error as e:",
               f"        raise _rt.CodecError(f'{name}: {{e}}', offset=p, kind='corrupt') from None",
               f"    return {o}, p",
               "",
               "",
               f"def fast_build_{name}(obj{kw}):",
               f'    """Bytes of one ``{t.name}`` ({what}) - counts, sizes and ``-build`` values derived as the',
               "    Construct codec derives them" + ("; payloads follow the sequence in order, their positions derived"
                                                       if self.tail_struct else "") + '."""',
               "    out = bytearray()",
               *(["    _patch = []", "    _tail = []"] if self.tail_struct else []),
               *(["    _size_at = []"] if self.size_struct else []),
               "    try:",
               *bbody,
               *([f"        for _a in _size_at: {self.size_struct}.pack_into(out, _a, len(out))"]
                 if self.size_struct else []),
               *(["        at = len(out)",
                  "        for _a, _v in zip(_patch, _tail):",
                  f"            {self.tail_struct}.pack_into(out, _a, at)",
                  "            at += len(_v)",
                  "        out += b''.join(_tail)"] if self.tail_struct else []),
               "    except _struct.error as e:",
               f"        raise _rt.CodecError(f'{name}: {{e}}', kind='corrupt') from None",
               "    return bytes(out)",
               "",
               ""]
        return [f"fast_parse_{name}", f"fast_build_{name}"], src
