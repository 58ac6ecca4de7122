"""Unit minimums whose new cards alone pass a cap are said at once, naming constraints.min_units and the cap with their
lines: an audit's EUR scenario (fx USD 0.92, capex_budget 60,000) with `min_units: {a100-80gb-pcie: 6}` validated
"ok", and `plan` solved for 25 s to "capex budget 60,000 EUR < 77,280 EUR needed at the least: 6 × A100-80GB-PCIE",
naming no min_units.

Figures worked out by hand from planner/data/onprem_cards.csv: an a100-80gb-pcie is 11,500 USD + 2,500 USD host share
= 14,000 USD, at 0.92 EUR a USD 12,880 EUR, so 6 are 77,280 EUR; an rtx-3090 750 + 750 USD = 1,500 USD, 1,380 EUR,
and 6 with 4 owned buy 2: 2,760 EUR; an hgx-h100-8gpu is sold as whole 8-GPU boards of 39,625 USD a GPU (no host
share), so 3 buy one board: 8 × 36,455 EUR = 291,640 EUR; an rtx-4090 draws 810 W busy, 13 of them 10.53 kW; it
costs 1,669.99 + 750 USD = 2,419.99 USD, 2,226.3908 EUR, and 10 of them with 3 a100-80gb-pcie (38,640 EUR)
60,903.908 EUR."""

from __future__ import annotations

import json

import pytest

from tests.planner.cli_run import run

HEAD = ("name: t\ncurrency: EUR\nfx: {USD: 0.92}\nhorizon_months: 12\n"
        "prices: {providers: [aws], regions: [us-east-1], purchase_options: [on_demand]}\n"
        "workloads:\n  - {name: a, gpu_hours_per_month: 100, reference_gpu: RTX-4090}\n")
A100 = HEAD + ("onprem:\n  cards: [rtx-4090, a100-80gb-pcie]\n  capex_budget: 60000\n"
               "constraints:\n  min_units: {a100-80gb-pcie: 6}\n")
A100_NEED = ("constraints.min_units.a100-80gb-pcie: 6 cards need at least 77,280 EUR of new cards (6 × 12,880 EUR: "
             "11,500 USD + 2,500 USD host share at fx.USD 0.92), more than onprem.capex_budget 60,000 EUR")


def _written(tmp_path, text: str):
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_validate_says_six_a100s_need_77280_eur_beyond_a_60000_eur_budget(tmp_path):
    path = _written(tmp_path, A100)
    result = run("validate", path)
    assert result.exit_code == 2
    # at the min_units entry (line 12, its value at column 31), naming the budget's line (10)
    assert f"error: {path}:12:31: {A100_NEED} (line 10): raise onprem.capex_budget" in result.stderr


def test_validate_json_gives_the_field_and_line(tmp_path):
    result = run("validate", _written(tmp_path, A100), "--format", "json")
    problem = json.loads(result.stdout)["files"][0]["problems"][0]
    assert (problem["severity"], problem["line"], problem["field"]) == ("error", 12, "constraints.min_units.a100-80gb-pcie")


def test_plan_says_it_before_solving(tmp_path):
    path = _written(tmp_path, A100)
    result = run("plan", path, "--no-baselines", "--no-decisions", "--format", "json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["reason"].startswith(f"{path}:12:31: {A100_NEED} (line 10)")


def test_owned_cards_are_not_bought_again(tmp_path):
    # 6 rtx-3090 with 4 owned: 2 bought, 2,760 EUR > 2,000
    text = HEAD + ("onprem:\n  existing: {rtx-3090: {count: 4, age_months: 0}}\n  capex_budget: 2000\n"
                   "constraints:\n  min_units: {rtx-3090: 6}\n")
    result = run("validate", _written(tmp_path, text))
    assert result.exit_code == 2
    assert ("constraints.min_units.rtx-3090: 6 cards need at least 2,760 EUR of new cards (2 × 1,380 EUR: 750 USD + "
            "750 USD host share at fx.USD 0.92 (6 less 4 owned)), more than onprem.capex_budget 2,000 EUR (line 10)"
            ) in result.stderr
    # 2,760 EUR fits a budget of 2,760: no error (the owned 4 are not counted)
    assert run("validate", _written(tmp_path, text.replace("2000", "2760"))).exit_code == 0


def test_a_card_sold_as_whole_boards_buys_a_whole_board(tmp_path):
    text = HEAD + ("onprem:\n  cards: [hgx-h100-8gpu]\n  capex_budget_per_year: 250000\n"
                   "constraints:\n  min_units: {hgx-h100-8gpu: 8}\n")
    result = run("validate", _written(tmp_path, text.replace("{hgx-h100-8gpu: 8}", "{hgx-h100-8gpu: 3}")))
    assert result.exit_code == 2
    assert ("at least 291,640 EUR of new cards in the plan's first year (8 × 36,455 EUR: 39,625 USD at fx.USD 0.92, no "
            "host share (a whole 8-GPU board)), more than onprem.capex_budget_per_year 250,000 EUR (line 10)"
            ) in result.stderr


def test_the_power_cap_counts_the_busy_watts_of_the_minimum(tmp_path):
    text = HEAD + "onprem:\n  cards: [rtx-4090]\n  power_cap_kw: 10\nconstraints:\n  min_units: {rtx-4090: 13}\n"
    result = run("validate", _written(tmp_path, text))
    assert result.exit_code == 2
    assert ("constraints.min_units.rtx-4090: 13 cards need at least 10.53 kW in service (13 × 810 W busy), more than "
            "onprem.power_cap_kw 10 kW (line 10)") in result.stderr
    # 12 draw 9.72 kW: within the cap
    assert run("validate", _written(tmp_path, text.replace("13}", "12}"))).exit_code == 0


def test_the_minimums_of_several_cards_add_up(tmp_path):
    text = A100.replace("{a100-80gb-pcie: 6}", "{a100-80gb-pcie: 3, rtx-4090: 10}")
    result = run("validate", _written(tmp_path, text))
    assert result.exit_code == 2
    assert ("12:31: constraints.min_units (a100-80gb-pcie: 3, rtx-4090: 10) need at least 60,904 EUR of new cards "
            "(3 × 12,880 EUR: 11,500 USD + 2,500 USD host share at fx.USD 0.92; 10 × 2,226 EUR: 1,669.99 USD + 750 USD "
            "host share at fx.USD 0.92), more than onprem.capex_budget 60,000 EUR "
            "(line 10): raise onprem.capex_budget or lower the minimums") in result.stderr
    # 9 rtx-4090: 9 × 2,226.3908 + 38,640 = 58,677.52 EUR, within the budget
    assert run("validate", _written(tmp_path, text.replace("rtx-4090: 10", "rtx-4090: 9"))).exit_code == 0


def test_the_whole_boards_bought_draw_power_too(tmp_path):
    # 3 hgx-h100-8gpu buy one board of 8, 1,275 W each busy: 10.2 kW, above 10 kW (the 3 alone draw 3.825 kW)
    text = HEAD + "onprem:\n  cards: [hgx-h100-8gpu]\n  power_cap_kw: 10\nconstraints:\n  min_units: {hgx-h100-8gpu: 3}\n"
    result = run("validate", _written(tmp_path, text))
    assert result.exit_code == 2
    assert ("constraints.min_units.hgx-h100-8gpu: 3 cards need at least 10.20 kW in service (8 × 1,275 W busy), more "
            "than onprem.power_cap_kw 10 kW (line 10)") in result.stderr


def test_a_custom_card_in_the_scenario_currency_is_costed_as_given(tmp_path):
    # 3 × (2,000 + 200) EUR = 6,600 EUR > 6,000
    text = HEAD + ("onprem:\n  capex_budget: 6000\n  custom_cards:\n    c0: {gpu: A10G, price: 2000, host_cost_per_card: 200, "
                   "busy_watts: 400, idle_watts: 50, life_years: 5}\nconstraints:\n  min_units: {c0: 3}\n")
    result = run("validate", _written(tmp_path, text))
    assert result.exit_code == 2
    assert ("constraints.min_units.c0: 3 cards need at least 6,600 EUR of new cards (3 × 2,200 EUR: 2,000 + 200 host "
            "share), more than onprem.capex_budget 6,000 EUR (line 9)") in result.stderr, result.stderr


def test_the_library_refuses_the_minimum_in_the_clis_words():
    # the library makes the CLI's check before solving (engine.run.check_min_units_within_caps), with no lines: a
    # dict has none. By hand: 6 × (11,500 + 2,500 host) = 84,000 USD > 60,000
    from planner import plan
    from planner.errors import InfeasibleError

    s = {"name": "x", "horizon_months": 12,
         "onprem": {"electricity_per_kwh": 0.12, "pue": 1.4, "cards": ["a100-80gb-pcie"], "capex_budget": 60000},
         "constraints": {"min_units": {"a100-80gb-pcie": 6}},
         "workloads": [{"name": "w", "gpu_hours_per_month": 100, "reference_gpu": "A100-80GB-PCIE"}]}
    with pytest.raises(InfeasibleError) as info:
        plan(s, baselines=False)
    assert str(info.value) == ("recommended: constraints.min_units.a100-80gb-pcie: 6 cards need at least 84,000 USD of "
                               "new cards (6 × 14,000 USD: 11,500 + 2,500 host share), more than onprem.capex_budget "
                               "60,000 USD: raise onprem.capex_budget or lower the minimum")
