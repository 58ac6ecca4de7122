"""The library's export paths: a leading `~` is the home folder (`to_excel(p, "~/x.xlsx")` said "folder ~ does not
exist"), and write_files names its folder as given, not as the CLI's `--out` a notebook's user never typed; the
CLI passes its option (`option="--out"`) and keeps its words."""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner import plan, to_excel, to_focus, to_json, to_markdown, write_files
from planner.cli import app
from planner.errors import PlannerError
from planner.reports import OUT_FILES

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"
FOREIGN = ("the folder holds files that are not a plan's (notes.txt); the export replaces the whole folder, so give a "
           "new or empty folder, or one written by {}")


@pytest.fixture(scope="module")
def worked_plan():
    return plan(WORKED, baselines=False)


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


def test_an_export_to_a_path_with_a_tilde_is_written_in_the_home_folder(worked_plan, home):
    to_excel(worked_plan, "~/x.xlsx")
    assert (home / "x.xlsx").read_bytes()[:2] == b"PK"   # a workbook is a zip
    with pytest.raises(PlannerError, match=f"^~/sub/x.json: folder {home}/sub does not exist$"):
        to_json(worked_plan, "~/sub/x.json")


def test_write_files_to_a_path_with_a_tilde_writes_in_the_home_folder(worked_plan, home):
    written = write_files(worked_plan, "~/review")
    assert written == [home / "review" / name for name in OUT_FILES] and all(p.is_file() for p in written)
    with pytest.raises(PlannerError, match=f"^~/a/b: folder {home}/a does not exist$"):
        write_files(worked_plan, "~/a/b")


def test_write_files_names_its_folder_without_the_cli_s_option(worked_plan, tmp_path):
    with pytest.raises(PlannerError, match=f"^{tmp_path}/nope/deeper: folder {tmp_path}/nope does not exist$"):
        write_files(worked_plan, tmp_path / "nope" / "deeper")
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(PlannerError) as info:
        write_files(worked_plan, tmp_path)
    assert str(info.value) == f"{tmp_path}: " + FOREIGN.format("write_files")
    with pytest.raises(PlannerError) as info:
        write_files(worked_plan, tmp_path, option="--out")
    assert str(info.value) == f"--out {tmp_path}: " + FOREIGN.format("--out")
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_the_cli_names_its_out_option(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    result = CliRunner().invoke(app, ["plan", str(WORKED), "--no-decisions", "--no-baselines", "--format", "json",
                                      "--out", str(tmp_path)])
    assert result.exit_code == 2 and result.stderr == f"error: --out {tmp_path}: " + FOREIGN.format("--out") + "\n"


@pytest.mark.parametrize("export, example", [(to_excel, "plan.xlsx"), (to_json, "plan.json"), (to_focus, "focus.csv"),
                                             (to_markdown, "summary.md")])
def test_an_export_path_that_is_no_path_is_named_with_what_it_must_be(worked_plan, export, example):
    # was os.fspath's "expected str, bytes or os.PathLike object, not int", naming no argument
    with pytest.raises(PlannerError) as info:
        export(worked_plan, 123)
    assert str(info.value) == (f"path=123: expected the path of the file to write the export to (a str or Path, "
                               f"e.g. {example}), not int")


def test_write_files_to_a_folder_that_is_no_path_is_named_with_what_it_must_be(worked_plan):
    with pytest.raises(PlannerError) as info:
        write_files(worked_plan, 123)
    assert str(info.value) == ("out_dir=123: expected the path of the folder to write the plan's files into (a str or "
                               "Path, e.g. review/), not int")
