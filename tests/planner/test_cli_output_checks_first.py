"""Where `fleetplan plan` writes is checked before it solves (an auditor of the CLI, 2026-12-06): `--out mydocs`
over a folder of the user's own files was refused only after the plan, its baselines and the decision re-solves
(6.7 s for industrial.yaml, minutes for a large plan), and `-o` over a read-only file replaced it (the atomic
rename needs only the folder's permission). The refusals name the path, what is wrong and what to do; the
texts below are written out by hand."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import planner.engine
from planner.errors import PlannerError
from planner.fileio import write_atomic
from tests.planner.cli_run import one_line_error, run

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"
FAST = ("--no-baselines", "--no-decisions")
NOT_A_PLANS = ("the export replaces the whole folder, so give a new or empty folder, or one written by --out")


@pytest.fixture
def no_solve(monkeypatch):
    """Any plan solved fails the test: the CLI imports planner.engine's plan when it runs."""
    monkeypatch.setattr(planner.engine, "plan", lambda *a, **k: pytest.fail("solved before refusing"))


def not_writable(monkeypatch, *paths: Path) -> None:
    """os.access says `paths` may not be written, as for a user who is not their owner (root may write any)."""
    real = os.access
    refused = {os.path.realpath(p) for p in paths}
    monkeypatch.setattr(os, "access", lambda p, mode, **k: (not (mode & os.W_OK and os.path.realpath(p) in refused)
                                                           and real(p, mode, **k)))


# --- --out DIR -----------------------------------------------------------------------------------------


def test_an_out_folder_of_other_files_is_refused_before_solving(tmp_path, monkeypatch, no_solve):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mydocs").mkdir()
    (tmp_path / "mydocs" / "thesis.txt").write_text("x")
    result = run("plan", WORKED, "--out", "mydocs")
    assert result.exit_code == 2
    assert one_line_error(result) == f"error: --out mydocs: the folder holds files that are not a plan's (thesis.txt); " \
                                     f"{NOT_A_PLANS}"
    assert [p.name for p in (tmp_path / "mydocs").iterdir()] == ["thesis.txt"]


@pytest.mark.parametrize("make, said", [
    (lambda d: d.write_text("x"), "not a folder"),
    (lambda d: d.mkdir(), "the export replaces the whole folder; give one other than the current folder"),
])
def test_an_out_that_is_a_file_or_the_current_folder_is_refused_before_solving(tmp_path, monkeypatch, no_solve, make,
                                                                               said):
    out = tmp_path / "out"
    make(out)
    if out.is_dir():
        monkeypatch.chdir(out)
    result = run("plan", WORKED, "--out", out)
    assert result.exit_code == 2 and one_line_error(result) == f"error: --out {out}: {said}"


def test_an_out_folder_that_gains_a_file_while_planning_is_still_refused_when_written(tmp_path, monkeypatch):
    out = tmp_path / "out"
    out.mkdir()
    real_plan = planner.engine.plan

    def plan_then_a_file_appears(*args, **kwargs):
        solved = real_plan(*args, **kwargs)
        (out / "notes.txt").write_text("written meanwhile")
        return solved
    monkeypatch.setattr(planner.engine, "plan", plan_then_a_file_appears)
    result = run("plan", WORKED, "--out", out, *FAST)
    assert result.exit_code == 2
    assert one_line_error(result) == f"error: --out {out}: the folder holds files that are not a plan's (notes.txt); " \
                                     f"{NOT_A_PLANS}"
    assert [p.name for p in out.iterdir()] == ["notes.txt"]


def test_a_read_only_out_folder_is_refused_before_solving(tmp_path, monkeypatch, no_solve):
    out = tmp_path / "out"
    out.mkdir()
    not_writable(monkeypatch, out)
    result = run("plan", WORKED, "--out", out)
    assert result.exit_code == 2
    # root owns the test's folder when this is root, else this user: either way the owner, told the chmod
    assert one_line_error(result) == f"error: --out {out}: is a read-only folder (you may not replace its files); " \
                                     f"make it writable (chmod u+w {out}) or give another folder"


def test_an_out_folder_whose_plan_files_are_read_only_is_refused_before_solving(tmp_path, monkeypatch, no_solve):
    out = tmp_path / "out"
    out.mkdir()
    for name in ("plan.json", "summary.md", "fleet.csv"):
        (out / name).write_text("last quarter's")
    not_writable(monkeypatch, out / "plan.json", out / "summary.md")
    result = run("plan", WORKED, "--out", out)
    assert result.exit_code == 2
    assert one_line_error(result) == f"error: --out {out}: the plan's files plan.json, summary.md are read-only (you " \
                                     "may not write them); make them writable or give another folder"
    assert (out / "plan.json").read_text() == "last quarter's"


def test_an_out_folder_that_cannot_be_listed_is_refused_before_solving_without_a_traceback(tmp_path, monkeypatch,
                                                                                           no_solve):
    # mode 0333 (write and search, no read): what replacing the folder would delete cannot be told
    out = tmp_path / "out"
    out.mkdir()
    real_iterdir = Path.iterdir

    def unlistable(self):
        if self == out:
            raise PermissionError(13, "Permission denied", str(self))
        return real_iterdir(self)
    monkeypatch.setattr(Path, "iterdir", unlistable)
    result = run("plan", WORKED, "--out", out)
    assert result.exit_code == 2
    assert one_line_error(result) == f"error: --out {out}: cannot list the folder's files (Permission denied); the " \
                                     "export replaces the whole folder, so give a new or empty folder"


# --- -o FILE -------------------------------------------------------------------------------------------


def test_o_over_a_read_only_file_is_refused_before_solving(tmp_path, monkeypatch, no_solve):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rofile.json").write_text("kept")
    not_writable(monkeypatch, tmp_path / "rofile.json")
    result = run("plan", WORKED, "--format", "json", "-o", "rofile.json")
    assert result.exit_code == 2 and result.stdout == ""
    assert one_line_error(result) == "error: -o rofile.json: is read-only (you may not write it); make it writable " \
                                     "(chmod u+w rofile.json) or give another file name"
    assert (tmp_path / "rofile.json").read_text() == "kept"


def test_o_over_a_link_to_a_read_only_file_is_refused(tmp_path, monkeypatch, no_solve):
    (tmp_path / "rofile.json").write_text("kept")
    (tmp_path / "link.json").symlink_to("rofile.json")
    not_writable(monkeypatch, tmp_path / "rofile.json")
    result = run("plan", WORKED, "--format", "json", "-o", tmp_path / "link.json")
    assert result.exit_code == 2
    assert "link.json: is read-only (you may not write it)" in one_line_error(result)
    assert (tmp_path / "link.json").is_symlink() and (tmp_path / "rofile.json").read_text() == "kept"


def test_a_file_made_read_only_while_planning_is_refused_when_written(tmp_path, monkeypatch):
    target = tmp_path / "plan.json"
    target.write_text("kept")
    real_plan = planner.engine.plan

    def plan_then_read_only(*args, **kwargs):
        solved = real_plan(*args, **kwargs)
        not_writable(monkeypatch, target)
        return solved
    monkeypatch.setattr(planner.engine, "plan", plan_then_read_only)
    result = run("plan", WORKED, "--format", "json", "-o", target, *FAST)
    assert result.exit_code == 2
    # the plan's own warnings come first (the worked example's one RTX A5000 pays for a quarter of a host), then one error
    lines = [line for line in result.stderr.splitlines() if not line.startswith("warning: ")]
    assert "Traceback" not in result.output and lines == [
        f"error: -o {target}: cannot write: the file is read-only (you may not write it); make it writable "
        f"(chmod u+w {target}) or give another file name"], result.stderr
    assert target.read_text() == "kept"


def test_write_atomic_refuses_a_read_only_file_and_leaves_it(tmp_path, monkeypatch):
    target = tmp_path / "kept.csv"
    target.write_text("old")
    not_writable(monkeypatch, target)
    with pytest.raises(PermissionError, match="the file is read-only") as refused:
        write_atomic(target, "new")
    assert refused.value.filename == str(target)
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["kept.csv"]


def test_write_atomic_refuses_a_chmod_444_file_of_a_user_who_is_not_root(tmp_path):
    if os.name != "posix" or os.geteuid() == 0:
        pytest.skip("root may write any file (as with the shell's `>`); run as another user in "
                    "test_report_escaping_and_writes.py")
    target = tmp_path / "rofile.json"
    target.write_text("kept")
    target.chmod(0o444)
    with pytest.raises(PermissionError) as refused:
        write_atomic(target, "new")
    assert refused.value.strerror == (f"the file is read-only (you may not write it); make it writable (chmod u+w "
                                      f"{target}) or give another file name")
    assert target.read_text() == "kept" and [p.name for p in tmp_path.iterdir()] == ["rofile.json"]


def test_schema_out_over_a_read_only_file_is_refused(tmp_path, monkeypatch):
    target = tmp_path / "scenario.schema.json"
    target.write_text("{}")
    not_writable(monkeypatch, target)
    result = run("schema", "--out", target)
    assert result.exit_code == 2 and "is read-only (you may not write it)" in one_line_error(result)
    assert target.read_text() == "{}"


def test_a_library_export_over_a_read_only_file_is_refused(tmp_path, monkeypatch):
    from planner import plan
    from planner.reports import plan_to_json

    target = tmp_path / "p.json"
    target.write_text("kept")
    p = plan(WORKED, baselines=False)
    not_writable(monkeypatch, target)
    with pytest.raises(PermissionError, match="the file is read-only"):
        plan_to_json(p, target)
    assert target.read_text() == "kept"


def test_the_write_time_check_of_write_files_stays(tmp_path):
    from planner import plan
    from planner.reports import write_plan_files

    out = tmp_path / "out"
    out.mkdir()
    (out / "thesis.txt").write_text("x")
    with pytest.raises(PlannerError, match=r"not a plan's \(thesis\.txt\)"):
        write_plan_files(plan(WORKED, baselines=False), out)


# --- -o FILE whose name says another format ---------------------------------------------------------------------
# `plan -o out.csv --format xlsx` wrote a workbook named .csv (and --format csv, CSV text into .xlsx), exit 0.

@pytest.mark.parametrize(("name", "fmt", "said"), [
    ("out.csv", "xlsx", "a .csv file name for --format xlsx, which writes an Excel workbook; did you mean out.xlsx?"),
    ("out.xlsx", "csv", "a .xlsx file name for --format csv, which writes CSV; did you mean out.csv?"),
    ("plan.json", "md", "a .json file name for --format md, which writes Markdown; did you mean plan.md?"),
    ("rows.MD", "focus", "a .md file name for --format focus, which writes CSV; did you mean rows.csv?"),
    ("plan.csv", "json", "a .csv file name for --format json, which writes JSON; did you mean plan.json?"),
])
def test_o_named_for_another_format_is_refused_before_solving(tmp_path, monkeypatch, no_solve, name, fmt, said):
    monkeypatch.chdir(tmp_path)
    result = run("plan", WORKED, "--format", fmt, "-o", name, *FAST)
    assert result.exit_code == 2
    assert one_line_error(result) == f"error: -o {name}: {said}"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("name", "fmt"), [("plan.CSV", "csv"), ("focus.csv", "focus"), ("plan.out", "json"),
                                           ("plan", "md"), ("book.xlsx", "xlsx")])
def test_o_named_for_its_format_or_for_none_the_cli_writes_is_written(tmp_path, name, fmt):
    result = run("plan", WORKED, "--format", fmt, "-o", tmp_path / name, *FAST)
    assert result.exit_code == 0, result.output
    assert (tmp_path / name).stat().st_size > 0
