"""No module outside the generated code packs or unpacks bytes by hand, unless docs/architecture.md says why.

Every byte layout lives in ``schemas/*.ksy``; semantic code takes sizes, dtypes, structs and constants from the
generated codecs.  This scans ``paimon_codec/`` with ``ast`` for the ways bytes are laid out by hand -
``struct`` calls, ``int.from_bytes`` / ``.to_bytes`` and numpy dtypes given as byte-order literals (``"<u4"``,
``">i4"``) - and compares the modules holding them with the first column of the architecture doc's
"Deliberate exceptions" table.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "paimon_codec"
DOC = REPO / "docs" / "architecture.md"
SECTION = "## Deliberate exceptions (byte handling outside generated code)"

_STRUCT_CALLS = {"pack", "pack_into", "unpack", "unpack_from", "iter_unpack", "Struct", "calcsize"}
#: a numpy dtype or ``struct`` format with an explicit byte order: ``"<u4"``, ``">i"``, ``"<I"``, ``">q"`` ...
_ORDERED_FORMAT = re.compile(r"[<>!][iufcbBhHiIlLqQfdx?]\d*")


def layout_sites(source: str) -> list[tuple[int, str]]:
    """``(line, what)`` of every hand-written byte-layout site in a module's source: ``struct`` calls and
    imports, ``int.from_bytes`` / ``.to_bytes``, and byte-order format literals anywhere (a call's argument,
    a conditional, a table of them)."""
    out = []
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "struct":
                if f.attr in _STRUCT_CALLS:
                    out.append((node.lineno, f"struct.{f.attr}"))
            elif isinstance(f, ast.Attribute) and f.attr in ("from_bytes", "to_bytes"):
                out.append((node.lineno, f.attr))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _ORDERED_FORMAT.fullmatch(node.value):
            out.append((node.lineno, f"format {node.value!r}"))
        elif isinstance(node, ast.ImportFrom) and node.module == "struct":
            out.append((node.lineno, "from struct import"))
    return out


def allowlist() -> dict[str, str]:
    """``{module path or package/: why}`` from the first column of the doc's exceptions table."""
    text = DOC.read_text()
    assert SECTION in text, f"{DOC} lost its section {SECTION!r}"
    body = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    out = {}
    for line in body.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or cells[0] in ("where", "") or set(cells[0]) <= {"-"}:
            continue
        assert cells[2], f"exception without a reason: {line}"
        for path in re.findall(r"`([^`]+)`", cells[0]):
            out[path] = cells[2]
    return out


def _covered(rel: str, allowed: dict[str, str]) -> str | None:
    return next((a for a in allowed if rel == a or (a.endswith("/") and rel.startswith(a))), None)


def test_no_hand_written_layouts_outside_the_allowlist():
    allowed = allowlist()
    offenders = []
    used: set[str] = set()
    for p in sorted(PACKAGE.rglob("*.py")):
        rel = p.relative_to(PACKAGE).as_posix()
        sites = layout_sites(p.read_text())
        if not sites:
            continue
        entry = _covered(rel, allowed)
        if entry is None:
            offenders += [f"{rel}:{line}: {what}" for line, what in sites]
        else:
            used.add(entry)
    assert not offenders, ("bytes packed / unpacked outside the generated codecs - take the layout from a "
                           "schema, or add the module with its reason to docs/architecture.md:\n  "
                           + "\n  ".join(offenders))
    stale = sorted(set(allowed) - used)
    assert not stale, f"docs/architecture.md lists modules that no longer lay out bytes by hand: {stale}"


def test_allowlist_paths_exist_and_stay_short():
    allowed = allowlist()
    for path in allowed:
        assert (PACKAGE / path).exists(), f"docs/architecture.md names {path}, which is not in paimon_codec/"
    assert len(allowed) <= 25, "the exceptions list is meant to stay short"


def test_the_scan_sees_each_kind_of_site():
    """Each pattern is detected (so the main test can fail), and ordinary code is not."""
    src = '''
import struct
from struct import pack
a = struct.unpack("<i", b)
b = struct.Struct(">q")
c = int.from_bytes(x, "big")
d = n.to_bytes(4, "little")
e = np.frombuffer(buf, dtype=">u4")
f = arr.astype("<i8")
g = np.frombuffer(buf, dtype=np.uint8)
widths = {8: ">i8"}
note = "a < b and x > 1"
h = GENERATED_STRUCT.unpack_from(buf, 0)
'''
    found = {what for _, what in layout_sites(src)}
    assert found == {"struct.unpack", "struct.Struct", "from_bytes", "to_bytes", "format '<i'", "format '>q'",
                     "format '>u4'", "format '<i8'", "format '>i8'", "from struct import"}


# ---------------------------------------------------------------------------------------------
# Offsets and sizes restated as numbers, in the packages that frame bytes through generated codecs.

#: Packages whose modules take every offset and size from the generated codecs: a number literal used as a
#: position in a byte buffer, or added to / compared with an offset or a length, restates the layout there.
OFFSET_CHECKED = ("dv/", "roaring.py")
#: names of byte buffers (``buf[0]``, ``data[:4]``)
_BUFFER = re.compile(r"^_?(buf|data|blob|head|raw|bin|payload|entry|tail|chunk|header)\w*$")
#: names of byte offsets and lengths (``pos + 4``, ``length < 12``)
_OFFSET = re.compile(r"^_?(pos|offset|base|start|at|size|length|lead|footer_start|used|header_len|total|rel)$")


def _offset_like(node: ast.AST) -> bool:
    """An expression naming a byte offset or length: such a name, ``len(...)``, or arithmetic over them."""
    if isinstance(node, ast.Name):
        return bool(_OFFSET.match(node.id))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len":
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        return _offset_like(node.left) or _offset_like(node.right)
    return False


def _number(node: ast.AST | None) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) is int


def _value(node: ast.AST) -> object:
    try:
        return ast.literal_eval(node)
    except ValueError:
        return None


def offset_literals(source: str) -> list[tuple[int, str]]:
    """``(line, what)`` of every number literal used as a byte position or width: an index or slice bound of a
    buffer (``buf[0]``, ``data[:4]``), a term added to or subtracted from an offset or length (``pos + 4``,
    ``12 + sum(...)`` beside one), a bound an offset or length is compared with (``length < 12``), or the value
    an offset starts at (``pos = 1``)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and _BUFFER.match(node.value.id):
            s = node.slice
            bounds = [s.lower, s.upper, s.step] if isinstance(s, ast.Slice) else [s]
            if any(_number(b) for b in bounds):
                out.append((node.lineno, f"{node.value.id}[{ast.unparse(s)}]"))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            for lit, other in ((node.left, node.right), (node.right, node.left)):
                if _number(lit) and (_offset_like(other) or isinstance(other, ast.Call)
                                     and isinstance(other.func, ast.Name) and other.func.id == "sum"):
                    out.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Compare) and len(node.comparators) == 1:
            a, b = node.left, node.comparators[0]
            if (_number(a) and _offset_like(b) or _number(b) and _offset_like(a)) and 0 not in (
                    _value(a), _value(b)):  # a sign check (``size < 0``) is no layout
                out.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Assign):
            pairs = []
            for t in node.targets:
                if isinstance(t, ast.Tuple) and isinstance(node.value, ast.Tuple) and len(t.elts) == len(node.value.elts):
                    pairs += zip(t.elts, node.value.elts, strict=True)
                else:
                    pairs.append((t, node.value))
            out += [(node.lineno, ast.unparse(node)) for t, v in pairs
                    if isinstance(t, ast.Name) and _OFFSET.match(t.id) and _number(v) and ast.literal_eval(v) != 0]
    return sorted(set(out))


def test_no_offsets_or_sizes_restated_as_numbers():
    offenders = []
    for p in sorted(PACKAGE.rglob("*.py")):
        rel = p.relative_to(PACKAGE).as_posix()
        if not any(rel == c or (c.endswith("/") and rel.startswith(c)) for c in OFFSET_CHECKED):
            continue
        offenders += [f"{rel}:{line}: {what}" for line, what in offset_literals(p.read_text())]
    assert not offenders, ("offsets or sizes written as numbers - take them from the generated codec (its dtypes' "
                           "itemsize, *_SIZE, *_AT, value functions):\n  " + "\n  ".join(offenders))


def test_the_offset_scan_sees_each_kind_of_literal():
    """Each form is detected (so the test above can fail), and position arithmetic that is no layout is not."""
    src = '''
if buf[0] != VERSION: pass
kind = bin_kind(data[:4])
at = base + 4 + size
n = 12 + sum(4 + len(b) for b in bs)
if length < 12: pass
out, pos = [], 1
stop = min(end, (key + 1) << 32)
first = np.frombuffer(buf, DTYPE, 1, pos)[0]
s = s[1:]
count = max(parts) + 1
pos = 0
if arr.size > 1: pass
if size < 0: pass
'''
    found = {what for _, what in offset_literals(src)}
    assert found == {"buf[0]", "data[:4]", "base + 4", "4 + len(b)", "12 + sum((4 + len(b) for b in bs))",
                     "length < 12", "out, pos = ([], 1)"}, found
