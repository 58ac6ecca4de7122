"""Why an offer was left out, shown where a reviewer without the JSON looks: the CLI's table (one line of counts by
rule), summary.md (a section), the workbook (an `excluded offers` sheet) and the CSV tables (excluded_offers.csv).
They were only in the JSON's excluded_offers and on the dashboard.

Oracle: a scenario of seven offers, each chosen to fail one rule of docs/cost-model.md §4 for a known workload
(worked out by hand below), and the reasons the engine writes, copied from engine/workloads.py and
catalog/frameworks.py.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest
from openpyxl import load_workbook

from planner import load_scenario, plan, write_files
from planner.engine.run import inputs_for
from planner.reports import SHEETS, plan_to_csv, plan_to_excel, plan_to_markdown
from planner.reports.tables import exclusion_rule
from tests.planner.cli_run import run

ROOT = Path(__file__).resolve().parents[2]
HEADER = ("offer_id,provider,region,sku,purchase_option,gpu,gpu_known,accelerator_name,gpu_count,gpu_memory_gb,vcpus,"
          "memory_gb,hourly_price,upfront_price,currency,term_months,zone,as_of,source,note")
# sku, purchase option, gpu, gpu_known, GPUs, GB per GPU, USD/h
OFFERS = [("g5.xlarge", "on_demand", "A10G", True, 1, 24, 1.006),          # serves both workloads
          ("g5.xlarge", "spot", "A10G", True, 1, 24, 0.4),                 # train is not interruptible
          ("g4dn.xlarge", "on_demand", "T4", True, 1, 16, 0.526),          # 16 GB < train's 20
          ("g4dn.2xlarge", "on_demand", "T4", True, 1, 16, 0.752),         # 16 GB < train's 20
          ("inf2.xlarge", "on_demand", "INFERENTIA2", True, 1, 32, 0.758),  # an ASIC neither throughput table names
          ("p6-b200.48xlarge", "on_demand", "B200", True, 8, 180, 113.9),  # CC 10 > tensorflow 2.12's CUDA 11.8 (≤ 9)
          ("x9.xlarge", "on_demand", "@Mystery-9000", False, 1, 48, 0.9)]  # not in gpus.csv; starts like a formula
SCENARIO = """\
name: Left out
currency: USD
horizon_months: 12
discount_rate: 0.0
prices:
  source: offers.csv
  providers: [aws]
  purchase_options: [on_demand, spot]
workloads:
  - name: train
    gpu_hours_per_month: 100
    reference_gpu: A10G
    min_gpu_memory_gb: 20
    framework: tensorflow==2.12
    profile: flat
    throughput: {A10G: 1.0, T4: 0.5, B200: 4.0}
  - name: infer
    gpu_hours_per_month: 100
    reference_gpu: A10G
    min_gpu_memory_gb: 8
    interruptible: true
    profile: flat
    throughput: {A10G: 1.0, T4: 0.5, B200: 4.0}
"""
# By hand, per workload: train leaves out the spot A10G (1), the two T4s (2), Inferentia2 (1), the B200 (1) and
# the unknown accelerator (1); infer, interruptible and content with 8 GB, only Inferentia2 and the unknown one.
BY_RULE = [("unknown accelerator", 2, "infer, train"), ("not a GPU (needs its own SDK)", 2, "infer, train"),
           ("too little memory per GPU", 2, "train"), ("spot for a workload not interruptible", 1, "train"),
           ("framework's CUDA build cannot run the GPU", 1, "train")]
LINE = ("offers left out (an offer counts once for each workload it cannot serve): 2 unknown accelerator, 2 not a GPU "
        "(needs its own SDK), 2 too little memory per GPU, 1 spot for a workload not interruptible, 1 framework's CUDA "
        "build cannot run the GPU; each with its reason: --format json (excluded_offers), --out's excluded_offers.csv "
        "and the workbook's excluded offers sheet")
INFERENTIA = "INFERENTIA2 is not a GPU (needs its own SDK): name it in the workload's throughput table to allow it"
# the rows of the table (workload, provider, gpu, reason, offers, rule), by workload, provider, gpu and reason
ROWS = [("infer", "aws", "@Mystery-9000", "unknown accelerator @Mystery-9000", 1, "unknown accelerator"),
        ("infer", "aws", "INFERENTIA2", INFERENTIA, 1, "not a GPU (needs its own SDK)"),
        ("train", "aws", "@Mystery-9000", "unknown accelerator @Mystery-9000", 1, "unknown accelerator"),
        ("train", "aws", "A10G", "spot capacity serves interruptible workloads only", 1,
         "spot for a workload not interruptible"),
        ("train", "aws", "B200", "tensorflow 2.12 (CUDA 11.8) supports compute capability ≤ 9; B200 is 10", 1,
         "framework's CUDA build cannot run the GPU"),
        ("train", "aws", "INFERENTIA2", INFERENTIA, 1, "not a GPU (needs its own SDK)"),
        ("train", "aws", "T4", "16 GB per GPU < 20 GB needed", 2, "too little memory per GPU")]
COLUMNS = ("workload", "provider", "gpu", "reason", "offers", "rule")


@pytest.fixture(scope="module")
def scenario_file(tmp_path_factory):
    folder = tmp_path_factory.mktemp("left-out")
    rows = [f"aws:us-east-1:{sku}:{option},aws,us-east-1,{sku},{option},{gpu},{known},{gpu},{n},{gb},4,16,{usd},0,USD,0,,"
            f"2026-07-20,made up for the test," for sku, option, gpu, known, n, gb, usd in OFFERS]
    (folder / "offers.csv").write_text("\n".join([HEADER, *rows]) + "\n")
    (folder / "left-out.yaml").write_text(SCENARIO)
    return folder / "left-out.yaml"


@pytest.fixture(scope="module")
def left_out(scenario_file):
    return plan(scenario_file, baselines=False)


def test_excluded_offers_csv_holds_every_row_with_its_rule_and_no_formula(left_out):
    # the engine's own table (the JSON's excluded_offers): 8 offer–workload pairs in 7 rows, as worked out by hand
    assert [tuple(r) for r in left_out.exclusions.itertuples(index=False)] == [r[:5] for r in ROWS]
    rows = list(csv.reader(io.StringIO(plan_to_csv(left_out, table="excluded_offers"), newline="")))
    # the gpu of the unknown accelerator starts like a formula: marked as text with an apostrophe, as every CSV table
    shown = [[("'" + c) if c.startswith("@") else c for c in map(str, row)] for row in ROWS]
    assert rows == [list(COLUMNS), *shown]


def test_write_files_writes_excluded_offers_csv_as_plan_to_csv_does(left_out, tmp_path):
    written = write_files(left_out, tmp_path / "review")
    assert tmp_path / "review" / "excluded_offers.csv" in written
    assert (tmp_path / "review" / "excluded_offers.csv").read_text() == plan_to_csv(left_out, table="excluded_offers")


def test_the_workbook_has_an_excluded_offers_sheet_of_every_row_as_text(left_out):
    assert "excluded offers" in SHEETS
    ws = load_workbook(io.BytesIO(plan_to_excel(left_out)))["excluded offers"]
    cells = list(ws.iter_rows())
    assert [c.value for c in cells[0]] == list(COLUMNS)
    assert [tuple(c.value for c in row) for row in cells[1:]] == ROWS
    unknown = cells[1][2]   # "@Mystery-9000": a string cell as typed, kept text by the quote prefix
    assert unknown.data_type == "s" and unknown.value == "@Mystery-9000" and unknown.quotePrefix
    assert all(c.data_type == "n" for row in cells[1:] for c in row[4:5])   # offers stay numbers


def test_summary_md_counts_the_offers_left_out_by_rule_and_says_where_each_row_is(left_out):
    page = plan_to_markdown(left_out)
    head = "## Offers left out, by the rule they fail (an offer counts once for each workload it cannot serve)"
    section = page.split(head, 1)[1].split("\n## ", 1)[0].split("\nSolver ", 1)[0]
    table = [line for line in section.splitlines() if line.startswith("| ")]
    assert table[0] == "| rule | offers | workloads | example |"
    assert [tuple(re.split(r" \| ", line.strip("| "))[:3]) for line in table[2:]] == \
        [(rule, str(n), names) for rule, n, names in BY_RULE]
    assert "| too little memory per GPU | 2 | train | 16 GB per GPU \\< 20 GB needed |" in table
    assert ("Each of the 7 rows (workload, provider, GPU, reason, offers, rule): `excluded_offers.csv` and the "
            "workbook's excluded offers sheet (`--out`), the JSON's `excluded_offers`") in section
    # nothing left out, no section: the worked example's one A10G offer and RTX A5000 both serve its one workload
    worked = plan(ROOT / "examples" / "worked-example.yaml", baselines=False)
    assert worked.exclusions.empty and "Offers left out" not in plan_to_markdown(worked)


def test_plan_s_table_ends_with_one_line_of_the_offers_left_out_by_rule(scenario_file):
    result = run("plan", scenario_file, "--no-baselines", "--no-decisions")
    assert result.exit_code == 0, result.output
    assert LINE in result.stdout.splitlines()


@pytest.mark.parametrize(("reason", "rule"), [
    # the texts engine/workloads.py (_reason) and catalog/frameworks.py (exclusion_reason) write, one per rule
    ("unknown accelerator Standard_ND40s_v2", "unknown accelerator"),
    ("GAUDI-HL-205 is not a GPU (needs its own SDK): name it in the workload's throughput table to allow it",
     "not a GPU (needs its own SDK)"),
    ("spot capacity serves interruptible workloads only", "spot for a workload not interruptible"),
    ("GPU count unknown", "GPU count unknown"),
    ("GPU memory unknown; 24 GB per GPU needed", "GPU memory unknown"),
    ("GPU memory unknown", "GPU memory unknown"),
    ("12 GB per GPU < 80 GB needed", "too little memory per GPU"),
    ("1 GPUs per node < 8 GPUs per job", "too few GPUs per node for a job"),
    ("compute capability 7.5 < 8 needed", "compute capability too low"),
    ("pytorch 2.1 (CUDA 12.1) needs a CUDA GPU; MI300X has no CUDA compute capability",
     "framework's CUDA build cannot run the GPU"),
    ("tensorflow 2.12 (CUDA 11.8) supports compute capability ≥ 3.5; K80 is 3.7", "framework's CUDA build cannot run the GPU"),
    ("no fp32_tflops speed for A10G: no fp32_tflops figure in gpus.csv (add it to a throughput table)",
     "no speed for the GPU"),
    ("L4 is not in the workload's requests/s throughput table: name it there to allow it", "no speed for the GPU"),
    ("a reason no rule knows", "other"),
])
def test_each_reason_the_engine_writes_is_counted_under_its_rule(reason, rule):
    assert exclusion_rule(reason) == rule


@pytest.mark.parametrize("name", ["entry", "startup-hybrid", "mid-research", "industrial"])
def test_every_reason_of_the_packaged_scenarios_falls_under_a_rule(name):
    # a reason whose words the engine changed would be counted as "other": the patterns must follow it
    reasons = set(inputs_for(load_scenario(ROOT / "scenarios" / f"{name}.yaml"), None).exclusions["reason"])
    assert reasons and {r for r in reasons if exclusion_rule(r) == "other"} == set()
