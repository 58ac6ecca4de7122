"""A scenario names its offers CSV and profile CSVs by paths relative to its own folder, or absolute: every message
and report names each file as the scenario wrote it (`offers/q3.csv`), never by the path it was resolved to
(`/home/u/plans/offers/q3.csv`), which differs from one checkout to the next; a path given as an override, as given.

The scenarios are examples/worked-example.yaml copied into a folder `plans` with its offers CSV at `offers/q3.csv`
(one row: g5.xlarge, 1 × A10G, on demand at 1.006 USD/h in us-east-1) and, where a test needs one, a flat profile
CSV (168 weights of 1) at `weights/w.csv`.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from cli_run import run

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
OFFERS = "offers/q3.csv"
PROFILE = "weights/w.csv"


def plans_folder(tmp_path: Path, profile: str | None = None, second_profile: str | None = None) -> Path:
    """The worked example as `plans/s.yaml` under `tmp_path`, its offers CSV at plans/offers/q3.csv, its workload's
    profile `profile` (the flat CSV plans/weights/w.csv, however named) and, with `second_profile`, a second workload
    `inference` like it whose profile is named `second_profile`; the scenario's path."""
    folder = tmp_path / "plans"
    (folder / "offers").mkdir(parents=True)
    shutil.copy(EXAMPLES / "offers-g5-us-east-1.csv", folder / OFFERS)
    (folder / "weights").mkdir()
    (folder / PROFILE).write_text("weight\n" + "1\n" * 168, encoding="utf-8")
    text = (EXAMPLES / "worked-example.yaml").read_text(encoding="utf-8")
    text = text.replace("source: offers-g5-us-east-1.csv", f"source: {OFFERS}")
    workload = text[text.index("  - name: training"):]
    if profile is not None:
        text = text.replace("profile: flat", f"profile: {profile}")
    if second_profile is not None:
        text += workload.replace("name: training", "name: inference").replace("profile: flat",
                                                                               f"profile: {second_profile}")
    scenario = folder / "s.yaml"
    scenario.write_text(text, encoding="utf-8")
    return scenario


def plan_json(scenario: Path, *options: str) -> dict:
    shown = run("plan", scenario, "--format", "json", "--no-baselines", "--no-decisions", *options)
    assert shown.exit_code == 0, shown.output
    return json.loads(shown.stdout)


# --- one file named relative by one field and absolute by another ---------------------------------------------------

def test_a_profile_named_relative_and_absolute_is_named_each_way_as_written(tmp_path):
    # training names weights/w.csv, inference the same file by its absolute path: both were named absolute
    absolute = str(tmp_path / "plans" / PROFILE)
    scenario = plans_folder(tmp_path, profile=PROFILE, second_profile=absolute)
    doc = plan_json(scenario)
    assert {field: entry["path"] for field, entry in doc["input_files"].items()} == {
        "workloads.training.profile": PROFILE, "workloads.inference.profile": absolute, "prices.source": OFFERS}
    assert [w["profile"] for w in doc["scenario_inputs"]["workloads"]] == [PROFILE, absolute]
    shown = run("plan", scenario, "--format", "md", "--no-baselines", "--no-decisions")
    assert shown.exit_code == 0, shown.output
    # the summary's workloads table: name, demand, growth, reference GPU, memory, GPUs per job, profile, …
    rows = {line.split(" | ")[0]: line.split(" | ")[6] for line in shown.stdout.splitlines()
            if " reference-GPU-hours a month | " in line}
    assert rows == {"| training": PROFILE, "| inference": absolute}
