"""A requests/s demand whose reference-GPU-hours go beyond what the model holds (1e9 a month) is refused where the
file is read (an audit, 2026-12): `validate` passed it, each figure within its own limit (requests/s ≤ 1e9, a speed
≥ 1e-6), and only `plan` refused it, in the engine's words with no file, line or field."""

from __future__ import annotations

from cli_run import run
from test_scenario_limits import problems_of

HEAD = "name: t\nhorizon_months: 12\nprices: {providers: [aws], regions: [us-east-1], purchase_options: [on_demand]}\n"
API = ("workloads:\n"
       "  - name: api\n"
       "    serving: true\n"
       "    throughput_unit: requests_per_second\n"
       "    requests_per_second: 1000000000\n"
       "    reference_gpu: T4\n"
       "    throughput: {T4: 0.000001, A10G: 0.000002}\n")
# line 8, column 26 ("    requests_per_second: " is 25 characters); 1e9 / 1e-6 × 730 h = 7.3e17 reference-GPU-hours
TOO_MANY = ("s.yaml:8:26: workloads[0].requests_per_second: 1e+09 requests/s ÷ 1e-06 requests/s per T4 × 730 h = "
            "7.3e+17 reference-GPU-hours in month 1; expected at most 1,000,000,000 a month (the most the model "
            "holds): fewer requests/s, or more requests/s per GPU in the throughput table")


def write(tmp_path, text: str) -> str:
    path = tmp_path / "s.yaml"
    path.write_text(text)
    return str(path)


def test_validate_refuses_it_at_the_requests_per_second_line(tmp_path):
    result = run("validate", write(tmp_path, HEAD + API))
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert TOO_MANY.replace("s.yaml", str(tmp_path / "s.yaml")) in result.stderr


def test_plan_says_the_file_line_and_field(tmp_path):
    result = run("plan", write(tmp_path, HEAD + API))
    assert result.exit_code == 2
    assert TOO_MANY.replace("s.yaml", str(tmp_path / "s.yaml")) in result.stderr
    assert "workload api:" not in result.stderr   # the engine's words, with no line


def test_it_is_reported_with_the_files_other_problems():
    text = HEAD.replace("horizon_months: 12", "horizon_months: 12\ndiscount_rate: 8") + API
    shifted = TOO_MANY.replace("s.yaml:8:", "s.yaml:9:")
    assert problems_of(text) == [
        "s.yaml:3:16: discount_rate: expected a number < 1, got 8; did you mean 0.08 (8 %)?", shifted]


def test_growth_past_the_limit_is_said_at_growth_per_month():
    # 500 / 0.1 × 730 = 3,650,000 h in month 1; × 3^5 = 886,950,000, × 3^6 = 2,660,850,000 > 1e9: month 7 of 12
    text = HEAD + API.replace("1000000000\n", "500\n    growth_per_month: 0.5\n").replace(
        "0.000001, A10G: 0.000002", "0.1").replace("growth_per_month: 0.5", "growth_per_month: 2")
    assert problems_of(text) == [
        "s.yaml:9:23: workloads[0].growth_per_month: 500 requests/s ÷ 0.1 requests/s per T4 × 730 h = 3.65e+06 "
        "reference-GPU-hours in month 1, grown (× (1 + 2)^6) above 1,000,000,000 a month (the most the model holds) "
        "in month 7 of 12; lower growth_per_month or horizon_months, or raise the throughput table's requests/s per "
        "GPU; did you mean 0.02 (2 %)?"]


def test_the_reference_gpu_named_by_an_alias_in_the_table_is_found():
    # the table's key `t4` names the reference GPU T4 as the engine reads it
    text = HEAD + API.replace("{T4: 0.000001", "{t4: 0.000001")
    assert problems_of(text) == [TOO_MANY]


def test_a_demand_within_the_limit_is_valid(tmp_path):
    # 1e9 / 1 × 730 = 7.3e11 is above; 1,000,000 / 1 × 730 = 7.3e8 is below
    text = HEAD + API.replace("1000000000", "1000000").replace("0.000001, A10G: 0.000002", "1, A10G: 2")
    assert run("validate", write(tmp_path, text)).exit_code == 0


def test_a_sweep_value_past_the_limit_is_named_by_its_override_path(tmp_path):
    text = HEAD + API.replace("1000000000", "1")
    result = run("sweep", write(tmp_path, text), "--vary", "workloads.api.requests_per_second=1,1e9",
                 "--format", "csv", "--processes", "1")
    assert result.exit_code == 2
    assert ("workloads.api.requests_per_second=1e9: 1e+09 requests/s ÷ 1e-06 requests/s per T4 × 730 h = 7.3e+17 "
            "reference-GPU-hours in month 1") in result.stderr
