"""What each limit costs and the price banner speak to a budget holder: the limits were named by their scenario
fields ("onprem.capex_budget", "constraints.min_units.a100-80gb-pcie"), a note told to "list it in onprem.cards" or
pointed at `--unreduced`, and the banner said "(pinned)" and "check current prices (`fleetplan prices refresh`)"
as the only way on. Now the Plan page's words for the fields (tables.FIELD_WORDS) name them, and where something is
to be done the page says where (the Prices page, the scenario file's Price source), the command kept for whoever
runs it, said as the page says its other commands ("on the command line").

Oracles: startup-hybrid.yaml's limits (power_cap_kw 6, capex_budget 60,000, min_units {a100-80gb-pcie: 1},
max_units {rtx-4090: 4}), its cloud price dated 2026-07-20 (139 days before 2026-12-06), and the engine's notes as
engine/decisions.py writes them, copied here."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pandas as pd
import pytest

from fleetplan_dashboard import tables
from planner.engine.decisions import CAP_COST_COLUMNS
from tests.app.test_money_basis_labels import _plan_page

ROOT = Path(__file__).resolve().parents[2]
# a scenario field as the engine names it: a section, a dot, a field (Markdown may escape the dot)
FIELD_PATH = re.compile(r"\b(onprem|constraints|prices|workloads)\\?\.\w")

PERMITS = ("h100-sxm is not in onprem.cards: this minimum is what lets the plan buy it, and without it the plan "
           "has no fleet; list it in onprem.cards to let the plan choose how many")
MERGED = ("may be less by this plan's merged-hours excess: its hours share instance mixes that may cost more than "
          "the best plan under the cap (its warning; `--unreduced` plans every hour), while without the cap they "
          "are exact")


def _row(cap, limit, unit, note=""):
    return {"cap": cap, "limit": limit, "unit": unit, "status": "optimal", "total_without": 1.0, "saving": 0.0,
            "saving_pct": 0.0, "binds": False, "note": note, "dropped_in": []}


def test_each_limit_is_named_in_words_and_its_note_names_no_field_or_option():
    caps = pd.DataFrame([_row("onprem.power_cap_kw", 6, "kW"), _row("onprem.capex_budget", 60000, "USD"),
                         _row("onprem.capex_budget_per_year", 20000, "USD"),
                         _row("constraints.max_cloud_share", 0.6, "share", MERGED),
                         _row("constraints.min_units.h100-sxm", 1, "cards", PERMITS),
                         _row("constraints.max_units.rtx-4090", 4, "cards")], columns=CAP_COST_COLUMNS)
    shown = tables.cap_costs_table(caps)
    assert shown["cap"].tolist() == ["Power cap, kW", "Capex budget", "Capex budget per year",
                                     "Cloud share cap (of the work)", "h100-sxm: least cards", "rtx-4090: most cards"]
    assert shown["note"].tolist()[4] == (
        "h100-sxm is not among the cards that may be bought (a list in the scenario file): this minimum is what lets "
        "the plan buy it, and without it the plan has no fleet; add it to that list to let the plan choose how many")
    assert shown["note"].tolist()[3] == (
        "may be less by this plan's merged-hours excess: its hours share instance mixes that may cost more than the "
        "best plan under the cap (its warning; planning the scenario's file on the command line, `fleetplan plan "
        "--unreduced FILE`, plans every hour), while without the cap they are exact")
    assert caps["cap"].tolist()[0] == "onprem.power_cap_kw"          # the plan's own table keeps the fields


@pytest.mark.parametrize(("prices", "advice"), [
    ({"source": "snapshot"}, "newer ones need a price refresh, made on the command line (`fleetplan prices refresh`), "
                             "and the scenario file's Price source set to the price store."),
    ({"source": "store"}, "newer ones need a price refresh, made on the command line (`fleetplan prices refresh`)."),
    ({"source": "store", "pinned_snapshot": 3},
     "newer ones need a price refresh, made on the command line (`fleetplan prices refresh`), and the scenario file's "
     "Price store snapshot removed."),
    ({"source": "/data/offers.csv"}, "newer ones need a newer offers CSV."),
])
def test_old_prices_say_where_to_look_and_how_newer_ones_reach_the_plan(prices, advice):
    # 196 days (11 days left of July 2026 + 31 + 30 + 31 + 30 + 31 + 31 + 1): past the plan's 180
    dated = {"prices": 1, "as_of": "2026-07-20", "as_of_oldest": "2026-07-20"}
    level, text = tables.price_banner({**prices, "cloud_dates": dated}, today=date(2027, 2, 1))
    assert level == "warning"
    # first how old, and what to do; where the dates are and how newer prices reach the plan after the list
    assert text.startswith("**The cloud prices are 196 days old, past the 180-day mark: check current prices before "
                           "deciding.**\n\n"), text
    assert text.endswith("(196 days ago). The Prices page shows each offer's date; " + advice), text
    assert "pinned" not in text and not FIELD_PATH.search(text)
    if "pinned_snapshot" in prices:
        assert "\n\nPrices: price store as it stood at its snapshot #3, fixed by the scenario file · " in text


def test_a_store_that_had_no_prices_is_not_told_to_be_chosen_again():
    # the scenario asks for the store, which had nothing to give: the plan read the packaged snapshot
    from planner import load_scenario

    startup = load_scenario(ROOT / "scenarios" / "startup-hybrid.yaml")
    asks_store = startup.model_copy(update={"prices": startup.prices.model_copy(update={"source": "store"})})
    undated = {"prices": 1, "undated_prices": 1}
    _, text = tables.price_banner({"source": "snapshot", "cloud_dates": undated}, scenario=asks_store)
    assert text.endswith("newer ones need a price refresh, made on the command line (`fleetplan prices refresh`).")


def test_the_plan_pages_limits_and_banner_name_no_scenario_field(fresh_cache, monkeypatch):
    monkeypatch.setattr(tables, "utc_today", lambda: date(2027, 2, 1))   # the cloud price 196 days old
    at = _plan_page("startup-hybrid.yaml")
    (caps,) = [d.value for d in at.dataframe if d.value.columns[0] == "cap"]
    # CAPS order, then each card's limits in the order the engine's units table lists them
    assert caps["cap"].tolist() == ["Power cap, kW", "Capex budget", "Cloud share cap (of the work)",
                                    "rtx-4090: most cards", "a100-80gb-pcie: least cards"]
    assert not [n for n in caps["note"] if FIELD_PATH.search(n) or "--" in n]
    said = [c.value for c in at.caption if c.value.startswith(("Binds:", "No limit binds", "Not known for"))
            or " costs less than the plan: it drops " in c.value]
    assert said and not [s for s in said if FIELD_PATH.search(s)], said
    (banner,) = [w.value for w in at.warning if "\n\nPrices: " in w.value]
    assert "newest cloud price as of 2026-07-20 (196 days ago)" in banner
    assert banner.startswith("**The cloud prices are 196 days old and the catalog card prices up to "), banner
    assert (". The Prices page shows each offer's date; newer ones need a price refresh, made on the command line "
            "(`fleetplan prices refresh`), and the scenario file's Price source set to the price store.") in banner, banner
    # then the catalog's card prices, in the page's words for where a quote goes
    assert banner.endswith("a quote of your own goes in the Plan page's quote box (sidebar, On-prem cards) "
    "or under the scenario file's “Card overrides (your figures for "
                           "catalog cards)”. The price used with no date: card rtx\\-3060\\-12gb."), banner


# a file of the repository (docs/decisions.md), which a budget holder using the dashboard does not have
REPOSITORY_FILE = re.compile(r"\b(docs|planner|fleetplan_dashboard|scenarios)/|\w\.md\b")


def test_the_plan_pages_texts_point_to_no_file_of_the_repository(fresh_cache):
    at = _plan_page("startup-hybrid.yaml")
    # as a reader sees them: without the backslash escapes of tables.plain
    shown = [e.value.replace("\\", "") for kind in (at.caption, at.markdown, at.warning, at.info) for e in kind]
    assert not [text for text in shown if REPOSITORY_FILE.search(text)]
    # the decisions' work is said without a pointer: nothing on the page explains their method further
    (work,) = [text for text in shown if " re-solves of this scenario, " in text]
    assert work.endswith(" s, made in the background after the plan was shown."), work
    # why a baseline may cost less than the plan: the page's own table says which limits it drops
    (binding,) = [text for text in shown if text.startswith(("Binds:", "No limit binds", "Not known for"))]
    assert binding.endswith(" A baseline cheaper than the plan is so for the limits it drops, those that bind or "
                            "several together: its note in the baselines table (*Cost by category, baselines and "
                            "solver*) names them."), binding

