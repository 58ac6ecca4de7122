"""Input messages found by a review, each replayed through the CLI: a mapping key YAML reads as no text
(`true:`, `null:`, `4090:`, `[a, b]:`), a character YAML refuses (NUL, \\x01) and an offers CSV number of
5,001 digits are each reported at their place (file, line and column, or row and column) in the project's
words, with exit 2 and no traceback."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def no_traceback(result) -> bool:
    return "Traceback" not in result.output and (result.exception is None or isinstance(result.exception, SystemExit))


def check(command: str, path: Path):
    """`fleetplan validate PATH` or `fleetplan plan PATH`, refused: exit 2, no traceback."""
    args = ["--no-baselines", "--no-decisions"] if command == "plan" else []
    result = run(command, path, *args)
    assert result.exit_code == 2, result.output
    assert no_traceback(result), result.output
    return result


def said(result) -> str:
    """The output with rich's line wrapping undone."""
    return " ".join(result.output.split())


# ---------------------------------------------------------------------------------------------------
# mapping keys YAML reads as no text: named as written, at their own line and column

KEYS = [   # line numbers below count from 1 in this text
    "name: keys",                                 # 1
    "currency: USD",                              # 2
    "horizon_months: 12",                         # 3
    "prices:",                                    # 4
    "  providers: [aws]",                         # 5
    "  regions: [us-east-1]",                     # 6
    "onprem:",                                    # 7
    "  cards: [rtx-4090]",                        # 8
    "workloads:",                                 # 9
    "  - name: w",                                # 10
    "    gpu_hours_per_month: 100",               # 11
    "    reference_gpu: A100-80GB-PCIE",          # 12
    "    throughput: {A100-80GB-PCIE: 1.0}",      # 13
    "constraints:",                               # 14
    "  max_units: {rtx-4090: 4}",                 # 15
]


def keys_file(tmp_path: Path, after: int, lines: list[str], replace: bool = False) -> Path:
    """KEYS with `lines` put after line `after` (1-based), or in its place with `replace`."""
    text = KEYS[:after - 1 if replace else after] + lines + KEYS[after:]
    path = tmp_path / "k.yaml"
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(("after", "lines", "replace", "message"), [
    (3, ["true: 5"], False, "k.yaml:4:1: true: unknown key"),
    (3, ["null: 3"], False, "k.yaml:4:1: null: unknown key"),
    (3, ["1: x"], False, "k.yaml:4:1: 1: unknown key"),
    (11, ["    true: 5"], False, "k.yaml:12:5: workloads[0].true: unknown key"),
    (15, ["  null: 3"], False, "k.yaml:16:3: constraints.null: unknown key"),
    (8, ["  yes: 1"], False, "k.yaml:9:3: onprem.yes: unknown key"),
    (8, ["  2024-01-01: 1"], False, "k.yaml:9:3: onprem.2024-01-01: unknown key"),
    (8, ["  ? [a, b]", "  : 1"], False, "k.yaml:9:5: onprem.[a, b]: unknown key"),
    (8, ["  {gpu: 1}: 2"], False, "k.yaml:9:3: onprem.{gpu: 1}: unknown key"),
    (13, ["    throughput: {A100-80GB-PCIE: 1.0, 4090: 2}"], True,
     "k.yaml:13:39: workloads[0].throughput.4090: unknown GPU '4090'; did you mean 'RTX-4090'?"),
    (15, ["  max_units: {rtx-4090: 4, true: 2}"], True, "k.yaml:15:28: constraints.max_units.true: unknown card 'true'"),
    (2, ["fx: {1: 2}"], False,
     "k.yaml:3:6: fx.1: expected a currency code of three capital letters (ISO 4217), got '1'"),
])
@pytest.mark.parametrize("command", ["validate", "plan"])
def test_a_key_yaml_reads_as_no_text_is_named_as_written_at_its_place(tmp_path, command, after, lines, replace,
                                                                        message):
    result = check(command, keys_file(tmp_path, after, lines, replace))
    assert message in said(result)
    # pydantic's words, and True shown as the list index [1], were the message before
    assert "Keys should be strings" not in result.output and "[1]" not in result.output
    assert "got True" not in result.output and "unhashable" not in result.output


def test_a_key_at_the_top_level_gets_did_you_mean_as_any_unknown_key(tmp_path):
    result = check("validate", keys_file(tmp_path, 3, ["1.5: x", "nmae: y"]))
    assert "k.yaml:4:1: 1.5: unknown key (allowed: name, description" in said(result)
    assert "k.yaml:5:1: nmae: unknown key; did you mean 'name'?" in said(result)


def test_a_number_key_and_the_same_text_in_quotes_are_one_key_given_twice(tmp_path):
    result = check("validate", keys_file(tmp_path, 2, ["fx: {1: 2, '1': 3}"]))
    assert "k.yaml:3:12: duplicate key '1' (first on line 3); YAML keeps only the last" in said(result)


def test_a_sweep_value_with_a_key_yaml_reads_as_no_text_names_it_as_written():
    # --vary values are YAML: `{true: 1}` was "onprem.existing[1]: expected a text, got True"
    result = run("sweep", ROOT / "scenarios" / "entry.yaml", "--vary", "onprem.existing={true: 1}", "--format", "csv")
    assert no_traceback(result), result.output
    assert "onprem.existing={true: 1}: onprem.existing.true: unknown card 'true'" in result.stderr
    assert "[1]" not in result.stderr and "True" not in result.stderr


def test_a_dict_with_a_key_that_is_no_text_is_named_in_the_projects_words():
    from planner.errors import ScenarioError
    from planner.scenario import load_scenario

    with pytest.raises(ScenarioError) as caught:
        load_scenario({"name": "d", True: 5, "fx": {1: 2}, "workloads": [
            {"name": "w", "gpu_hours_per_month": 10, "reference_gpu": "T4"}]})
    text = "\n".join(caught.value.problems)
    assert "<dict>: True: expected a key that is text, got true (a yes/no value)" in text
    assert "fx.1: expected a text, got 1" in text
    assert "Keys should be strings" not in text and "[1]" not in text


# ---------------------------------------------------------------------------------------------------
# a character YAML refuses: its line and column as an editor counts them

def refused_file(tmp_path: Path, text: str, newline: str = "\n") -> Path:
    path = tmp_path / "c.yaml"
    path.write_bytes(text.replace("\n", newline).encode("utf-8"))
    return path


NUL_LINE_8 = "\n".join(KEYS).replace("  cards: [rtx-4090]", "  cards: [rtx-4090]\x00") + "\n"


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("command", ["validate", "plan"])
def test_a_nul_byte_is_reported_at_its_line_and_column(tmp_path, command, newline):
    result = check(command, refused_file(tmp_path, NUL_LINE_8, newline))
    # "  cards: [rtx-4090]" is 19 characters: the NUL is column 20 of line 8
    assert "c.yaml:8:20: YAML syntax: unacceptable character \\x00" in said(result)
    assert "position" not in result.output and "\x00" not in result.output


def test_a_control_character_on_line_1_after_a_byte_order_mark_is_at_the_column_an_editor_shows(tmp_path):
    text = "\ufeff" + "\n".join(KEYS).replace("name: keys", "name: ke\x01ys") + "\n"
    result = check("validate", refused_file(tmp_path, text))
    assert "c.yaml:1:9: YAML syntax: unacceptable character \\x01" in said(result)


def test_a_form_feed_is_refused_at_its_place_and_moves_no_later_line(tmp_path):
    # str.splitlines() took the form feed for a line break: "b" became YAML and the NUL line 9
    text = NUL_LINE_8.replace("currency: USD\n", "currency: USD  # a\x0cb\n")
    result = check("validate", refused_file(tmp_path, text))
    assert "c.yaml:2:19: YAML syntax: unacceptable character \\x0c" in said(result)
    assert "c.yaml:8:20: YAML syntax: unacceptable character \\x00" in said(result)


def test_compare_reports_a_nul_byte_at_its_place(tmp_path):
    good = tmp_path / "good.yaml"
    good.write_text("\n".join(KEYS) + "\n", encoding="utf-8")
    result = run("compare", good, refused_file(tmp_path, NUL_LINE_8))
    assert result.exit_code == 2 and no_traceback(result), result.output
    assert "c.yaml:8:20: YAML syntax: unacceptable character \\x00" in said(result)


# ---------------------------------------------------------------------------------------------------
# an offers CSV cell of thousands of digits: the file, the row, the column and what was expected

G5 = "aws:us-east-1:g5.xlarge:on_demand"   # the first data row of examples/offers-melange-toy.csv


def scenario_with_cell(tmp_path: Path, column: str, value: str) -> tuple[Path, Path]:
    """examples/melange-toy.yaml over a copy of its offers CSV whose first row has `value` in `column`."""
    with open(EXAMPLES / "offers-melange-toy.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows[0]["offer_id"] == G5
    rows[0][column] = value
    offers = tmp_path / "offers.csv"
    with open(offers, "w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    text = (EXAMPLES / "melange-toy.yaml").read_text(encoding="utf-8")
    scenario = tmp_path / "s.yaml"
    scenario.write_text(text.replace("source: offers-melange-toy.csv", "source: offers.csv"), encoding="utf-8")
    return scenario, offers


MONTHS = "expected a whole number of months from 0 to 1200 (0, 12 or 36)"


@pytest.mark.parametrize(("column", "value", "message"), [
    ("term_months", "1" * 5001, f"term_months '{'1' * 60}'… (5,001 characters): {MONTHS}"),
    ("term_months", "-" + "1" * 5001, f"term_months '-{'1' * 59}'… (5,002 characters): {MONTHS}"),
    ("term_months", "0" * 5000 + "12", f"term_months '{'0' * 60}'… (5,002 characters): {MONTHS}"),
    ("term_months", "\u0661\u0662", f"term_months '\u0661\u0662': {MONTHS}"),   # Arabic-Indic 12: int() took it
    ("hourly_price", "1" * 5001, "a price that is not finite"),
    ("upfront_price", "1" * 5001, "a price that is not finite"),
    ("gpu_count", "1" * 5001, "gpu_count above 128 per unit"),
    ("gpu_memory_gb", "1" * 5001, "gpu_memory_gb not finite"),
    ("gpu_memory_gb", "inf", "gpu_memory_gb not finite"),
    ("gpu_memory_mib", "1e999", "gpu_memory_mib not finite"),
    ("vcpus", "-inf", "vcpus not finite"),
    ("memory_gb", "1e999", "memory_gb not finite"),
    ("gpu_memory_gb", "-5", "negative gpu_memory_gb"),
    ("vcpus", "-1", "negative vcpus"),
    ("hourly_price", "x" * 5001, f"hourly_price '{'x' * 60}'… (5,001 characters) is not a number"),
])
@pytest.mark.parametrize("command", ["plan", "validate"])
def test_an_offers_csv_cell_of_thousands_of_digits_or_not_finite_names_file_row_and_column(tmp_path, command, column,
                                                                                          value, message):
    scenario, offers = scenario_with_cell(tmp_path, column, value)
    result = check(command, scenario)
    assert f" {offers.name}: line 2 (offer {G5}): {message}" in said(result)   # as the scenario names it
    assert "4300" not in result.output and "set_int_max_str_digits" not in result.output
    assert len(result.output) < 2000   # the cell is cut, never repeated whole


@pytest.mark.parametrize(("column", "value"), [("term_months", "012"), ("vcpus", "nan"), ("gpu_memory_mib", "")])
def test_an_offers_csv_cell_within_its_column_still_plans(tmp_path, column, value):
    scenario, _ = scenario_with_cell(tmp_path, column, value)
    result = run("plan", scenario, "--format", "json", "--no-baselines", "--no-decisions")
    assert result.exit_code == 0, result.output


def test_an_owned_count_from_numpy_is_a_count():
    # a notebook's count read from a DataFrame is np.int64, which is no int: "expected a mapping of fields"
    import numpy as np

    from planner.scenario import apply_overrides, load_scenario

    s = load_scenario(ROOT / "scenarios" / "entry.yaml")   # it buys RTX 3060s (fx CNY given)
    for count in (np.int64(2), np.int32(2), np.float64(2.0), 2):
        owned = apply_overrides(s, {"onprem.existing": {"rtx-3060-12gb": count}}).onprem.existing
        assert {card: (o.count, o.age_months) for card, o in owned.items()} == {"rtx-3060-12gb": (2, 0)}


def test_a_second_document_is_one_problem_not_also_a_duplicate_key(tmp_path):
    # entry.yaml (30 lines) and a second document: its `name` was also reported as a duplicate of line 5's
    entry = (ROOT / "scenarios" / "entry.yaml").read_text(encoding="utf-8")
    assert len(entry.splitlines()) == 30 and entry.splitlines()[4].startswith("name: ")
    path = tmp_path / "two.yaml"
    path.write_text(entry + "---\nname: second document\n", encoding="utf-8")
    result = check("validate", path)
    assert said(result).count("error: ") == 1
    assert "two.yaml:31:1: YAML syntax: but found another document (expected a single document in the stream)" \
        in said(result)
    assert "duplicate key" not in said(result)
