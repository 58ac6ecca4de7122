"""summary.md states every assumption that changes the total (a planning-review audit, 2026-12-06: a reviewer with
only the summary saw neither the fx rates, nor the availability, resale, site costs, quoted cards, workloads, speeds,
the prices used and their dates, nor the store snapshot the prices came from).

Oracles: the scenario files' numbers (startup-hybrid.yaml, and an EUR scenario written here with a card quoted in
CNY), the card catalog's CSV and the packaged snapshot's prices, each converted by hand; the store's own list of its
snapshots; CommonMark as markdown-it renders the page."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
import yaml
from markdown_it import MarkdownIt
from typer.testing import CliRunner

from planner import plan
from planner._version import __version__
from planner.cli import app
from planner.reports import plan_to_json, plan_to_markdown
from pricing_adapters.snapshot import load_snapshot
from pricing_adapters.store import PriceStore

ROOT = Path(__file__).resolve().parents[2]
STARTUP = ROOT / "scenarios" / "startup-hybrid.yaml"

HOSTILE_NAME = "Fleet | <script>alert(1)</script> [x](http://127.0.0.1:9/evil)"
OVERRIDE_SOURCE = "JD.com | [quote](http://127.0.0.1:9/q) <img src=x onerror=alert(1)>"
CUSTOM_SOURCE = "Shenzhen <b>vendor</b> *bold* `code`"
# An EUR scenario: cloud prices (USD) at 0.9 EUR per USD, two cards quoted in CNY at 0.125 EUR per CNY
EUR_SCENARIO = {
    "name": "EUR review", "currency": "EUR", "horizon_months": 24, "discount_rate": 0.05,
    "fx": {"USD": 0.9, "CNY": 0.125},
    "prices": {"source": "snapshot", "providers": ["aws"], "regions": ["us-east-1"],
               "purchase_options": ["on_demand", "spot"]},
    "onprem": {
        "electricity_per_kwh": 0.3, "pue": 1.25, "availability": 0.95, "cards": ["rtx-4090"],
        # the catalog's rtx-3060-12gb costs 2,500 CNY + 5,400 CNY host share; the quote replaces the card's price only
        "card_overrides": {"rtx-3060-12gb": {"price": 2200, "currency": "CNY", "as_of": "2026-11-02",
                                             "source": OVERRIDE_SOURCE}},
        "custom_cards": {"shenzhen-4090": {"gpu": "RTX-4090", "price": 14000, "currency": "CNY",
                                           "host_cost_per_card": 2000, "busy_watts": 700, "idle_watts": 60,
                                           "life_years": 4, "maintenance_rate_per_year": 0.04,
                                           "source": CUSTOM_SOURCE}},
        "existing": {"rtx-3060-12gb": {"count": 2, "age_months": 14}},
        "purchase_every_months": 6, "resale": {"method": "declining_balance", "share_of_book": 0.4},
        "switch_off_owned": False, "colocation_per_kw_month": 120, "fixed_onprem_per_month": 250,
        "capex_budget_per_year": 9000},
    "workloads": [{"name": "train", "gpu_hours_per_month": 900, "reference_gpu": "RTX-4090", "min_gpu_memory_gb": 16,
                   "growth_per_month": 0.01, "profile": "business_hours", "interruptible": True,
                   "interruption_overhead": 0.15, "throughput_metric": "fp16_tensor_tflops"}],
    "constraints": {"min_units": {"shenzhen-4090": 1}, "max_units": {"shenzhen-4090": 3}, "max_cloud_share": 0.5},
}


def rendered(md: str) -> str:
    return MarkdownIt("commonmark").enable("table").render(md)


def section(page: str, heading: str) -> str:
    """The rendered section whose <h2> starts with `heading`, up to the next <h2>."""
    return re.split(r"<h2>" + re.escape(heading) + r"[^<]*</h2>", page, maxsplit=1)[1].split("<h2>", 1)[0]


def rows(part: str) -> list[list[str]]:
    """The body rows of the first table of a rendered section, as cell texts."""
    body = part.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [re.findall(r"<td[^>]*>(.*?)</td>", row, re.S) for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)]


def by_first_cell(part: str) -> dict[str, list[str]]:
    return {r[0]: r[1:] for r in rows(part)}


def amount(text: str) -> float:
    """The first number of a cell ("2,000 per card …" → 2000.0)."""
    return float(re.match(r"[\d,.]+", text)[0].replace(",", ""))


@pytest.fixture(scope="module")
def startup():
    return plan(STARTUP, baselines=False)


@pytest.fixture(scope="module")
def eur(tmp_path_factory):
    path = tmp_path_factory.mktemp("eur") / "eur.yaml"
    path.write_text(yaml.safe_dump(EUR_SCENARIO, sort_keys=False))   # fx in the order given
    return plan(path, baselines=False)


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    path = tmp_path_factory.mktemp("hostile") / "hostile.yaml"
    path.write_text(yaml.safe_dump({**EUR_SCENARIO, "name": HOSTILE_NAME}, sort_keys=False))
    return plan(path, baselines=False)


# ---------------------------------------------------------------------------------------------------
# startup-hybrid.yaml


def test_startup_summary_states_its_scenario_assumptions_as_the_file_sets_them(startup):
    data = yaml.safe_load(STARTUP.read_text())
    assert (data["fx"], data["onprem"]["electricity_per_kwh"], data["onprem"]["pue"]) == ({"CNY": 0.13749}, 0.12, 1.4)
    got = {k: v[0] for k, v in by_first_cell(section(rendered(plan_to_markdown(startup)), "Scenario assumptions")).items()}
    assert got == {
        "currency": "USD", "horizon_months": "36 months", "discount_rate": "0 per year (undiscounted)",
        "fx": "1 CNY = 0.13749 USD",
        "prices.source": "snapshot", "prices.providers": "aws, azure", "prices.regions": "us-east-1, eastus",
        "prices.purchase_options": "on_demand, spot, reserved_1y, reserved_3y",
        "onprem.cards": "rtx-3060-12gb, rtx-a5000, rtx-4090, a100-80gb-pcie",
        "onprem.existing": "rtx-3060-12gb 2 (0 months old)",   # the short form: new cards
        "onprem.electricity_per_kwh": "0.12 USD/kWh", "onprem.pue": "1.4",
        "onprem.availability": "0.97 of the 730 h of a month",
        # not in the file: the defaults (docs/scenario-format.md)
        "onprem.purchase_every_months": "3 months", "onprem.resale": "straight_line, 0.5 × book value",
        "onprem.sell_owned": "yes", "onprem.switch_off_owned": "yes", "onprem.maintenance_when_off": "yes",
        "onprem.power_cap_kw": "6 kW", "onprem.capex_budget": "60,000 USD",
        "constraints.max_cloud_share": "0.6 of the work delivered",
        "constraints.min_units": "a100-80gb-pcie 1", "constraints.max_units": "rtx-4090 4",
        "not set (no cost, no cap)": "onprem.colocation_per_kw_month, onprem.fixed_onprem_per_month, "
                                     "onprem.capex_budget_per_year",
    }


def test_startup_summary_has_a_row_per_workload_with_its_demand_profile_and_speeds(startup):
    got = by_first_cell(section(rendered(plan_to_markdown(startup)), "Workloads"))
    # demand, growth_per_month, reference_gpu, min_gpu_memory_gb, gpus_per_job, profile, interruptible, speeds, also
    assert got == {
        "llm-finetune": ["400 reference-GPU-hours a month", "0.02", "A100-80GB-PCIE", "80", "1", "business_hours", "no",
                         "measured; throughput: A100-80GB-PCIE 1, H100-SXM 2.4", "framework tensorflow==2.12"],
        "prototyping": ["1,500 reference-GPU-hours a month", "0", "RTX-A5000", "12", "1", "flat", "yes, overhead 0.1",
                        "fp32_tflops", ""],
    }


def test_startup_summary_lists_the_quoted_card_and_the_prices_used_with_their_dates(startup):
    page = rendered(plan_to_markdown(startup))
    quotes = by_first_cell(section(page, "Cards quoted in the scenario"))
    assert quotes == {"a100-80gb-pcie": ["override", "14,000 + host 2,500 USD", "undated", "no source given",
                                         "busy_watts 300, idle_watts 50, life_years 5, maintenance_rate_per_year 0.05"]}
    used = {r[0]: r[1:] for r in rows(section(page, "Prices used"))}
    # gpu, where, purchase_option, price, as quoted, card figures, as_of, source
    a100 = used["a100-80gb-pcie"]   # min_units 1: always in the fleet; 14,000 + 2,500 USD
    assert a100[:6] == ["A100-80GB-PCIE", "onprem", "purchase", "16,500 per card with its host share",
                        "14,000 + host 2,500 USD", "300 W busy, 50 W idle, 5-year life, maintenance 0.05 a year"]
    assert a100[6:] == ["undated", "scenario card_overrides: no source given"]
    # owned, so in the fleet: the catalog's 2,500 CNY + 5,400 CNY host share at the scenario's 0.13749 USD per CNY
    # = 1,086.17 USD
    r3060 = used["rtx-3060-12gb"]
    assert r3060[3] == "1,086.171 per card with its host share" and r3060[4] == "" and r3060[6] == "undated"
    assert r3060[5] == "306 W busy, 26 W idle, 3-year life, maintenance 0.03 a year"
    snapshot = load_snapshot().set_index("offer_id")
    for unit in startup.fleet.itertuples():
        if unit.provider != "onprem":   # USD scenario, USD snapshot: the price as listed, with its date
            listed = snapshot.loc[f"{unit.provider}:{unit.region}:{unit.sku}:{unit.purchase_option}"]
            assert used[unit.sku][3] == f"{listed['hourly_price']:g} per hour"
            assert used[unit.sku][6] == (listed["as_of"] or "undated")


def test_startup_summary_lists_the_speeds_with_their_sources(startup):
    got = {(r[0], r[1]): r[2:] for r in rows(section(rendered(plan_to_markdown(startup)), "Speeds"))}
    # the file's own throughput table for llm-finetune: A100 1 (its reference), H100 2.4
    assert got[("llm-finetune", "A100-80GB-PCIE")][:2] == ["1", "reference"]
    assert got[("llm-finetune", "H100-SXM")][:3] == ["2.4", "user", "throughput table of workload llm-finetune"]
    # prototyping: fp32_tflops ratios to the RTX A5000 (27.8 TFLOPS): A100 19.5 / 27.8 = 0.7014
    assert got[("prototyping", "A100-80GB-PCIE")][:2] == ["0.7014", "datasheet"]
    assert len(got) == len(startup.speeds)


def test_the_header_names_version_generation_time_and_the_packaged_snapshot(startup):
    md = plan_to_markdown(startup)
    (line,) = [x for x in md.splitlines() if x.startswith("Planned with ")]
    stamp = json.loads(plan_to_json(startup))["generated_at"]   # every export of one plan carries one stamp
    assert line == f"Planned with fleetplan {__version__} at {stamp} (UTC), prices from the packaged price snapshot."
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", stamp)
    assert md.index(line) < md.index("**Total:")


# ---------------------------------------------------------------------------------------------------
# An EUR scenario with cards quoted in CNY


def test_eur_summary_states_the_fx_rates_site_costs_resale_and_caps(eur):
    got = {k: v[0] for k, v in by_first_cell(section(rendered(plan_to_markdown(eur)), "Scenario assumptions")).items()}
    expected = {
        "currency": "EUR", "horizon_months": "24 months", "discount_rate": "0.05 per year",
        "fx": "1 USD = 0.9 EUR; 1 CNY = 0.125 EUR", "prices.providers": "aws", "prices.regions": "us-east-1",
        "prices.purchase_options": "on_demand, spot", "onprem.cards": "rtx-4090",
        "onprem.existing": "rtx-3060-12gb 2 (14 months old)",
        "onprem.electricity_per_kwh": "0.3 EUR/kWh", "onprem.pue": "1.25",
        "onprem.availability": "0.95 of the 730 h of a month", "onprem.purchase_every_months": "6 months",
        "onprem.resale": "declining_balance, 0.4 × book value", "onprem.sell_owned": "yes",
        "onprem.switch_off_owned": "no", "onprem.maintenance_when_off": "yes",
        "onprem.colocation_per_kw_month": "120 EUR per kW and month", "onprem.fixed_onprem_per_month": "250 EUR a month",
        "onprem.capex_budget_per_year": "9,000 EUR each plan year",
        "constraints.max_cloud_share": "0.5 of the work delivered",
        "constraints.min_units": "shenzhen-4090 1", "constraints.max_units": "shenzhen-4090 3",
        "not set (no cost, no cap)": "onprem.power_cap_kw, onprem.capex_budget",
    }
    assert {k: got.get(k) for k in expected} == expected
    workloads = by_first_cell(section(rendered(plan_to_markdown(eur)), "Workloads"))
    assert workloads == {"train": ["900 reference-GPU-hours a month", "0.01", "RTX-4090", "16", "1", "business_hours",
                                   "yes, overhead 0.15", "fp16_tensor_tflops", ""]}


def test_eur_summary_shows_each_quote_in_cny_with_the_rate_and_its_price_in_eur(eur):
    page = rendered(plan_to_markdown(eur))
    quotes = by_first_cell(section(page, "Cards quoted in the scenario"))
    assert quotes["rtx-3060-12gb"][:4] == ["override", "2,200 CNY at 0.125 EUR per CNY", "2026-11-02",
                                           html.escape(OVERRIDE_SOURCE, quote=False)]
    assert quotes["shenzhen-4090"][:3] == ["custom", "14,000 + host 2,000 CNY at 0.125 EUR per CNY",
                                           "undated (no as_of field)"]
    used = {r[0]: r[1:] for r in rows(section(page, "Prices used (EUR"))}
    # (14,000 + 2,000) CNY × 0.125 = 2,000 EUR
    assert used["shenzhen-4090"][3:5] == ["2,000 per card with its host share", "14,000 + host 2,000 CNY at 0.125 EUR per CNY"]
    # the quote replaces the card's price, the catalog's host share stays: (2,200 + 5,400) CNY × 0.125 = 950 EUR
    assert used["rtx-3060-12gb"][3:5] == ["950 per card with its host share", "2,200 CNY at 0.125 EUR per CNY"]
    assert used["rtx-3060-12gb"][6] == "2026-11-02"
    snapshot = load_snapshot().set_index("offer_id")
    clouds = [u for u in eur.fleet.itertuples() if u.provider != "onprem"]
    assert clouds
    for unit in clouds:   # the snapshot's USD price × 0.9
        listed = snapshot.loc[f"{unit.provider}:{unit.region}:{unit.sku}:{unit.purchase_option}", "hourly_price"]
        assert used[unit.sku][3].endswith(" per hour") and amount(used[unit.sku][3]) == pytest.approx(listed * 0.9, abs=5e-5)
    assert "converted to EUR at the <code>fx</code> rates above" in page


def test_eur_json_prices_used_carry_each_quote_its_currency_and_rate(eur):
    used = {r["sku"]: r for r in json.loads(plan_to_json(eur))["prices_used"]}
    assert {k: used["shenzhen-4090"][k] for k in ("capex_per_unit", "quoted_price", "quoted_host_cost_per_card",
                                                   "quoted_currency", "fx_rate", "currency")} == \
        {"capex_per_unit": 2000.0, "quoted_price": 14000.0, "quoted_host_cost_per_card": 2000.0,
         "quoted_currency": "CNY", "fx_rate": 0.125, "currency": "EUR"}
    # the override gives the card's price only: the host share is the catalog's, in its currency
    assert {k: used["rtx-3060-12gb"][k] for k in ("capex_per_unit", "quoted_price", "quoted_host_cost_per_card",
                                                   "quoted_currency", "fx_rate")} == \
        {"capex_per_unit": 950.0, "quoted_price": 2200.0, "quoted_host_cost_per_card": None,
         "quoted_currency": "CNY", "fx_rate": 0.125}
    for row in used.values():   # cloud prices: the plan holds them in EUR only
        if row["provider"] != "onprem":
            assert [row[k] for k in ("quoted_price", "quoted_host_cost_per_card", "quoted_currency", "fx_rate")] == \
                [None] * 4


# ---------------------------------------------------------------------------------------------------
# User text is text


def test_a_hostile_scenario_name_and_quote_sources_render_as_typed(hostile):
    md = plan_to_markdown(hostile)
    page = rendered(md)
    assert "<script" not in page and "<a " not in page and "<img" not in page and "<b>" not in page
    assert "<em>" not in page and "<code>code</code>" not in page
    assert re.findall(r"<h1>(.*?)</h1>", page) == [html.escape(HOSTILE_NAME, quote=False)]
    quotes = by_first_cell(section(page, "Cards quoted in the scenario"))
    assert quotes["rtx-3060-12gb"][3] == html.escape(OVERRIDE_SOURCE, quote=False)
    assert quotes["shenzhen-4090"][3] == html.escape(CUSTOM_SOURCE, quote=False)
    used = by_first_cell(section(page, "Prices used"))
    assert used["shenzhen-4090"][-1] == html.escape(f"scenario custom_cards: {CUSTOM_SOURCE}", quote=False)
    assert all(len(r) == 9 for r in rows(section(page, "Prices used")))   # no `|` split a row


# ---------------------------------------------------------------------------------------------------
# The price store: which snapshot, fetched when


def test_a_store_plan_names_its_snapshot_and_when_it_was_fetched(azure_eastus_store, store_a100_scenario, tmp_path):
    (info,) = PriceStore(azure_eastus_store, create=False).snapshots()
    assert (info.id, info.provider, tuple(info.regions)) == (1, "azure", ("eastus",))
    p = plan(store_a100_scenario, baselines=False, store=azure_eastus_store)
    named = f"prices from the price store: azure snapshot #1 (eastus) fetched {info.fetched_at}, "
    (line,) = [x for x in plan_to_markdown(p).splitlines() if x.startswith("Planned with ")]
    assert named in line and re.search(r", \d+ days? old\.$", line), line
    shown = CliRunner().invoke(app, ["plan", str(store_a100_scenario), "--store", str(azure_eastus_store),
                                     "--format", "md", "--no-baselines", "--no-decisions"])
    assert shown.exit_code == 0, shown.output
    assert named in shown.stdout
