"""Loud gaps and honest dates: `option_gaps` and `date_report` on small tables worked by hand (issue 16)."""

from datetime import date
from pathlib import Path

import pandas as pd
import pytest

from planner import load_scenario
from planner.catalog.prices import date_report, option_gaps, price_table
from pricing_adapters.schema import validate_offers

ROOT = Path(__file__).resolve().parents[2]


def scenario(providers=("aws",), regions=None, options=("on_demand", "spot", "reserved_1y"), source="snapshot"):
    prices = {"source": source, "providers": list(providers), "purchase_options": list(options)}
    if regions is not None:
        prices["regions"] = list(regions)
    return load_scenario({"name": "t", "currency": "USD", "horizon_months": 12, "prices": prices,
                          "workloads": [{"name": "w", "gpu_hours_per_month": 10, "reference_gpu": "T4"}]})


def offers(rows):
    """An offers table from (provider, region, sku, option, as_of) tuples; the other columns are filler."""
    terms = {"reserved_1y": 12, "reserved_3y": 36, "savings_plan_1y": 12, "savings_plan_3y": 36}
    return validate_offers(pd.DataFrame([{
        "offer_id": f"{p}:{r}:{s}:{o}", "provider": p, "region": r, "sku": s, "purchase_option": o, "gpu": "T4",
        "gpu_count": 1.0, "gpu_memory_gb": 16.0, "vcpus": 4.0, "memory_gb": 16.0, "hourly_price": 1.0,
        "upfront_price": 0.0, "currency": "USD", "term_months": terms.get(o, 0), "as_of": a, "source": "hand-made",
    } for p, r, s, o, a in rows]))


TABLE = offers([
    ("aws", "us-east-1", "g4dn.xlarge", "on_demand", "2026-07-20"),
    ("aws", "us-east-1", "g4dn.xlarge", "spot", ""),
    ("aws", "eu-west-1", "g4dn.xlarge", "reserved_1y", "2026-07-20"),
    ("azure", "eastus", "Standard_NC4as_T4_v3", "on_demand", "2026-06-18"),
    ("azure", "eastus", "Standard_NC4as_T4_v3", "savings_plan_1y", "2026-06-18"),
])


# ------------------------------------------------------------------ option_gaps

def test_reserved_1y_without_a_price_in_the_allowed_region_is_named():
    gaps = option_gaps(scenario(regions=["us-east-1"]), TABLE)
    # reserved_1y is priced only in eu-west-1, which this scenario does not allow
    assert gaps == ["reserved_1y: no reserved_1y prices for aws in us-east-1 in the snapshot prices; "
                    "plans use on_demand/spot only"]


def test_every_allowed_option_priced_gives_no_warning():
    assert option_gaps(scenario(regions=["us-east-1", "eu-west-1"]), TABLE) == []
    assert option_gaps(scenario(options=("on_demand",)), TABLE) == []


def test_all_regions_allowed_counts_any_region():
    assert option_gaps(scenario(regions=None, options=("reserved_1y",)), TABLE) == []
    gaps = option_gaps(scenario(regions=None, options=("on_demand", "reserved_3y")), TABLE)
    assert gaps == ["reserved_3y: no reserved_3y prices for aws (any region) in the snapshot prices; "
                    "plans use on_demand only"]


def test_an_option_priced_for_one_provider_only_names_the_other():
    s = scenario(providers=("aws", "azure"), regions=["us-east-1", "eastus"], options=("on_demand", "savings_plan_1y"))
    assert option_gaps(s, TABLE) == ["savings_plan_1y: no savings_plan_1y prices for aws in us-east-1 in the snapshot "
                                     "prices; savings_plan_1y is priced only for azure"]


def test_one_warning_per_option_naming_every_provider_without_it():
    s = scenario(providers=("aws", "azure"), regions=["us-east-1", "eastus"],
                 options=("on_demand", "reserved_1y", "reserved_3y"))
    assert option_gaps(s, TABLE) == [
        "reserved_1y: no reserved_1y prices for aws in us-east-1 or azure in eastus in the snapshot prices; "
        "plans use on_demand only",
        "reserved_3y: no reserved_3y prices for aws in us-east-1 or azure in eastus in the snapshot prices; "
        "plans use on_demand only",
    ]


def test_a_provider_without_any_allowed_region_is_not_blamed():
    # azure has no offer in us-east-1: the region list excludes it, so only aws is named
    s = scenario(providers=("aws", "azure"), regions=["us-east-1"], options=("on_demand", "reserved_1y"))
    assert option_gaps(s, TABLE) == ["reserved_1y: no reserved_1y prices for aws in us-east-1 in the snapshot prices; "
                                     "plans use on_demand only"]


def test_the_packaged_snapshot_has_no_reserved_prices_so_shipped_scenarios_are_warned():
    table, _ = price_table("snapshot")
    gaps = option_gaps(scenario(providers=("aws", "azure"), regions=["us-east-1", "eastus"],
                                options=("on_demand", "spot", "reserved_1y", "reserved_3y")), table)
    assert [g.split(":")[0] for g in gaps] == ["reserved_1y", "reserved_3y"]
    assert all("plans use on_demand/spot only" in g for g in gaps)


# ------------------------------------------------------------------ date_report

TODAY = date(2026, 12, 1)   # 180 days earlier: 2026-06-04


def used(rows):
    return pd.DataFrame(rows, columns=["provider", "region", "sku", "purchase_option", "as_of"])


def test_range_of_the_prices_used_and_no_warning_when_all_are_recent():
    r = date_report(used([("aws", "us-east-1", "g5.xlarge", "on_demand", "2026-07-20"),
                          ("azure", "eastus", "Standard_NC24ads_A100_v4", "on_demand", "2026-06-18")]), TODAY)
    # 2026-06-18 is 166 days before 2026-12-01: not stale
    assert (r["as_of_min"], r["as_of_max"], r["text"], r["warnings"]) == ("2026-06-18", "2026-07-20",
                                                                          "2026-06-18 to 2026-07-20", [])
    assert (r["rows"], r["dated_rows"], r["undated_rows"], r["stale_rows"]) == (2, 2, 0, 0)


def test_stale_and_undated_prices_are_named():
    r = date_report(used([("aws", "eu-west-1", "g4dn.xlarge", "on_demand", "2024-04-04"),
                          ("aws", "us-east-1", "g5.xlarge", "on_demand", "2026-07-20"),
                          ("aws", "us-east-1", "p4d.24xlarge", "spot", "")]), TODAY)
    # 2024-04-04 to 2026-12-01 by hand: two years of 365 days to 2026-04-04, then 26 days of April,
    # May..November 214, plus 1 = 241; 365 + 365 + 241 = 971
    assert r["text"] == "2024-04-04 to 2026-07-20, 1 undated"
    assert r["stale"] == ["aws g4dn.xlarge on_demand (eu-west-1)"]
    assert r["undated"] == ["aws p4d.24xlarge spot (us-east-1)"]
    assert r["warnings"] == [
        "stale prices: 1 of 3 prices used are older than 180 days on 2026-12-01 (oldest 2024-04-04, 971 days): "
        "aws g4dn.xlarge on_demand (eu-west-1)",
        "undated prices: 1 of 3 prices used have no date: aws p4d.24xlarge spot (us-east-1)",
    ]


def test_the_180_day_boundary():
    # exactly 180 days old (2026-06-04) is not stale; 181 days (2026-06-03) is
    r = date_report(used([("aws", "r", "a", "on_demand", "2026-06-04"), ("aws", "r", "b", "on_demand", "2026-06-03")]),
                    TODAY)
    assert r["stale"] == ["aws b on_demand (r)"]


def test_all_undated_never_says_none():
    r = date_report(used([("aws", "us-east-1", "g4dn.xlarge", "spot", ""), ("aws", "us-east-1", "g5.xlarge", "spot", None)]),
                    TODAY)
    assert (r["as_of_min"], r["as_of_max"], r["text"], r["undated_rows"]) == (None, None, "undated", 2)
    assert "None" not in r["text"] and len(r["warnings"]) == 1


def test_many_undated_offers_are_named_then_counted():
    rows = [("aws", "us-east-1", f"t{i}", "spot", "") for i in range(8)]
    r = date_report(used(rows), TODAY)
    assert r["warnings"] == ["undated prices: 8 of 8 prices used have no date: aws t0 spot (us-east-1), "
                             "aws t1 spot (us-east-1), aws t2 spot (us-east-1), aws t3 spot (us-east-1), "
                             "aws t4 spot (us-east-1) and 3 more"]


def test_no_prices_used_and_onprem_cards():
    assert date_report(used([]), TODAY)["text"] == "no prices used"
    cards = pd.DataFrame({"provider": ["onprem"], "sku": ["rtx-a5000"], "as_of": ["2025-02-01"]})
    r = date_report(cards, TODAY)
    assert r["stale"] == ["card rtx-a5000"] and r["text"] == "2025-02-01"


def test_an_offer_used_twice_counts_once_at_its_oldest_date():
    r = date_report(used([("aws", "r", "a", "on_demand", "2026-07-20"), ("aws", "r", "a", "on_demand", "2026-01-01")]),
                    TODAY)
    assert (r["rows"], r["as_of_min"], r["stale_rows"]) == (1, "2026-01-01", 1)


@pytest.mark.parametrize("bad", ["yesterday", "2026-13-01", "  "])
def test_unreadable_dates_count_as_undated(bad):
    assert date_report(used([("aws", "r", "a", "on_demand", bad)]), TODAY)["undated_rows"] == 1


def test_a_price_dated_after_today_is_named():
    # a typo or a wrong clock: 2999 reads as the freshest price there is (a review, 2026-12-05); tomorrow is
    # no future (a refresh is dated in UTC, tomorrow west of UTC in the evening), the day after is
    r = date_report(used([("aws", "r", "a", "on_demand", "2999-01-01"), ("aws", "r", "b", "on_demand", "2026-12-03"),
                          ("aws", "r", "c", "on_demand", "2026-12-02"), ("aws", "r", "d", "on_demand", "2026-12-01")]),
                    TODAY)
    assert r["warnings"] == ["prices dated after 2026-12-01: 2 of 4 prices used (latest 2999-01-01; a wrong date?): "
                             "aws a on_demand (r), aws b on_demand (r)"]


def test_an_offers_csv_with_a_date_that_is_no_date_is_refused_at_its_row(tmp_path):
    # "yesterday" was read as undated without a word; now the file is refused, naming the row and the cell
    from planner.errors import PlannerError

    text = (ROOT / "examples" / "offers-g5-us-east-1.csv").read_text(encoding="utf-8")
    assert text.count(",2026-07-20,") == 1
    path = tmp_path / "offers.csv"
    path.write_text(text.replace(",2026-07-20,", ",yesterday,"), encoding="utf-8")
    with pytest.raises(PlannerError) as caught:
        price_table(str(path))
    assert ("line 2 (offer aws:us-east-1:g5.xlarge:on_demand): as_of 'yesterday' is not an ISO date (YYYY-MM-DD; "
            "empty for undated)") in str(caught.value)


@pytest.mark.parametrize(("as_of", "is_date"), [
    ("2026-07-20", True), ("2023-11-01T00:00:00Z", True), ("2026-07-20 12:00:00+00:00", True),
    ("2026-07-20garbage", False), ("2026-13-01", False), ("yesterday", False), ("20260720", False),
])
def test_what_an_offers_as_of_may_hold(as_of, is_date):
    from pricing_adapters.schema import is_iso_date

    assert is_iso_date(as_of) is is_date
