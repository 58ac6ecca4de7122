"""`fleetplan validate` said ok to a scenario `fleetplan plan` then refused as too large: more integer purchase variables
(one per card type and purchase month, per owned card's choice) than the 1,000 plan allows without --time-limit. The
scenario alone counts them without the catalog or the prices (no pandas: validate stays quick): validate warns in
plan's words where plan is certain to refuse it without --time-limit (cards required by min_units have their variables
in any case), and where the catalog decides (a card listed has them only if it is priced and can serve a workload).
Warnings, not errors: plan plans it with --time-limit, so a gate on validate's exit code must not refuse the file.

Counted by hand: the nine catalog cards with a sourced price, bought in every month (purchase_every_months 1) of 111
months, are 9 × 111 = 999 purchase variables; one owned RTX 3090 adds 1 (kept) or 2 (kept or switched off)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from planner.cli import app
from planner.engine.model import purchase_variables
from planner.engine.reductions import reduce
from planner.engine.run import inputs_for
from planner.scenario import load_scenario
from tests.planner.test_startup import run_cli

# planner/data/onprem_cards.csv's cards with a price
PRICED_CARDS = ["rtx-3060-12gb", "rtx-4060-ti-16gb", "rtx-3090", "rtx-4090", "rtx-5090", "rtx-pro-6000",
                "a100-80gb-pcie", "hgx-h100-8gpu", "hgx-h200-8gpu"]
FEWER = ("quote fewer custom cards (onprem.custom_cards) or list fewer cards (onprem.cards), buy less often (a longer "
         "onprem.purchase_every_months)")


def scenario_text(horizon: int, required: bool = True, owned: bool = False, switch_off: bool = True,
                  options: str = "[on_demand, spot]", memory_gb: int = 8) -> str:
    """A scenario buying the nine priced cards in every month of `horizon`; `required`: one of each (min_units)."""
    lines = ["name: Many cards", "currency: USD", f"horizon_months: {horizon}", "fx: {CNY: 0.14}", "prices:",
             "  providers: [aws]", "  regions: [us-east-1]", f"  purchase_options: {options}", "onprem:",
             "  electricity_per_kwh: 0.15", "  purchase_every_months: 1", f"  switch_off_owned: {str(switch_off).lower()}",
             f"  cards: [{', '.join(PRICED_CARDS)}]"]
    lines += ["  existing: {rtx-3090: 1}"] if owned else []
    lines += ["constraints:", "  min_units: {" + ", ".join(f"{card}: 1" for card in PRICED_CARDS) + "}"] if required else []
    lines += ["workloads:", "  - name: training", "    gpu_hours_per_month: 120", "    reference_gpu: RTX-3090",
              f"    min_gpu_memory_gb: {memory_gb}", "    throughput_metric: fp32_tflops"]
    return "\n".join(lines) + "\n"


def written(tmp_path, text: str):
    path = tmp_path / "many.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def validate(path):
    return CliRunner().invoke(app, ["validate", str(path)])


def engine_count(path) -> int:
    """The purchase variables plan's size check counts (engine.run.check_size, on the reduced inputs)."""
    return purchase_variables(reduce(inputs_for(load_scenario(path)))).total


def said(result) -> str:
    return " ".join(result.output.split())


REFUSED_1001 = ("too large to plan without --time-limit: 1,001 integer purchase variables (999 purchases: 9 card types × "
                "111 purchase months; 2 for owned cards), more than the 1,000 planned without one, as branch and bound's "
                f"time and memory grow steeply with them; {FEWER} or shorten horizon_months, bound each solve with "
                "--time-limit SECONDS, or allow it with --max-purchase-variables 1001")


def test_1001_purchase_variables_are_said_by_validate_in_the_words_of_plan(tmp_path):
    path = written(tmp_path, scenario_text(111, owned=True))
    result = validate(path)
    assert result.exit_code == 0, result.output
    assert f"warning: {path}: {REFUSED_1001}" in said(result)
    assert "Traceback" not in result.output
    planned = CliRunner().invoke(app, ["plan", str(path), "--no-baselines", "--no-decisions"])
    assert planned.exit_code == 2 and f"{path}: {REFUSED_1001}" in said(planned), planned.output
    # with a time limit plan plans it: a warning, not an error of the scenario
    timed = CliRunner().invoke(app, ["plan", str(path), "--no-baselines", "--no-decisions", "--time-limit", "60",
                                     "--format", "json"])
    assert timed.exit_code == 0 and json.loads(timed.stdout)["status"] in ("optimal", "feasible"), timed.output


def test_1000_purchase_variables_are_not_too_large(tmp_path):
    # owned cards kept, never switched off: one variable for the RTX 3090 owned, 999 + 1 = the limit itself
    path = written(tmp_path, scenario_text(111, owned=True, switch_off=False))
    result = validate(path)
    assert result.exit_code == 0 and "too large" not in result.output, result.output
    assert engine_count(path) == 1000


def test_validate_counts_them_without_pandas(tmp_path):
    [report], _, err = run_cli(["validate", str(written(tmp_path, scenario_text(111, owned=True)))])
    assert report["code"] == 0 and report["heavy"] == [], err
    assert "1,001 integer purchase variables" in err


def test_cards_listed_but_not_required_are_a_warning_as_the_catalog_decides(tmp_path):
    # 9 × 112 = 1,008 when each card can serve the workload (each has at least 8 GB), as plan then counts
    path = written(tmp_path, scenario_text(112, required=False))
    result = validate(path)
    assert result.exit_code == 0, result.output
    assert (f"warning: {path}: too large to plan without --time-limit if each card listed is priced and can serve a "
            "workload (the "
            "catalog says which): 1,008 integer purchase variables (1,008 purchases: 9 card types × 112 purchase months), "
            "more than the 1,000 planned without one") in said(result)
    assert engine_count(path) == 1008
    # 9 × 111 = 999: nothing to say
    fits = validate(written(tmp_path, scenario_text(111, required=False)))
    assert fits.exit_code == 0 and "too large" not in fits.output, fits.output


def test_the_warning_is_no_error_because_a_card_that_serves_nothing_has_no_variables(tmp_path):
    # 20 GB a GPU: the RTX 3060 (12 GB) and the RTX 4060 Ti (16 GB) serve nothing, so plan counts 7 × 112 = 784
    path = written(tmp_path, scenario_text(112, required=False, memory_gb=20))
    assert "too large to plan without --time-limit if each card listed is priced" in said(validate(path))
    assert engine_count(path) == 784


def test_with_reservations_allowed_the_warning_counts_at_least(tmp_path):
    # reservation offers, which the prices give, come on top: 1,001 is the fewest, and they can be fewer too
    path = written(tmp_path, scenario_text(111, owned=True, options="[on_demand, reserved_1y]"))
    result = validate(path)
    assert result.exit_code == 0, result.output
    text = said(result)
    assert "too large to plan without --time-limit: at least 1,001 integer purchase variables (999 purchases" in text
    assert ", allow fewer reservation options (prices.purchase_options), regions or providers" in text
    assert "or allow it with --max-purchase-variables 1001 or more" in text


def test_the_json_says_it_as_a_warning_with_no_field(tmp_path):
    path = written(tmp_path, scenario_text(111, owned=True))
    result = CliRunner().invoke(app, ["validate", str(path), "--format", "json"])
    assert result.exit_code == 0
    problems = json.loads(result.stdout)["files"][0]["problems"]   # placed warnings first
    # (the catalog's nine cards include hgx-h200-8gpu, whose lower-bound price is warned of at its onprem.cards item)
    (site,) = [p for p in problems if p["field"] == "onprem"]
    problem = problems[-1]
    assert problem == {"severity": "warning", "line": None, "column": None, "field": None, "message": REFUSED_1001}
    # pue and availability left out: the defaults assumed, at the `onprem` key (line 9, column 1)
    assert (site["line"], site["column"], site["field"]) == (9, 1, "onprem")
    assert site["message"].startswith("site figures not given, assumed: pue 1.58")


def test_the_counts_of_the_scenario_alone_hold_the_count_of_plan_for_the_shipped_scenarios():
    from planner.scenario.size import purchase_counts, reservations_possible

    for path in sorted((Path(__file__).resolve().parents[2] / "scenarios").glob("*.yaml")):
        scenario = load_scenario(path)
        fewest, most = purchase_counts(scenario)
        counted = purchase_variables(reduce(inputs_for(scenario)))
        assert fewest.total <= counted.purchases + counted.owned <= most.total, path.name
        assert counted.months == most.months or counted.purchases == 0, path.name
        assert counted.reservations == 0 or reservations_possible(scenario), path.name
