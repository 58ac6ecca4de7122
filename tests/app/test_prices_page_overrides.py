"""The Prices page prices a scenario's on-prem cards as its plan does: with its `card_overrides` and
`custom_cards`, not the catalog's figures, and its `note` says whose figures in the page's words (it said "scenario
card_overrides (life_years, price)"); a missing rate is asked of the scenario's fx, not of `--fx`.

Hand-worked figures follow docs/cost-model.md and the offers view's definition (a card owned and busy every
hour of its life): capex / (life × 12 × 730 h) + capex × maintenance / (12 × 730 h) + busy W / 1000 × PUE ×
electricity, in USD.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
ENTRY = (ROOT / "scenarios" / "entry.yaml").read_text()   # USD, PUE 1.0, electricity 0.15, fx {CNY: 0.13749}
PRICES_PAGE = "fleetplan_dashboard/pages/prices.py"
HOURS_PER_YEAR = 12 * 730


def per_hour(capex_usd: float, life_years: float, maintenance: float, busy_watts: float, usd_per_kwh: float,
             pue: float = 1.0) -> float:
    return (capex_usd / (life_years * HOURS_PER_YEAR) + capex_usd * maintenance / HOURS_PER_YEAR
            + busy_watts / 1000 * pue * usd_per_kwh)


def edited(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def prices_page(text: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.file_uploader(key="upload_file").set_value(("mine.yaml", text.encode(), "application/x-yaml")).run()
    assert at.selectbox(key="base").value.startswith("upload:mine.yaml:"), [e.value for e in at.error]
    at.switch_page(PRICES_PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def onprem(at: AppTest):
    table = at.dataframe[0].value
    return table[table["provider"] == "onprem"].set_index("sku")


OVERRIDDEN = edited(ENTRY, "  capex_budget: 1500", """  capex_budget: 1500
  card_overrides:
    rtx-4060-ti-16gb: {price: 400, host_cost_per_card: 600, life_years: 4, maintenance_rate_per_year: 0.1,
                       busy_watts: 400}
  custom_cards:
    quoted-4090: {gpu: RTX-4090, price: 1000, host_cost_per_card: 500, busy_watts: 250, idle_watts: 20,
                  cards_per_server: 2, life_years: 3, maintenance_rate_per_year: 0.05}""")


def test_an_overridden_card_and_a_custom_card_are_priced_at_the_scenarios_figures():
    at = prices_page(OVERRIDDEN)
    cards = onprem(at)
    # rtx-4060-ti-16gb: the catalog's 499 + 750 USD, 3 years, 3 %, 297 W would give 0.0963541; the override's
    # 400 + 600 USD over 4 years, 10 %/year, 400 W at 0.15 USD/kWh:
    # 1000 / 35,040 + 100 / 8,760 + 0.400 × 0.15 = 0.0285388 + 0.0114155 + 0.06 = 0.0999543
    assert cards.loc["rtx-4060-ti-16gb", "usd_per_gpu_hour"] == pytest.approx(0.0999543, abs=1e-7)
    assert cards.loc["rtx-4060-ti-16gb", "usd_per_gpu_hour"] == pytest.approx(per_hour(1000, 4, 0.1, 400, 0.15))
    # the custom card, not listed in onprem.cards but always a candidate: 1500 / 26,280 + 75 / 8,760 + 0.25 × 0.15
    assert cards.loc["quoted-4090", "usd_per_gpu_hour"] == pytest.approx(0.1031392, abs=1e-7)
    # rtx-3060-12gb keeps the catalog's (2500 + 5400) CNY × 0.13749 (entry.yaml's fx.CNY) = 1086.171 USD, 3 years,
    # 3 %, 306 W
    assert cards.loc["rtx-3060-12gb", "usd_per_gpu_hour"] == pytest.approx(per_hour(7900 * 0.13749, 3, 0.03, 306, 0.15))
    # the table says whose figures each row has, in the caption's words (not the scenario's field paths), and the
    # caption says what the note means
    assert cards.loc["rtx-4060-ti-16gb", "note"] == ("your figures (Card overrides): busy watts, host cost per card, "
                                                     "life years, maintenance rate per year, price; the rest catalog "
                                                     "figures; capex = card + host share")
    assert cards.loc["quoted-4090", "note"] == "your figures (Custom cards); capex = card + host share"
    assert cards.loc["rtx-3060-12gb", "note"] == "catalog figures; capex = card + host share"
    assert not [n for n in at.dataframe[0].value["note"].astype(str) if "card_overrides" in n or "custom_cards" in n]
    # in the page's words, not the scenario's field paths
    assert any("with its “Card overrides (your figures for catalog cards)” and “Custom cards (cards the catalog lacks)”; "
               "other cards at the catalog's figures" in c.value for c in at.caption)
    assert not [c.value for c in at.caption if "card_overrides" in c.value or "custom_cards" in c.value]
    # every on-prem card once, with the scenario's figures where it gives them, the catalog's for the rest
    at.toggle(key="prices_in_use").set_value(False).run()
    everything = at.dataframe[0].value
    mine = everything[everything["provider"] == "onprem"]
    assert mine["sku"].is_unique
    assert {"rtx-4090", "rtx-5090"} <= set(mine["sku"])
    assert mine.set_index("sku").loc["rtx-5090", "note"].startswith("catalog figures")
    assert mine.set_index("sku").loc["rtx-4060-ti-16gb", "usd_per_gpu_hour"] == pytest.approx(0.0999543, abs=1e-7)


def test_an_override_in_a_euro_scenario_converts_each_amount_at_its_own_rate():
    # EUR scenario; rtx-3060-12gb quoted at 300 USD while its host share stays the catalog's 5400 CNY:
    # capex = 300 × 0.92 + 5400 × 0.13 = 276 + 702 = 978 EUR; electricity 0.2 EUR; the page shows EUR, the scenario's
    # currency (tests/app/test_prices_page_currency.py)
    text = edited(ENTRY, "currency: USD", "currency: EUR")
    text = edited(text, "fx: {CNY: 0.13749}", "fx: {CNY: 0.13, USD: 0.92}")
    text = edited(text, "electricity_per_kwh: 0.15", "electricity_per_kwh: 0.2")
    text = edited(text, "  capex_budget: 1500", "  capex_budget: 1500\n  card_overrides: {rtx-3060-12gb: "
                                                "{price: 300, currency: USD, life_years: 4}}")
    cards = onprem(prices_page(text))
    expected = 978 / (4 * 8760) + 978 * 0.03 / 8760 + 0.306 * 0.2
    assert expected == pytest.approx(0.0279110 + 0.0033493 + 0.0612, abs=1e-6)
    assert cards.loc["rtx-3060-12gb", "usd_per_gpu_hour"] == pytest.approx(expected)
    assert cards.loc["rtx-3060-12gb", "note"].startswith("your figures (Card overrides): currency, life years, price; "
                                                         "the rest catalog figures")


@pytest.mark.parametrize(("currency", "fx", "unit"), [("USD", "{}", "USD"), ("EUR", "{USD: 0.92}", "EUR")])
def test_a_card_with_no_rate_asks_for_the_scenarios_fx_not_a_command_line_option(currency, fx, unit):
    # only the USD-priced rtx-4060-ti-16gb in use, so the scenario loads without a CNY rate; the catalog's
    # CNY-priced rtx-3060-12gb then has none on the Prices page
    text = edited(ENTRY, "cards: [rtx-3060-12gb, rtx-4060-ti-16gb]", "cards: [rtx-4060-ti-16gb]")
    text = edited(edited(text, "fx: {CNY: 0.13749}", f"fx: {fx}"), "currency: USD", f"currency: {currency}")
    at = prices_page(text)
    # the card is not the scenario's: no warning while only the scenario's offers are shown, one with all of them
    assert not [w.value for w in at.warning if "priced in CNY" in w.value]
    at.toggle(key="prices_in_use").set_value(False).run()
    said = [w.value.replace("\\", "") for w in at.warning if "priced in CNY" in w.value]   # as read (tables.plain)
    assert len(said) == 1 and "rtx-3060-12gb" in said[0], [w.value for w in at.warning]
    # scenario fx is scenario-currency units per 1 unit of the named currency
    assert f"fx: {{CNY: <{unit} per 1 CNY>}}" in said[0]
    assert "--fx" not in said[0]


def test_only_the_warnings_about_the_offers_shown_and_the_scenarios_cards():
    # industrial.yaml lists a100-80gb-pcie, h100-pcie and l40s (the last two with no sourced price) and has no fx:
    # the catalog's rtx-3060-12gb, priced in CNY, is none of its offers (an audit, 2026-12-06: it was warned of)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.selectbox(key="base").set_value("file:industrial.yaml").run()
    at.switch_page(PRICES_PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    said = [w.value.replace("\\", "") for w in at.warning]   # as read (tables.plain)
    assert not [w for w in said if "rtx-3060-12gb" in w or "CNY" in w], said
    assert "rtx-3060-12gb" not in set(at.dataframe[0].value["sku"])
    unpriced = [w for w in said if w.startswith("on-prem cards h100-pcie, l40s not shown: no sourced price")]
    assert len(unpriced) == 1, said   # the scenario's own cards: said with the filter on or off
    at.toggle(key="prices_in_use").set_value(False).run()
    said = [w.value.replace("\\", "") for w in at.warning]
    assert [w for w in said if w.startswith("rtx-3060-12gb priced in CNY: add its rate to the scenario")], said
    assert len([w for w in said if w.startswith("on-prem cards h100-pcie, l40s not shown")]) == 1, said


def test_the_offers_command_keeps_its_fx_advice():
    from planner.engine.offer_costs import OfferFilter, offers_table

    _, warnings = offers_table(OfferFilter(), fx_to_usd={})
    assert "rtx-3060-12gb priced in CNY: pass --fx CNY=<USD per 1 CNY> to compare" in warnings


def test_a_throughput_given_for_a_custom_card_ranks_its_gpu_as_the_plan_does():
    # the workload says a quoted-4090 (an RTX 4090) does 7 hours of its reference GPU's work an hour; the
    # ranking divided by the speed model's estimate instead (6.48 for an RTX 4090)
    import pandas as pd

    from fleetplan_dashboard import tables
    from planner.engine.workloads import relative_speed
    from planner.scenario import load_scenario_text

    s = load_scenario_text(OVERRIDDEN.replace("reference_gpu: RTX-3060-12GB",
                                              "reference_gpu: RTX-3060-12GB\n    throughput: {RTX-3060-12GB: 1.0, "
                                              "quoted-4090: 7.0}", 1))
    (w,) = [w for w in s.workloads if w.throughput]
    assert relative_speed(w, "RTX-4090") != pytest.approx(7.0)   # the estimate, without the custom card's figure
    view = pd.DataFrame({"provider": ["onprem"], "region": ["onprem"], "sku": ["quoted-4090"],
                         "purchase_option": ["purchase"], "gpu": ["RTX-4090"], "gpu_memory_gb": [24.0],
                         "usd_per_gpu_hour": [0.7]})
    ranked = tables.per_reference_hour(view, w, s)
    assert ranked["speed_vs_reference"].iloc[0] == pytest.approx(7.0)
    assert ranked["usd_per_reference_gpu_hour"].iloc[0] == pytest.approx(0.1)   # 0.7 USD / 7



@pytest.mark.parametrize(("engine_note", "words"), [
    ("scenario card_overrides (idle_watts), rest catalog; capex = card + host share",
     "your figures (Card overrides): idle watts; the rest catalog figures; capex = card + host share"),
    ("scenario custom_cards; capex = card + host share", "your figures (Custom cards); capex = card + host share"),
    ("catalog figures; capex = card + host share", "catalog figures; capex = card + host share"),
    ("quoted by our reseller", "quoted by our reseller"),   # an offers CSV's own note: no scenario field
    (None, None),
])
def test_a_cards_note_names_the_scenarios_figures_as_the_caption_does(engine_note, words):
    from fleetplan_dashboard import tables

    assert tables.offer_note_words(engine_note) == words
