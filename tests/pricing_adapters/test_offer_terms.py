"""A commitment row's term_months must be its purchase option's: 12 months for a *_1y option, 36 for *_3y
(or 0, read as the option's own). Other options have no term (the planner ignores theirs). An offers CSV
whose reserved_1y row said 36 was planned as a three-year commitment: over 24 months it charged 26,437 USD
where 12-month terms cost 17,625 (found by a hostile-input probe). The store refused such rows already; the
CSV path took any 0-1200."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from planner import plan
from pricing_adapters.schema import OffersSchemaError
from pricing_adapters.snapshot import read_offers_csv

ROOT = Path(__file__).resolve().parents[2]
HEADER = ("offer_id,provider,region,sku,purchase_option,gpu,gpu_known,accelerator_name,gpu_count,gpu_memory_gb,vcpus,"
          "memory_gb,hourly_price,upfront_price,currency,term_months,zone,as_of,source,note")


def row(option: str, term: int, hourly: float = 1.0, upfront: float = 0.0) -> str:
    return (f"aws:us-east-1:g5.xlarge:{option},aws,us-east-1,g5.xlarge,{option},A10G,True,A10G,1.0,24.0,4.0,16.0,"
            f"{hourly},{upfront},USD,{term},,2026-07-20,test,")


@pytest.mark.parametrize("option,term,read", [("reserved_1y", 12, 12), ("reserved_1y", 0, 12), ("savings_plan_1y", 12, 12),
                                              ("reserved_3y", 36, 36), ("reserved_3y", 0, 36), ("savings_plan_3y", 0, 36),
                                              ("on_demand", 0, 0), ("spot", 0, 0), ("on_demand", 12, 12)])
def test_a_term_that_is_its_options_is_read_and_0_as_the_options_own(option, term, read):
    table = read_offers_csv(io.StringIO(f"{HEADER}\n{row(option, term)}\n"), origin="o.csv")
    assert table["term_months"].tolist() == [read]


@pytest.mark.parametrize("option,term", [("reserved_1y", 36), ("reserved_1y", 7), ("savings_plan_1y", 36),
                                         ("reserved_3y", 12), ("savings_plan_3y", 60)])
def test_a_term_that_contradicts_its_option_is_refused_naming_the_row(option, term):
    text = f"{HEADER}\n{row('on_demand', 0)}\n{row(option, term)}\n"
    with pytest.raises(OffersSchemaError) as info:
        read_offers_csv(io.StringIO(text), origin="o.csv")
    message = str(info.value)
    assert message.startswith(f"o.csv: line 3 (offer aws:us-east-1:g5.xlarge:{option}): term_months not its purchase option's")
    assert "line 2" not in message


def test_a_reserved_1y_row_of_term_0_is_charged_12_month_terms(tmp_path):
    # one A10G reserved for 1 year at 0.5 USD/h with no upfront, 730 h a month of work: over 24 months two
    # 1-year terms, each 0.5 × 730 × 12 = 4,380 USD: 8,760 USD in all (undiscounted)
    (tmp_path / "o.csv").write_text(f"{HEADER}\n{row('reserved_1y', 0, hourly=0.5)}\n", encoding="utf-8")
    (tmp_path / "s.yaml").write_text(
        "name: one reservation\nhorizon_months: 24\ndiscount_rate: 0\n"
        "prices: {source: o.csv, providers: [aws], purchase_options: [reserved_1y]}\n"
        "workloads:\n  - {name: w, gpu_hours_per_month: 730, reference_gpu: A10G}\n", encoding="utf-8")
    p = plan(tmp_path / "s.yaml", baselines=False)
    assert p.total == pytest.approx(8760.0, rel=1e-9)


def test_the_effective_price_of_a_term_0_reservation_spreads_its_upfront_over_the_options_term():
    # 0.5 USD/h and 4,380 upfront on a 1-year reservation: 0.5 + 4380 / (12 × 730) = 1.0 USD/h, as the plan
    # charges it (the ranking read term 0 as no term and showed 0.5)
    from pricing_adapters.schema import effective_hourly

    table = read_offers_csv(io.StringIO(f"{HEADER}\n{row('reserved_1y', 0, hourly=0.5, upfront=4380)}\n"), origin="o")
    assert effective_hourly(table["hourly_price"], table["upfront_price"], table["term_months"]).tolist() == [1.0]
