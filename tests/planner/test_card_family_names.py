"""A GPU family's name given where a card id is expected (`onprem.cards: [A100]`, `constraints.min_units: {a100: 1}`)
names every card of the family and whether the catalog has a sourced price for it. It said "did you mean
'a100-40gb-pcie'?" (and 'h100-pcie' for H100): cards with no price, so the plan taking the hint bought nothing,
while the priced a100-80gb-pcie and hgx-h100-8gpu went unmentioned. The expected cards are read here from the
packaged CSVs with the csv module, not from the code under test."""

import csv
from pathlib import Path

import pytest

from planner import ScenarioError, apply_overrides, load_scenario

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "planner" / "data"
HYBRID = ROOT / "scenarios" / "startup-hybrid.yaml"


def _rows(name):
    with (DATA / name).open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def family_cards(family):
    """{card id: whether it has a sourced price} for the cards of the GPUs whose family cell names `family`; a
    card can be bought only with both its price and its host cost (offers.unpriced_card_rows' rule)."""
    gpus = {r["gpu"] for r in _rows("gpus.csv") if family in [f.strip() for f in r["family"].split(";")]}
    return {r["card_id"]: bool(r["price"].strip() and r["host_cost_per_card"].strip())
            for r in _rows("onprem_cards.csv") if r["gpu"] in gpus}


def problems(overrides):
    with pytest.raises(ScenarioError) as info:
        apply_overrides(load_scenario(HYBRID), overrides)
    return info.value.problems


def assert_lists_family(message, family):
    cards = family_cards(family)
    assert len(cards) > 1 and any(cards.values()) and not all(cards.values())   # the case the fix is about
    for card, priced in cards.items():
        assert f"{card} ({'sourced price' if priced else 'no sourced price'})" in message, (card, message)
    assert "did you mean" not in message


@pytest.mark.parametrize("family", ["A100", "H100"])
@pytest.mark.parametrize("overrides", [
    lambda f: {"onprem.cards": [f]},
    lambda f: {"constraints.min_units": {f.lower(): 1}},
    lambda f: {"constraints.max_units": {f: 1}},
    lambda f: {"onprem.existing": {f: 1}},
    lambda f: {"onprem.card_overrides": {f: {"price": 1000}}},
], ids=["cards", "min_units", "max_units", "existing", "card_overrides"])
def test_a_family_name_lists_its_cards_and_which_are_priced(family, overrides):
    [message] = problems(overrides(family))
    assert "unknown card" in message and "names a family" in message
    assert_lists_family(message, family)


def test_a_family_name_in_a_file_lists_its_cards(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("name: t\nworkloads:\n  - {name: w, gpu_hours_per_month: 10, reference_gpu: RTX-A5000}\n"
                    "onprem:\n  cards: [rtx-4090, A100]\n", encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    [message] = info.value.problems
    assert message.startswith(f"{path}:5:21: onprem.cards[1]: unknown card 'A100': it names a family")
    assert_lists_family(message, "A100")


def test_a_priced_card_the_message_lists_is_accepted():
    priced = [card for card, ok in family_cards("A100").items() if ok]
    assert apply_overrides(load_scenario(HYBRID), {"onprem.cards": priced}).onprem.cards == tuple(priced)


def test_a_gpu_id_points_at_its_own_card():
    # H100-SXM is sold as the 8-GPU HGX board: the nearest spelling among card ids was h100-nvl, another GPU
    [card] = [r["card_id"] for r in _rows("onprem_cards.csv") if r["gpu"] == "H100-SXM"]
    [message] = problems({"onprem.cards": ["H100-SXM"]})
    assert message.endswith(f"unknown card 'H100-SXM'; did you mean '{card}'?")


def test_a_family_with_no_card_says_so():
    assert family_cards("V100") == {}
    [message] = problems({"onprem.cards": ["V100"]})
    assert "names a family" in message and "onprem.custom_cards" in message
    for gpu in (r["gpu"] for r in _rows("gpus.csv") if "V100" in r["family"].split(";")):
        assert gpu in message
