"""The monthly cost chart stays readable on long horizons and on a phone: on industrial.yaml's 60 months the
amounts of the cut bars ran into one line ("↑352,740 USD ↑88,199 U↑103,675 …"), the labels "60" and "end"
touched, the axis title ran into the legend, and at 390 px the chart's toolbar covered its title and the
y-axis title was cut.

Oracles: tick months and label spacing worked out by hand from the rules the docstrings state (at most 7
labelled months; a label of 13 characters is 84.5 px wide on a phone's 260 px plot)."""

from __future__ import annotations

import pandas as pd

from fleetplan_dashboard import charts


def test_a_60_month_axis_labels_every_12th_month_and_end_but_not_60_next_to_it():
    assert charts.month_ticks(60) == ([12, 24, 36, 48, 61], ["12", "24", "36", "48", "end"])


def test_shorter_axes_are_thinned_too():
    assert charts.month_ticks(36) == ([6, 12, 18, 24, 30, 37], ["6", "12", "18", "24", "30", "end"])
    assert charts.month_ticks(12) == ([2, 4, 6, 8, 10, 13], ["2", "4", "6", "8", "10", "end"])
    assert charts.month_ticks(6) == ([1, 2, 3, 4, 5, 6, 7], ["1", "2", "3", "4", "5", "6", "end"])


def test_on_60_months_only_labels_that_keep_clear_of_each_other_are_written():
    # 61 bars on 260 px: 4.26 px a month; two 13-character labels need 84.5 px + 4 px between their centres,
    # 21 months: month 1's (the largest) is written, months 5 and 12 are too close to it, month 40 is not
    amounts = {1: 352_740.0, 5: 88_199.0, 12: 103_675.0, 40: 140_619.0}
    placed = charts.spaced_labels(amounts, 60, lambda a: f"↑ {a:,.0f} USD", rows=1)
    assert placed == {1: ("↑ 352,740 USD", 0), 40: ("↑ 140,619 USD", 0)}
    # in a second row (row 1), month 12's clears month 5's by 7 months (29.8 px), short of the 85.25 px two labels
    # of 13 and 12 characters need: month 12's (the larger) is written, month 5's is not
    placed = charts.spaced_labels(amounts, 60, lambda a: f"↑ {a:,.0f} USD")
    assert placed == {1: ("↑ 352,740 USD", 0), 40: ("↑ 140,619 USD", 0), 12: ("↑ 103,675 USD", 1)}


def test_on_a_few_months_every_cut_bar_has_its_amount():
    amounts = {1: 100_100.0, 3: 90_000.0}
    assert charts.spaced_labels(amounts, 4, lambda a: f"↑ {a:,.0f} USD") == {1: ("↑ 100,100 USD", 0),
                                                                             3: ("↑ 90,000 USD", 0)}


def test_the_title_is_short_below_the_toolbar_and_the_legend_below_everything():
    monthly = pd.DataFrame({"month": range(1, 62), "capex": [352_740.0] + [0.0] * 60,
                            "energy": [2_000.0] * 60 + [0.0], "residual_value": [0.0] * 60 + [-258_650.0]})
    layout = charts.monthly_chart(monthly, "USD", 60).layout
    assert layout.title.text == "Monthly cost by category"
    assert layout.title.subtitle.text == "as paid; end: residual value; tall bars cut"
    assert layout.yaxis.title.text == "USD per month"
    # the toolbar shows over the top 30 px of a chart: the title starts below it, the plot below the subtitle
    assert (layout.title.yref, layout.title.y, layout.title.yanchor, layout.title.pad.t) == ("container", 1, "top", 30)
    assert layout.margin.t >= 30 + 55
    # the legend at the chart's bottom edge, below the axis title, wherever that ends
    assert (layout.legend.yref, layout.legend.y, layout.legend.yanchor) == ("container", 0, "bottom")
    assert layout.xaxis.title.text == "month" and layout.xaxis.tickangle == 0
