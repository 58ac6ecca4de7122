"""What `fleetplan plan` does with -o and --out when it finds no fleet (an audit preparing outputs for finance,
2026-12-07): `plan team.yaml --format json -o out/p.json` (optimal), then `plan inf.yaml --format json -o out/p.json`
(no fleet) exited 1 with the reason alone, and out/p.json still held the earlier optimal plan, while stdout without
-o got {"status": "infeasible", …}; `--out review/` left the old plan.json, workbook and summary.md, and nothing said
so. Now `-o FILE --format json` is written with the object stdout gets; other formats' file and --out's folder are
left as they are (never deleted: the user's files), and stderr says plainly that they were NOT written and what an
earlier run left there, so nobody hands on last run's numbers as this run's. The exit stays 1. The texts expected
below are written out by hand from that behaviour."""

from __future__ import annotations

import calendar
import json
import os
from pathlib import Path

from tests.planner.cli_run import run

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"   # its plan: one RTX A5000 and g5.xlarge hours (README)
FAST = ("--no-baselines", "--no-decisions")

# no fleet: the cloud may do at most a tenth of the work, and a 0.5 kW power cap holds no RTX 4090 (the reason given
# counts 810 W for one); the audit's own case
NO_FLEET = """\
name: no fleet
currency: USD
horizon_months: 3
prices: {providers: [aws], regions: [us-east-1], purchase_options: [on_demand]}
onprem: {cards: [rtx-4090], power_cap_kw: 0.5}
constraints: {max_cloud_share: 0.1}
workloads:
  - {name: training, gpu_hours_per_month: 2000, reference_gpu: RTX-4090}
"""

# a fixed time for a file's last change: 2026-09-30 12:00 UTC
SEPT_30_NOON = calendar.timegm((2026, 9, 30, 12, 0, 0))


def _no_fleet(tmp_path: Path) -> Path:
    scenario = tmp_path / "inf.yaml"
    scenario.write_text(NO_FLEET, encoding="utf-8")
    return scenario


def _infeasible_line(result) -> str:
    lines = [line for line in result.stderr.splitlines() if line.startswith("infeasible: ")]
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_json_to_a_file_is_what_stdout_gets_and_replaces_the_earlier_plan(tmp_path):
    out = tmp_path / "p.json"
    earlier = run("plan", WORKED, "--format", "json", "-o", out, *FAST)
    assert earlier.exit_code == 0, earlier.output
    assert json.loads(out.read_text())["status"] == "optimal"
    scenario = _no_fleet(tmp_path)

    to_file = run("plan", scenario, "--format", "json", "-o", out, *FAST)
    to_stdout = run("plan", scenario, "--format", "json", *FAST)

    assert to_file.exit_code == to_stdout.exit_code == 1
    assert to_file.stdout == ""   # -o: the JSON goes to the file only
    assert out.read_text(encoding="utf-8") == to_stdout.stdout   # the same object, as stdout's text
    written = json.loads(out.read_text(encoding="utf-8"))
    assert written["status"] == "infeasible" and written["scenario"] == "no fleet"
    assert "fleet" not in written and "total" not in written   # nothing of the earlier plan is left
    assert f"wrote {out} (status infeasible: no plan, and why)" in to_file.stderr
    assert _infeasible_line(to_file) == _infeasible_line(to_stdout)
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".p.json.tmp")]   # written atomically


def test_a_summary_not_written_is_said_with_the_plan_it_still_holds(tmp_path):
    out = tmp_path / "s.md"
    assert run("plan", WORKED, "--format", "md", "-o", out, *FAST).exit_code == 0
    before = out.read_bytes()
    # the summary's own line under its title tells when that plan was made: "Planned with fleetplan V at T (UTC), …"
    made = next(line for line in before.decode().splitlines() if line.startswith("Planned with fleetplan "))
    when = made.split(" at ", 1)[1].split(" (UTC)", 1)[0]

    result = run("plan", _no_fleet(tmp_path), "--format", "md", "-o", out, *FAST)

    assert result.exit_code == 1
    assert out.read_bytes() == before   # the user's file: kept
    assert (f"warning: -o {out}: NOT written: no plan was found; it still holds an earlier plan of 'Worked example' "
            f"made {when}, not this run's") in result.stderr.replace("\n", " ")
    _infeasible_line(result)


def test_a_csv_not_written_is_said_with_when_the_file_there_last_changed(tmp_path):
    out = tmp_path / "fleet.csv"
    out.write_text("provider,units\naws,3\n", encoding="utf-8")   # no plan it can name: its last change is said
    os.utime(out, (SEPT_30_NOON, SEPT_30_NOON))

    result = run("plan", _no_fleet(tmp_path), "--format", "csv", "-o", out, *FAST)

    assert result.exit_code == 1
    assert out.read_text(encoding="utf-8") == "provider,units\naws,3\n"
    assert (f"warning: -o {out}: NOT written: no plan was found; it still holds the file written there before "
            "(last changed 2026-09-30 12:00 UTC), not this run's") in result.stderr.replace("\n", " ")


def test_a_file_not_there_is_said_not_written_and_not_made(tmp_path):
    out = tmp_path / "plan.xlsx"
    result = run("plan", _no_fleet(tmp_path), "--format", "xlsx", "-o", out, *FAST)
    assert result.exit_code == 1
    assert not out.exists()
    assert f"warning: -o {out}: NOT written: no plan was found\n" in result.stderr
    assert "still holds" not in result.stderr


def test_an_out_folder_not_written_is_said_with_the_plan_it_still_holds(tmp_path):
    review = tmp_path / "review"
    assert run("plan", WORKED, "--out", review, *FAST).exit_code == 0
    before = {p.name: p.read_bytes() for p in review.iterdir()}
    made = json.loads(before["plan.json"])["generated_at"]

    result = run("plan", _no_fleet(tmp_path), "--out", review, *FAST)

    assert result.exit_code == 1
    assert {p.name: p.read_bytes() for p in review.iterdir()} == before   # every file kept as it was
    assert (f"warning: --out {review}: NOT written: no plan was found; it still holds the files of an earlier plan of "
            f"'Worked example' made {made}, not this run's") in result.stderr.replace("\n", " ")
    _infeasible_line(result)


def test_a_new_out_folder_is_said_not_written(tmp_path):
    review = tmp_path / "review"
    result = run("plan", _no_fleet(tmp_path), "--out", review, *FAST)
    assert result.exit_code == 1
    assert not review.exists()
    assert f"warning: --out {review}: NOT written: no plan was found\n" in result.stderr


# --- compare: a side without a fleet, as plan ----------------------------------------------------------------

def test_compare_json_to_a_file_is_what_stdout_gets(tmp_path):
    out = tmp_path / "cmp.json"
    out.write_text('{"totals": {"a": 1.0, "b": 2.0}}\n', encoding="utf-8")   # last run's comparison
    scenario = _no_fleet(tmp_path)
    to_file = run("compare", WORKED, scenario, "--format", "json", "-o", out)
    to_stdout = run("compare", WORKED, scenario, "--format", "json")
    assert to_file.exit_code == to_stdout.exit_code == 1
    assert to_file.stdout == "" and out.read_text(encoding="utf-8") == to_stdout.stdout
    assert json.loads(to_stdout.stdout)["infeasible_side"] == "b"


def test_compare_csv_not_written_is_said(tmp_path):
    out = tmp_path / "cmp.csv"
    out.write_text("category,cost_a,cost_b\n", encoding="utf-8")
    os.utime(out, (SEPT_30_NOON, SEPT_30_NOON))
    result = run("compare", WORKED, _no_fleet(tmp_path), "--format", "csv", "-o", out)
    assert result.exit_code == 1
    assert out.read_text(encoding="utf-8") == "category,cost_a,cost_b\n"
    assert (f"warning: -o {out}: NOT written: no plan was found; it still holds the file written there before "
            "(last changed 2026-09-30 12:00 UTC), not this run's") in result.stderr.replace("\n", " ")
