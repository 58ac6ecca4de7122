"""The note on owned cards kept says why by what the scenario allowed: "worth more than selling it" read as
the plan's verdict where `onprem.sell_owned: false` had ruled the sale out (a review, 2026-12-04)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from planner import load_scenario, plan

WORKED = Path(__file__).resolve().parents[2] / "examples" / "worked-example.yaml"


@pytest.mark.parametrize(("sell", "switch_off", "note"), [
    (True, True, "kept: its work is worth more than selling it or switching it off"),
    (True, False, "kept: its work is worth more than selling it"),
    (False, True, "kept: its work is worth more than switching it off"),
    (False, False, "kept: onprem.sell_owned and onprem.switch_off_owned are false"),
])
def test_an_owned_card_kept_is_explained_by_what_the_scenario_allowed(sell, switch_off, note):
    # the worked example's 800 GPU-hours a month keep one owned RTX A5000 busy all the time (730 h × 0.9
    # availability = 657 h of work a month, the rest rented): keeping it beats selling it (its resale is at
    # most half of 2,500) and switching it off (it saves renting 657 A10G-hours a month at 1.006 / 0.8)
    doc = yaml.safe_load(WORKED.read_text(encoding="utf-8"))
    doc["prices"]["source"] = str(WORKED.parent / doc["prices"]["source"])
    doc["onprem"].update(existing={"rtx-a5000": {"count": 1, "age_months": 6}}, sell_owned=sell,
                         switch_off_owned=switch_off)
    owned = plan(load_scenario(doc), baselines=False).owned
    assert owned[["card", "owned_units", "kept", "switched_off", "sold"]].values.tolist() == [["rtx-a5000", 1, 1, 0, 0]]
    assert owned["note"].tolist() == [note]
