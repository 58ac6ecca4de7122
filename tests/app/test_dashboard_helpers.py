"""The dashboard's helpers on their own: uploads, edits, the break-even month, the price banner."""

from __future__ import annotations

import base64
from datetime import date
from pathlib import Path

import pandas as pd
import pytest

from fleetplan_dashboard import state, tables
from planner import load_scenario

ROOT = Path(__file__).resolve().parents[2]
DEFAULT = ROOT / "scenarios" / "startup-hybrid.yaml"


@pytest.fixture(scope="module")
def base():
    return load_scenario(DEFAULT)


# ---------------------------------------------------------------------------------------------------
# Uploads


def test_upload_size_limit():
    data = b"name: big\n" + b"# padding\n" * (state.MAX_UPLOAD_BYTES // 10 + 1)
    scenario, problems, _ = state.read_upload("big.yaml", data)
    assert scenario is None and problems == [f"big.yaml: file is {len(data):,} bytes; the limit is 1 MB (1,000,000 bytes)"]


def test_upload_syntax_error_names_its_line():
    data = b"name: x\nworkloads:\n  - name: a\n    gpu_hours_per_month: [1, 2\n    reference_gpu: T4\n"
    scenario, problems, _ = state.read_upload("syntax.yaml", data)
    assert scenario is None
    assert any(p.startswith("syntax.yaml:5:") and "YAML syntax" in p for p in problems), problems


def test_upload_is_never_executed():
    data = b"name: !!python/object/apply:os.system ['echo pwned']\nworkloads: []\n"
    scenario, problems, _ = state.read_upload("evil.yaml", data)
    assert scenario is None and any(p.startswith("evil.yaml:1:") for p in problems), problems


def test_upload_not_utf8_and_empty():
    assert state.read_upload("bin.yaml", b"\xff\xfe\x00bad")[1] == [
        "bin.yaml:1:1: not UTF-8 text: UTF-16 (it begins with UTF-16's byte order mark); save the file as UTF-8"]
    assert state.read_upload("empty.yaml", b"  \n")[1] == ["empty.yaml:1:1: the file is empty"]


def test_upload_cannot_point_at_server_files():
    text = DEFAULT.read_text().replace("profile: flat", "profile: /etc/weights.csv")
    scenario, problems, _ = state.read_upload("paths.yaml", text.encode())
    assert scenario is None
    line = next(i for i, text_line in enumerate(text.splitlines(), 1) if "/etc/weights.csv" in text_line)
    # the file does not exist, so the scenario validation itself names the line
    assert any(p.startswith(f"paths.yaml:{line}:") and "profile" in p for p in problems), problems


@pytest.mark.parametrize("field", ["profile: flat", "source: snapshot"])
def test_an_upload_cannot_name_a_server_file_in_binary_either(tmp_path, field):
    # a review (2026-12-05): `!!binary` (base64) was read as bytes, which pydantic took for the text they decode
    # to, past the check above: the plan's error then showed the cells of the server file it named
    secret = tmp_path / "creds.csv"
    secret.write_text("user,password\nalice,hunter2\n", encoding="utf-8")
    key = field.split(":")[0]
    encoded = base64.b64encode(str(secret).encode()).decode()
    text = DEFAULT.read_text().replace(field, f"{key}: !!binary {encoded}", 1)
    assert encoded in text
    scenario, problems, _ = state.read_upload("up.yaml", text.encode())
    line = next(i for i, text_line in enumerate(text.splitlines(), 1) if encoded in text_line)
    column = text.splitlines()[line - 1].index("!!binary") + 1
    assert scenario is None
    assert problems == [f"up.yaml:{line}:{column}: !!binary data: a scenario holds text, numbers, lists and mappings; "
                        "write the value as plain text"]


UPLOAD_PROGRAM = """
import sys
from fleetplan_dashboard import state
scenario, problems, _ = state.read_upload("up.yaml", sys.stdin.buffer.read())
print(scenario is None, "|".join(problems))
"""


@pytest.mark.parametrize("text, message", [
    # 'billion laughs': 9 aliases of 9 aliases … 8 levels deep, a few hundred bytes
    ("a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + k)}: &{chr(98 + k)} [{', '.join([f'*{chr(97 + k)}'] * 9)}]\n" for k in range(8)),
     "YAML aliases expand to more than 100,000 nodes"),
    ("name: x\nworkloads: " + "[" * 3000 + "]" * 3000 + "\n", "YAML nested deeper than 100 levels"),
], ids=["alias-bomb", "3000-levels"])
def test_upload_of_an_alias_bomb_or_deep_nesting_is_refused_at_once(text, message):
    import subprocess
    import sys

    # in a subprocess with a timeout: before the limits, the alias bomb took minutes and 12 GB
    done = subprocess.run([sys.executable, "-c", UPLOAD_PROGRAM], input=text.encode(), capture_output=True,
                          timeout=20, cwd=Path(__file__).resolve().parents[2])
    refused, _, problems = done.stdout.decode().strip().partition(" ")
    assert done.returncode == 0 and refused == "True", done.stderr.decode()[-2000:]
    assert problems.startswith("up.yaml:") and message in problems


def test_valid_upload(base):
    scenario, problems, text = state.read_upload("ok.yaml", DEFAULT.read_bytes())
    assert problems == [] and scenario == base and text == DEFAULT.read_text()


# ---------------------------------------------------------------------------------------------------
# Edits


def test_untouched_widgets_reproduce_the_file(base):
    assert state.apply_edits(base, state.default_edits(base)) is base


def test_edits_change_only_what_moved(base):
    values = {**state.default_edits(base), "demand:prototyping": 2000.0, "growth:llm-finetune": 3.0,
              "capex_budget": None, "providers": ["azure"], "purchase_options": ["spot", "on_demand"]}
    s = state.apply_edits(base, values)
    w = {x.name: x for x in s.workloads}
    assert w["prototyping"].gpu_hours_per_month == 2000.0
    assert w["llm-finetune"].growth_per_month == pytest.approx(0.03)
    assert w["llm-finetune"].gpu_hours_per_month == 400
    assert s.onprem.capex_budget is None and s.onprem.power_cap_kw == 6
    assert s.prices.providers == ("azure",) and s.prices.purchase_options == ("on_demand", "spot")
    assert s.onprem.card_overrides == base.onprem.card_overrides and s.constraints == base.constraints


def test_out_of_range_edit_is_a_scenario_error(base):
    from planner.errors import ScenarioError

    with pytest.raises(ScenarioError, match="pue"):
        state.apply_edits(base, {**state.default_edits(base), "pue": 0.5})


# ---------------------------------------------------------------------------------------------------
# Cumulative cost and break-even month


def _cum(rec, cloud):
    return pd.DataFrame({"month": range(1, len(rec) + 1), "recommended": rec, "all_cloud": cloud})


@pytest.mark.parametrize("rec, cloud, month", [
    ([10, 12, 14, 16, 10], [5, 10, 15, 20, 25], 3),    # crosses once, in month 3
    ([10, 8, 14, 12], [9, 9, 13, 13], 4),              # dips below in month 2 but not for good
    ([1, 2, 3], [5, 6, 7], 1),                         # below from the start
    ([5, 6, 7], [5, 6, 7], None),                      # the same plan: never below
    ([10, 20, 30], [5, 10, 25], None),                 # above at the end
    ([10, 20, 5], [5, 10, 25], 3),                     # only with the residual credit (month H+1)
])
def test_break_even_month(rec, cloud, month):
    assert tables.break_even_month(_cum(rec, cloud)) == month


def test_cumulative_ends_at_each_plans_total(base):
    p = state.plan_for(base).plan
    cum = tables.cumulative(p, {k: p.baseline_plans[k] for k in ("all_cloud", "all_onprem")})
    assert list(cum["month"]) == list(range(1, base.horizon_months + 2))
    b = p.baselines.set_index("baseline")["total"]
    assert cum["recommended"].iloc[-1] == pytest.approx(p.total, rel=1e-9)
    assert cum["all_cloud"].iloc[-1] == pytest.approx(b["all_cloud"], rel=1e-9)
    assert cum["all_onprem"].iloc[-1] == pytest.approx(b["all_onprem"], rel=1e-9)


def test_fleet_actions(base):
    p = state.plan_for(base).plan
    t = tables.fleet_table(p)
    assert list(t["action"]) == sorted(t["action"], key=tables.ACTION_ORDER.index)
    assert tables.action("onprem", "purchase", 0) == "keep (owned)"
    assert tables.action("onprem", "purchase", 0, kept_units=0, sold_units=2) == "sell (owned)"
    assert tables.action("onprem", "purchase", 0, kept_units=0, sold_units=0) == "switch off (owned)"
    # the start-up sells both owned RTX 3060s: the fleet row and the headline card say so
    row = t[t["sku"] == "rtx-3060-12gb"].iloc[0]
    assert row["action"] == "sell (owned)" and row["sold_units"] == 2
    owned = next(c for c in tables.fleet_cards(p) if c.label == "Owned cards")
    assert owned.value == "0 of 2 kept" and owned.detail == "sell 2 × rtx-3060-12gb"
    assert tables.action("onprem", "purchase", 2) == "buy"
    assert tables.action("aws", "reserved_3y", 1) == "reserve"
    assert tables.action("azure", "spot", float("nan")) == "rent spot"


# ---------------------------------------------------------------------------------------------------
# The price banner


def _dated(as_of: str | None, oldest: str | None = None, prices: int = 1, undated: int = 0) -> dict:
    """A "cloud_dates" or "card_dates" entry of a Plan's prices (engine.readback.prices_used)."""
    return {"as_of": as_of, "as_of_oldest": oldest or as_of, "prices": prices, "undated_prices": undated}


def test_price_banner_fresh_and_stale():
    prices = {"source": "snapshot", "as_of": "2026-07-20", "as_of_oldest": "2026-07-20",
              "cloud_dates": _dated("2026-07-20")}
    level, text = tables.price_banner(prices, today=date(2026, 8, 1))
    assert level == "info" and "packaged price snapshot" in text and "2026-07-20 (12 days ago" in text
    # the plan's own rule (catalog.prices.STALE_AFTER_DAYS, the command line's "stale prices: … older than 180
    # days"): 2026-07-20 is 133 days before 2026-11-30 (11 days left of July + 31 + 30 + 31 + 30) and 180 days
    # before 2027-01-16 (133 + 31 + 16): not yet old; a day later it is
    for today, age, level in ((date(2026, 11, 30), 133, "info"), (date(2027, 1, 16), 180, "info"),
                              (date(2027, 1, 17), 181, "warning")):
        got, text = tables.price_banner(prices, today=today)
        assert got == level and f"({age} days ago)" in text, text
        assert ("past the 180-day mark" in text) == (level == "warning"), text
        # the first sentence says how old, and what to do
        assert text.startswith(f"**The cloud prices are {age} days old, past the 180-day mark: check current prices "
                               "before deciding.**" if level == "warning" else
                               f"**The prices are recent: the newest cloud price is {age} days old.**"), text
    assert "90 days" not in text


def test_price_banner_store_snapshot_age_and_warning():
    prices = {"source": "store", "as_of": "2026-11-20", "warning": "azure: packaged snapshot (never refreshed)",
              "cloud_dates": _dated("2026-11-20"),
              "snapshots": [{"provider": "aws", "fetched_at": "2026-11-20T08:00:00+00:00", "age_days": 10.2}]}
    level, text = tables.price_banner(prices, today=date(2026, 11, 30))
    assert level == "warning"   # not stale, but the source reported a problem
    assert "price store" in text and "aws fetched 2026-11-20 (10 days ago)" in text and "never refreshed" in text


def test_a_snapshots_age_is_in_calendar_days_as_the_command_line_says_it():
    # fetched 2026-01-02 at 23:00 UTC; on 2026-12-07 it is 339 calendar days old (29 days left of January + 28 + 31 +
    # 30 + 31 + 30 + 31 + 31 + 30 + 31 + 30 + 7), though at 00:30 only 338.06 days have elapsed: the page said 338
    prices = {"source": "store", "as_of": "2026-01-01", "cloud_dates": _dated("2026-01-01"),
              "snapshots": [{"provider": "aws", "fetched_at": "2026-01-02T23:00:00+00:00", "age_days": 338.06}]}
    _, text = tables.price_banner(prices, today=date(2026, 12, 7))
    assert "aws fetched 2026-01-02 (339 days ago)" in text
    # a time that cannot be read: its elapsed days, rounded down
    prices["snapshots"][0]["fetched_at"] = "yesterday"
    _, text = tables.price_banner(prices, today=date(2026, 12, 7))
    assert "aws fetched yesterday (338 days ago)" in text


# startup-hybrid.yaml's prices as the engine gives them: aws p5.48xlarge on-demand (dated 2026-07-20 in the snapshot,
# 139 days before 2026-12-06, within the plan's 180 days; here dated 2026-04-20, 230 days before 2026-12-06: 10 days
# left of April + 31 + 30 + 31 + 31 + 30 + 31 + 30 + 6), the catalog's RTX 4090 (2023-11-23) and RTX 3060 (undated),
# and the A100 at the scenario's own quote.
DEC_6 = date(2026, 12, 6)
STARTUP = {"source": "snapshot", "as_of": "2026-04-20", "as_of_oldest": "2023-11-23",
           "cloud_dates": _dated("2026-04-20"), "card_dates": _dated("2023-11-23", prices=2, undated=1),
           "quotes": [{"card": "a100-80gb-pcie", "as_of": None}]}
# The first sentence, plainly: how old the prices are and what to do. The cloud price is 230 days old; the catalog's
# card prices: the RTX 4090's of 2023-11-23 is 1,109 days old on 2026-12-06 (3 years to 2026-11-23 with 2024's leap
# day, 3 × 365 + 1, and 13 days), past the 180 days after which a plan's warnings call a price stale; the RTX 3060's
# has no date
HEADLINE = ("**The cloud prices are 230 days old and the catalog card prices up to 1,109 days old, past the 180-day "
            "mark; 1 price used has no date and may be old: check current prices before deciding.**\n\n")
# the details after the list: where the dates are, and how newer prices reach a plan of the packaged snapshot
STALE = (". The Prices page shows each offer's date; newer ones need a price refresh, made on the command line "
         "(`fleetplan prices refresh`), and the scenario file's Price source set to the price store.")
# and where a quote of one's own goes, after the oldest card price's date
OLD_CARDS = (" The oldest catalog card price is dated 2023-11-23; a quote of your own goes in the Plan page's quote box "
             "(sidebar, On-prem cards) or under the scenario file's “Card overrides (your figures for catalog cards)”.")


def test_price_banner_names_the_cloud_prices_age_the_catalog_cards_and_the_quote_apart():
    level, text = tables.price_banner(STARTUP, today=DEC_6)
    assert level == "warning"
    assert text == HEADLINE + (r"Prices: packaged price snapshot · newest cloud price as of 2026-04-20 "
                               r"(230 days ago) · catalog card prices as of 2023-11-23, 1 undated · your quote for "
                               r"a100\-80gb\-pcie (no date given)" + STALE + OLD_CARDS)


def test_a_fresh_quote_date_hides_no_stale_cloud_price():
    # card_overrides.a100-80gb-pcie.as_of: 2026-11-20 makes the quote the newest price of all (prices["as_of"]),
    # 16 days old on 2026-12-06; the cloud price is as old as before
    quoted = {**STARTUP, "as_of": "2026-11-20", "quotes": [{"card": "a100-80gb-pcie", "as_of": "2026-11-20"}]}
    level, text = tables.price_banner(quoted, today=DEC_6)
    assert level == "warning"
    assert text == HEADLINE + (r"Prices: packaged price snapshot · newest cloud price as of 2026-04-20 "
                               r"(230 days ago) · catalog card "
                               r"prices as of 2023-11-23, 1 undated · your quote for a100\-80gb\-pcie is dated 2026-11-20 "
                               r"(16 days ago)" + STALE + OLD_CARDS)


def test_a_price_dated_in_the_future_is_said_to_be():
    quoted = {**STARTUP, "as_of": "2027-11-20", "quotes": [{"card": "a100-80gb-pcie", "as_of": "2027-11-20"}]}
    level, text = tables.price_banner(quoted, today=DEC_6)
    assert level == "warning" and "days ago" not in text.split("your quote")[1]
    assert text.endswith(r"your quote for a100\-80gb\-pcie is dated 2027-11-20, in the future: check the date"
                         + STALE + OLD_CARDS)
    assert text.startswith("**The cloud prices are 230 days old and the catalog card prices up to 1,109 days old, past "
                           "the 180-day mark; 1 price used has no date and may be old; a price is dated in the future: "
                           "check current prices and the date in the future before deciding.**"), text
    # a cloud price dated in the future: said so, even where nothing else needs a look
    fresh = {"source": "snapshot", "cloud_dates": _dated("2027-01-01", oldest="2026-12-01", prices=2)}
    level, text = tables.price_banner(fresh, today=DEC_6)
    assert (level, text) == ("warning", "**A price is dated in the future: check its date before deciding.**\n\n"
                                        "Prices: packaged price snapshot · newest cloud price dated 2027-01-01, in the "
                                        "future: check the date.")
    # tomorrow is no future: a refresh is dated in UTC
    level, text = tables.price_banner({"source": "snapshot", "cloud_dates": _dated("2026-12-07")}, today=DEC_6)
    assert (level, text) == ("info", "**The prices are recent: the newest cloud price is from today.**\n\n"
                                     "Prices: packaged price snapshot · newest cloud price as of 2026-12-07 (today).")


def test_undated_cloud_prices_are_said_undated_not_absent():
    # entry.yaml rents Azure Standard_NC4as_T4_v3 spot, whose snapshot row has no date
    entry = {"source": "snapshot", "as_of": None, "undated_prices": 1, "cloud_dates": _dated(None, undated=1)}
    level, text = tables.price_banner(entry, today=DEC_6)
    # one price: "The cloud price carries" (a browser check, 2026-12-06: "The cloud prices carry" of one)
    assert (level, text) == ("warning", "**1 price used has no date and may be old: check current prices before "
                                        "deciding.**\n\nPrices: packaged price snapshot · 1 cloud price in use, undated. "
                                        "The Prices page shows each offer's date; newer ones need a price refresh, made "
                                        "on the command line (`fleetplan prices refresh`), and the scenario file's Price "
                                        "source set to the price store.")
    # some dated, some not: the dated ones give the age, the others are counted
    mixed = {"source": "snapshot", "cloud_dates": _dated("2026-11-30", oldest="2026-11-01", prices=3, undated=2)}
    level, text = tables.price_banner(mixed, today=DEC_6)
    assert (level, text) == ("warning", "**2 prices used have no date and may be old: check current prices before "
                                        "deciding.**\n\nPrices: packaged price snapshot · newest cloud price as of "
                                        "2026-11-30 (6 days ago; oldest cloud price used 2026-11-01), 2 cloud prices "
                                        "undated.")
    # no cloud price in the plan at all
    level, text = tables.price_banner({"source": "snapshot", "cloud_dates": _dated(None, prices=0)}, today=DEC_6)
    assert (level, text) == ("info", "**No price this plan uses is older than 180 days.**\n\n"
                                     "Prices: packaged price snapshot · no cloud price in use.")


def test_the_banner_of_entry_yaml_says_its_cloud_price_is_undated():
    from planner import plan

    p = plan(load_scenario(ROOT / "scenarios" / "entry.yaml"), baselines=False)
    assert p.prices["undated_prices"] == 1
    level, text = tables.price_banner(p.prices, today=DEC_6)
    assert level == "warning" and "1 cloud price in use, undated" in text and "no cloud price" not in text


# startup-hybrid.yaml with its A100 override giving provenance but no price: the plan prices the card at the
# catalog's price (onprem_cards.csv), which the banner called "your quote"
A100_OVERRIDE = """    a100-80gb-pcie: {price: 14000, currency: USD, host_cost_per_card: 2500, busy_watts: 300,
                     idle_watts: 50, life_years: 5, maintenance_rate_per_year: 0.05}"""


def _startup_with_a100(override: str):
    from planner.scenario import load_scenario_text

    text = DEFAULT.read_text(encoding="utf-8")
    assert A100_OVERRIDE in text
    return load_scenario_text(text.replace(A100_OVERRIDE, f"    a100-80gb-pcie: {override}"))


def test_an_override_with_a_source_and_no_price_is_said_to_be_the_catalog_price_not_your_quote():
    # prices_used counts the card as quoted (its source is not the catalog's); its date is the catalog's, which
    # on 2026-12-06 is 261 days old for 2026-03-20 (11 days left of March + 30 + 31 + 30 + 31 + 31 + 30 + 31 + 30 + 6)
    quoted = {**STARTUP, "quotes": [{"card": "a100-80gb-pcie", "as_of": "2026-03-20"}]}
    level, text = tables.price_banner(quoted, today=DEC_6, scenario=_startup_with_a100("{source: Dell quote}"))
    assert level == "warning"
    assert text == HEADLINE + (r"Prices: packaged price snapshot · newest cloud price as of 2026-04-20 "
                               r"(230 days ago) · catalog card prices as of 2023-11-23, 1 undated · catalog price for "
                               r"a100\-80gb\-pcie with the source you gave (the scenario gives no price for it) is dated "
                               r"2026-03-20 (261 days ago)" + STALE + OLD_CARDS)
    # a catalog card without a date: said undated, not "no date given" of a quote
    undated = {**STARTUP, "quotes": [{"card": "a100-80gb-pcie", "as_of": None}]}
    _, text = tables.price_banner(undated, today=DEC_6, scenario=_startup_with_a100("{source: Dell quote}"))
    assert (r"catalog price for a100\-80gb\-pcie with the source you gave (the scenario gives no price for it), undated"
            in text) and "your quote" not in text


def test_an_override_with_a_price_is_still_your_quote_and_a_scenario_changes_nothing_else():
    quoted = {**STARTUP, "as_of": "2026-11-20", "quotes": [{"card": "a100-80gb-pcie", "as_of": "2026-11-20"}]}
    priced = _startup_with_a100("{price: 14000, as_of: 2026-11-20, source: Dell quote}")
    assert tables.price_banner(quoted, today=DEC_6, scenario=priced) == tables.price_banner(quoted, today=DEC_6)
    assert r"your quote for a100\-80gb\-pcie is dated 2026-11-20 (16 days ago)" in tables.price_banner(
        quoted, today=DEC_6, scenario=priced)[1]
    assert tables.unpriced_provenance(priced) == {} and tables.unpriced_provenance(None) == {}
    assert tables.unpriced_provenance(_startup_with_a100("{as_of: 2026-11-20}")) == {"a100-80gb-pcie": "date"}


def test_the_banner_of_a_plan_whose_override_gives_a_date_and_source_but_no_price_names_the_catalog_price():
    from planner import plan

    p = plan(_startup_with_a100("{as_of: 2026-11-20, source: 'Dell, by mail'}"), baselines=False)
    assert p.prices["quotes"] == [{"card": "a100-80gb-pcie", "as_of": "2026-11-20"}]   # counted as quoted
    level, text = tables.price_banner(p.prices, today=DEC_6, scenario=p.scenario)
    # 2026-11-20 to 2026-12-06: 16 days
    assert (r"catalog price for a100\-80gb\-pcie with the date and source you gave (the scenario gives no price for it) "
            r"is dated 2026-11-20 (16 days ago)") in text
    assert "your quote" not in text


def test_upload_refuses_existing_server_files(tmp_path):
    weights = tmp_path / "weights.csv"
    weights.write_text("weight\n" + "1\n" * 168)
    text = DEFAULT.read_text().replace("profile: flat", f"profile: {weights}")
    scenario, problems, _ = state.read_upload("paths.yaml", text.encode())
    line = next(i for i, text_line in enumerate(text.splitlines(), 1) if str(weights) in text_line)
    assert scenario is None
    assert problems == [f"paths.yaml:{line}:1: workloads[1].profile: an uploaded scenario can use only the "
                        f"built-in profiles (flat, business_hours, deadline_peaks), not a file ({str(weights)!r})"]


def test_installed_chart_counts_the_schedules_purchases_and_retirements():
    """Cards in service per month in the chart = purchases so far − retirements so far, counted from the
    purchase schedule's rows (industrial.yaml over 120 months: quarterly vintages retired after 60 months)."""
    from fleetplan_dashboard import charts
    from planner.engine import plan

    p = plan(ROOT / "scenarios" / "industrial.yaml", baselines=False, overrides={"horizon_months": 120})
    fig = charts.installed_chart(p.installed, p.schedule, p.horizon_months)
    shown = pd.concat([pd.Series(t.y, index=t.x) for t in fig.data], axis=1).fillna(0).sum(axis=1)
    sign = p.schedule["action"].map({"buy": 1, "retire": -1, "sell": -1}).fillna(0)
    change = (sign * p.schedule["units"]).groupby(p.schedule["month"]).sum()
    expected = change.reindex(range(1, 121), fill_value=0).cumsum()
    assert (p.schedule["action"] == "retire").any() and p.schedule["month"].nunique() > 10
    assert list(shown.index) == list(range(1, 121))
    assert shown.to_numpy() == pytest.approx(expected.to_numpy())
    buys = sorted(p.schedule.loc[p.schedule["action"] == "buy", "month"].unique())
    assert sorted(s.x0 for s in fig.layout.shapes) == buys


def test_the_dashboard_s_re_solves_have_a_budget(monkeypatch):
    # tests/planner/test_decisions_budget.py: add_decisions' total_time_limit, which the dashboard's job passes
    from fleetplan_dashboard import jobs
    from planner.engine import plan

    planned = plan(DEFAULT, baselines=False)
    monkeypatch.setattr(jobs, "DECISIONS_TIME_LIMIT_S", 1e-9)
    made = jobs.decisions_job(planned, "highs")
    # spent before the first re-solve: every answer is there, each saying it was not computed
    assert made.error == "" and len(made.decisions) == len(planned.schedule.query("action in ['buy', 'sell']"))
    why = "not computed: the re-solves stopped at their time limit of 1e-09 s in all"
    assert (made.decisions["note"] == f"no value: {why}").all() and made.runner_up["note"] == why
    left = [w for w in made.warnings if w.startswith("what each decision is worth: ")]
    # … and how to allow more time where the page has no option for it: the command line (no CLI option named)
    assert len(left) == 1 and "answers are not computed" in left[0] and "--" not in left[0]
    assert left[0].endswith("(planning the scenario's file on the command line, `fleetplan plan FILE`, allows them "
                            "more time)")
    # one card more or fewer: none has a total, so the table is empty and a line says how many and why
    assert len(tables.count_alternatives(made.runner_up)) == 0
    counted = len(made.runner_up["count_alternatives"])
    assert counted and all(a["note"] == why for a in made.runner_up["count_alternatives"])
    assert tables.count_alternatives_left_out(None) is None
    assert counted == 5 and tables.count_alternatives_left_out(made.runner_up) == tables.plain(
        "One card more or fewer: 5 of 5 not shown: at least 1 rtx-3060-12gb, at least 2 rtx-4090, at most 0 rtx-4090, "
        f"at least 2 a100-80gb-pcie, at most 0 a100-80gb-pcie: {why}.")
    # the page shows the plan's warnings with that one
    shown = state.with_decisions(state.Outcome("ok", plan=planned), made).plan.warnings
    assert shown == [*planned.warnings, left[0]]


def test_the_count_alternatives_table_shows_the_count_each_fleet_holds():
    # the best plan holding at most one of two cards may hold none (tests/planner/test_count_alternatives_held.py):
    # the table shows the bound asked and the count held; a row without a total is left out
    runner = {"count_alternatives": [
        {"card": "a", "units": 2, "alternative_units": 1, "held_units": 0, "status": "optimal", "total": 104.0,
         "increase": 4.0, "increase_pct": 4.0, "fleet": {}, "note": None},
        {"card": "a", "units": 2, "alternative_units": 3, "held_units": None, "status": "infeasible", "total": None,
         "increase": None, "increase_pct": None, "fleet": None, "note": "no plan holds that many"}]}
    table = tables.count_alternatives(runner)
    assert table[["units", "alternative_units", "held_units"]].values.tolist() == [[2, 1, 0]]


def test_an_upload_quoting_more_custom_cards_than_the_limit_is_refused():
    # a review (2026-12-05): 60 custom cards alike with min/max units planned past 300 s and 1.2 GB
    def quoting(n: int) -> str:
        cards = "".join(f"    q{i}: {{gpu: RTX-4090, price: {1000 + i}, busy_watts: 450, idle_watts: 30}}\n"
                        for i in range(n))
        return ("name: quotes\nhorizon_months: 12\nonprem:\n  custom_cards:\n" + cards
                + "workloads:\n  - {name: w, gpu_hours_per_month: 100, reference_gpu: RTX-4090}\n")

    limit = state.MAX_UPLOAD_CUSTOM_CARDS
    assert state.refuse_files("ok.yaml", quoting(limit)) == []
    assert state.refuse_files("many.yaml", quoting(limit + 1)) == [
        f"many.yaml:4:1: onprem.custom_cards: {limit + 1} cards; the dashboard takes at most {limit} — plan a "
        "larger file with the command line: fleetplan plan many.yaml"]
    scenario, problems, _ = state.read_upload("many.yaml", quoting(limit + 1).encode())
    assert scenario is None and problems and "custom_cards" in problems[0]


def test_price_banner_shows_an_offers_csv_path_and_a_warning_as_typed():
    # Markdown in either would be a live image or link in st.warning / st.info (audit H 1)
    prices = {"source": "/srv/![a](http://h/i.png).csv", "as_of": "2026-11-20", "cloud_dates": _dated("2026-11-20"),
              "quotes": [{"card": "my-[card](http://e/l)", "as_of": None}],
              "warning": "row 9 (offer **[x](http://e/l)**): negative prices"}
    level, text = tables.price_banner(prices, today=date(2026, 11, 30))
    assert level == "warning"
    assert text == ("**The prices are recent: the newest cloud price is 10 days old.**\n\n"
                    r"Prices: offers CSV \/srv\/\!\[a\]\(http\:\/\/h\/i\.png\)\.csv · newest cloud price as of 2026-11-20 "
                    r"(10 days ago) · your quote for my\-\[card\]\(http\:\/\/e\/l\) (no date given). "
                    r"Note: row 9 \(offer \*\*\[x\]\(http\:\/\/e\/l\)\*\*\)\: negative prices.")


# ---------------------------------------------------------------------------------------------------
# Shares of the plan's total: two significant digits under 0.05 %, as the CLI and the Markdown summary


def test_a_share_of_0_0045_percent_does_not_read_0_00():
    # a decision worth 90 USD of a 2,000,000 USD total: 90 / 2,000,000 = 0.0045 %
    assert tables.pct_text(0.0045) == "+0.0045 %" and tables.pct_text(-0.0004) == "-0.0004 %"
    assert tables.pct_text(1.694) == "+1.69 %" and tables.pct_text(0.0) == "+0.00 %" and tables.pct_text(None) == "n/a"
    decisions = pd.DataFrame({"card_or_offer": ["a", "b", "c", "d"], "increase_pct": [0.0045, 1.694, float("nan"), -0.0004]})
    shown = tables.shares_shown(decisions, "increase_pct")
    assert list(shown["increase_pct"][[0, 1, 3]]) == [0.0045, 1.69, -0.0004] and pd.isna(shown["increase_pct"][2])
    assert list(decisions["increase_pct"][[0, 1]]) == [0.0045, 1.694]   # the plan's own table is left as it is


def test_a_runner_up_0_0045_percent_below_an_unproven_plan_says_so():
    from types import SimpleNamespace

    runner = {"total": 1_999_910.0, "increase": -90.0, "increase_pct": -0.0045, "differences": ["rtx-4090 1 → 2"],
              "close_call_share": 0.02, "status": "optimal", "fleet": {"rtx-4090": 2}}
    kind, text = tables.verdict(2_000_000.0, "USD", SimpleNamespace(runner_up=runner, close_call=True), "feasible")
    assert kind == "not_best" and "costs 1,999,910 USD, 90 USD (0.0045 %) less than this plan's 2,000,000 USD" in text


# ---------------------------------------------------------------------------------------------------
# The prices chart


def test_the_price_chart_hover_says_undated_where_an_offer_has_no_date():
    from fleetplan_dashboard import charts

    # the packaged AWS spot prices carry no as_of (pricing_adapters/snapshots/manifest.json: 16 spot rows without)
    view = pd.DataFrame({"gpu": ["A10G", "A10G", "T4"], "usd_per_gpu_hour": [1.006, 0.4246, 0.2158],
                         "provider": ["aws"] * 3, "purchase_option": ["on_demand", "spot", "spot"],
                         "sku": ["g5.xlarge", "g5.xlarge", "g4dn.xlarge"], "region": ["us-east-1"] * 3,
                         "as_of": pd.Series(["2026-07-20", "", None], dtype="string")})
    fig = charts.offers_chart(view)
    hovers = {}
    for trace in fig.data:
        for sku, _region, when in trace.customdata:
            hovers[(trace.name, sku)] = trace.hovertemplate.replace("%{customdata[2]}", str(when))
    assert hovers[("aws on_demand", "g5.xlarge")].endswith("<br>as of 2026-07-20<extra></extra>")
    assert hovers[("aws spot", "g5.xlarge")].endswith("<br>undated<extra></extra>")
    assert hovers[("aws spot", "g4dn.xlarge")].endswith("<br>undated<extra></extra>")
    assert not any("as of <" in h or "as of nan" in h or "as of <NA>" in h for h in hovers.values())
