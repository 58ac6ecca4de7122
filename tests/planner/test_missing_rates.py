"""A missing rate is said once for its currency, naming all that is priced in it, at the field naming that currency
(an override's `currency: JPY`), else at `fx` (a planning-review audit, 2026-12): it was said at `fx` for the JPY
of line 13, and twice for USD (cloud prices, and the catalog's RTX 4090) in a EUR scenario. A currency in small
letters is read as the code suggested for it, so the rate it needs is asked at once: `currency: eur` hid the
missing USD rate until the suggestion was taken."""

from __future__ import annotations

from test_scenario_limits import problems_of

from tests.planner.cli_run import run

WORKLOAD = "workloads:\n  - {name: w, gpu_hours_per_month: 100, reference_gpu: T4}\n"


def problems_block(path, *problems: str, warnings: tuple[str, ...] = ()) -> str:
    """What validate prints of a file with errors: each an `error:` line, then its `warnings` (each a line of its own,
    as given), then, where there are several errors, how many."""
    count = [f"{path}: {len(problems)} errors" + (f", {len(warnings)} warning" + ("s" if len(warnings) > 1 else "")
                                                  if warnings else "")] if len(problems) > 1 else []
    return "\n".join([*(f"error: {path}:{p}" for p in problems), *warnings, *count]) + "\n"


def test_a_missing_usd_rate_is_reported_beside_a_currency_in_small_letters(tmp_path):
    # `eur` is read as the EUR the error suggests: its scenario buys cloud prices, which are in USD
    path = tmp_path / "s.yaml"
    path.write_text("name: t\ncurrency: eur\n" + WORKLOAD)
    result = run("validate", path)
    assert result.exit_code == 2
    assert result.stderr == problems_block(
        path,
        "2:11: currency: expected a currency code of three capital letters (ISO 4217), got 'eur'; did you mean 'EUR'?",
        "2:11: fx: cloud offers are priced in USD; add its rate, e.g. fx: {USD: <EUR per 1 USD>}")


def test_a_missing_rate_is_said_once_at_the_currency_that_needs_it(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("name: t\ncurrency: EUR\nhorizon_months: 12\nfx:\n  CNY: 0.13\nprices: {providers: [aws]}\n"
                    "onprem:\n  cards: [rtx-4090, a100-80gb-pcie]\n  card_overrides:\n    a100-80gb-pcie:\n"
                    "      price: 2000000\n      host_cost_per_card: 200000\n      currency: JPY\n"
                    + WORKLOAD.replace("T4", "A100-80GB-PCIE"))
    result = run("validate", path)
    assert result.exit_code == 2
    # USD: the cloud's and the catalog's RTX 4090 (its catalog currency), named by no field: at fx's first entry
    # (line 5, column 3); JPY at the override's currency (line 13, after "      currency: ", 16 characters)
    assert result.stderr == problems_block(
        path,
        "5:3: fx: cloud offers and card 'rtx-4090' are priced in USD; add its rate, e.g. fx: {USD: <EUR per 1 USD>}",
        "13:17: fx: card 'a100-80gb-pcie' is priced in JPY; add its rate, e.g. fx: {JPY: <EUR per 1 JPY>}")


def test_cards_in_one_currency_are_named_together_at_the_first_that_names_it():
    # the custom card (line 6) and the override (line 8) name GBP; the catalog amounts the override leaves are in CNY
    text = ("name: t\ncurrency: EUR\nfx: {USD: 0.9}\nonprem:\n  custom_cards:\n"
            "    my: {gpu: T4, price: 10, busy_watts: 100, idle_watts: 10, life_years: 3, currency: GBP}\n"
            "  card_overrides:\n    rtx-3060-12gb: {price: 300, currency: GBP}\n  cards: [rtx-3060-12gb]\n" + WORKLOAD)
    # "    my: {gpu: T4, price: 10, busy_watts: 100, idle_watts: 10, life_years: 3, currency: " is 87 characters;
    # the CNY need is named by no field: at fx's value (line 3, column 5)
    assert problems_of(text) == [
        "s.yaml:3:5: fx: the catalog's host_cost_per_card of card 'rtx-3060-12gb' (its override's GBP covers only the "
        "amounts the override gives) is priced in CNY; add its rate, e.g. fx: {CNY: <EUR per 1 CNY>}",
        "s.yaml:6:88: fx: cards 'rtx-3060-12gb' and 'my' are priced in GBP; add its rate, e.g. fx: {GBP: <EUR per 1 GBP>}"]
