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
