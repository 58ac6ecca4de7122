"""Values that are valid but most likely typed in another unit get a warning (not an error: each can be real),
from `validate` at the value's line and in the texts a plan lists (scenario.loading.plausibility_warnings): an
audit's scenarios with busy_watts 0.45 (kW as W), electricity_per_kwh 120 (cents), power_cap_kw 6000 (W) and
no demand at all passed `validate` without a word, and a rate for the scenario's own currency was told by
`plan` only. The thresholds are real ranges: GPUs draw 70-1,000 W at work and idle at 25-105 W (catalog),
grid electricity costs under 1 USD a kWh anywhere."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.scenario import load_scenario_file, load_scenario_text
from planner.scenario.loading import plausibility_warnings
from tests.planner.cli_run import run

ROOT = Path(__file__).resolve().parents[2]
HEAD = ("name: t\nhorizon_months: 12\n"
        "prices: {providers: [aws], regions: [us-east-1], purchase_options: [on_demand]}\n")
WORKLOAD = "workloads:\n  - {name: a, gpu_hours_per_month: 100, reference_gpu: RTX-4090}\n"


def warnings_of(text: str) -> list[tuple[tuple, str]]:
    return plausibility_warnings(load_scenario_text(text))


def texts_of(text: str) -> list[str]:
    return [said for _, said in warnings_of(text)]


def test_a_custom_cards_watts_in_kw_are_warned_about_with_the_watts_meant():
    found = warnings_of(HEAD + "onprem:\n  custom_cards:\n    my-card: {gpu: RTX-4090, price: 2000, busy_watts: 0.45, "
                               "idle_watts: 0.07, life_years: 4}\n" + WORKLOAD)
    assert found == [
        (("onprem", "custom_cards", "my-card", "busy_watts"),
         "onprem.custom_cards.my-card.busy_watts: 0.45 W is below any GPU's draw at work (boards are rated "
         "70-1,000 W); expected watts per card: for 0.45 kW, write 450"),
        (("onprem", "custom_cards", "my-card", "idle_watts"),
         "onprem.custom_cards.my-card.idle_watts: 0.07 W is below any GPU's idle draw (cards idle at 25-105 W); "
         "expected watts per card: for 0.07 kW, write 70"),
    ]


# a busy_watts below the catalog's idle (the RTX 4090's 68 W) left alone is an error of its own (override_watts_problem):
# the warning is for watts given in kW throughout, which pass that check
@pytest.mark.parametrize(("watts", "warned"), [
    ("busy_watts: 0.45, idle_watts: 0.07", ["busy_watts", "idle_watts"]),
    ("busy_watts: 9.5, idle_watts: 5", ["busy_watts"]),
    ("busy_watts: 10, idle_watts: 5", []),     # the threshold: no GPU works on less
    ("busy_watts: 0, idle_watts: 0", []),      # nothing at all is no unit mistake
    ("idle_watts: 0.5", ["idle_watts"]),
    ("idle_watts: 0", []),                     # a deliberate "no idle draw"
    ("idle_watts: 1", []),
    ("busy_watts: 450, idle_watts: 70", []),
])
def test_an_overrides_watts_are_checked_as_a_custom_cards(watts, warned):
    found = warnings_of(HEAD + f"onprem:\n  cards: [rtx-4090]\n  card_overrides:\n    rtx-4090: {{{watts}}}\n" + WORKLOAD)
    assert [field[-1] for field, _ in found] == warned
    assert all(field[:3] == ("onprem", "card_overrides", "rtx-4090") for field, _ in found)


@pytest.mark.parametrize(("head", "price", "said"), [
    ("", "120", "onprem.electricity_per_kwh: 120 USD a kWh is more than grid electricity costs anywhere (under 1 USD "
                "a kWh); expected USD per kWh, such as 0.12: if it is in cents, write 1.2; if per MWh, 0.12"),
    ("", "2.5", "onprem.electricity_per_kwh: 2.5 USD a kWh is more than grid electricity costs anywhere (under 1 USD "
                "a kWh); expected USD per kWh, such as 0.12: if it is in cents, write 0.025; if per MWh, 0.0025"),
    ("", "2", None),       # the threshold, twice the dearest grid tariffs
    ("", "0.35", None),
    # 120 EUR at 0.92 EUR per USD is 130.43… USD; an example price, 0.12 USD, is 0.1104 EUR
    ("currency: EUR\nfx: {USD: 0.92}\n", "120",
     "onprem.electricity_per_kwh: 120 EUR a kWh (130.4 USD) is more than grid electricity costs anywhere (under 1 "
     "USD a kWh); expected EUR per kWh, such as 0.11: if it is in cents, write 1.2; if per MWh, 0.12"),
    ("currency: JPY\nfx: {USD: 150}\n", "30", None),    # 30 yen is 0.20 USD: a normal price
    # 400 / 150 = 2.666… USD; 0.12 USD is 18 yen. The yen has no cents (ISO 4217 minor unit 0): per MWh alone
    ("currency: JPY\nfx: {USD: 150}\n", "400",
     "onprem.electricity_per_kwh: 400 JPY a kWh (2.667 USD) is more than grid electricity costs anywhere (under 1 "
     "USD a kWh); expected JPY per kWh, such as 18: if it is per MWh, write 0.4"),
    # 5,000 / 1,350 = 3.7037 USD; 0.12 USD is 162 won, said to two digits; numbers are written without an exponent
    ("currency: KRW\nfx: {USD: 1350}\n", "5000",
     "onprem.electricity_per_kwh: 5,000 KRW a kWh (3.704 USD) is more than grid electricity costs anywhere (under 1 "
     "USD a kWh); expected KRW per kWh, such as 160: if it is per MWh, write 5"),
    ("", "1000000", "onprem.electricity_per_kwh: 1,000,000 USD a kWh is more than grid electricity costs anywhere "
                    "(under 1 USD a kWh); expected USD per kWh, such as 0.12: if it is in cents, write 10,000; if per "
                    "MWh, 1,000"),
])
def test_electricity_above_2_usd_a_kwh_is_warned_about_in_the_scenarios_currency(head, price, said):
    found = warnings_of(head + HEAD + f"onprem: {{electricity_per_kwh: {price}}}\n" + WORKLOAD)
    assert found == ([] if said is None else [(("onprem", "electricity_per_kwh"), said)])


# The threshold in the scenario's currency is 2 USD × its rate for USD: 300 yen at 150 yen a USD, 2,700 won at
# 1,350. A currency whose ISO 4217 minor unit is 0 (yen, won) cannot be typed in cents: only per MWh is suggested;
# a dinar's minor unit is its thousandth (fils), the factor per MWh also has.
@pytest.mark.parametrize(("head", "price", "said"), [
    ("currency: JPY\nfx: {USD: 150}\n", "300", None),       # 300 / 150 = 2 USD: not above
    # 301 / 150 = 2.00666… USD
    ("currency: JPY\nfx: {USD: 150}\n", "301",
     "onprem.electricity_per_kwh: 301 JPY a kWh (2.007 USD) is more than grid electricity costs anywhere (under 1 "
     "USD a kWh); expected JPY per kWh, such as 18: if it is per MWh, write 0.301"),
    # a tariff of 30,000 yen a MWh typed as it is: 30,000 / 150 = 200 USD; 30 yen a kWh
    ("currency: JPY\nfx: {USD: 150}\n", "30000",
     "onprem.electricity_per_kwh: 30,000 JPY a kWh (200 USD) is more than grid electricity costs anywhere (under 1 "
     "USD a kWh); expected JPY per kWh, such as 18: if it is per MWh, write 30"),
    ("currency: KRW\nfx: {USD: 1350}\n", "2700", None),     # 2,700 / 1,350 = 2 USD: not above
    # 2,701 / 1,350 = 2.000740… USD
    ("currency: KRW\nfx: {USD: 1350}\n", "2701",
     "onprem.electricity_per_kwh: 2,701 KRW a kWh (2.001 USD) is more than grid electricity costs anywhere (under 1 "
     "USD a kWh); expected KRW per kWh, such as 160: if it is per MWh, write 2.701"),
    # 160,000 won a MWh: 160,000 / 1,350 = 118.518… USD; 160 won a kWh
    ("currency: KRW\nfx: {USD: 1350}\n", "160000",
     "onprem.electricity_per_kwh: 160,000 KRW a kWh (118.5 USD) is more than grid electricity costs anywhere (under 1 "
     "USD a kWh); expected KRW per kWh, such as 160: if it is per MWh, write 160"),
    # 25 fils typed for 0.025 KWD: 25 / 0.307 = 81.433… USD; 0.12 USD is 0.03684 KWD, said to two digits
    ("currency: KWD\nfx: {USD: 0.307}\n", "25",
     "onprem.electricity_per_kwh: 25 KWD a kWh (81.43 USD) is more than grid electricity costs anywhere (under 1 "
     "USD a kWh); expected KWD per kWh, such as 0.037: if it is in thousandths of a KWD or per MWh, write 0.025"),
])
def test_electricity_in_a_currency_without_cents_is_not_said_to_be_in_cents(head, price, said):
    found = warnings_of(head + HEAD + f"onprem: {{electricity_per_kwh: {price}}}\n" + WORKLOAD)
    assert found == ([] if said is None else [(("onprem", "electricity_per_kwh"), said)])


# The rupiah and the forint have cents in ISO 4217 (sen, fillér) that no price is written in any more, and CLDR
# writes the Iraqi dinar without its fils: per MWh alone, as for the yen. The krona keeps its cents: Swedish
# electricity is quoted in öre a kWh.
@pytest.mark.parametrize(("head", "price", "said"), [
    # 900 IDR a kWh typed per MWh: 900,000 / 16,000 = 56.25 USD; 0.12 USD is 1,920 IDR, said to two digits
    ("currency: IDR\nfx: {USD: 16000}\n", "900000",
     "onprem.electricity_per_kwh: 900,000 IDR a kWh (56.25 USD) is more than grid electricity costs anywhere "
     "(under 1 USD a kWh); expected IDR per kWh, such as 1,900: if it is per MWh, write 900"),
    # 70 HUF a kWh typed per MWh: 70,000 / 360 = 194.44… USD; 0.12 USD is 43.2 HUF
    ("currency: HUF\nfx: {USD: 360}\n", "70000",
     "onprem.electricity_per_kwh: 70,000 HUF a kWh (194.4 USD) is more than grid electricity costs anywhere "
     "(under 1 USD a kWh); expected HUF per kWh, such as 43: if it is per MWh, write 70"),
    # 120,000 / 1,310 = 91.603… USD; 0.12 USD is 157.2 IQD
    ("currency: IQD\nfx: {USD: 1310}\n", "120000",
     "onprem.electricity_per_kwh: 120,000 IQD a kWh (91.6 USD) is more than grid electricity costs anywhere "
     "(under 1 USD a kWh); expected IQD per kWh, such as 160: if it is per MWh, write 120"),
    # 150 öre: 150 / 10.5 = 14.2857… USD; 0.12 USD is 1.26 SEK; 1.5 SEK in kronor, 0.15 per MWh
    ("currency: SEK\nfx: {USD: 10.5}\n", "150",
     "onprem.electricity_per_kwh: 150 SEK a kWh (14.29 USD) is more than grid electricity costs anywhere "
     "(under 1 USD a kWh); expected SEK per kWh, such as 1.3: if it is in cents, write 1.5; if per MWh, 0.15"),
])
def test_electricity_in_rupiah_or_forint_is_not_said_to_be_in_cents_no_price_is_written_in(head, price, said):
    found = warnings_of(head + HEAD + f"onprem: {{electricity_per_kwh: {price}}}\n" + WORKLOAD)
    assert found == [(("onprem", "electricity_per_kwh"), said)]


def test_electricity_in_a_currency_without_a_usd_rate_is_not_judged():
    # no cloud provider, so no rate for USD is needed: 120 could be yen (normal) or euros (cents); nothing is said
    text = ("name: t\ncurrency: EUR\nhorizon_months: 12\nprices: {providers: []}\n"
            "onprem:\n  electricity_per_kwh: 120\n  cards: [a100-80gb-pcie]\n  card_overrides:\n"
            "    a100-80gb-pcie: {price: 9000, currency: EUR, host_cost_per_card: 1000}\n"
            "workloads:\n  - {name: a, gpu_hours_per_month: 100, reference_gpu: A100-80GB-PCIE}\n")
    assert warnings_of(text) == []


CAP_SAID = ("onprem.power_cap_kw: 6,000 kW is more than 20 kW for each of the {gpus} reference GPUs the demand asks "
            "at its busiest hour (and owned cards): no fleet serving it comes near such a cap; expected kilowatts: "
            "for 6,000 W, write 6")


@pytest.mark.parametrize(("cap", "demand", "extra", "gpus"), [
    (6000, "gpu_hours_per_month: 100", "", "0.137"),                        # 100 / 730 h
    (6000, "gpu_hours_per_month: 100, growth_per_month: 0.5", "", "11.8"),   # 100 / 730 × 1.5^11 = 11.849
    (6000, "reference_gpus: 299", "", "299"),                               # 299 × 20 = 5,980 kW < 6,000
    (6000, "reference_gpus: 300", "", None),                                # 300 × 20 = 6,000 kW: the cap is used
    (6000, "reference_gpus: 1", "  existing: {rtx-4090: 299}\n", None),     # owned cards count: 300 again
    (6000, "gpu_hours_per_month: 100, growth_per_month: -0.5", "", "0.137"),  # shrinking: month 1 is the peak
    (1000, "gpu_hours_per_month: 100", "", None),                           # not above 1,000 kW: not judged
    (4, "gpu_hours_per_month: 100", "", None),
])
def test_a_power_cap_no_fleet_for_the_demand_comes_near_is_warned_about(cap, demand, extra, gpus):
    found = warnings_of(HEAD + f"onprem:\n  power_cap_kw: {cap}\n  cards: [rtx-4090]\n{extra}"
                        f"workloads:\n  - {{name: a, {demand}, reference_gpu: RTX-4090}}\n")
    assert found == ([] if gpus is None else [(("onprem", "power_cap_kw"), CAP_SAID.format(gpus=gpus))])


def test_a_serving_workloads_requests_are_counted_in_reference_gpus_for_the_power_cap():
    # 50 requests/s at 10 per L4 (the reference GPU) = 5 reference GPUs, 100 kW
    text = (HEAD + "onprem: {power_cap_kw: 6000}\nworkloads:\n  - {name: a, serving: true, throughput_unit: "
            "requests_per_second, requests_per_second: 50, reference_gpu: L4, throughput: {L4: 10, A10G: 12}}\n")
    assert texts_of(text) == [CAP_SAID.format(gpus="5")]


def test_no_demand_at_all_is_warned_about():
    one = HEAD + "workloads:\n  - {name: a, gpu_hours_per_month: 0, reference_gpu: RTX-4090}\n"
    assert warnings_of(one) == [(("workloads", 0, "gpu_hours_per_month"),
                                 "workloads[0].gpu_hours_per_month: 0 is the only workload's demand, so the plan has "
                                 "nothing to serve and buys nothing (its total is what owned cards cost); expected the "
                                 "reference-GPU hours a month it needs in month 1")]
    two = one + "  - {name: b, reference_gpus: 0, reference_gpu: T4}\n"
    assert warnings_of(two) == [(("workloads",),
                                 "workloads: the demand of all 2 workloads is 0, so the plan has nothing to serve and "
                                 "buys nothing (its total is what owned cards cost); expected each one's demand in "
                                 "month 1 (gpu_hours_per_month: reference-GPU hours a month)")]
    assert warnings_of(one + "  - {name: b, reference_gpus: 0.5, reference_gpu: T4}\n") == []


def test_a_rate_for_the_scenarios_own_currency_is_warned_about_as_plan_does():
    found = warnings_of("currency: EUR\nfx: {EUR: 1.1, USD: 0.92}\n" + HEAD + WORKLOAD)
    assert found == [(("fx", "EUR"), "fx.EUR: 1.1 is ignored: EUR is the scenario's currency, 1 by definition (rates "
                                     "are EUR per 1 unit of another currency)")]


def test_the_shipped_scenarios_get_no_such_warning():
    for path in sorted([*(ROOT / "scenarios").glob("*.yaml"), *(ROOT / "examples").glob("*.yaml")]):
        assert plausibility_warnings(load_scenario_file(path)) == [], path


AUDIT_M04 = """\
name: typo test
horizon_months: 24
prices: {providers: [aws], regions: [us-east-1], purchase_options: [on_demand]}
onprem:
  power_cap_kw: 6000
  electricity_per_kwh: 120
  cards: [rtx-4090]
  card_overrides:
    rtx-4090: {price: 1800, currency: USD, as_of: "2026-05-10", busy_watts: 0.45, idle_watts: 0.07}
workloads:
  - name: a
    gpu_hours_per_month: 100
    reference_gpu: RTX-4090
    growth_per_month: 0.02
"""


def test_validate_prints_each_warning_at_its_value_and_exits_0(tmp_path):
    path = tmp_path / "m04.yaml"
    path.write_text(AUDIT_M04)
    result = run("validate", path)
    assert result.exit_code == 0, result.output
    warned = [line for line in result.stderr.splitlines() if line.startswith(f"warning: {path}:")]
    # columns: "  electricity_per_kwh: " is 23 characters, "  power_cap_kw: " 16, and on line 9 the value of
    # `busy_watts: 0.45` follows 76 characters, that of `idle_watts: 0.07` 94; the peak month is 24:
    # 100 / 730 × 1.02^23 = 0.216
    assert warned == [
        f"warning: {path}:6:24: onprem.electricity_per_kwh: 120 USD a kWh is more than grid electricity costs "
        "anywhere (under 1 USD a kWh); expected USD per kWh, such as 0.12: if it is in cents, write 1.2; if per MWh, 0.12",
        f"warning: {path}:5:17: onprem.power_cap_kw: 6,000 kW is more than 20 kW for each of the 0.216 reference GPUs "
        "the demand asks at its busiest hour (and owned cards): no fleet serving it comes near such a cap; expected "
        "kilowatts: for 6,000 W, write 6",
        f"warning: {path}:9:77: onprem.card_overrides.rtx-4090.busy_watts: 0.45 W is below any GPU's draw at work "
        "(boards are rated 70-1,000 W); expected watts per card: for 0.45 kW, write 450",
        f"warning: {path}:9:95: onprem.card_overrides.rtx-4090.idle_watts: 0.07 W is below any GPU's idle draw "
        "(cards idle at 25-105 W); expected watts per card: for 0.07 kW, write 70",
        # pue and availability left out: the defaults assumed, at the `onprem` key (line 4, column 1)
        f"warning: {path}:4:1: onprem: site figures not given, assumed: pue 1.58 (industry average of 2023, Uptime Institute), "
        "availability 1 (no hours lost; no public per-card figure): give your site's figures",
    ]


def test_validate_warns_of_a_rate_for_the_scenarios_own_currency_and_of_no_demand(tmp_path):
    # the audit's m13.yaml passed validate, which said nothing of fx.EUR (plan did); 1.1 follows "fx: {EUR: " (10)
    path = tmp_path / "m13.yaml"
    path.write_text("name: fx checks\ncurrency: EUR\nfx: {EUR: 1.1, USD: 0.92}\n" + HEAD.replace("name: t\n", "")
                    + "workloads:\n  - {name: a, gpu_hours_per_month: 0, reference_gpu: RTX-4090}\n")
    result = run("validate", path)
    assert result.exit_code == 0, result.output
    said = " ".join(result.stderr.split())
    assert (f"warning: {path}:3:11: fx.EUR: 1.1 is ignored: EUR is the scenario's currency, 1 by definition (rates "
            "are EUR per 1 unit of another currency)") in said, result.stderr
    # the 0 follows "  - {name: a, gpu_hours_per_month: " (35 characters) on line 7
    assert f"warning: {path}:7:36: workloads[0].gpu_hours_per_month: 0 is the only workload's demand" in said


def test_a_plan_lists_the_same_warnings():
    # the plan's warnings (engine.run.plan_notes) carry validate's texts: electricity of 120 USD a kWh (cents)
    from planner import plan

    p = plan(HEAD + "onprem:\n  electricity_per_kwh: 120\n" + WORKLOAD, baselines=False)
    said = texts_of(HEAD + "onprem:\n  electricity_per_kwh: 120\n" + WORKLOAD)
    assert len(said) == 1 and said[0].startswith("onprem.electricity_per_kwh: 120")
    assert said[0] in p.warnings


@pytest.mark.parametrize(("flags", "warned"), [
    ("interruption_overhead: 0.3", True),                       # not interruptible: never on spot, so no effect
    ("interruption_overhead: 0.3, interruptible: false", True),
    ("interruption_overhead: 0.3, interruptible: true", False),
    ("interruption_overhead: 0, interruptible: false", False),
])
def test_an_interruption_overhead_on_a_workload_that_never_runs_on_spot_is_warned_of(flags, warned):
    # an audit's overhead of 0.3 without interruptible: true was ignored without a word (2026-12-07)
    text = HEAD + f"workloads:\n  - {{name: a, gpu_hours_per_month: 100, reference_gpu: RTX-4090, {flags}}}\n"
    found = [(at, said) for at, said in warnings_of(text) if at[-1] == "interruption_overhead"]
    assert found == ([(("workloads", 0, "interruption_overhead"),
                       "workloads[0].interruption_overhead: 0.3 has no effect: the workload is not interruptible, so it "
                       "never runs on spot, the only work the overhead applies to; set interruptible: true to let spot "
                       "serve it at that overhead")] if warned else [])


def test_validate_places_the_overhead_warning_at_its_line(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(HEAD + "workloads:\n  - name: a\n    gpu_hours_per_month: 100\n    reference_gpu: RTX-4090\n"
                           "    interruption_overhead: 0.3\n")
    result = run("validate", path)
    assert result.exit_code == 0, result.output
    assert f"{path}:8:" in result.stderr and "interruption_overhead: 0.3 has no effect" in result.stderr, result.stderr


@pytest.mark.parametrize(("flags", "warned"), [
    ("serving_group: llm", True),                  # serving forgotten: the group shares nothing
    ("serving_group: llm, serving: false", True),
    ("serving_group: llm, serving: true", False),
    ("serving: true", False),
])
def test_a_serving_group_on_a_workload_that_is_not_serving_is_warned_of(flags, warned):
    text = HEAD + f"workloads:\n  - {{name: a, gpu_hours_per_month: 100, reference_gpu: RTX-4090, {flags}}}\n"
    found = [at for at, _ in warnings_of(text) if at[-1] == "serving_group"]
    assert found == ([("workloads", 0, "serving_group")] if warned else [])


def test_serving_groups_written_alike_are_warned_of_and_names_a_digit_apart_are_not():
    def served(*groups):
        rows = "".join(f"  - {{name: w{i}, gpu_hours_per_month: 100, reference_gpu: RTX-4090, serving: true, "
                       f"serving_group: {g}}}\n" for i, g in enumerate(groups))
        return [(at, said) for at, said in warnings_of(HEAD + "workloads:\n" + rows) if at[-1] == "serving_group"]

    assert served("llama-8b", "Llama_8B") == [(("workloads", 1, "serving_group"),
        "workloads[1].serving_group: 'Llama_8B' is written like 'llama-8b' (workloads[0]) but is another group: "
        "workloads of different groups never share a GPU; give them the same serving_group if they serve one model")]
    assert served("llama-7b", "llama-8b", "llama-8b") == []


@pytest.mark.parametrize(("profile", "gpus"), [
    # business hours: 45 of 168 hours at 4 against 1, mean 303/168, peak 4 × 168/303 = 2.2178 × 0.137 = 0.304
    ("business_hours", "0.304"),
    ("deadline_peaks", "0.24"),    # 1.75 × 100 / 730 = 0.2397
])
def test_the_power_cap_check_counts_the_profiles_busiest_hour(profile, gpus):
    found = warnings_of(HEAD + "onprem:\n  power_cap_kw: 6000\n  cards: [rtx-4090]\n"
                        f"workloads:\n  - {{name: a, gpu_hours_per_month: 100, reference_gpu: RTX-4090, profile: {profile}}}\n")
    assert found == [(("onprem", "power_cap_kw"), CAP_SAID.format(gpus=gpus))]


def test_a_csv_profile_is_taken_at_its_own_peak_so_a_cap_below_that_is_not_warned_of(tmp_path):
    # a one-hour nightly batch of 60 reference GPUs on average peaks at 1,440 (24 × 60), 1,555 kW on 1.08 kW cards:
    # a cap of 1,300 kW was told "no fleet comes near such a cap; for 1,300 W, write 1.3" (an audit, 2026-12-07)
    csv = tmp_path / "nightly.csv"
    csv.write_text("".join("1\n" if hour % 24 == 2 else "0\n" for hour in range(168)), encoding="utf-8")
    text = (HEAD + "onprem:\n  power_cap_kw: 1300\n  cards: [rtx-4090]\n"
            f"workloads:\n  - {{name: a, gpu_hours_per_month: 43800, reference_gpu: RTX-4090, profile: {csv}}}\n")
    assert [w for w in warnings_of(text) if w[0] == ("onprem", "power_cap_kw")] == []
    # 7 hours of 168 at weight 1 peak at 24 times the mean: 24 × 100 / 730 = 3.29 reference GPUs, 66 kW; a cap of
    # 6,000 kW is warned of with them (tests/planner/test_power_cap_csv_peak.py: one 168 times hid)
    small = text.replace("43800", "100").replace("1300", "6000")
    assert (("onprem", "power_cap_kw"), CAP_SAID.format(gpus="3.29")) in warnings_of(small)
