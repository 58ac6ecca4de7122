"""The monthly cost chart's cut bars are labelled in two rows: in one row spaced for a phone's plot, most of
industrial.yaml's nine purchase months had no amount, on a desktop too (a browser audit, 2026-12-07). The chart is
drawn once, spaced for a phone's plot (the server does not know the width it is shown at); spaced_labels takes any
plot width.

Oracles worked by hand: industrial.yaml's cut months and amounts (its plan's capex months: 1: 352,740, 13: 88,199,
22: 103,675, 31: 91,401, 37: 106,954, 40: 136,109, 46: 109,916, 49: 139,238, 52: 140,619 USD), 61 months on the
plot; a label of 13 characters is 84.5 px wide, of 12 characters 78 px, and two labels in one row need half of each
and 4 px between their centres (13 and 13: 88.5 px; 13 and 12: 85.25 px; 12 and 12: 82 px).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import charts

ROOT = Path(__file__).resolve().parents[2]
INDUSTRIAL = {1: 352_740.0, 13: 88_199.0, 22: 103_675.0, 31: 91_401.0, 37: 106_954.0, 40: 136_109.0, 46: 109_916.0,
              49: 139_238.0, 52: 140_619.0}


def _rows(plot_px: float, rows: int = charts.LABEL_ROWS) -> dict[int, int]:
    """{month: row} of the labels written on a plot `plot_px` wide."""
    placed = charts.spaced_labels(INDUSTRIAL, 60, lambda a: f"↑ {a:,.0f} USD", plot_px, rows)
    return {month: row for month, (_, row) in placed.items()}


def test_a_phones_one_row_keeps_three_amounts():
    # 260 px / 61 months = 4.26 px a month: 13-character labels 20.8 months apart. Largest first: 1, 52; 49, 40, 46
    # and 37 within 15 months of 52; 22 is 21 months from 1 (89.5 px); 31 is 9 from 22, 13 is 12 from 1
    assert _rows(charts.PHONE_PLOT_PX, rows=1) == {1: 0, 52: 0, 22: 0}


def test_a_phones_two_rows_add_months_49_and_13():
    # row 1: 49 (3 months from 52 in row 0), then 31 is 18 months from 49 (76.7 px, short of 85.25) and 13 is 36
    assert _rows(charts.PHONE_PLOT_PX) == {1: 0, 52: 0, 22: 0, 49: 1, 13: 1}


def test_a_laptops_half_page_labels_six_of_the_nine():
    # a 344 px plot (a 440 px chart): 344 px / 61 = 5.64 px a month, 15.7 months between 13-character labels. Row 0: 1, 52, 22;
    # row 1: 49, then 31 (18 months from 49: 101.5 px ≥ 85.25) and 13 (36 from 49, 18 from 31: ≥ 82 px);
    # 40, 46 and 37 are within 12 months of 49 and 15 of 52 (84.6 px < 88.5)
    assert _rows(344) == {1: 0, 52: 0, 22: 0, 49: 1, 31: 1, 13: 1}


def test_a_wide_screens_half_page_labels_all_but_month_46():
    # a 764 px plot (an 860 px chart): 764 px / 61 = 12.5 px a month, 7.1 months between 13-character labels. Row 0: 1, 52, 40
    # (12 from 52), 22, 31 (9 from 22 and 40: 112.7 px), 13 (12 from 1, 9 from 22); row 1: 49, 37 (12 from 49);
    # 46 is 6 months from 40 and 52 and 3 from 49
    assert _rows(764) == {1: 0, 52: 0, 40: 0, 22: 0, 31: 0, 13: 0, 49: 1, 37: 1}


def test_the_second_row_of_labels_sits_under_the_first():
    months = list(range(1, 62))
    monthly = pd.DataFrame({"month": months, "capex": [INDUSTRIAL.get(m, 0.0) for m in months],
                            "energy": [20_000.0] * 61})
    fig = charts.monthly_chart(monthly, "USD", 60)   # a phone's plot, as the Plan page draws it
    shifts = {a.x: a.yshift for a in fig.layout.annotations}
    assert shifts == {1: 0, 52: 0, 22: 0, 49: -16, 13: -16}


def test_the_plan_page_draws_the_monthly_chart_once_with_two_rows_of_labels():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params["scenario"] = "industrial.yaml"
    at.run()
    assert not at.exception, at.exception
    drawn = [c for c in at.get("plotly_chart") if "Monthly cost by category" in c.proto.spec]
    assert len(drawn) == 1, len(drawn)
    assert '"yshift":-16' in drawn[0].proto.spec.replace(" ", "")   # a label in the second row
