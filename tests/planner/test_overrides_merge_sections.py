"""A mapping given as an override for a section of the models (`onprem`, `constraints`, one card's quote) is merged into
that section, field by field, as its dotted paths would be: `{"onprem": {"pue": 1.5}}` had replaced the whole
section, dropping startup-hybrid's cards, owned RTX 3060s, A100 quote, capex budget and power cap without a word, and
`onprem.card_overrides.a100-80gb-pcie: {price: 12000}` the quote's host cost, watts and life (a notebook audit,
2026-12-07). A mapping of names (`card_overrides`, `fx`) given whole still replaces what it held: that is how an entry
is removed.

The scenario's own values are read from its YAML here, not from the planner.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from planner import load_scenario, plan
from planner.errors import ScenarioError
from planner.scenario import apply_overrides

STARTUP = Path(__file__).resolve().parents[2] / "scenarios" / "startup-hybrid.yaml"
FILE = yaml.safe_load(STARTUP.read_text(encoding="utf-8"))


def test_a_section_given_as_a_mapping_keeps_every_field_it_does_not_give():
    s = apply_overrides(load_scenario(STARTUP), {"onprem": {"pue": 1.5}})
    assert s.onprem.pue == 1.5
    assert list(s.onprem.cards) == FILE["onprem"]["cards"]
    assert set(s.onprem.existing) == set(FILE["onprem"]["existing"])
    assert set(s.onprem.card_overrides) == set(FILE["onprem"]["card_overrides"])
    assert s.onprem.capex_budget == FILE["onprem"]["capex_budget"]
    assert s.onprem.electricity_per_kwh == FILE["onprem"]["electricity_per_kwh"]


def test_the_merged_section_plans_as_its_dotted_path_does():
    by_section = plan(STARTUP, overrides={"onprem": {"pue": 1.5}}, baselines=False)
    by_path = plan(STARTUP, overrides={"onprem.pue": 1.5}, baselines=False)
    assert by_section.total == pytest.approx(by_path.total, rel=1e-9)
    assert by_section.total != pytest.approx(plan(STARTUP, baselines=False).total, rel=1e-6)   # the PUE counts


def test_one_cards_quote_given_as_a_mapping_keeps_its_other_figures():
    quote = FILE["onprem"]["card_overrides"]["a100-80gb-pcie"]
    s = apply_overrides(load_scenario(STARTUP), {"onprem.card_overrides.a100-80gb-pcie": {"price": 12000}})
    merged = s.onprem.card_overrides["a100-80gb-pcie"]
    assert merged.price == 12000
    for field, value in quote.items():
        if field not in ("price", "as_of", "source"):
            assert getattr(merged, field) == value, field


def test_a_mapping_of_names_given_whole_replaces_its_entries():
    s = apply_overrides(load_scenario(STARTUP), {"onprem.card_overrides": {"rtx-4090": {"price": 1500}}})
    assert set(s.onprem.card_overrides) == {"rtx-4090"}


def test_an_unknown_field_inside_a_merged_section_is_named_with_its_did_you_mean():
    with pytest.raises(ScenarioError, match=r"onprem\.pu: unknown key; did you mean 'pue'\?"):
        apply_overrides(load_scenario(STARTUP), {"onprem": {"pu": 1.5}})
