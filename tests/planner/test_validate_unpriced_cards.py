"""`fleetplan validate` said nothing of the catalog cards with no sourced price, where `fleetplan plan` warns: a card
listed in onprem.cards is not bought, an owned one is never sold (its resale value is unknown), and units required of
one (constraints.min_units) plan refuses. validate now says them in plan's words (catalog.unpriced_card_findings: one
text for both), read from onprem_cards.csv with the csv module, so it still imports no pandas; a price given in
onprem.card_overrides silences them, as in plan.

The expected lines are written by hand from planner/data/onprem_cards.csv: rtx-4090 has a price (1,669.99 USD), rtx-a5000
and l40s have none."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from planner.cli import app
from tests.planner.test_startup import run_cli

HEAD = """name: Two cards
currency: USD
horizon_months: 12
prices:
  providers: [aws]
  regions: [us-east-1]
  purchase_options: [on_demand, spot]
onprem:
  electricity_per_kwh: 0.15
  cards: [rtx-4090, rtx-a5000]
  existing: {l40s: 2}
"""
WORKLOADS = """workloads:
  - name: training
    gpu_hours_per_month: 120
    reference_gpu: RTX-3090
    throughput_metric: fp32_tflops
"""
NOT_BOUGHT = ("card rtx-a5000 has no sourced price in the catalog: it is not bought; "
              "set onprem.card_overrides.rtx-a5000.price (and currency) from a quote")
# the scenario gives electricity_per_kwh, not pue or availability: validate says the defaults it assumed, at the
# `onprem` key (line 8, column 1; tests/planner/test_onprem_site_defaults.py)
SITE = ("onprem: site figures not given, assumed: pue 1.58 (industry average of 2023, Uptime Institute), availability 1 "
        "(no hours lost; no public per-card figure): give your site's figures")
NOT_SOLD = ("card l40s has no sourced price in the catalog: the units owned are not sold (their resale value is unknown) "
            "and their maintenance counts as 0; set onprem.card_overrides.l40s.price (and currency) from a quote")


def written(tmp_path, text: str):
    path = tmp_path / "cards.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def lines(result) -> list[str]:
    return [line for line in result.output.splitlines() if line.startswith(("warning:", "error:", "ok "))]


def test_validate_warns_of_a_listed_and_an_owned_card_with_no_sourced_price_in_plans_words(tmp_path):
    path = written(tmp_path, HEAD + WORKLOADS)
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    # each at the entry naming the card: line 10 `  cards: [rtx-4090, rtx-a5000]`, its item at column 11 + 10; line 11
    # `  existing: {l40s: 2}`, its key at column 14
    assert lines(result) == [f"ok {path}: Two cards — 1 workload, 12 months",
                             f"warning: {path}:10:21: onprem.cards[1]: {NOT_BOUGHT}",
                             f"warning: {path}:11:14: onprem.existing.l40s: {NOT_SOLD}",
                             f"warning: {path}:8:1: {SITE}"]


def test_a_card_named_only_in_min_units_0_or_owned_0_times_is_not_warned_of(tmp_path):
    # a100-40gb-pcie has no sourced price either (planner/data/onprem_cards.csv); min_units 0 asks no unit of it and 0
    # owned are none: nothing in the plan rests on its price ("its maintenance and resale value count as 0" was said
    # of a card no plan holds)
    for text in (HEAD + "constraints:\n  min_units: {a100-40gb-pcie: 0}\n" + WORKLOADS,
                 HEAD.replace("existing: {l40s: 2}", "existing: {l40s: 2, a100-40gb-pcie: 0}") + WORKLOADS):
        path = written(tmp_path, text)
        result = CliRunner().invoke(app, ["validate", str(path)])
        assert result.exit_code == 0, result.output
        assert lines(result)[0] == f"ok {path}: Two cards — 1 workload, 12 months"
        assert not [line for line in lines(result) if "a100-40gb-pcie" in line], result.output


def test_a_price_in_card_overrides_silences_the_warning(tmp_path):
    overrides = "  card_overrides:\n    rtx-a5000: {price: 2000, currency: USD}\n    l40s: {price: 8000}\n"
    path = written(tmp_path, HEAD + overrides + WORKLOADS)
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    assert lines(result) == [f"ok {path}: Two cards — 1 workload, 12 months", f"warning: {path}:8:1: {SITE}"]


def test_the_json_output_gives_the_warnings_with_severity_warning(tmp_path):
    path = written(tmp_path, HEAD + WORKLOADS)
    result = CliRunner().invoke(app, ["validate", "--format", "json", str(path)])
    assert result.exit_code == 0, result.output
    [file] = json.loads(result.stdout)["files"]
    assert file["ok"] is True
    assert file["problems"] == [
        {"severity": "warning", "line": 10, "column": 21, "field": "onprem.cards[1]", "message": NOT_BOUGHT},
        {"severity": "warning", "line": 11, "column": 14, "field": "onprem.existing.l40s", "message": NOT_SOLD},
        {"severity": "warning", "line": 8, "column": 1, "field": "onprem", "message": SITE.removeprefix("onprem: ")},
    ]


def test_units_required_of_an_unpriced_card_are_an_error_placed_at_min_units(tmp_path):
    # plan refuses them (nothing says what they cost): validate now says so, at the line of the field (13, column 26)
    path = written(tmp_path, HEAD + "constraints:\n  min_units: {rtx-a5000: 1}\n" + WORKLOADS)
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 2
    assert lines(result) == [f"error: {path}:13:26: constraints.min_units.rtx-a5000: card rtx-a5000 has no sourced "
                             "price in the catalog; set onprem.card_overrides.rtx-a5000.price (and currency) from a quote",
                             f"warning: {path}:8:1: {SITE}"]


def test_validate_still_imports_nothing_heavy_while_reading_the_card_prices(tmp_path):
    path = written(tmp_path, HEAD + WORKLOADS)
    [report], _, err = run_cli(["validate", str(path)])
    assert report["code"] == 0 and report["heavy"] == []
    assert f"warning: {path}:10:21: onprem.cards[1]: {NOT_BOUGHT}" in err.splitlines()
