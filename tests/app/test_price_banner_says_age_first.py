"""The Plan page's price banner opens with what a budget holder needs: how old the prices are and what to do, in one
plain sentence, in bold, a paragraph of its own; the sources, dates, shares and how to get newer prices follow (a
browser audit, 2026-12-07: the age and the advice came after a line of sources, dates and shares of the total).
Every fact the banner stated before is still said.

Oracles by hand: 2026-04-20 is 230 days before 2026-12-06 (10 days left of April + 31 + 30 + 31 + 31 + 30 + 31 + 30
+ 6); 2026-12-01 is 5 days before; the RTX 4090's catalog price, 2023-11-23, is 1,109 days before (3 × 365 + 2024's
leap day to 2026-11-23, then 13); the plan calls a price old past 180 days (catalog.prices.STALE_AFTER_DAYS).
"""

from __future__ import annotations

from datetime import date

from fleetplan_dashboard import tables

DEC_6 = date(2026, 12, 6)


def _dated(as_of, prices=1, undated=0):
    return {"prices": prices, "undated_prices": undated, "as_of": as_of, "as_of_oldest": as_of}


def _paragraphs(prices: dict) -> tuple[str, list[str]]:
    level, text = tables.price_banner(prices, today=DEC_6)
    return level, text.split("\n\n")


def test_old_cloud_prices_say_their_age_and_to_check_first():
    level, (first, details) = _paragraphs({"source": "snapshot", "cloud_dates": _dated("2026-04-20")})
    assert level == "warning"
    assert first == "**The cloud prices are 230 days old, past the 180-day mark: check current prices before deciding.**"
    # the details keep the source, the date, where the dates are shown and how newer prices reach a plan
    assert details == ("Prices: packaged price snapshot · newest cloud price as of 2026-04-20 (230 days ago). The Prices "
                       "page shows each offer's date; newer ones need a price refresh, made on the command line "
                       "(`fleetplan prices refresh`), and the scenario file's Price source set to the price store.")


def test_old_card_prices_and_an_undated_one_are_said_in_the_first_sentence_too():
    prices = {"source": "snapshot", "cloud_dates": _dated("2026-12-01"),
              "card_dates": {"prices": 2, "undated_prices": 1, "as_of": "2023-11-23", "as_of_oldest": "2023-11-23"}}
    level, (first, details) = _paragraphs(prices)
    assert level == "warning"
    assert first == ("**The catalog card prices are up to 1,109 days old, past the 180-day mark; 1 price used has no "
                     "date and may be old: check current prices before deciding.**")
    assert details.startswith("Prices: packaged price snapshot · newest cloud price as of 2026-12-01 (5 days ago) · "
                              "catalog card prices as of 2023-11-23, 1 undated. The oldest catalog card price is dated "
                              "2023-11-23; a quote of your own goes in the Plan page's quote box"), details


def test_recent_prices_say_so_first():
    level, (first, details) = _paragraphs({"source": "snapshot", "cloud_dates": _dated("2026-12-01")})
    assert level == "info"
    assert first == "**The prices are recent: the newest cloud price is 5 days old.**"
    assert details == "Prices: packaged price snapshot · newest cloud price as of 2026-12-01 (5 days ago)."
