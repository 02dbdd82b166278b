"""Every relative link of the README, ``docs/`` and ``benchmarks/README.md`` resolves, and the README fits a screen.

A link ``[text](target)`` whose target is not a URL must name a file or directory of the repository (relative
to the page); a ``#fragment`` on a Markdown page must be one of that page's headings, slugged as GitHub slugs
them.  Links inside code blocks and inline code are not links.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PAGES = sorted([REPO / "README.md", REPO / "benchmarks" / "README.md", *(REPO / "docs").rglob("*.md")])
README_MAX_LINES = 200  # issue 23: a README that fits on a screen; the rest lives in docs/

LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^(```|~~~)")
INLINE_CODE = re.compile(r"`[^`]*`")


def prose_lines(text: str) -> list[str]:
    """The page's lines outside fenced code blocks, inline code removed."""
    out, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line.lstrip()):
            fenced = not fenced
            continue
        if not fenced:
            out.append(INLINE_CODE.sub("", line))
    return out


def links(page: Path) -> list[str]:
    return [m.group(1) for line in prose_lines(page.read_text(encoding="utf-8")) for m in LINK.finditer(line)]


def github_slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, inline markup and punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`|\*\*|\*|_(?=\W)|(?<=\W)_", "", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    fenced = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line.lstrip()):
            fenced = not fenced
            continue
        m = re.match(r"^#{1,6}\s+(.*)$", line)
        if fenced or not m:
            continue
        slug = github_slug(m.group(1))
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def broken_links(page: Path) -> list[str]:
    broken = []
    for target in links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto: ...
            continue
        path, _, fragment = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif fragment and dest.suffix == ".md" and fragment not in anchors(dest):
            broken.append(f"{target}: no heading #{fragment} in {dest.name}")
    return broken


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_relative_links_resolve(page):
    assert broken_links(page) == []


def test_the_checker_sees_a_broken_link(tmp_path):
    page = tmp_path / "p.md"
    page.write_text("# Title\n\n[ok](p.md#title) [gone](nowhere.md) [bad anchor](p.md#nope)\n"
                    "`[code](not-a-link.md)`\n```\n[fenced](not-a-link.md)\n```\n", encoding="utf-8")
    assert broken_links(page) == ["nowhere.md: no such file", "p.md#nope: no heading #nope in p.md"]


def test_github_slugs():
    assert github_slug("Comparison semantics of table reads") == "comparison-semantics-of-table-reads"
    assert github_slug("File indexes vs Paimon Java 0.9 and 1.4.2 — `python benchmarks/file_index.py`") == \
        "file-indexes-vs-paimon-java-09-and-142--python-benchmarksfile_indexpy"


def test_readme_fits_a_screen():
    lines = (REPO / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines: move details into docs/ and link them"


def test_every_docs_page_is_linked_from_the_readme():
    """A page nobody links is a page nobody finds."""
    linked = {(REPO / t.partition("#")[0]).resolve() for t in links(REPO / "README.md") if not t.startswith("http")}
    unlinked = [p.relative_to(REPO) for p in (REPO / "docs").glob("*.md") if p.resolve() not in linked]
    assert unlinked == []
