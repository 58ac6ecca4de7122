"""A plan's stale-price count and the share of its total resting on stale prices ("1 older than 180 days (51.5 % of
the total)") are judged on one date: each read the clock, so a plan made across midnight UTC could count a price
stale in its share and not in its count.

worked-example.yaml rents one AWS offer, g5.xlarge on demand in us-east-1, dated 2026-07-20, beside an RTX A5000 the
scenario quotes (a quote is never stale): on 2027-01-16 that price is 180 days old (11 days left of July + 31 + 30 +
31 + 30 + 31 + 16), not stale; on 2027-01-17 it is 181 days old, stale. The clock (shown.utc_today, which
catalog.prices.utc_today reads) says 2027-01-16 until the plan's date report has been made, 2027-01-17 after: the
moment a run crosses midnight."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from planner import catalog, load_scenario, plan
from pricing_adapters import shown

ROOT = Path(__file__).resolve().parents[2]


def test_the_stale_count_and_the_stale_share_read_one_date(monkeypatch):
    midnight_passed = []
    report = catalog.date_report

    def report_then_midnight(*args, **kwargs):
        made = report(*args, **kwargs)
        midnight_passed.append(True)
        return made

    monkeypatch.setattr(shown, "utc_today", lambda: date(2027, 1, 17) if midnight_passed else date(2027, 1, 16))
    monkeypatch.setattr(catalog, "date_report", report_then_midnight)
    p = plan(load_scenario(ROOT / "examples" / "worked-example.yaml"), baselines=False)
    assert midnight_passed   # the clock did turn while the plan was made
    assert (p.prices["stale_prices"], p.prices["date_warnings"]) == (0, [])
    assert (p.prices["stale_cost"], p.prices["stale_share_of_total"]) == (0.0, 0.0)
