"""model.card (extra constraints) given a GPU family's name tells it as a scenario's card ids are told: every card of
the family with whether the catalog prices it, not the nearest spelling (one card of the family, often unpriced).

Oracle: the packaged catalog's own card rows (their GPU's family and price cells), read here."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.catalog import card_rows
from planner.engine import build_model, inputs_for, reduce
from planner.errors import PlannerError
from planner.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def model():
    return build_model(reduce(inputs_for(load_scenario(ROOT / "scenarios" / "industrial.yaml"))))


def test_a_family_name_lists_its_cards_and_their_prices(model):
    with pytest.raises(PlannerError) as caught:
        model.card("A100")
    said = str(caught.value)
    a100 = {card: row for card, row in card_rows().items() if row["gpu"].startswith("A100")}
    assert len(a100) >= 2
    for card, row in a100.items():
        priced = bool(row["price"].strip() and row["host_cost_per_card"].strip())
        assert f"{card} ({'sourced price' if priced else 'no sourced price'})" in said
    assert "did you mean" not in said
    assert "the model's cards:" in said


def test_a_near_miss_of_a_models_card_is_still_suggested(model):
    with pytest.raises(PlannerError, match="did you mean a100-80gb-pcie"):
        model.card("a100-80gb-pcei")
