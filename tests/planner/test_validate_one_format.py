"""`fleetplan validate` gives every problem in one form, `error: FILE:LINE:COL: …` a line: one problem of a file that
loads was such a line, while the problems of a file that does not load came under `FILE: N problems`, indented and
unlabelled (grep '^error:' found none of them). A count after a file's several errors."""

from pathlib import Path

from tests.planner.cli_run import run

ROOT = Path(__file__).resolve().parents[2]
BAD = ROOT / "tests" / "fixtures" / "scenarios" / "bad.yaml"


def test_several_problems_each_an_error_line_then_their_count():
    result = run("validate", BAD)
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    # the fixture's five problems, at the places its text has them (docs/scenario-format.md), the syntax error first
    assert [line.split(": ", 2)[1] for line in lines[:-1]] == [f"{BAD}:{place}" for place in
                                                               ("5:4", "2:1", "6:21", "9:26", "10:20")]
    assert all(line.startswith("error: ") for line in lines[:-1]), lines
    assert lines[-1] == f"{BAD}: 5 errors"


def test_one_problem_of_a_file_that_does_not_load_is_one_error_line(tmp_path):
    empty = tmp_path / "empty.yaml"
    empty.write_text("# nothing yet\n")
    result = run("validate", empty)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {empty}:1:1: ") and result.stderr.count("\n") == 1, result.stderr


def test_files_with_and_without_problems_in_one_run(tmp_path):
    missing = tmp_path / "nothere.yaml"
    result = run("validate", missing, ROOT / "examples" / "melange-toy.yaml", BAD)
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert lines[0].startswith(f"error: {missing}: file not found")
    assert any(line.startswith("ok ") and "melange-toy.yaml: Mélange toy example" in line for line in lines)
    counts = [line for line in lines if not line.startswith(("error: ", "warning: ", "ok "))]
    assert counts == [f"{BAD}: 5 errors"], lines
