"""Numbers typed in percent or with a unit get a "did you mean" (a planning-review audit, 2026-12): `discount_rate:
8%` said only "expected a number, got '8%'", `availability: 97` only "expected a number ≤ 1", `power_cap_kw: 6kW`
nothing of 6. A field holds a ratio when its upper bound is at most 3 (the shares ≤ 1, the PUE ≤ 3: read from the
pydantic field), and its unit is the end of its name (_kw, _gb, _watts, _months, _years); the value meant is
suggested only where the field takes it. A `min_gpu_memory_gb` above every GPU's memory (MiB typed as GB: plan
said "infeasible" without a line) is an error (a warning where an offers CSV may give the memory), and a
growth_per_month above 1 (a percent) is warned about."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_scenario_limits import problems_of

from planner.errors import ScenarioError
from planner.scenario import load_scenario, load_scenario_text
from planner.scenario.loading import plausibility_warnings
from tests.planner.cli_run import run

ROOT = Path(__file__).resolve().parents[2]

HEAD = "name: t\nhorizon_months: 12\n"
# a field of the workload follows "  - {name: a, gpu_hours_per_month: 100, reference_gpu: T4, " (59 characters)
WORKLOAD = "workloads:\n  - {name: a, gpu_hours_per_month: 100, reference_gpu: T4%s}\n"


@pytest.mark.parametrize(("line", "problem"), [
    # line 3; "discount_rate: " is 15 characters
    ("discount_rate: 8%", "3:16: discount_rate: expected a number, got '8%'; did you mean 0.08 (8 %)?"),
    ("discount_rate: 8", "3:16: discount_rate: expected a number < 1, got 8; did you mean 0.08 (8 %)?"),
    # "onprem: {availability: " is 23 characters
    ("onprem: {availability: 97}", "3:24: onprem.availability: expected a number ≤ 1, got 97; did you mean 0.97 (97 %)?"),
    # "onprem: {resale: {share_of_book: " is 33
    ("onprem: {resale: {share_of_book: 50}}",
     "3:34: onprem.resale.share_of_book: expected a number ≤ 1, got 50; did you mean 0.5 (50 %)?"),
    # "constraints: {max_cloud_share: " is 31
    ("constraints: {max_cloud_share: 60}",
     "3:32: constraints.max_cloud_share: expected a number ≤ 1, got 60; did you mean 0.6 (60 %)?"),
    # the PUE is a ratio too (bounded at 3): 140 % is 1.4; "onprem: {pue: " is 14
    ("onprem: {pue: 140}", "3:15: onprem.pue: expected a number ≤ 3, got 140; did you mean 1.4 (140 %)?"),
    # "onprem: {power_cap_kw: " is 23: kW is the field's unit; 6000 W is 6 kW
    ("onprem: {power_cap_kw: 6kW}", "3:24: onprem.power_cap_kw: expected a number, got '6kW'; did you mean 6?"),
    ("onprem: {power_cap_kw: 6000W}",
     "3:24: onprem.power_cap_kw: expected a number, got '6000W'; did you mean 6 (6,000 W)?"),
    # "onprem: {purchase_every_months: " is 32; "onprem: {card_overrides: {rtx-4090: {life_years: " 49: 60 months are 5 years
    ("onprem: {purchase_every_months: 3 months}",
     "3:33: onprem.purchase_every_months: expected a whole number, got '3 months'; did you mean 3?"),
    ("onprem: {card_overrides: {rtx-4090: {life_years: 60 months}}}",
     "3:50: onprem.card_overrides.rtx-4090.life_years: expected a number, got '60 months'; did you mean 5 (60 months)?"),
    # no ratio: 360 months is no percent of anything
    ("onprem: {purchase_every_months: 360}", "3:33: onprem.purchase_every_months: expected a number ≤ 120, got 360"),
    # a unit the field's is not convertible to
    ("onprem: {power_cap_kw: 6GB}", "3:24: onprem.power_cap_kw: expected a number, got '6GB'"),
])
def test_a_top_level_or_onprem_number_in_another_unit_gets_the_value_meant(line, problem):
    assert problems_of(HEAD + line + "\n" + WORKLOAD % "") == [f"s.yaml:{problem}"]


@pytest.mark.parametrize(("field", "problem"), [
    # "interruption_overhead: " is 23 characters after the 59: column 83
    ("interruption_overhead: 10", "83: workloads[0].interruption_overhead: expected a number < 1, got 10; "
                                  "did you mean 0.1 (10 %)?"),
    # 100 % would be 1, which the field (< 1) does not take
    ("interruption_overhead: 100", "83: workloads[0].interruption_overhead: expected a number < 1, got 100"),
    # growth has no upper bound to know it by: it is a share by name; "growth_per_month: " is 18
    ("growth_per_month: 2%", "78: workloads[0].growth_per_month: expected a number, got '2%'; did you mean 0.02 (2 %)?"),
    # "min_gpu_memory_gb: " is 19: GB is the field's unit, and 81,920 MiB are 80 GB (GiB, as GPUs are sold)
    ("min_gpu_memory_gb: 80GB", "79: workloads[0].min_gpu_memory_gb: expected a number, got '80GB'; did you mean 80?"),
    ("min_gpu_memory_gb: 81920MiB",
     "79: workloads[0].min_gpu_memory_gb: expected a number, got '81920MiB'; did you mean 80 (81,920 MiB)?"),
    # memory is no ratio
    ("min_gpu_memory_gb: 80%", "79: workloads[0].min_gpu_memory_gb: expected a number, got '80%'"),
])
def test_a_workload_number_in_another_unit_gets_the_value_meant(field, problem):
    assert problems_of(HEAD + WORKLOAD % f", {field}") == [f"s.yaml:4:{problem}"]


def test_growth_that_overflows_demand_suggests_the_share_its_percent_is():
    # 100 × 3^11 = 17.7 million GPU-hours in month 12 of 12 stays below 1e9; over 36 months 100 × 3^15 = 1.43e9 in
    # month 16 does not
    found = problems_of("name: t\nhorizon_months: 36\n" + WORKLOAD % ", growth_per_month: 2")
    assert found == ["s.yaml:4:78: workloads[0].growth_per_month: demand of workload 'a' grows above 1,000,000,000 "
                     "GPU-hours in month 16 of 36 (100 × (1 + 2)^15); lower growth_per_month or horizon_months; "
                     "did you mean 0.02 (2 %)?"]


def warnings_of(text: str) -> list[tuple[tuple, str]]:
    return plausibility_warnings(load_scenario_text(text))


def test_growth_above_one_that_loads_is_warned_about_as_a_percent():
    assert warnings_of(HEAD + WORKLOAD % ", growth_per_month: 2") == [
        (("workloads", 0, "growth_per_month"),
         "workloads[0].growth_per_month: 2 is growth of 200 % a month (demand × 3 every month); expected a share "
         "a month; did you mean 0.02 (2 %)?")]
    assert warnings_of(HEAD + WORKLOAD % ", growth_per_month: 1") == []   # doubling every month: fast, not absurd


def test_a_memory_above_every_gpus_is_an_error_of_validate_with_the_gb_its_mib_are(tmp_path):
    # the most memory in planner/data/gpus.csv: 288 GB (B300, GB300; B300 first); 81920 / 1024 = 80. Plan finds
    # the workload infeasible whatever else the file says: validate refuses it, at its value (4:79), exit 2
    path = tmp_path / "s.yaml"
    path.write_text(HEAD + WORKLOAD % ", min_gpu_memory_gb: 81920")
    result = run("validate", path)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr == (
        f"error: {path}:4:79: workloads[0].min_gpu_memory_gb: 81,920 GB is more memory than any GPU has "
        "(the most: 288 GB, B300), so no GPU can run the workload; expected GB per GPU; did you mean 80 (81,920 MiB)?\n")


def test_a_memory_above_every_gpus_is_refused_as_plan_and_the_library_load_the_file(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(HEAD + WORKLOAD % ", min_gpu_memory_gb: 81920")
    result = run("plan", path)   # refused as the file loads (exit 2), not "infeasible" (exit 1) without a line
    assert result.exit_code == 2 and f"{path}:4:79: workloads[0].min_gpu_memory_gb: 81,920 GB" in result.stderr
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    assert [p.split(": ", 2)[1] for p in caught.value.problems] == ["workloads[0].min_gpu_memory_gb"]


def test_a_memory_above_every_gpus_below_a_gib_of_mib_gets_no_guess():
    # 300 MiB would be 0.29 GB: no memory anyone asks
    assert problems_of(HEAD + WORKLOAD % ", min_gpu_memory_gb: 300") == [
        "s.yaml:4:79: workloads[0].min_gpu_memory_gb: 300 GB is more memory than any GPU has (the most: 288 GB, B300), "
        "so no GPU can run the workload; expected GB per GPU"]
    assert warnings_of(HEAD + WORKLOAD % ", min_gpu_memory_gb: 288") == []   # the B300's: it loads


def test_a_custom_cards_memory_counts_as_a_gpus():
    card = ("onprem:\n  custom_cards:\n    big: {price: 9000, busy_watts: 500, idle_watts: 50, life_years: 4, "
            "gpu_specs: {memory_gb: %s}}\n")
    assert warnings_of(HEAD + card % 400 + WORKLOAD % ", min_gpu_memory_gb: 300") == []
    # line 7: the workload follows the two lines of HEAD, the three of onprem and `workloads:`
    assert problems_of(HEAD + card % 400 + WORKLOAD % ", min_gpu_memory_gb: 500") == [
        "s.yaml:7:79: workloads[0].min_gpu_memory_gb: 500 GB is more memory than any GPU has (the most: 400 GB, custom "
        "card 'big'), so no GPU can run the workload; expected GB per GPU"]


def test_a_memory_above_every_gpus_loads_where_an_offers_csv_may_give_it_and_validate_reads_the_csv(tmp_path):
    # an offers CSV's rows give their own gpu_memory_gb (docs/offers-contract.md), so the file loads (plan may find an
    # offer with 300 GB a GPU); validate reads the CSV's rows: this one's single g5.xlarge has 24 GB, so no unit can
    # serve the workload, an error at its field in plan's words
    (tmp_path / "offers.csv").write_text((ROOT / "examples" / "offers-g5-us-east-1.csv").read_text())
    path = tmp_path / "s.yaml"
    path.write_text(HEAD + "prices: {source: offers.csv}\n" + WORKLOAD % ", min_gpu_memory_gb: 300")
    result = run("validate", path)
    assert result.exit_code == 2
    [error] = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert error.startswith(f"error: {path}:5:79: workloads[0].min_gpu_memory_gb: workload a (≥ 300 GB, 1 GPU per "
                            "job) has no compatible offer among the 1 allowed offers and cards: too little memory: 24 GB "
                            "per GPU < 300 GB needed (1 offer)")
    assert "no offer in the prices has ≥ 300 GB per GPU" in error
    load_scenario(path)


@pytest.mark.parametrize(("line", "problem"), [
    # a new user's audit (2026-12-06): "1,500" said only "expected a number"; "onprem:\n  " puts each field at line 4
    ("capex_budget: 40 000", "4:17: onprem.capex_budget: expected a number, got '40 000'; "
                             "did you mean 40000? (a number without thousands separators)"),
    ("capex_budget: 1,250,000.5", "4:17: onprem.capex_budget: expected a number, got '1,250,000.5'; "
                                  "did you mean 1250000.5? (a number without thousands separators)"),
    ("capex_budget: \"1'500\"", "4:17: onprem.capex_budget: expected a number, got \"1'500\"; "
                                "did you mean 1500? (a number without thousands separators)"),
    # a decimal comma: the electricity tariff as written in much of Europe
    ("electricity_per_kwh: 0,12", "4:24: onprem.electricity_per_kwh: expected a number, got '0,12'; "
                                  "did you mean 0.12? (a decimal point, not a comma)"),
    # 1400 is no PUE (at most 3): the comma is a decimal one
    ("pue: 1,400", "4:8: onprem.pue: expected a number, got '1,400'; did you mean 1.4? (a decimal point, not a comma)"),
    # neither reading fits a whole number of months at most 120: no hint
    ("purchase_every_months: 1,500", "4:26: onprem.purchase_every_months: expected a whole number, got '1,500'"),
    # a first group starting with 0 is no thousands group
    ("electricity_per_kwh: 0,150", "4:24: onprem.electricity_per_kwh: expected a number, got '0,150'; "
                                   "did you mean 0.15? (a decimal point, not a comma)"),
])
def test_a_number_with_thousands_separators_or_a_decimal_comma_is_read_for_the_hint(line, problem):
    text = HEAD + "onprem:\n  " + line + "\n" + WORKLOAD % ""
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(text, "s.yaml")
    assert info.value.problems == [f"s.yaml:{problem}"]
