"""A GPU's "did you mean" names the same model under another spelling, or its series with the number mistyped by
one digit (a planning-review audit, 2026-12): `gpu: L20` in a custom card got "did you mean 'GAUDI-HL-205'?"
(difflib finds `l20` in `hl205`), where the catalog has no L20 and the card's GPU is to be described in gpu_specs.
A GPU the catalog lacks is pointed there instead."""

from __future__ import annotations

import pytest
from test_scenario_limits import problems_of

from planner.catalog import gpus_named, suggest_gpu
from planner.errors import CatalogError

WORKLOAD = "workloads:\n  - {name: a, gpu_hours_per_month: 100, reference_gpu: T4%s}\n"


@pytest.mark.parametrize(("typed", "first"), [
    ("L20", None),            # Gaudi HL-205: another series, another number
    ("NVIDIA L20", None),     # NVIDIA L40S: the series, but 20 is not 40 mistyped by a slip of one digit
    ("RTX 4080", None),       # a real GPU the catalog lacks, not the RTX 4090 mistyped
    ("RTX-A500", "RTX-A5000"),   # a digit dropped
    ("RTX 4900", "RTX-4090"),    # two digits swapped
    ("4090", "RTX-4090"),        # the model number alone
    ("RXT-4090", "RTX-4090"),    # the series mistyped, the number right
    ("guadi", "GAUDI-HL-205"),   # no number: the spelling alone
])
def test_a_gpu_is_suggested_only_for_the_same_model(typed, first):
    assert (suggest_gpu(typed, same_model=True) or [None])[0] == first


def test_a_custom_cards_unknown_gpu_points_to_gpu_specs():
    # "    l20: {" is 10 characters, "price: 5000, busy_watts: 300, idle_watts: 30, life_years: 5, gpu: " 66 more
    text = ("name: t\nonprem:\n  custom_cards:\n"
            "    l20: {price: 5000, busy_watts: 300, idle_watts: 30, life_years: 5, gpu: L20}\n" + WORKLOAD % "")
    assert problems_of(text) == [
        "s.yaml:4:77: onprem.custom_cards.l20.gpu: unknown GPU 'L20': expected a GPU id of planner/data/gpus.csv; for "
        "a GPU the catalog lacks, describe it in gpu_specs instead of gpu (memory_gb and the datasheet figures you have: "
        "docs/scenario-format.md, onprem.custom_cards.CARD.gpu_specs)"]


def test_a_throughput_keys_unknown_gpu_points_to_a_custom_card():
    # "  - {name: a, gpu_hours_per_month: 100, reference_gpu: T4, throughput: {" is 72 characters: the key at 73
    assert problems_of("name: t\n" + WORKLOAD % ", throughput: {L20: 1.3}") == [
        "s.yaml:3:73: workloads[0].throughput.L20: unknown GPU 'L20' (see `fleetplan offers` or planner/data/gpus.csv; "
        "for a GPU it lacks, describe a card with it in onprem.custom_cards (gpu_specs) and give the card's id here)"]


def test_a_gpu_filter_suggests_no_other_model():
    with pytest.raises(CatalogError) as caught:
        gpus_named("L20")
    assert str(caught.value) == "--gpu 'L20': no such GPU, alias or family"
