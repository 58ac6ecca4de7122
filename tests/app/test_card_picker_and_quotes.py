"""The Plan page's sidebar picks the catalog cards a plan may buy (onprem.cards) and takes a quote per card
(onprem.card_overrides.CARD.price, in the scenario's currency): before, a budget holder had to edit the scenario file
for either. The plan is made with them, and the downloaded scenario carries them as a hand-written file would.

Oracles: startup-hybrid.yaml edited by hand in this test (the lines a person would write), planned by
`planner.engine.plan`; the catalog's empty price cells (onprem_cards.csv: rtx-a5000, l40s … "none found")."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import state
from planner.engine import plan
from planner.scenario import load_scenario_text

ROOT = Path(__file__).resolve().parents[2]
HYBRID_TEXT = (ROOT / "scenarios" / "startup-hybrid.yaml").read_text(encoding="utf-8")
CARDS = ["rtx-3060-12gb", "rtx-a5000", "rtx-4090", "a100-80gb-pcie", "rtx-3090"]


def _by_hand() -> str:
    """startup-hybrid.yaml as a person would edit it: rtx-3090 added to the cards with a 700 USD quote, the A100's
    quote lowered from 14,000 to 9,000 USD."""
    text = HYBRID_TEXT.replace("  cards: [rtx-3060-12gb, rtx-a5000, rtx-4090, a100-80gb-pcie]\n",
                               "  cards: [rtx-3060-12gb, rtx-a5000, rtx-4090, a100-80gb-pcie, rtx-3090]\n")
    text = text.replace("  card_overrides:\n", "  card_overrides:\n    rtx-3090: {price: 700, currency: USD}\n")
    text = text.replace("{price: 14000, currency: USD", "{price: 9000, currency: USD")
    assert text.count("rtx-3090") == 2 and "price: 9000" in text
    return text


def _total(at: AppTest) -> str:
    return next(m.value for m in at.metric if m.label.startswith("Total cost"))


def test_cards_and_quotes_picked_in_the_sidebar_plan_and_download_as_a_hand_written_file():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    assert not at.exception, [e.value for e in at.exception]
    picker = at.multiselect(key="edit:cards")
    # a card without a sourced catalog price says so where it is offered
    assert "rtx-a5000 (no price)" in picker.options
    assert "rtx-4090" in picker.options and "rtx-3090" in picker.options
    before = _total(at)
    picker.set_value(CARDS).run()
    at.number_input(key="edit:price:rtx-3090").set_value(700.0).run()
    at.number_input(key="edit:price:a100-80gb-pcie").set_value(9000.0).run()
    assert not at.exception, [e.value for e in at.exception]
    # the unpriced card picked in the file shows its box empty, saying there is no price to fall back on
    unpriced, priced = at.number_input(key="edit:price:rtx-a5000"), at.number_input(key="edit:price:rtx-4090")
    assert unpriced.label == "rtx-a5000, no sourced price: give a quote, USD per card"
    assert unpriced.proto.placeholder == "none: not bought"
    assert priced.proto.placeholder == "catalog 1,670 USD"   # onprem_cards.csv 1,669.99 to whole USD; its date in the help
    assert priced.help.startswith("Empty: the catalog's price, 1,670 USD as of 2023-11-23.")

    by_hand = load_scenario_text(_by_hand())
    expected = f"{plan(by_hand, baselines=False).total:,.0f} USD"
    assert _total(at) == expected != before
    (download,) = [b for b in at.get("download_button") if b.proto.label.startswith("Download this scenario")]
    assert download.proto.help.endswith("comments kept, an edited value's saying so.")
    # the same file, as the Export page shows it (state.scenario_download: one file wherever it is offered)
    at.switch_page("fleetplan_dashboard/pages/export.py").run()
    assert not at.exception, [e.value for e in at.exception]
    text = next(c.value for c in at.code)
    downloaded = load_scenario_text(text)
    assert downloaded == by_hand
    assert f"{plan(downloaded, baselines=False).total:,.0f} USD" == expected
    assert "    rtx-3090: {price: 700, currency: USD}  # set in the dashboard (the file did not set it)\n" in text
    assert "  cards: [rtx-3060-12gb, rtx-a5000, rtx-4090, a100-80gb-pcie, rtx-3090]  # set in the dashboard" in text


def test_an_empty_quote_is_the_catalogs_price_and_a_new_override_gets_the_scenarios_currency():
    base = load_scenario_text(HYBRID_TEXT)
    values = state.default_edits(base)
    assert values["price:rtx-4090"] is None and values["price:a100-80gb-pcie"] == 14000.0
    assert state.apply_edits(base, values) is base   # nothing typed: nothing changed, no price made up
    # a quote for a card the file does not override: written with the scenario's currency (USD)
    over = state.edits_to_overrides(base, {**values, "price:rtx-4090": 1400.0})
    assert over == {"onprem.card_overrides.rtx-4090.price": 1400.0, "onprem.card_overrides.rtx-4090.currency": "USD"}
    # a quote for a card not picked sets nothing (its box is not shown)
    assert state.edits_to_overrides(base, {**values, "price:l40s": 5000.0}) == {}
    # the A100's quote emptied: the catalog's price (11,500 USD, onprem_cards.csv) is the one planned
    emptied = state.apply_edits(base, {**values, "price:a100-80gb-pcie": None})
    assert emptied.onprem.card_overrides["a100-80gb-pcie"].price is None
    text, kept = state.edited_text(HYBRID_TEXT, base, {**values, "price:a100-80gb-pcie": None})
    assert kept and load_scenario_text(text) == emptied
    # a file that overrides no card: the block is added under onprem, as one would write it
    entry_text = (ROOT / "scenarios" / "entry.yaml").read_text(encoding="utf-8")
    entry = load_scenario_text(entry_text)
    text, kept = state.edited_text(entry_text, entry, {**state.default_edits(entry), "price:rtx-3060-12gb": 300.0})
    assert kept
    assert "  card_overrides: {rtx-3060-12gb: {price: 300, currency: USD}}  # set in the dashboard" in text
    assert load_scenario_text(text).onprem.card_overrides["rtx-3060-12gb"].price == 300


def test_a_link_carries_the_cards_and_quotes():
    base = load_scenario_text(HYBRID_TEXT)
    values = {**state.default_edits(base), "cards": CARDS, "price:rtx-3090": 700.0}
    params = state.share_params("file:startup-hybrid.yaml", base, values)
    assert params == {"scenario": "startup-hybrid.yaml", "onprem.cards": ",".join(CARDS),
                      "onprem.card_overrides.rtx-3090.price": "700"}
    reopened, problems = state.values_from_params(base, params)
    assert problems == [] and state.apply_edits(base, reopened) == state.apply_edits(base, values)
    _, problems = state.values_from_params(base, {"onprem.cards": "rtx-4090,rtx-9999"})
    assert problems and "rtx-9999 not among" in problems[0]


def test_the_quote_box_of_a_card_sold_as_whole_boards_is_per_gpu():
    # onprem_cards.csv prices hgx-h100-8gpu per GPU (39,625 USD: a 317,000 USD 8-GPU server / 8); a browser audit typed
    # the server's price in a box that said "per card", and the plan read it as one GPU's
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    picker = at.multiselect(key="edit:cards")
    picker.set_value([*picker.value, "hgx-h100-8gpu"]).run()
    assert not at.exception, [e.value for e in at.exception]
    box = at.number_input(key="edit:price:hgx-h100-8gpu")
    assert box.label == "hgx-h100-8gpu: your quote, USD per GPU (sold as 8-GPU boards)"
    assert at.number_input(key="edit:price:rtx-4090").label == "rtx-4090: your quote, USD per card"
