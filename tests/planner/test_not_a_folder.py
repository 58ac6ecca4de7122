"""A path whose folder is a file: the message says so. `-o afile/x.md` said "folder afile does not exist"
(it exists: it is a file), and `--out afile/sub` and `schema --out afile/s.json` said "cannot write: File
exists", naming nothing (a review, 2026-12-05)."""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app
from planner.fileio import write_atomic, write_folder_atomic

ENTRY = str(Path(__file__).resolve().parents[2] / "scenarios" / "entry.yaml")
runner = CliRunner()


@pytest.fixture
def a_file(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("kept\n", encoding="utf-8")
    return tmp_path / "afile"


@pytest.mark.parametrize("args,said", [
    (["plan", ENTRY, "--format", "md", "-o", "afile/x.md"], "-o afile/x.md: afile is a file, not a folder"),
    (["plan", ENTRY, "--store", "afile/prices.sqlite"], "--store afile/prices.sqlite: afile is a file, not a folder"),
    (["plan", ENTRY, "--no-decisions", "--out", "afile/sub"], "--out afile/sub: afile is a file, not a folder"),
    (["schema", "--out", "afile/s.json"], "--out afile/s.json: afile is a file, not a folder"),
    (["schema", "--out", "afile/deeper/s.json"], "--out afile/deeper/s.json: afile is a file, not a folder"),
])
def test_a_folder_that_is_a_file_is_named(a_file, args, said):
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert said.format(file=a_file) in " ".join(result.stderr.split())
    assert a_file.read_text(encoding="utf-8") == "kept\n"


def test_the_writers_name_the_file_in_the_way(tmp_path):
    (tmp_path / "afile").write_text("kept\n", encoding="utf-8")
    for write, target in ((write_atomic, tmp_path / "afile" / "deeper" / "x.txt"),
                          (write_folder_atomic, tmp_path / "afile" / "out")):
        with pytest.raises(NotADirectoryError) as info:
            write(target, "x" if write is write_atomic else {"a.txt": "x"})
        assert info.value.strerror == f"{tmp_path / 'afile'} is a file, not a folder"
    assert (tmp_path / "afile").read_text(encoding="utf-8") == "kept\n"


def test_schema_out_makes_no_folder_as_plan_o_makes_none(tmp_path, monkeypatch):
    # a review (2026-12-05): `schema --out` made every missing folder of its path (a typo's too), and through a
    # symbolic link to nothing the folders of the link's target, where `plan -o` refuses a missing folder
    monkeypatch.chdir(tmp_path)
    (tmp_path / "link.json").symlink_to(tmp_path / "elsewhere" / "deep" / "s.json")
    for out, said in (("typo/dir/s.json", f"--out typo/dir/s.json: folder {Path('typo/dir')} does not exist"),
                      ("link.json", f"--out link.json: folder {tmp_path / 'elsewhere' / 'deep'} does not exist"),
                      (".", "--out .: is a folder; give a file name, e.g. scenario.schema.json")):
        result = runner.invoke(app, ["schema", "--out", out])
        assert result.exit_code == 2 and result.stderr == f"error: {said}\n", result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json"]
    result = runner.invoke(app, ["schema", "--out", "s.json"])
    assert result.exit_code == 0 and (tmp_path / "s.json").read_text(encoding="utf-8").startswith("{")


def test_plan_o_through_a_link_to_a_missing_folder_makes_none(tmp_path, monkeypatch):
    # review: `-o link.md`, a link to missing/deep/p.md, made missing/deep (the atomic writer follows links)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "link.md").symlink_to(tmp_path / "missing" / "deep" / "p.md")
    result = runner.invoke(app, ["plan", ENTRY, "--no-decisions", "--format", "md", "-o", "link.md"])
    assert result.exit_code == 2 and result.stderr == f"error: -o link.md: folder {tmp_path / 'missing' / 'deep'} " \
                                                      "does not exist\n", result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.md"]


def test_plan_out_makes_its_folder_but_no_missing_parent(tmp_path, monkeypatch):
    # --out DIR makes DIR (the plan's files go there), but a missing folder above it is a typo, as for -o
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["plan", ENTRY, "--no-decisions", "--out", "typo/review"])
    assert result.exit_code == 2 and result.stderr == "error: --out typo/review: folder typo does not exist\n", \
        result.output
    assert list(tmp_path.iterdir()) == []
    result = runner.invoke(app, ["plan", ENTRY, "--no-decisions", "--format", "json", "--out", "review"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "review" / "plan.json").is_file()
