"""The Plan page's fleet cards (tables.fleet_cards): the Rent card sums no hours across instance types (a p5.48xlarge hour
is 8 H100s, an NC4as_T4_v3 hour one T4: "Rent 36,371 h" added them), says its unit, and counts agree with their nouns
("1 cards"). Oracles: the fleets written below, their sums by hand."""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd

from fleetplan_dashboard import tables


def _row(provider, sku, option, units=float("nan"), new=float("nan"), hours=0.0, cost=1.0):
    return {"provider": provider, "region": "r", "sku": sku, "gpu": "G", "purchase_option": option, "kind": "k",
            "units": units, "existing_units": 0.0 if provider == "onprem" else float("nan"), "new_units": new,
            "sold_units": float("nan"), "switched_off_units": float("nan"), "instance_hours": hours, "cost": cost,
            "unit_id": f"{provider}:{sku}:{option}"}


def _cards(*rows):
    return {c.label: c for c in tables.fleet_cards(SimpleNamespace(fleet=pd.DataFrame(list(rows))))}


def test_rentals_of_two_instance_types_are_not_summed_in_hours():
    cards = _cards(_row("onprem", "rtx-4090", "purchase", units=1, new=1, hours=100),
                   _row("aws", "p5.48xlarge", "on_demand", hours=288.0),
                   _row("azure", "Standard_NC4as_T4_v3", "spot", hours=36083.0))
    rent = cards["Rent"]
    assert rent.value == "2 instance types"          # not "36,371 h" (288 + 36,083)
    assert rent.detail == ("aws p5.48xlarge on-demand: 288 instance-h, azure Standard_NC4as_T4_v3 spot: 36,083 instance-h")
    assert cards["Buy"].value == "1 card"             # not "1 cards"


def test_rentals_of_one_instance_type_are_summed_with_their_unit():
    # the same machine on demand and spot: its hours add up (120 + 30)
    cards = _cards(_row("aws", "p5.48xlarge", "on_demand", hours=120.0), _row("aws", "p5.48xlarge", "spot", hours=30.0),
                   _row("aws", "p4d.24xlarge", "reserved_1y", units=1.0, hours=8760.0))
    assert cards["Rent"].value == "150 instance-h"
    assert cards["Reserve"].value == "1 instance"     # not "1 instances"
    assert cards["Buy"].value == "0 cards"
    # no rental at all
    assert _cards(_row("onprem", "rtx-4090", "purchase", units=3, new=3))["Rent"].value == "0 instance-h"
    assert _cards(_row("onprem", "rtx-4090", "purchase", units=3, new=3))["Buy"].value == "3 cards"


def test_a_store_snapshot_a_day_old_is_one_day_ago():
    from datetime import date

    prices = {"source": "store", "cloud_dates": {"prices": 0},
              "snapshots": [{"provider": "aws", "fetched_at": "2026-12-05T08:00:00+00:00", "age_days": 1.2}]}
    _, text = tables.price_banner(prices, today=date(2026, 12, 6))
    assert "aws fetched 2026-12-05 (1 day ago)" in text, text


def test_gpus_of_a_card_sold_as_whole_boards_are_said_as_boards_too():
    # onprem_cards.csv: hgx-h100-8gpu is sold only as whole 8-GPU boards (sold_in_units_of 8); 32 GPUs are 4 boards,
    # where "32 × hgx-h100-8gpu" read as 32 servers (a browser audit, 2026-12-06)
    cards = _cards(_row("onprem", "hgx-h100-8gpu", "purchase", units=32, new=32),
                   _row("onprem", "rtx-4090", "purchase", units=3, new=3))
    assert cards["Buy"].detail == "32 × hgx-h100-8gpu (4 whole 8-GPU boards), 3 × rtx-4090"
