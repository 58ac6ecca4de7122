"""The runner-up's "with other card types" line names what differs from the plan's fleet (an audit, 2026-12-07): the
best plan with another set of card types and reservation offers (engine.decisions.type_cut) was said "with other card
types" where no card type changed and only a reservation offer was added. Reservations are counted under their offer
id (provider:region:sku:option), cards under their card id (engine.decisions.plan_fleet)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from planner.cli import app
from planner.cli.plan_views import other_types_words
from planner.engine.decisions import other_types_kinds

PLAN = {"rtx-4090": 3}
RESERVED = "aws:us-east-1:g6.xlarge:reserved_1y"


@pytest.mark.parametrize(("other", "words"), [
    ({"rtx-4090": 3, RESERVED: 2}, "with other reservations"),                  # the cards as the plan's, one reservation more
    ({"rtx-4090": 5, "l4": 1}, "with other card types"),                        # a count changed and a card type added
    ({"l4": 2, RESERVED: 1}, "with other card types and reservations"),         # 4090s dropped, an L4 and a reservation
    ({}, "with no cards (all cloud)"),
])
def test_the_cli_names_what_differs(other, words):
    assert other_types_words({"fleet": other, "total": 1.0}, PLAN) == words


def test_a_reservation_dropped_is_other_reservations_and_an_unknown_plan_fleet_reads_as_before():
    assert other_types_kinds({"rtx-4090": 3, RESERVED: 2}, {"rtx-4090": 4}) == "reservations"
    # a reservation's count changed with the same offers held: not a change of kind (type_cut's set of names)
    assert other_types_kinds({RESERVED: 2, "l4": 1}, {RESERVED: 5}) == "card types"
    # a plan saved without plan_fleet reads as before
    assert other_types_words({"fleet": {RESERVED: 2}, "total": 1.0}) == "with other card types"


def test_the_dashboard_says_it_alike():
    from fleetplan_dashboard.tables import other_types_text

    runner = {"plan_fleet": PLAN, "fleet": {"rtx-4090": 4},
              "other_types": {"fleet": {"rtx-4090": 3, RESERVED: 2}, "total": 60864.0, "increase": 20000.0,
                              "increase_pct": 48.9, "differences": [f"{RESERVED} 0 → 2"]}}
    assert other_types_text(runner, "USD").startswith("With another set of reservations (")
    runner["other_types"]["fleet"] = {"l4": 2, RESERVED: 2}
    assert other_types_text(runner, "USD").startswith("With another set of card types and reservations (")


OFFERS = ("offer_id,provider,region,sku,purchase_option,gpu,gpu_known,accelerator_name,gpu_count,gpu_memory_gb,"
          "vcpus,memory_gb,hourly_price,upfront_price,currency,term_months,zone,as_of,source,note\n"
          "aws:us-east-1:g6.xlarge:on_demand,aws,us-east-1,g6.xlarge,on_demand,L4,True,L4,1.0,24.0,4.0,16.0,1.0,0.0,"
          "USD,0,,2026-12-01,hand,\n"
          f"{RESERVED},aws,us-east-1,g6.xlarge,reserved_1y,L4,True,L4,1.0,24.0,4.0,16.0,0.7,0.0,USD,12,,2026-12-01,hand,\n")

# cards pay off over the cloud at 1 USD/h: the plan buys RTX 3090s; the only other names a fleet can hold are the
# reservation, so a fleet with another set of names keeps a 3090 and adds the reservation, or holds no card
SCENARIO = """\
name: R
currency: USD
horizon_months: 12
discount_rate: 0
prices: {source: o.csv, providers: [aws], purchase_options: [on_demand, reserved_1y]}
onprem: {electricity_per_kwh: 0.1, resale: {method: none}, cards: [rtx-3090]}
workloads:
  - {name: train, gpu_hours_per_month: 1200, reference_gpu: RTX-3090, throughput: {RTX-3090: 1.0, L4: 1.0}}
"""


def test_a_plan_whose_other_fleet_only_adds_a_reservation_says_other_reservations(tmp_path):
    (tmp_path / "o.csv").write_text(OFFERS)
    (tmp_path / "r.yaml").write_text(SCENARIO)
    args = ["plan", str(tmp_path / "r.yaml"), "--no-baselines"]
    runner = json.loads(CliRunner().invoke(app, [*args, "--format", "json"]).stdout)["runner_up"]
    other = runner["other_types"]["fleet"]
    assert set(runner["plan_fleet"]) == {"rtx-3090"} and set(other) == {"rtx-3090", RESERVED}
    assert set(runner["fleet"]) == {"rtx-3090"}   # the runner-up changes a count only: the line below is shown
    shown = CliRunner().invoke(app, args)
    assert shown.exit_code == 0, shown.output
    assert "with other reservations: " in shown.stdout and "with other card types" not in shown.stdout, shown.stdout
