"""The Prices page's offers a workload cannot use, as an audit in Chromium found them (2026-12-06): with the switch on,
their reasons came in a 340 px column after every usable offer (row 18 for startup-hybrid's llm-finetune, 97 for
prototyping), that column pushed the price off a phone's screen, and 29 of the 71 distinct reasons of the shipped
scenarios were cut in it ("INFERENTIA is not a GPU (needs its own SDK): name it in t…"). Now the table keeps the
usable offers, their price beside their name, and under it each reason is listed once, whole, as text that wraps,
with how many offers it covers and their first names. tests/app/test_browser.py checks it at 390 px.

Oracles: offers written here and their lines by hand; for the page, the engine's reasons of the same offers
(tables.per_reference_hour, engine.workloads) counted here with pandas."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import tables
from planner import load_scenario
from planner.catalog import price_table
from planner.engine.offer_costs import OfferFilter, offers_table

ROOT = Path(__file__).resolve().parents[2]
PRICES_PAGE = "fleetplan_dashboard/pages/prices.py"

RANKED = pd.DataFrame({
    "sku": ["a", "p3.2xlarge", "p3.8xlarge", "p3.2xlarge", "g4dn.xlarge", "g4dn.2xlarge", "inf1.xlarge",
            "g4dn.4xlarge", "*x*"],
    "cannot_serve": ["", "16 GB per GPU < 80 GB needed", "16 GB per GPU < 80 GB needed", "16 GB per GPU < 80 GB needed",
                     "16 GB per GPU < 80 GB needed", "16 GB per GPU < 80 GB needed",
                     "INFERENTIA is not a GPU (needs its own SDK): name it in the workload's throughput table to allow it",
                     "16 GB per GPU < 80 GB needed", "unknown accelerator *x*"]})


def test_each_reason_once_with_its_offers_and_their_names_most_offers_first():
    reasons = tables.unusable_reasons(RANKED)
    assert reasons["reason"].tolist() == [
        "16 GB per GPU < 80 GB needed",
        "INFERENTIA is not a GPU (needs its own SDK): name it in the workload's throughput table to allow it",
        "unknown accelerator *x*"]
    assert reasons["offers"].tolist() == [6, 1, 1]
    assert reasons["names"].tolist() == [["p3.2xlarge", "p3.8xlarge", "g4dn.xlarge", "g4dn.2xlarge", "g4dn.4xlarge"],
                                         ["inf1.xlarge"], ["*x*"]]
    assert tables.unusable_reasons(RANKED[RANKED["cannot_serve"] == ""]).empty


def test_a_reasons_line_is_the_reason_whole_its_count_and_its_first_names_escaped():
    lines = [tables.unusable_reason_line(r.reason, r.offers, r.names) for r in tables.unusable_reasons(RANKED).itertuples()]
    assert lines == [
        r"- 16 GB per GPU \< 80 GB needed — 6 offers, 5 cards or instances: p3\.2xlarge, p3\.8xlarge, g4dn\.xlarge "
        "and 2 more",
        r"- INFERENTIA is not a GPU \(needs its own SDK\)\: name it in the workload\'s throughput table to allow it — "
        r"1 offer: inf1\.xlarge",
        r"- unknown accelerator \*x\* — 1 offer: \*x\*"]
    # a name seen in several offers (regions, purchase options) is counted once
    assert tables.unusable_reason_line("r", 3, ["g5.xlarge"]) == r"- r — 3 offers, 1 card or instance: g5\.xlarge"


def _unescaped(markdown: str) -> str:
    return re.sub(r"\\(.)", r"\1", markdown)


def _engine_reasons(workload_name: str) -> pd.Series:
    """The engine's reasons for the offers the page shows by default (startup-hybrid, the offers it allows), counted."""
    s = load_scenario(ROOT / "scenarios" / "startup-hybrid.yaml")
    usd = s.fx_rate("USD")
    cloud, _ = price_table(s.prices.source, snapshot=s.prices.snapshot)
    table, _ = offers_table(OfferFilter(), fx_to_usd={c: r / usd for c, r in s.fx.items() if c != "USD"},
                            electricity_usd_per_kwh=s.onprem.electricity_per_kwh / usd, pue=s.onprem.pue, cloud=cloud,
                            scenario=s, allowed_only=True)
    workload = next(w for w in s.workloads if w.name == workload_name)
    reasons = tables.per_reference_hour(table, workload, s)["cannot_serve"]
    return reasons[reasons != ""].value_counts()


def test_the_page_lists_every_reason_whole_once_with_the_offers_it_covers():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.switch_page(PRICES_PAGE).run()
    for workload in ("llm-finetune", "prototyping"):
        at.selectbox(key="prices_workload").set_value(workload).run()
        at.toggle(key="prices_unusable").set_value(True).run()
        assert not at.exception, [e.value for e in at.exception]
        expected = _engine_reasons(workload)
        (heading,) = [h.value for h in at.subheader if "cannot use" in h.value]
        assert _unescaped(heading) == f"Offers {workload} cannot use ({expected.sum():,})"
        (listing,) = [m.value for m in at.markdown if m.value.startswith("- ")]
        lines = [_unescaped(line[2:]).rsplit(" — ", 1) for line in listing.split("\n")]
        shown = {reason: int(re.match(r"([\d,]+) offers?", rest).group(1).replace(",", "")) for reason, rest in lines}
        assert len(shown) == len(lines)                     # each reason once
        assert shown == expected.to_dict()                  # whole, as the engine says it, with its offers
        counts = list(shown.values())
        assert counts == sorted(counts, reverse=True)       # most offers first
        assert "cannot_serve" not in at.dataframe[0].value.columns
        at.toggle(key="prices_unusable").set_value(False).run()
        assert not [m for m in at.markdown if m.value.startswith("- ")]
