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


class NotFlat(Exception):
    pass


class FastGen:
    def __init__(self, cg) -> None:  # cg: generate.ConstructGen
        self.cg = cg
        self.m = cg.m
        self.n = 0
        self.structs: dict[str, str] = {}

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
    def check(self, t, depth: int = 0) -> None:
        from generate import parse_ref, prim  # noqa: PLC0415

        if depth > 6 or t.d.get("-construct"):
            raise NotFlat(t.name)
        for n, d in t.instances().items():
            if "value" not in d and d.get("-construct") != "skip":
                raise NotFlat(f"{t.name}.{n}")
        names = {f["id"] for f in t.seq()}
        for f in t.seq():
            for k in ("size", "repeat-expr"):
                if k in f and (kexpr.bare_name(f[k]) not in names):
                    raise NotFlat(f"{t.name}.{f['id']}.{k}")
            if f.get("repeat") not in (None, "expr", "eos") or "pad-right" in f or "terminator" in f:
                raise NotFlat(f["id"])
            if "-build" in f and "['_" in f["-build"].replace("['__", ""):
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
                    if u.sid != "roaring32":
                        raise NotFlat(one)
                    continue
                self.check(u, depth + 1)

    # -- parse ---------------------------------------------------------------------------------------
    def resolver(self, t, obj: str, parent: str | None, env: dict[str, str]):
        inst = t.instances()

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
            return f"{obj}[{name!r}]"

        return resolve

    def expr(self, t, src, obj, parent, env) -> str:
        return kexpr.emit(kexpr.parse(src), self.resolver(t, obj, parent, env))

    def parse_type(self, t, obj: str, parent: str | None, env: dict[str, str], end: str, ind: str) -> list[str]:
        from generate import parse_ref, prim  # noqa: PLC0415

        L = [f"{ind}{obj} = _C()"]
        for f in t.seq():
            name = f["id"]
            body: list[str] = []
            i2 = ind + ("    " if "if" in f else "")
            tgt = f"{obj}[{name!r}]"
            if f.get("repeat"):
                body += self.parse_repeat(t, f, obj, parent, env, end, i2, tgt)
            else:
                body += self.parse_one(t, f, f.get("type"), obj, parent, env, end, i2, tgt)
            if "valid" in f:
                v = f["valid"]
                if isinstance(v, dict) and "any-of" in v:
                    cond = f"{tgt} not in ({', '.join(str(x) for x in v['any-of'])},)"
                    exp = " or ".join(str(x) for x in v["any-of"])
                elif isinstance(v, dict) and "expr" in v:
                    res = self.resolver(t, obj, parent, env)
                    e = kexpr.emit(kexpr.parse(v["expr"]), lambda n, tgt=tgt, res=res: tgt if n == "_" else res(n))
                    cond, exp = f"not ({e})", str(v["expr"])
                else:
                    val = v["eq"] if isinstance(v, dict) else v
                    cond, exp = f"{tgt} != {val}", str(val)
                kind = "version" if "version" in name else "corrupt"
                body.append(f"{i2}if {cond}: _bad({name!r}, {tgt}, {exp!r}, {kind!r}, p)")
            if "if" in f:
                L.append(f"{ind}if {self.expr(t, f['if'], obj, parent, env)}:")
                L += body
                L.append(f"{ind}else:")
                L.append(f"{ind}    {tgt} = None")
            else:
                L += body
        del prim, parse_ref
        return L

    def parse_one(self, t, f, ty, obj, parent, env, end, ind, tgt) -> list[str]:
        from generate import parse_ref, prim  # noqa: PLC0415

        name = f["id"]
        if "contents" in f:
            raise NotFlat("contents")
        size = f.get("size")
        eos = f.get("size-eos")
        L: list[str] = []
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
            if ty is None:
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
            sw = self.var("sw")
            L.append(f"{ind}{sw} = {self.expr(t, ty['switch-on'], obj, parent, env)}")
            first = True
            for k, v in ty["cases"].items():
                L.append(f"{ind}{'if' if first else 'elif'} {sw} == {self.cg._case_key(k)}:")
                L += self.parse_one(t, {"id": name}, v, obj, parent, env, end, ind + "    ", tgt)
                first = False
            L.append(f"{ind}else:")
            L.append(f"{ind}    {tgt} = None")
            return L
        uname, args = parse_ref(ty)
        u = self.m.resolve(t.sid, uname)
        if u.sid != t.sid and self.m.schemas[u.sid].get("meta", {}).get("-construct-embedded"):
            n = self.var("n")
            L.append(f"{ind}{n} = _rt.roaring32_size(buf, p, {end})")
            L.append(f"{ind}{tgt} = buf[p:p + {n}]")
            L.append(f"{ind}p += {n}")
            return L
        env2: dict[str, str] = {}
        for pn, a in zip(u.params, args, strict=True):
            v = self.var("prm")
            L.append(f"{ind}{v} = {self.expr(t, a, obj, parent, env)}")
            env2[pn] = v
        o2 = self.var("o")
        L += self.parse_type(u, o2, obj, env2, end, ind)
        uw = self.cgf(u).unwrap_field(u)
        L.append(f"{ind}{tgt} = {o2}[{uw!r}]" if uw else f"{ind}{tgt} = {o2}")
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
    def build_type(self, t, obj: str, env: dict[str, str], out: str, ind: str) -> list[str]:
        from generate import parse_ref, prim  # noqa: PLC0415

        del parse_ref, prim
        L: list[str] = []
        uw = self.cgf(t).unwrap_field(t)
        if uw:
            o = self.var("w")
            L.append(f"{ind}{o} = {{{uw!r}: {obj}}}")
            obj = o
        seq = t.seq()
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
            else:
                body += self.build_one(t, f, f.get("type"), val, obj, env, out, i2, repeat=f.get("repeat"))
            if "if" in f:
                L.append(f"{ind}if {self.expr(t, f['if'], obj, None, env)}:")
            L += body
        return L

    def build_one(self, t, f, ty, val, obj, env, out, ind, sized=True, repeat=None) -> list[str]:
        from generate import parse_ref, prim  # noqa: PLC0415

        L: list[str] = []
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
            L.append(f"{ind}{out} += {val}.encode({f.get('encoding', 'UTF-8')!r})")
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
