"""The one re-planning loop of writes that lose a commit race (``writing.commit.replan``)."""

from __future__ import annotations

import pytest

from paimon_codec.errors import CommitConflictError, DataError
from paimon_codec.writing.commit.replan import replan_on_conflict


def _attempts(conflicts: int, calls: list[int]):
    def attempt(n: int) -> str:
        calls.append(n)
        if n <= conflicts:
            raise CommitConflictError(f"lost round {n}", path="t")
        return f"won at {n}"
    return attempt


@pytest.mark.parametrize("retries,conflicts", [(0, 0), (3, 2), (3, 3)])
def test_re_planned_until_it_wins(retries, conflicts):
    calls: list[int] = []
    assert replan_on_conflict(_attempts(conflicts, calls), retries=retries, what="DELETE", path="t") \
        == f"won at {conflicts + 1}"
    assert calls == list(range(1, conflicts + 2))


@pytest.mark.parametrize("retries", [0, 2])
def test_the_last_conflict_is_raised(retries):
    calls: list[int] = []
    with pytest.raises(CommitConflictError, match=f"lost round {retries + 1}"):
        replan_on_conflict(_attempts(99, calls), retries=retries, what="DELETE", path="t")
    assert calls == list(range(1, retries + 2))


def test_other_errors_are_not_retried():
    calls: list[int] = []

    def attempt(n: int) -> None:
        calls.append(n)
        raise DataError("bad file", path="t")
    with pytest.raises(DataError):
        replan_on_conflict(attempt, retries=5, what="DELETE", path="t")
    assert calls == [1]
    with pytest.raises(ValueError):
        replan_on_conflict(attempt, retries=-1, what="DELETE", path="t")
