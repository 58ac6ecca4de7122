"""Demand grown past its limit within the horizon is reported with the file's other problems (an audit of the
documented format, 2026-12): the check was the model's alone, which pydantic runs only once every field is
valid, so "grows above 1e9 in month 16" appeared only after the other problems had been fixed. It is skipped,
rightly, when one of its inputs is itself invalid: that one is the problem."""

from __future__ import annotations

from test_scenario_limits import problems_of

HEAD = "name: t\nhorizon_months: 24\ndiscount_rate: 8\n"
# 8 for a share below 1 is 8 % typed as a percent: 0.08
BAD_RATE = "s.yaml:3:16: discount_rate: expected a number < 1, got 8; did you mean 0.08 (8 %)?"
WORKLOADS = ("workloads:\n"
             "  - {name: a, gpu_hours_per_month: 100, reference_gpu: T4, growth_per_month: 2}\n"
             "  - {name: b, reference_gpus: 1000, reference_gpu: T4, growth_per_month: 1}\n")
# 100 × 3^14 = 478,296,900 h; 100 × 3^15 = 1,434,890,700 h, above 1e9 in month 16 (column 78: "  - {name: a,
# gpu_hours_per_month: 100, reference_gpu: T4, growth_per_month: " is 77 characters)
GROWN_A = ("s.yaml:5:78: workloads[0].growth_per_month: demand of workload 'a' grows above 1,000,000,000 GPU-hours "
           "in month 16 of 24 (100 × (1 + 2)^15); lower growth_per_month or horizon_months; did you mean 0.02 (2 %)?")
# growth 1 (doubling every month) gets no did-you-mean: only a growth above 1 is taken for a percent
# the limit in reference GPUs is 1e9 h / 730 h = 1,369,863; 1000 × 2^10 = 1,024,000, 1000 × 2^11 = 2,048,000: month 12
# ("  - {name: b, reference_gpus: 1000, reference_gpu: T4, growth_per_month: " is 73 characters)
GROWN_B = ("s.yaml:6:74: workloads[1].growth_per_month: demand of workload 'b' grows above 1,369,863 reference GPUs "
           "in month 12 of 24 (1000 × (1 + 1)^11); lower growth_per_month or horizon_months")


def test_every_workload_grown_too_far_is_reported_with_the_other_problems():
    assert problems_of(HEAD + WORKLOADS) == [BAD_RATE, GROWN_A, GROWN_B]


def test_an_absent_horizon_is_the_default_36_months():
    # 100 × 11^6 = 177,156,100 h; 100 × 11^7 = 1,948,717,100 h: month 8
    text = HEAD.replace("horizon_months: 24\n", "") + WORKLOADS.replace("growth_per_month: 2", "growth_per_month: 10")
    assert problems_of(text)[:2] == [
        "s.yaml:2:16: discount_rate: expected a number < 1, got 8; did you mean 0.08 (8 %)?",
        "s.yaml:4:78: workloads[0].growth_per_month: demand of workload 'a' grows above 1,000,000,000 GPU-hours "
        "in month 8 of 36 (100 × (1 + 10)^7); lower growth_per_month or horizon_months; did you mean 0.1 (10 %)?"]


def test_a_horizon_given_as_quoted_digits_is_read_as_the_model_reads_it():
    assert problems_of(HEAD.replace("horizon_months: 24", 'horizon_months: "24"') + WORKLOADS) == [
        BAD_RATE, GROWN_A, GROWN_B]


def test_an_invalid_horizon_is_the_problem_and_no_month_is_worked_out_from_it():
    assert problems_of(HEAD.replace("horizon_months: 24", "horizon_months: 240") + WORKLOADS) == [
        "s.yaml:2:17: horizon_months: expected a number ≤ 120, got 240", BAD_RATE]


def test_an_invalid_amount_or_growth_is_the_problem_of_its_workload_alone():
    text = HEAD + WORKLOADS.replace("gpu_hours_per_month: 100", "gpu_hours_per_month: -100").replace(
        "growth_per_month: 1}", "growth_per_month: true}")
    assert problems_of(text) == [
        BAD_RATE,
        "s.yaml:5:36: workloads[0].gpu_hours_per_month: expected a number ≥ 0, got -100",
        "s.yaml:6:74: workloads[1].growth_per_month: expected a number, got true (a yes/no value)"]


def test_two_demand_fields_are_the_problem_and_no_month_is_worked_out():
    text = HEAD + WORKLOADS.replace("gpu_hours_per_month: 100,", "gpu_hours_per_month: 100, reference_gpus: 1,")
    assert problems_of(text) == [
        BAD_RATE,
        "s.yaml:5:57: workloads[0].reference_gpus: give one demand field, not gpu_hours_per_month and reference_gpus: "
        "remove one of them (to switch fields in overrides, also set the one the scenario gives to None)",
        GROWN_B]


def test_a_horizon_on_a_line_blanked_after_a_syntax_error_is_no_horizon_to_grow_over():
    # the default 36 months is not what the file meant: no "month 16 of 36"
    found = problems_of(HEAD.replace("horizon_months: 24", "horizon_months: 24: x") + WORKLOADS)
    assert [p for p in found if "grows above" in p] == []
    assert found[0].startswith("s.yaml:2:") and "YAML syntax" in found[0]
