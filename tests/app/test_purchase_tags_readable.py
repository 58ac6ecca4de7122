"""The "buy" tags of the Plan page's cards-in-service chart stay readable on long horizons: monthly purchases over
120 months drew 120 tags 2 px apart on a phone, one grey smear. Each purchase keeps its dotted line; tags that would
overlap are merged into one ("21 buys"), whose hover lists the months it stands for.

Oracles: tag counts worked out by hand from the rule the docstring states (a phone's plot of 260 px; each month its
own tag when all are 20 px apart, else a tag for the months less than 44 px after its first)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from fleetplan_dashboard import charts


def test_quarterly_purchases_over_36_months_keep_a_tag_each():
    # 260 / 36 = 7.22 px a month: 3 months are 21.7 px, at least 20
    groups = charts.buy_tag_groups(range(1, 37, 3), 36)
    assert groups == [[m] for m in (1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 34)]


def test_monthly_purchases_over_120_months_make_six_tags():
    # 260 / 120 = 2.17 px a month; a tag holds the months less than 44 px (20.3 months) after its first: 21 months
    groups = charts.buy_tag_groups(range(1, 121), 120)
    assert [g[0] for g in groups] == [1, 22, 43, 64, 85, 106]
    assert [len(g) for g in groups] == [21, 21, 21, 21, 21, 15]


def test_quarterly_purchases_over_120_months_make_six_tags_too():
    # 3 months are 6.5 px, under 20: merged; months 1, 4, …, 19 (7) under 44 px from month 1, month 22 not
    groups = charts.buy_tag_groups(range(1, 121, 3), 120)
    assert [g[0] for g in groups] == [1, 22, 43, 64, 85, 106]
    assert [len(g) for g in groups] == [7, 7, 7, 7, 7, 5]


def test_one_crowded_pair_merges_the_tags_of_the_whole_chart():
    # 60 months, 4.33 px a month: months 1 and 3 are 8.7 px apart; 44 px are 10.2 months, so month 12 starts a tag
    assert charts.buy_tag_groups([12, 1, 3, 3, 40], 60) == [[1, 3], [12], [40]]


def test_the_chart_draws_a_line_for_each_purchase_and_a_merged_tag_says_its_months_on_hover():
    months = list(range(1, 121))
    installed = pd.DataFrame({"card": "rtx-4090", "month": months, "units": months})
    schedule = pd.DataFrame({"month": months, "card": "rtx-4090", "action": "buy", "units": 1.0})
    layout = charts.installed_chart(installed, schedule, 120).layout
    assert sorted(shape.x0 for shape in layout.shapes) == months
    tags = [a for a in layout.annotations if a.text.endswith(("buy", "buys"))]
    assert [(a.x, a.text) for a in tags] == [(1, "21 buys"), (22, "21 buys"), (43, "21 buys"), (64, "21 buys"),
                                             (85, "21 buys"), (106, "15 buys")]
    first = tags[0].hovertext.split("<br>")
    # a title, 12 months, and what is left out
    assert first[0] == "months 1 to 21: 21 purchase months"
    assert first[1:13] == [f"month {m}: buy 1 × rtx-4090" for m in range(1, 13)]
    assert first[13:] == ["… 9 more: the purchase schedule below"]


def test_a_lone_purchase_keeps_its_buy_tag_and_hover():
    installed = pd.DataFrame({"card": ["a100-80gb-pcie", "rtx-4090"], "month": [1, 1], "units": [1, 2]})
    schedule = pd.DataFrame({"month": [1, 1], "card": ["a100-80gb-pcie", "rtx-4090"], "action": ["buy", "buy"],
                             "units": [1.0, 2.0]})
    tags = [a for a in charts.installed_chart(installed, schedule, 36).layout.annotations if a.text == "buy"]
    assert [(a.x, a.hovertext) for a in tags] == [(1, "month 1: buy 1 × a100-80gb-pcie, 2 × rtx-4090")]


def test_the_end_value_credit_in_month_h_plus_1_draws_no_purchase_line_or_tag():
    # startup-hybrid's schedule: two cards bought in month 1, the owned RTX 3060s sold then, and in month 37 (after the
    # 36-month plan) the end value of the cards still in service: only month 1 is a purchase
    from planner.engine import plan

    p = plan(Path(__file__).resolve().parents[2] / "scenarios" / "startup-hybrid.yaml", baselines=False)
    assert set(p.schedule.loc[p.schedule["month"] == 37, "action"]) == {"end value"}
    layout = charts.installed_chart(p.installed, p.schedule, p.horizon_months).layout
    assert [shape.x0 for shape in layout.shapes] == [1]
    assert [(a.x, a.text, a.hovertext) for a in layout.annotations if a.text.endswith(("buy", "buys"))] == [
        (1, "buy", "month 1: buy 1 × a100-80gb-pcie, 1 × rtx-4090")]
    assert tuple(layout.xaxis.range) == (0.5, 36.5)
