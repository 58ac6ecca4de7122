"""A yuan rate turned round is warned of at its field (a notebook audit, 2026-12-07: startup-hybrid with fx.CNY 7.2734 —
yuan per dollar, where the scenario wants dollars per yuan — sold two used RTX 3060s, priced 2,500 CNY in the catalog,
for 57,460 USD and planned a total of −19,953 USD without a word).

The reference is the Federal Reserve's February 2025 average, 7.2734 CNY per USD (FRED EXCHUS), which the packaged
scenarios' fx.CNY 0.13749 = 1 / 7.2734 is. By hand: 1 / 7.2734 = 0.137487…; a EUR scenario at fx.USD 0.92 holds a
yuan at 0.92 / 7.2734 = 0.126488… EUR.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from planner import plan
from planner.scenario.fx_check import implausible_fx
from tests.planner.cli_run import run

STARTUP = Path(__file__).resolve().parents[2] / "scenarios" / "startup-hybrid.yaml"


def test_a_usd_scenarios_yuan_rate_turned_round_is_warned_of_at_its_line(tmp_path):
    text = STARTUP.read_text(encoding="utf-8")
    assert "fx: {CNY: 0.13749}" in text   # the premise
    turned = tmp_path / "turned.yaml"
    turned.write_text(text.replace("fx: {CNY: 0.13749}", "fx: {CNY: 7.2734}"), encoding="utf-8")
    line = next(i for i, row in enumerate(text.splitlines(), 1) if row.startswith("fx:"))
    result = run("validate", turned)
    assert result.exit_code == 0
    assert f"{turned}:{line}:11: fx.CNY: at 7.2734 the scenario's rates give 0.13749 CNY per USD" in result.output
    assert "expected USD per 1 CNY, about 0.13749: 7.2734 looks turned round" in result.output
    assert "fx.CNY" not in run("validate", STARTUP).output


def test_the_plan_of_a_turned_rate_says_so_among_its_warnings():
    p = plan(STARTUP, fx__CNY=7.2734, baselines=False)
    assert p.total < 0   # the premise: what the audit saw
    assert any(w.startswith("fx.CNY: at 7.2734 ") and "turned round" in w for w in p.warnings)
    assert not any(w.startswith("fx.CNY") for w in plan(STARTUP, baselines=False).warnings)


@pytest.mark.parametrize(("currency", "fx", "warned"), [
    ("USD", {"CNY": 0.13749}, None),
    ("USD", {"CNY": 0.13749 * 4.9}, None),              # inside the factor of 5
    ("USD", {"CNY": 0.13749 * 5.1}, "CNY"),
    ("USD", {"CNY": 0.13749 / 5.1}, "CNY"),             # a yuan at 1/5.1 of its dollars
    ("CNY", {"USD": 7.2734}, None),
    ("CNY", {"USD": 0.13749}, "USD"),                   # a yuan scenario's dollar rate turned round
    ("EUR", {"USD": 0.92, "CNY": 0.92 / 7.2734}, None),
    ("EUR", {"USD": 0.92, "CNY": 7.2734 / 0.92}, "CNY"),
    ("EUR", {"CNY": 7.9}, None),                        # no dollar rate: nothing to hold the yuan against
    ("USD", {}, None),
])
def test_only_a_rate_more_than_5_times_off_the_reference_is_warned_of(currency, fx, warned):
    found = implausible_fx(currency, fx)
    assert [path for path, _ in found] == ([] if warned is None else [("fx", warned)])


def test_a_eur_scenarios_turned_yuan_rate_names_the_rate_meant():
    (_, text), = implausible_fx("EUR", {"USD": 0.92, "CNY": 7.9})
    assert "expected EUR per 1 CNY, about 0.12649: 7.9 looks turned round (CNY per EUR: 1 / 7.9 = 0.12658)" in text
