"""A branch's own directory (``<table>/branch/branch-x``) opened as a table: it has a schema directory but
no manifests (those, and the data files, are the table's), so a scan of it used to fail with "manifest
list is missing".  It is refused in one line that names the table and ``--branch x``; opened that way the
branch reads as Paimon Java 1.4.2 reads it."""

from __future__ import annotations

import os

import pyarrow as pa
import pytest
from oracles.compare import assert_same_rows

from paimon_codec.cli import main
from paimon_codec.errors import BranchDirectoryError
from paimon_codec.reading import read_table
from paimon_codec.table import PaimonTable

pytestmark = pytest.mark.java


def test_branch_directory_is_refused_naming_the_branch(java_newest, tmp_path, capsys):
    path = java_newest.create_table(str(tmp_path), "db.t", "id INT, s STRING")
    java_newest.write(path, pa.table({"id": pa.array([1, 2], pa.int32()), "s": ["a", "b"]}))
    java_newest.create_tag(path, "t1")
    java_newest.create_branch(path, "x", tag="t1")
    java_newest.write(path, pa.table({"id": pa.array([3], pa.int32()), "s": ["c"]}), branch="x")
    branch_dir = os.path.join(path, "branch", "branch-x")

    for where in (branch_dir, branch_dir + "/"):
        with pytest.raises(BranchDirectoryError, match=r"branch 'x' of table .*--branch x"):
            PaimonTable(where)
    for cmd in (["plan", branch_dir], ["plan", branch_dir, "--json"]):
        assert main(cmd) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and "--branch x" in err and path in err, err

    assert_same_rows(read_table(path, branch="x"), java_newest.read(path, branch="x"))
    assert main(["plan", path, "--branch", "x", "--json"]) == 0
