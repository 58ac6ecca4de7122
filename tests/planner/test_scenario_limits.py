"""A review's findings on the scenario reader (2026-12-03): figures with no upper bound that crashed the
planner with a traceback, tables whose size made `validate` slow or its output huge, and messages in
pydantic's own words. Each test states what must happen instead: a problem at the field's line, exit 2,
no traceback, and work bounded by the file's size."""

from __future__ import annotations

import time

import pytest
from typer.testing import CliRunner

from planner.catalog import suggest
from planner.cli import app
from planner.errors import MAX_PROBLEMS_SHOWN, ScenarioError
from planner.scenario import load_scenario_text

runner = CliRunner()
HEAD = ("name: t\nhorizon_months: 12\n"
        "prices: {providers: [aws], regions: [us-east-1], purchase_options: [on_demand]}\n")
WORKLOAD = "workloads:\n  - {name: a, gpu_hours_per_month: 100, reference_gpu: T4}\n"


def problems_of(text: str) -> list[str]:
    with pytest.raises(ScenarioError) as caught:
        load_scenario_text(text, origin="s.yaml")
    return caught.value.problems


def validate(tmp_path, text: str):
    path = tmp_path / "s.yaml"
    path.write_text(text)
    return runner.invoke(app, ["validate", str(path)])


@pytest.mark.parametrize(("override", "field", "bound"), [
    ("life_years: 1.0e+308", "life_years", "≤ 50"),
    ("life_years: 1.0e+20", "life_years", "≤ 50"),
    ("cards_per_server: 100000000000000000000000", "cards_per_server", "≤ 64"),
    ("maintenance_rate_per_year: 1.0e+300", "maintenance_rate_per_year", "≤ 1"),
])
def test_card_override_figures_have_the_custom_cards_bounds(tmp_path, override, field, bound):
    # 1e308 years overflowed the count of months (OverflowError) while checking the owned cards' ages;
    # 1e20 passed validate and crashed plan; a 1e300 maintenance rate made plan blame the solver (exit 3)
    text = (HEAD + f"onprem:\n  cards: [rtx-4090]\n  card_overrides: {{rtx-4090: {{{override}}}}}\n"
            "  existing: {rtx-4090: {count: 1, age_months: 5}}\n" + WORKLOAD)
    result = validate(tmp_path, text)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert "s.yaml:6:" in result.output   # the override's line
    assert f"onprem.card_overrides.rtx-4090.{field}: expected a number {bound}" in result.output


@pytest.mark.parametrize(("field", "value", "bound"), [
    ("gpus_per_job", "100000000000000000000", "≤ 128"),
    ("min_gpu_memory_gb", "1.0e+300", "≤ 100000"),
    ("min_compute_capability", "1.0e+300", "≤ 20"),
])
def test_workload_figures_are_bounded(tmp_path, field, value, bound):
    # gpus_per_job 1e20 passed validate and crashed plan in the engine's integer columns
    text = HEAD + f"workloads:\n  - {{name: a, gpu_hours_per_month: 100, reference_gpu: T4, {field}: {value}}}\n"
    result = validate(tmp_path, text)
    assert result.exit_code == 2, result.output
    assert "s.yaml:5:" in result.output and f"workloads[0].{field}: expected a number {bound}" in result.output


def test_a_plan_with_128_gpus_per_job_is_still_a_plan_question_not_an_input_error():
    # the bound is the offers table's most GPUs per unit: 128 is valid input (no unit here fits it, which
    # the planner explains), 129 is not
    load_scenario_text(HEAD + "workloads:\n  - {name: a, gpu_hours_per_month: 100, reference_gpu: T4, gpus_per_job: 128}\n")
    found = problems_of(HEAD + "workloads:\n  - {name: a, gpu_hours_per_month: 100, reference_gpu: T4, gpus_per_job: 129}\n")
    assert found == ["s.yaml:5:74: workloads[0].gpus_per_job: expected a number ≤ 128, got 129"]


def test_a_throughput_table_of_10000_gpus_is_refused_at_once(tmp_path):
    # 10,000 unknown GPUs took 5.3 s (each problem's place was found by scanning the table's keys), 45,000
    # more than 60 s; now the table is one problem, its size, and each entry is not checked
    table = ", ".join(f"A{i}: 1" for i in range(10_000))
    text = HEAD + f"workloads:\n  - {{name: a, gpu_hours_per_month: 100, reference_gpu: T4, throughput: {{{table}}}}}\n"
    began = time.perf_counter()
    found = problems_of(text)
    took = time.perf_counter() - began
    assert found == ["s.yaml:5:72: workloads[0].throughput: expected at most 500 entries, got 10,000"]
    assert took < 30   # a guard against the old quadratic walk (minutes), not a timing target


def test_many_bad_entries_within_the_limit_are_each_placed_on_their_line():
    # 400 unknown GPUs (within the 500-entry limit) are each reported at their own key, as before the index
    table = ", ".join(f"Z{i}x: 1" for i in range(400))
    found = problems_of(HEAD + f"workloads:\n  - {{name: a, gpu_hours_per_month: 100, reference_gpu: T4, "
                               f"throughput: {{{table}}}}}\n")
    assert len(found) == 400
    line = HEAD.count("\n") + 2   # the workload's line
    start = len("  - {name: a, gpu_hours_per_month: 100, reference_gpu: T4, throughput: {") + 1
    assert found[0].startswith(f"s.yaml:{line}:{start}: workloads[0].throughput.Z0x: unknown GPU 'Z0x'")
    # the 400th key starts after 399 entries "Z<i>x: 1, ": 8 characters each for i < 10, 9 below 100, else 10
    col = start + 8 * 10 + 9 * 90 + 10 * 299
    assert found[-1].startswith(f"s.yaml:{line}:{col}: workloads[0].throughput.Z399x: unknown GPU")


def test_a_key_given_twice_is_placed_at_the_one_yaml_keeps():
    # YAML keeps the last of two equal keys, and the problem is placed there (as the scan from the end did)
    text = HEAD + "workloads:\n  - name: a\n    gpu_hours_per_month: 100\n    reference_gpu: T4\n    gpus_per_job: 1\n" \
                  "    gpus_per_job: 0\n"
    found = problems_of(text)
    assert any(p.startswith("s.yaml:9:19: workloads[0].gpus_per_job: expected a number ≥ 1") for p in found), found


@pytest.mark.parametrize(("body", "what"), [
    ("onprem: {cards: [" + ", ".join(f"rtx-{i}" for i in range(90_000)) + "]}\n" + WORKLOAD,
     "s.yaml:4:17: onprem.cards: expected at most 500 entries, got 90,000"),
    ("workloads:\n" + "".join(f"  - {{name: w{i}, gpu_hours_per_month: 10, reference_gpu: T4}}\n" for i in range(501)),
     "s.yaml:5:3: workloads: expected at most 500 entries, got 501"),
])
def test_long_lists_are_one_problem_not_one_per_item(body, what):
    # 90,000 unknown cards wrote 17.6 MB of messages, each listing every known card; 3,000 workloads took
    # 17 s and 385 MB to plan
    assert problems_of(HEAD + body) == [what]


def test_the_message_shows_the_first_hundred_problems_and_counts_the_rest():
    keys = "".join(f"key{i}: 1\n" for i in range(150))
    with pytest.raises(ScenarioError) as caught:
        load_scenario_text(HEAD + WORKLOAD + keys, origin="s.yaml")
    exc = caught.value
    assert len(exc.problems) == 150                      # all of them, for callers
    lines = str(exc).splitlines()
    assert lines[0] == "s.yaml: 150 problems"
    assert len(lines) == 1 + MAX_PROBLEMS_SHOWN + 1
    assert lines[-1] == f"  … and {150 - MAX_PROBLEMS_SHOWN} more"
    assert lines[1].startswith("  s.yaml:6:1: key0: unknown key")


@pytest.mark.parametrize(("line", "message"), [
    ("name: 2024", "name: expected a text, got 2024; YAML read it as a number: put it in quotes"),
    ("name: true", "name: expected a text, got true (a yes/no value); put it in quotes to make it text"),
])
def test_a_name_yaml_read_as_another_type_says_to_quote_it(line, message):
    found = problems_of(HEAD.replace("name: t", line) + WORKLOAD)
    assert found == [f"s.yaml:1:7: {message}"]


def test_a_fractional_whole_number_says_so_once():
    found = problems_of(HEAD.replace("horizon_months: 12", "horizon_months: 36.5") + WORKLOAD)
    assert found == ["s.yaml:2:17: horizon_months: expected a whole number, got 36.5"]


@pytest.mark.parametrize(("text", "got"), [
    ("", "nothing (the file is empty or only comments)"),
    ("# a comment\n", "nothing (the file is empty or only comments)"),
    ("- a\n- b\n", "a list"),
    ("just text\n", "a single value, 'just text'"),
])
def test_a_file_that_is_no_mapping_says_what_it_is(text, got):
    assert problems_of(text) == [f"s.yaml:1:1: expected a mapping of scenario fields (name, workloads, …), got {got}"]


def test_fx_keys_are_currency_codes_with_a_did_you_mean():
    # fx keys were not checked: a formula-like or lower-case key validated silently, and a card priced in
    # CNY then asked for a CNY rate without pointing at the `cny` given
    text = HEAD + 'fx: {cny: 0.14, "=HYPERLINK(1)": 2}\n' + WORKLOAD
    found = problems_of(text)
    assert "s.yaml:4:6: fx.cny: expected a currency code of three capital letters (ISO 4217), got 'cny'; " \
           "did you mean 'CNY'?" in found
    assert any(p.startswith("s.yaml:4:17: fx.=HYPERLINK(1): expected a currency code") for p in found)


def test_a_metric_named_by_its_beginning_gets_a_did_you_mean():
    found = problems_of(HEAD + "workloads:\n  - {name: a, gpu_hours_per_month: 100, reference_gpu: T4, "
                               "throughput_metric: fp32}\n")
    assert len(found) == 1 and found[0].endswith("got 'fp32'; did you mean 'fp32_tflops'?")


def test_suggest_prefers_close_spellings_and_falls_back_to_beginnings():
    assert suggest("fp32", ["fp32_tflops", "bf16_tensor_tflops"]) == ["fp32_tflops"]
    assert suggest("bf16_tensr_tflops", ["fp32_tflops", "bf16_tensor_tflops"]) == ["bf16_tensor_tflops"]
    assert suggest("fp", ["fp32_tflops"]) == []            # two letters say too little
    assert suggest("xyz", ["fp32_tflops"]) == []


@pytest.mark.parametrize("field", ["providers", "purchase_options"])
def test_long_choice_lists_are_one_problem(field):
    # 90,000 copies of a valid choice were accepted as they were (the dashboard now also shows at most
    # the first 100 problems of an upload: 90,000 unknown choices are each still a problem)
    value = {"providers": "aws", "purchase_options": "spot"}[field]
    body = HEAD.replace("prices: {providers: [aws], regions: [us-east-1], purchase_options: [on_demand]}",
                        f"prices: {{{field}: [{', '.join([value] * 5000)}]}}")
    column = len("prices: {") + len(field) + len(": ") + 1   # the list's "["
    assert problems_of(body + WORKLOAD) == [f"s.yaml:3:{column}: prices.{field}: expected at most 20 entries, got 5,000"]


def test_a_table_over_its_limit_adds_no_false_problems_elsewhere():
    # 501 custom cards: the cards naming one of them were each called unknown, since the oversized table
    # was read as empty; now the size is the one problem
    cards = ", ".join(f"c{i}: {{gpu: T4, price: 1, busy_watts: 70, idle_watts: 10, life_years: 3}}" for i in range(501))
    body = HEAD + f"onprem:\n  cards: [c0]\n  existing: {{c1: 2}}\n  custom_cards: {{{cards}}}\n" + WORKLOAD
    assert problems_of(body) == ["s.yaml:7:17: onprem.custom_cards: expected at most 500 entries, got 501"]


def test_a_number_as_an_fx_key_gets_no_quote_hint():
    found = problems_of(HEAD + "fx: {123: 1.1}\n" + WORKLOAD)
    # the key is read as the text written (planner.scenario.loading._LimitedLoader.flatten_mapping): entry fx.123
    assert found == ["s.yaml:4:6: fx.123: expected a currency code of three capital letters (ISO 4217), got '123'"]


@pytest.mark.parametrize(("head", "rate", "warned"), [
    ("", "0.9", True),                           # USD scenario, fx.USD 0.9: ignored without a word before
    ("", "1", False),                            # 1 is what it is anyway
    ("currency: EUR\n", "0.92", False),          # EUR per 1 USD: a real rate, used
])
def test_a_rate_for_the_scenarios_own_currency_is_ignored_with_a_warning(head, rate, warned):
    from planner import plan

    p = plan(head + HEAD + f"fx: {{USD: {rate}}}\n" + WORKLOAD, baselines=False)
    said = [w for w in p.warnings if w.startswith("fx.USD")]
    assert said == (["fx.USD: 0.9 is ignored: USD is the scenario's currency, 1 by definition (rates are USD per 1 "
                     "unit of another currency)"] if warned else [])


@pytest.mark.parametrize(("rate", "growth", "refused"), [
    # 1e6 / 1e-4 = 1e10 reference GPUs × 730 h = 7.3e12 GPU-hours in month 1
    ("1000000", "0", r"workloads\[0\]\.requests_per_second: 1e\+06 requests/s ÷ 0\.0001 requests/s per T4 × 730 h = "
                     r"7\.3e\+12 reference-GPU-hours in month 1; expected at most 1,000,000,000 a month"),
    ("1", "0", ""),             # 1 / 1e-4 × 730 = 7.3e6 GPU-hours: large, but a plan
    # 7.3e8 in month 1, × 1.5 = 1.095e9 in month 2
    ("100", "0.5", r"workloads\[0\]\.growth_per_month: 100 requests/s ÷ 0\.0001 requests/s per T4 × 730 h = 7\.3e\+08 "
                   r"reference-GPU-hours in month 1, grown \(× \(1 \+ 0\.5\)\^1\) above 1,000,000,000 a month "
                   r"\(the most the model holds\) in month 2 of 12"),
])
def test_requests_per_second_are_bounded_in_the_gpu_hours_they_ask_for(rate, growth, refused):
    # the scenario bounds requests/s alone; a tiny throughput turned a valid rate into an astronomical plan.
    # Refused where the file is read, at the field (the engine's own check named no line)
    from planner import plan
    from planner.errors import ScenarioError

    text = HEAD + ("workloads:\n  - {name: api, serving: true, throughput_unit: requests_per_second, "
                   f"requests_per_second: {rate}, growth_per_month: {growth}, reference_gpu: T4, "
                   "throughput: {T4: 0.0001}}\n")
    if refused:
        with pytest.raises(ScenarioError, match=refused):
            plan(text, baselines=False)
    else:
        assert plan(text, baselines=False).status == "optimal"


def _with_bad_lines(padding_lines: int) -> str:
    """A scenario whose `notes` list has `padding_lines` items, then three lines YAML cannot parse."""
    return ("name: x\nhorizon_months: 12\nnotes:\n" + "  - a\n" * padding_lines
            + "workloads: []\nbad1: a: b\nbad2: a: b\nbad3: a: b\n")


def test_a_large_file_with_syntax_errors_is_parsed_once_small_ones_until_every_error_is_found(monkeypatch):
    # each syntax error found blanks its line and parses the whole file again: a review's 1 MiB file of 25 broken
    # lines took 47 s. Past MAX_RETRY_CHARS characters parsed again, the first error is reported alone.
    from planner.scenario import loading

    parses, real = [], loading._compose
    monkeypatch.setattr(loading, "_compose", lambda source: parses.append(len(source)) or real(source))
    small = _with_bad_lines(10)
    said = [p for p in problems_of(small) if "YAML syntax" in p]
    assert [p.split(": YAML syntax")[0].rsplit(":", 2)[-2] for p in said] == ["15", "16", "17"]   # each bad line
    assert len(parses) == 4   # one parse per error found, and the last, clean
    parses.clear()
    large = _with_bad_lines(loading.MAX_RETRY_CHARS // len("  - a\n") + 1)
    [said] = problems_of(large)
    line = large.count("\n") - 2   # bad1
    assert f":{line}:" in said and said.endswith(f"(the rest of this file of {len(large):,} characters is checked "
                                                 "once this is fixed: each syntax error found costs a parse of the "
                                                 "whole file)")
    assert len(parses) == 1
