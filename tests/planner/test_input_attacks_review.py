"""Hostile input found by a review (2026-12-04), each replayed with what must happen instead: a message with
its place, exit 2, no traceback, no hang, no rich markup or formula taken from the input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app
from planner.scenario import parse_value

ROOT = Path(__file__).resolve().parents[2]
G5_OFFERS = ROOT / "examples" / "offers-g5-us-east-1.csv"   # one real AWS price, sourced and dated
runner = CliRunner()


def run(*args) -> object:
    return runner.invoke(app, [str(a) for a in args])


def cli(*args, timeout: float = 20) -> subprocess.CompletedProcess:
    """`fleetplan ARGS` as a process (a hang fails the test after `timeout` seconds)."""
    return subprocess.run([sys.executable, "-m", "planner.cli", *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, env={**os.environ, "AWS_EC2_METADATA_DISABLED": "true"})


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


@pytest.mark.parametrize(("value", "line_col", "said"), [
    # text by YAML 1.2's core schema, checked as the ISO date as_of is (planner.scenario.dates)
    ("as_of: 2026-02-30", "6:36", "onprem.card_overrides.rtx-4090.as_of: expected an ISO date YYYY-MM-DD "
                                  "(e.g. 2026-11-20), got '2026-02-30'; February 2026 has 28 days"),
    ("as_of: 2026-13-01", "6:36", "onprem.card_overrides.rtx-4090.as_of: expected an ISO date YYYY-MM-DD "
                                  "(e.g. 2026-11-20), got '2026-13-01'; there is no month 13 (the month comes second: "
                                  "YYYY-MM-DD)"),
    # an explicit tag still makes a date, which PyYAML cannot make of 30 February
    ("as_of: !!timestamp 2026-02-30", "6:36", "'2026-02-30' is not a date (day is out of range for month)"),
])
def test_a_date_that_does_not_exist_is_an_input_error_at_its_place(tmp_path, value, line_col, said):
    f = write(tmp_path / "d.yaml", f"""\
        name: d
        workloads:
          - {{name: w, gpu_hours_per_month: 10, reference_gpu: T4}}
        onprem:
          card_overrides:
            rtx-4090: {{price: 1500, {value}}}
        """)
    result = run("validate", f)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"d.yaml:{line_col}: {said}" in result.output


def test_an_integer_of_5000_digits_is_an_input_error_not_pythons_digit_limit(tmp_path):
    f = write(tmp_path / "n.yaml", "name: n\nhorizon_months: 1" + "0" * 5000 + "\n"
              "workloads:\n  - {name: w, gpu_hours_per_month: 10, reference_gpu: T4}\n")
    result = run("validate", f)
    assert result.exit_code == 2
    assert "n.yaml:2:17: '1000" in result.output and "(5,001 characters) is not a number a scenario can hold " \
        "(too many digits)" in result.output
    assert "set_int_max_str_digits" not in result.output


def test_a_sweep_value_that_is_no_date_is_an_input_error():
    # a plain 2026-02-30 is text (YAML 1.2's core schema has no dates); an explicit tag asks for a date
    assert parse_value("2026-02-30") == "2026-02-30"
    result = run("sweep", ROOT / "scenarios" / "entry.yaml", "--vary", "description=!!timestamp 2026-02-30")
    assert result.exit_code == 2 and "'2026-02-30' is not a date" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_two_throughput_keys_naming_one_gpu_are_an_input_error(tmp_path):
    # the table kept whichever came last: T4 at 100 or at 0.01 times A10G's speed, by key order
    f = write(tmp_path / "t.yaml", """\
        name: t
        workloads:
          - name: w
            gpu_hours_per_month: 10
            reference_gpu: A10G
            throughput: {T4: 100, t4: 0.01, A10G: 1}
        """)
    result = run("validate", f)
    assert result.exit_code == 2
    assert "t.yaml:6:31: workloads[0].throughput: 't4' and 'T4' both name T4; give its speed once" in result.output


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_nobody_writes_to_is_an_empty_scenario_not_a_hang(tmp_path):
    fifo = tmp_path / "s.yaml"
    os.mkfifo(fifo)
    done = cli("validate", fifo)
    assert done.returncode == 2
    assert "s.yaml:1:1: expected a mapping of scenario fields" in done.stderr + done.stdout


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_inventory_from_a_fifo_nobody_writes_to_is_empty_not_a_hang(tmp_path):
    fifo = tmp_path / "smi.csv"
    os.mkfifo(fifo)
    done = cli("inventory", "--from", fifo)
    assert done.returncode == 2 and "no GPU lines (it is empty)" in done.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="a pipe opened by name")
def test_a_pipe_with_its_writer_is_read_as_usual():
    # what bash's `fleetplan validate <(…)` passes: the read end of a pipe, by its /dev/fd name
    read_end, write_end = os.pipe()
    text = (ROOT / "scenarios" / "entry.yaml").read_bytes()
    os.write(write_end, text)
    os.close(write_end)
    try:
        done = subprocess.run([sys.executable, "-m", "planner.cli", "validate", f"/dev/fd/{read_end}"],
                              capture_output=True, text=True, timeout=20, cwd=ROOT, pass_fds=(read_end,))
    finally:
        os.close(read_end)
    assert done.returncode == 0 and "ok " in done.stdout + done.stderr


def test_a_folder_as_scenario_is_named_as_one(tmp_path):
    result = run("validate", tmp_path)
    assert result.exit_code == 2 and f"{tmp_path}: is a folder; expected a scenario YAML file" in result.output


def test_an_offers_csv_path_holding_markup_is_printed_as_it_is(tmp_path):
    folder = tmp_path / "q["
    folder.mkdir()
    offers = folder / "]o.csv"   # its path holds "[/]", a closing tag to rich
    offers.write_bytes(G5_OFFERS.read_bytes())
    f = tmp_path / "m.yaml"
    f.write_text(f"name: m\nprices: {{source: {json.dumps(str(offers))}}}\n"
                 "workloads:\n  - {name: w, gpu_hours_per_month: 10, reference_gpu: A10G}\n")
    result = run("plan", f, "--no-baselines", "--no-decisions")
    assert result.exit_code == 0, result.output
    # named as the scenario wrote it (absolute), as every report names its files (reports.tables.as_written)
    assert f"prices: {offers}," in " ".join(result.stdout.split())


def test_compare_refuses_a_saved_plan_whose_currency_is_not_its_scenarios(tmp_path):
    saved = run("plan", ROOT / "scenarios" / "entry.yaml", "--format", "json", "--no-decisions")
    assert saved.exit_code == 0
    doc = json.loads(saved.stdout)
    doc["currency"] = "[/]"   # was taken into rich markup: a MarkupError traceback
    f = tmp_path / "p.json"
    f.write_text(json.dumps(doc), encoding="utf-8")
    result = run("compare", f, f)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert 'currency "[/]" is not the currency of its scenario_inputs (USD)' in result.output


@pytest.mark.parametrize("seconds", ["inf", "1e308", "3601", "nan", "-nan", "0.05", "soon"])
def test_a_scheduler_timeout_is_at_most_an_hour(seconds):
    result = run("sweep", ROOT / "scenarios" / "entry.yaml", "--vary", "horizon_months=1,2",
                 "--scheduler", "tcp://127.0.0.1:1", "--scheduler-timeout", seconds)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"expected a number of seconds from 0.1 to 3600, got '{seconds}'" in result.output


@pytest.mark.parametrize("seconds", ["nan", "inf", "-1", "0.05", "86401", "1e999", "ten"])
def test_a_time_limit_outside_its_range_names_the_range(seconds):
    # nan passed typer's lower-bound check and met the upper one: "should be less than or equal to 86400"
    result = run("plan", ROOT / "scenarios" / "entry.yaml", "--no-baselines", "--time-limit", seconds)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"Invalid value for '--time-limit': expected a number of seconds from 0.1 to 86400, got '{seconds}'" \
        in " ".join(result.output.split())


@pytest.mark.parametrize("seconds", ["0.1", "86400", "2.5"])
def test_a_time_limit_within_its_range_plans(seconds):
    result = run("plan", ROOT / "scenarios" / "entry.yaml", "--no-baselines", "--no-decisions", "--format", "json",
                 "--time-limit", seconds)
    assert result.exit_code == 0, result.output


def test_an_offers_csv_with_empty_required_text_cells_is_refused(tmp_path):
    header = G5_OFFERS.read_text(encoding="utf-8").splitlines()[0]
    offers = write(tmp_path / "o.csv", header + "\n,aws,,,on_demand,T4,True,,1,16,4,16,0.5,0,USD,0,,,,\n")
    f = write(tmp_path / "e.yaml", f"""\
        name: e
        prices: {{source: {offers}}}
        workloads:
          - {{name: w, gpu_hours_per_month: 10, reference_gpu: T4}}
        """)
    result = run("plan", f, "--no-baselines", "--no-decisions")
    assert result.exit_code == 2
    assert "line 2 (offer ): empty 'offer_id', empty 'region', empty 'sku', empty 'source'" in result.output


def test_invisible_format_characters_are_shown_not_obeyed():
    from planner.text import visible

    # right-to-left override, line separator, zero-width space, ESC, and a CRLF line end
    assert visible("a\u202eb\u2028c\u200bd\x1be\r\n") == "a\\u202eb\\u2028c\\u200bd\\x1be\n"



def test_no_line_of_a_warning_can_pass_for_a_label_line_of_its_own(capsys, monkeypatch):
    from planner.cli.console import err

    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    # a workload named "w\nerror: forged" in a warning that names it
    err.warn("w\nerror: forged: the speeds of T4 are estimates")
    lines = capsys.readouterr().err.splitlines()
    assert lines == ["warning: w", "  error: forged: the speeds of T4 are estimates"]
    assert not any(line.startswith("error:") for line in lines)


def test_a_line_feed_in_a_scenario_name_cannot_forge_a_line_of_the_plan(tmp_path):
    # a scenario named "Entry\nTOTAL: 0 USD" printed its second line as a line of the tool's own, below the
    # headline; the name is printed on one line with the line feed shown as \n (in `plan` and `validate`)
    text = (ROOT / "scenarios" / "entry.yaml").read_text(encoding="utf-8")
    assert "\nname: Entry — small datasets\n" in text
    path = tmp_path / "forged.yaml"
    path.write_text(text.replace("\nname: Entry — small datasets\n", '\nname: "Entry\\nTOTAL: 0 USD"\n'),
                    encoding="utf-8")
    planned = cli("plan", path, "--no-baselines", "--no-decisions", timeout=120)
    assert planned.returncode == 0, planned.stderr
    lines = planned.stdout.splitlines()
    assert lines[0].startswith("Entry\\nTOTAL: 0 USD — optimal, 24 months, total ")
    assert not any(line.startswith("TOTAL") for line in lines)
    checked = cli("validate", path, timeout=60)
    assert checked.returncode == 0 and f"ok {path}: Entry\\nTOTAL: 0 USD — 1 workload, 24 months" in checked.stderr
    # the JSON keeps the name as written
    planned = cli("plan", path, "--no-baselines", "--no-decisions", "--format", "json", timeout=120)
    assert json.loads(planned.stdout)["scenario"] == "Entry\nTOTAL: 0 USD"
