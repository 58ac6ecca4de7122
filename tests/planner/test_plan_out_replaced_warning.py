"""`fleetplan plan SCENARIO --out DIR` replaced another scenario's saved plan in DIR without a word (the README advises
keeping last quarter's plan.json to compare): it now warns, naming the scenario whose files it replaced, and still
exits 0 with the new set written whole. A plan of the same inputs made again says nothing."""

import json
from pathlib import Path

from tests.planner.cli_run import run

ROOT = Path(__file__).resolve().parents[2]
TOY = ROOT / "examples" / "melange-toy.yaml"
WORKED = ROOT / "examples" / "worked-example.yaml"
QUICK = ("--no-decisions", "--no-baselines")


def replaced_warnings(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if "replaced the files" in line]


def test_another_scenarios_plan_replaced_is_named(tmp_path):
    out = tmp_path / "review"
    first = run("plan", TOY, "--out", out, *QUICK)
    assert first.exit_code == 0 and replaced_warnings(first) == []
    saved_at = json.loads((out / "plan.json").read_text())["generated_at"]
    second = run("plan", WORKED, "--out", out, *QUICK)
    assert second.exit_code == 0, second.output
    assert replaced_warnings(second) == [f"warning: --out {out}: replaced the files of the plan of 'Mélange toy example' "
                                         f"saved {saved_at} (another scenario); to keep a plan to compare against, give "
                                         "each plan its own folder"]
    assert json.loads((out / "plan.json").read_text())["scenario"] != "Mélange toy example"


def test_the_same_plan_again_says_nothing_and_changed_inputs_are_named(tmp_path):
    out = tmp_path / "review"
    assert run("plan", TOY, "--out", out, *QUICK).exit_code == 0
    again = run("plan", TOY, "--out", out, *QUICK)
    assert again.exit_code == 0 and replaced_warnings(again) == []
    changed = tmp_path / "toy.yaml"
    text = TOY.read_text()
    assert "discount_rate: 0.0\n" in text and "source: offers-melange-toy.csv" in text
    changed.write_text(text.replace("discount_rate: 0.0\n", "discount_rate: 0.05\n")
                       .replace("source: offers-melange-toy.csv", f"source: {ROOT / 'examples' / 'offers-melange-toy.csv'}"))
    other = run("plan", changed, "--out", out, *QUICK)
    assert other.exit_code == 0, other.output
    (line,) = replaced_warnings(other)
    assert "plan of 'Mélange toy example' saved " in line and line.endswith(
        "(the same scenario with other inputs); to keep a plan to compare against, give each plan its own folder")
