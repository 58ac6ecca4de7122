"""`fleetplan sweep` and `compare` write their output with `-o FILE` as `plan -o` does (an audit, 2026-12-07): only the
shell's `>` could, which empties the file when the command starts, so a sweep stopped after hours left it empty. The
file is written atomically once the output is whole, and what plan's -o refuses is refused before anything is solved
(the table format, `-`, a folder, a read-only file, a file the command reads). Messages written out by hand."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

import planner.reports
from tests.planner.cli_run import one_line_error, run
from tests.planner.test_cli_output_checks_first import not_writable

compare_module = importlib.import_module("planner.reports.compare")   # the package's name is the function
ROOT = Path(__file__).resolve().parents[2]
ENTRY = ROOT / "scenarios" / "entry.yaml"
WORKED = ROOT / "examples" / "worked-example.yaml"   # prices from its offers CSV beside it
SWEEP = ("sweep", ENTRY, "--vary", "onprem.pue=1,1.2", "--processes", "1")


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_sweep_o_writes_what_stdout_would_show(tmp_path, fmt):
    shown = run(*SWEEP, "--format", fmt)
    out = tmp_path / f"sweep.{fmt}"
    result = run(*SWEEP, "--format", fmt, "-o", out)
    assert result.exit_code == 0 and result.stdout == "", result.output
    assert f"wrote {out}" in result.stderr
    assert out.read_text(encoding="utf-8") == shown.stdout
    # a header and two rows; two objects of 7 keys (the varied value, total, fleet, status, note, currency, money_basis)
    assert len(shown.stdout.splitlines()) == (3 if fmt == "csv" else 20)


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_compare_o_writes_what_stdout_would_show(tmp_path, fmt):
    shown = run("compare", WORKED, WORKED, "--format", fmt)
    out = tmp_path / f"cmp.{fmt}"
    result = run("compare", WORKED, WORKED, "--format", fmt, "--output", out)
    assert result.exit_code == 0 and result.stdout == "", result.output
    assert f"wrote {out}" in result.stderr
    assert out.read_text(encoding="utf-8") == shown.stdout and shown.stdout


def test_a_sweep_stopped_early_leaves_the_file_as_it_was(tmp_path, monkeypatch):
    out = tmp_path / "sweep.csv"
    out.write_text("last quarter's sweep\n")
    started = []

    def stopped(*args, **kwargs):
        started.append(True)
        raise KeyboardInterrupt   # Ctrl-C, hours into the sweep
    monkeypatch.setattr(planner.reports, "sweep", stopped)
    result = run(*SWEEP, "--format", "csv", "-o", out)
    assert started and result.exit_code != 0
    assert out.read_text() == "last quarter's sweep\n"
    assert [p.name for p in tmp_path.iterdir()] == ["sweep.csv"]   # no part-written file beside it


@pytest.mark.parametrize("command", ["sweep", "compare"])
def test_o_needs_json_or_csv(tmp_path, nothing_solved, nothing_compared, command):
    args = SWEEP if command == "sweep" else ("compare", ENTRY, ENTRY)
    result = run(*args, "-o", tmp_path / "out.txt")
    assert result.exit_code == 2
    assert one_line_error(result) == "error: -o FILE needs --format json or csv (the table is for the terminal)"


@pytest.mark.parametrize("command", ["sweep", "compare"])
def test_o_dash_a_folder_or_a_missing_folder_is_refused_before_solving(tmp_path, nothing_solved, nothing_compared,
                                                                       command):
    args = SWEEP if command == "sweep" else ("compare", ENTRY, ENTRY)
    what = "sweep" if command == "sweep" else "comparison"
    dash = run(*args, "--format", "csv", "-o", "-")
    assert dash.exit_code == 2
    assert one_line_error(dash) == ("error: -o -: the output goes to stdout without -o, so leave -o out (a file named - "
                                    "needs its full path)")
    folder = run(*args, "--format", "json", "-o", tmp_path)
    assert folder.exit_code == 2
    assert one_line_error(folder) == f"error: -o {tmp_path}: is a folder; give a file name, e.g. {tmp_path / what}.json"
    missing = run(*args, "--format", "json", "-o", tmp_path / "nope" / "x.json")
    assert missing.exit_code == 2
    assert one_line_error(missing) == f"error: -o {tmp_path / 'nope' / 'x.json'}: folder {tmp_path / 'nope'} does not exist"


@pytest.mark.parametrize("command", ["sweep", "compare"])
def test_o_over_a_read_only_file_is_refused_before_solving(tmp_path, monkeypatch, nothing_solved, nothing_compared,
                                                           command):
    out = tmp_path / "ro.csv"
    out.write_text("kept\n")
    not_writable(monkeypatch, out)
    args = SWEEP if command == "sweep" else ("compare", ENTRY, ENTRY)
    result = run(*args, "--format", "csv", "-o", out)
    assert result.exit_code == 2
    assert one_line_error(result) == (f"error: -o {out}: is read-only (you may not write it); make it writable "
                                      f"(chmod u+w {out}) or give another file name")
    assert out.read_text() == "kept\n"


def test_sweep_o_over_a_file_it_reads_is_refused_before_solving(tmp_path, nothing_solved):
    offers = WORKED.parent / "offers-g5-us-east-1.csv"   # what the worked example's prices.source names
    for target in (WORKED, offers):
        result = run("sweep", WORKED, "--vary", "onprem.pue=1,1.2", "--format", "csv", "-o", target)
        assert result.exit_code == 2
        assert one_line_error(result) == f"error: -o {target}: is {target}, which this sweep reads; give another file name"
    weekly = tmp_path / "weekly.csv"
    weekly.write_text("1\n" * 168)
    result = run("sweep", WORKED, "--vary", f"workloads.training.profile=flat,{weekly}", "--format", "csv", "-o", weekly)
    assert result.exit_code == 2
    assert one_line_error(result) == f"error: -o {weekly}: is {weekly}, which this sweep reads; give another file name"


def test_compare_o_over_a_file_it_reads_is_refused_before_solving(nothing_compared):
    offers = WORKED.parent / "offers-g5-us-east-1.csv"
    for target in (WORKED, offers):
        result = run("compare", ENTRY, WORKED, "--format", "csv", "-o", target)
        assert result.exit_code == 2
        assert one_line_error(result) == (f"error: -o {target}: is {target}, which this comparison reads; give another "
                                          "file name")


@pytest.mark.parametrize("command", ["sweep", "compare"])
@pytest.mark.parametrize(("name", "fmt", "said"), [
    ("out.json", "csv", "a .json file name for --format csv, which writes CSV; did you mean out.csv?"),
    ("out.csv", "json", "a .csv file name for --format json, which writes JSON; did you mean out.json?"),
    ("out.xlsx", "csv", "a .xlsx file name for --format csv, which writes CSV; did you mean out.csv?"),
])
def test_o_named_for_another_format_is_refused_before_solving(tmp_path, monkeypatch, nothing_solved, nothing_compared,
                                                              command, name, fmt, said):
    monkeypatch.chdir(tmp_path)
    args = SWEEP if command == "sweep" else ("compare", ENTRY, ENTRY)
    result = run(*args, "--format", fmt, "-o", name)
    assert result.exit_code == 2
    assert one_line_error(result) == f"error: -o {name}: {said}"
    assert list(tmp_path.iterdir()) == []
