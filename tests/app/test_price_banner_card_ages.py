"""The Plan page's price banner judges the catalog's card prices too (tables.price_banner): a plan resting on a card price
older than the 180 days after which a plan's warnings call a price stale (catalog.prices.STALE_AFTER_DAYS), or on a
price with no date, is yellow, and the undated prices are named as the command line names them ("undated prices: …:
aws p4d.24xlarge spot (us-east-1)"), not only counted. Oracles: the dates of planner/data/onprem_cards.csv (rtx-4090
2023-11-23, rtx-3060-12gb undated) and day counts worked by hand."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pandas as pd

from fleetplan_dashboard import tables
from planner import load_scenario, plan
from planner.reports.tables import written_prices

ROOT = Path(__file__).resolve().parents[2]
DEC_6 = date(2026, 12, 6)


def _dated(as_of, prices=1, undated=0):
    return {"as_of": as_of, "as_of_oldest": as_of, "prices": prices, "undated_prices": undated}


def test_a_plan_on_an_old_card_price_and_no_cloud_price_gets_a_warning():
    # mid-research.yaml with both providers removed (the audit's case): the plan buys RTX 4090s alone, whose catalog
    # price is dated 2023-11-23: 1,109 days before 2026-12-06 (3 × 365 + 2024's leap day to 2026-11-23, then 13)
    mid = load_scenario(ROOT / "scenarios" / "mid-research.yaml")
    on_prem = mid.model_copy(update={"prices": mid.prices.model_copy(update={"providers": ()})})
    p = plan(on_prem, baselines=False)
    level, text = tables.price_banner(written_prices(p), today=DEC_6, scenario=p.scenario)
    assert level == "warning", text
    assert "no cloud price in use · catalog card prices as of 2023-11-23" in text
    assert text.startswith("**The catalog card prices are up to 1,109 days old, past the 180-day mark: check current "
                           "prices before deciding.**"), text
    assert (". The oldest catalog card price is dated 2023-11-23; a quote of your own goes in the Plan page's quote box "
            "(sidebar, On-prem cards) or under the scenario file's “Card overrides") in text


def test_the_card_prices_are_stale_past_the_same_days_as_a_plans_warnings():
    # 2026-06-09 is 180 days before 2026-12-06 (21 days left of June + 31 + 31 + 30 + 31 + 30 + 6): not yet stale, as
    # catalog.date_report counts (older than 180 days); a day older is
    for as_of, level in (("2026-06-09", "info"), ("2026-06-08", "warning")):
        got, text = tables.price_banner({"source": "snapshot", "cloud_dates": _dated(None, prices=0),
                                         "card_dates": _dated(as_of)}, today=DEC_6)
        assert got == level, text
        # a cloud price of the same date, by the same rule (the command line's one rule for every price)
        got, text = tables.price_banner({"source": "snapshot", "cloud_dates": _dated(as_of)}, today=DEC_6)
        assert got == level, text
    # 2026-07-20 is 139 days old: not a stale cloud price, as the command line does not call it one
    level, text = tables.price_banner({"source": "snapshot", "cloud_dates": _dated("2026-07-20")}, today=DEC_6)
    assert level == "info" and "past the 180-day mark" not in text, text
    assert text.startswith("**The prices are recent: the newest cloud price is 139 days old.**"), text
    # both past it: the cloud's age, then the cards', in the first sentence; the cards' date and where a quote goes
    # at the end
    _, text = tables.price_banner({"source": "snapshot", "cloud_dates": _dated("2026-06-08"),
                                   "card_dates": _dated("2026-06-08")}, today=DEC_6)
    assert text.startswith("**The cloud prices are 181 days old and the catalog card prices up to 181 days old, past "
                           "the 180-day mark: check current prices before deciding.**"), text
    assert text.endswith("The oldest catalog card price is dated 2026-06-08; a quote of your own goes in the Plan "
                         "page's quote box (sidebar, On-prem cards) or under the scenario file's “Card overrides (your "
                         "figures for catalog cards)”.")


def test_an_undated_card_price_is_a_warning_and_named():
    # the card prices used: one undated (as rtx-3060-12gb's), no cloud price; named from the plan's offers table, where
    # its as_of is empty (planner/data/onprem_cards.csv), as the command line names it ("card rtx-3060-12gb")
    prices = {"source": "snapshot", "cloud_dates": _dated(None, prices=0), "card_dates": _dated(None, undated=1)}
    offers = pd.DataFrame({"provider": ["onprem"], "region": [""], "sku": ["rtx-3060-12gb"], "purchase_option": [""],
                           "as_of": [None], "source": ["seed guide: 'RTX 3060 ≈ ¥2,500' (undated)"]})
    level, text = tables.price_banner(prices, today=DEC_6, offers=offers)
    assert (level, text) == ("warning", "**1 price used has no date and may be old: check current prices before "
                                        "deciding.**\n\n"
                                        r"Prices: packaged price snapshot · no cloud price in use · 1 catalog card price, "
                                        r"undated. The price used with no date: card rtx\-3060\-12gb.")


def test_the_banner_names_the_undated_prices_of_a_real_plan():
    # industrial.yaml rents aws p4d.24xlarge spot in us-east-1, whose snapshot row has no date; startup-hybrid.yaml
    # buys the catalog's rtx-3060-12gb, whose price has none either
    for name, undated in (("industrial", r"aws p4d\.24xlarge spot \(us\-east\-1\)"),
                          ("startup-hybrid", r"card rtx\-3060\-12gb")):
        p = plan(load_scenario(ROOT / "scenarios" / f"{name}.yaml"), baselines=False)
        level, text = tables.price_banner(written_prices(p), today=DEC_6, scenario=p.scenario, offers=p.offers)
        assert level == "warning"
        assert f"The price used with no date: {undated}." in text, text
