"""Scenario files: every example validates; bad files name every problem with its line."""

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from planner import load_scenario
from planner.errors import ScenarioError
from planner.scenario import Scenario, ScenarioReadOnly, load_scenario_file, load_scenario_text

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "scenarios"


@pytest.mark.parametrize("path", sorted((ROOT / "scenarios").glob("*.yaml")), ids=lambda p: p.name)
def test_every_example_scenario_validates(path):
    scenario = load_scenario_file(path)
    assert scenario.workloads
    assert path.read_text().startswith("# yaml-language-server: $schema=../schema/scenario.schema.json")


def committed_schema_errors(doc: dict) -> list[str]:
    """What the committed JSON Schema (the one editors read) says is wrong with `doc`."""
    schema = json.loads((ROOT / "schema" / "scenario.schema.json").read_text())
    return [f"{'.'.join(map(str, e.absolute_path))}: {e.message}"
            for e in jsonschema.Draft202012Validator(schema).iter_errors(doc)]


@pytest.mark.parametrize("path", sorted((ROOT / "scenarios").glob("*.yaml")), ids=lambda p: p.name)
def test_every_example_scenario_passes_the_committed_schema(path):
    # startup-hybrid.yaml writes `existing: {rtx-3060-12gb: 2}`, the short form the README documents
    assert committed_schema_errors(yaml.safe_load(path.read_text())) == []


# The short form of onprem.existing is a count of new cards; the long form {count, age_months}. The schema
# and the model agree on each: a count is a whole number from 0, and true is not one card.
@pytest.mark.parametrize("owned,valid", [(2, True), (0, True), ({"count": 2, "age_months": 6}, True),
                                         (-1, False), (2.5, False), (True, False), ("2", False),
                                         ({"count": 2, "colour": "red"}, False)])
def test_the_schema_and_the_model_agree_on_owned_cards(owned, valid):
    doc = {**yaml.safe_load((ROOT / "scenarios" / "entry.yaml").read_text())}
    doc["onprem"] = {**doc["onprem"], "existing": {"rtx-3060-12gb": owned}}
    assert (not committed_schema_errors(doc)) is valid, committed_schema_errors(doc)
    if valid:
        count = owned if isinstance(owned, int) else owned["count"]
        assert load_scenario(doc).onprem.owned_count("rtx-3060-12gb") == count
    else:
        with pytest.raises(ScenarioError):
            load_scenario(doc)


def test_the_workbook_still_describes_the_fields_of_owned_cards():
    # the workbook's assumptions sheet reads meanings from the schema; a short form listed first would hide them
    from planner.reports.excel import _describer

    describe = _describer(load_scenario_file(ROOT / "scenarios" / "startup-hybrid.yaml"))
    assert describe("onprem.existing.rtx-3060-12gb.count") == "cards owned"
    assert describe("onprem.existing.rtx-3060-12gb.age_months") == "age at month 1 of the plan, months"


def test_the_four_seed_tiers_are_there():
    names = {p.name for p in (ROOT / "scenarios").glob("*.yaml")}
    assert {"entry.yaml", "mid-research.yaml", "industrial.yaml", "startup-hybrid.yaml"} <= names


def test_design_example_fields_are_read_as_written():
    s = load_scenario_file(ROOT / "scenarios" / "startup-hybrid.yaml")
    assert s.horizon_months == 36 and s.fx == {"CNY": 0.13749}
    assert s.onprem.card_overrides["a100-80gb-pcie"].price == 14000
    assert s.onprem.owned_count("rtx-3060-12gb") == 2 and s.onprem.owned_age_months("rtx-3060-12gb") == 0
    ft = s.workloads[0]
    assert ft.framework == "tensorflow==2.12" and ft.throughput == {"A100-80GB-PCIE": 1.0, "H100-SXM": 2.4}
    assert s.workloads[1].interruption_overhead == 0.1
    assert s.constraints.max_cloud_share == 0.6


def test_models_are_frozen():
    s = load_scenario_file(ROOT / "scenarios" / "entry.yaml")
    # the fx mapping's refusal (a PlannerError and a TypeError) with its words, not pydantic's "Instance is frozen"
    with pytest.raises(ScenarioReadOnly, match="^horizon_months is read-only: a validated scenario is frozen"):
        s.horizon_months = 12  # type: ignore[misc]


def problems_of(path: Path) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        load_scenario_file(path)
    return info.value.problems


def test_bad_file_reports_every_problem_with_its_line():
    problems = problems_of(FIXTURES / "bad.yaml")
    text = "\n".join(problems)
    origin = str(FIXTURES / "bad.yaml")
    # misspelt key, line 2
    assert f"{origin}:2:1: horizon_month: unknown key; did you mean 'horizon_months'?" in problems
    # broken indentation, line 5
    assert any(p.startswith(f"{origin}:5:") and "YAML syntax" in p and "indented more than" in p for p in problems)
    # unknown card on line 6 with its suggestion
    assert any(p.startswith(f"{origin}:6:") and "unknown card 'rtx-409'" in p and "'rtx-4090'" in p
               for p in problems)
    # a string where a number belongs, line 9
    assert any(p.startswith(f"{origin}:9:") and "workloads[0].gpu_hours_per_month" in p
               and "expected a number, got 'lots'" in p for p in problems)
    # unknown GPU id, line 10, with suggestion
    assert any(p.startswith(f"{origin}:10:") and "unknown GPU 'A100-80GB-PCI'" in p
               and "did you mean 'A100-80GB-PCIE'" in p for p in problems)
    assert "Traceback" not in text
    assert len(problems) == 5, text


def test_problems_are_listed_in_line_order():
    # the YAML syntax error (line 5) first: a field's problem may follow from it; then the rest by line
    problems = problems_of(FIXTURES / "bad.yaml")
    prefix = str(FIXTURES / "bad.yaml") + ":"
    lines = [int(p[len(prefix):].split(":")[0]) for p in problems]
    assert lines == [5, 2, 6, 9, 10]


def test_missing_required_fields_are_named():
    with pytest.raises(ScenarioError) as info:
        load_scenario_text("name: x\n", origin="t.yaml")
    assert any("workloads: required field is missing" in p for p in info.value.problems)


def test_unknown_key_at_wrong_level_points_to_where_it_belongs():
    text = "name: x\npue: 1.3\nworkloads:\n  - {name: a, gpu_hours_per_month: 1, reference_gpu: T4}\n"
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(text, origin="t.yaml")
    (problem,) = info.value.problems
    assert problem.startswith("t.yaml:2:1: pue: unknown key; 'pue' belongs under onprem — check the indentation")


def test_literal_choice_suggests_the_nearest():
    text = ("name: x\nprices: {purchase_options: [on_demnd]}\n"
            "workloads:\n  - {name: a, gpu_hours_per_month: 1, reference_gpu: T4}\n")
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(text, origin="t.yaml")
    (problem,) = info.value.problems
    assert problem.startswith("t.yaml:2:29: prices.purchase_options[0]:") and "did you mean 'on_demand'" in problem


def test_card_in_foreign_currency_needs_an_fx_rate():
    text = ("name: x\nonprem: {cards: [rtx-3060-12gb]}\n"
            "workloads:\n  - {name: a, gpu_hours_per_month: 1, reference_gpu: T4}\n")
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(text, origin="t.yaml")
    assert any("priced in CNY" in p and "fx: {CNY:" in p for p in info.value.problems)


def test_unknown_framework_version_is_reported():
    text = ("name: x\nworkloads:\n  - {name: a, gpu_hours_per_month: 1, reference_gpu: T4,"
            " framework: tensorflow==1.2}\n  - {name: b, gpu_hours_per_month: 1, reference_gpu: T4,"
            " framework: tensorflo==2.12}\n")
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(text, origin="t.yaml")
    text = "\n".join(info.value.problems)
    assert "no GPU build of tensorflow 1.2" in text and "did you mean 'tensorflow'" in text


WORKLOAD = "workloads:\n  - name: a\n    gpu_hours_per_month: 1\n    reference_gpu: T4\n"   # lines 2-5


def problems_of_text(text: str) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(text, origin="t.yaml")
    return info.value.problems


def test_every_repeated_workload_name_is_named_at_its_line():
    # the names' values start at column 12, after "  - {name: "; line 4 has a bad number as well
    text = ("name: x\nworkloads:\n  - {name: a, gpu_hours_per_month: 1, reference_gpu: T4}\n"
            "  - {name: b, gpu_hours_per_month: lots, reference_gpu: T4}\n"
            "  - {name: a, gpu_hours_per_month: 2, reference_gpu: T4}\n"
            "  - {name: b, gpu_hours_per_month: 3, reference_gpu: T4}\n")
    assert problems_of_text(text) == [
        "t.yaml:4:36: workloads[1].gpu_hours_per_month: expected a number, got 'lots'",
        "t.yaml:5:12: workloads[2].name: 'a' is the name of an earlier workload too; workload names must be unique",
        "t.yaml:6:12: workloads[3].name: 'b' is the name of an earlier workload too; workload names must be unique"]


def test_a_repeated_name_in_a_valid_file_is_reported_once():
    text = ("name: x\nworkloads:\n  - {name: a, gpu_hours_per_month: 1, reference_gpu: T4}\n"
            "  - {name: a, gpu_hours_per_month: 2, reference_gpu: T4}\n")
    assert problems_of_text(text) == [
        "t.yaml:4:12: workloads[1].name: 'a' is the name of an earlier workload too; workload names must be unique"]


def test_an_empty_workload_list_says_what_is_expected():
    # `[]` starts at column 12, after "workloads: "
    assert problems_of_text("name: x\nworkloads: []\n") == ["t.yaml:2:12: workloads: expected at least 1 item, got none"]
    assert problems_of_text("name: x\nworkloads:\n") == ["t.yaml:2:11: workloads: expected a list, got nothing"]
    assert problems_of_text('name: ""\n' + WORKLOAD) == ["t.yaml:1:7: name: expected a non-empty text, got ''"]


@pytest.mark.parametrize("framework,expected", [
    ("jax", "got 'jax'"),
    ("tensorflo", "got 'tensorflo'; did you mean 'tensorflow==VERSION'?"),
    ("pytorch 2.1", "got 'pytorch 2.1'; did you mean 'pytorch==VERSION'?"),
])
def test_a_framework_not_written_name_version_says_what_is_expected(framework, expected):
    # line 6: "    framework: " is 15 characters
    assert problems_of_text(f"name: x\n{WORKLOAD}    framework: {framework}\n") == [
        "t.yaml:6:16: workloads[0].framework: expected NAME==VERSION (e.g. tensorflow==2.12; frameworks: pytorch, "
        f"tensorflow), {expected}"]


def test_every_bad_relative_speed_is_reported_at_its_gpu():
    # line 6: "    throughput: {" is 17 characters, "A100-80GB-PCIE: " 16 more, "-1, T4: " 8 more
    text = f"name: x\n{WORKLOAD}    throughput: {{A100-80GB-PCIE: -1, T4: .nan, L4: 0, A10G: 1.0e-9}}\n"
    assert problems_of_text(text) == [
        "t.yaml:6:34: workloads[0].throughput.A100-80GB-PCIE: speeds (relative, or requests/s) must be > 0, got -1; "
        "leave a GPU out to exclude it",
        "t.yaml:6:42: workloads[0].throughput.T4: expected a finite number, got .nan",   # as YAML writes it
        "t.yaml:6:52: workloads[0].throughput.L4: speeds (relative, or requests/s) must be > 0, got 0; "
        "leave a GPU out to exclude it",
        "t.yaml:6:61: workloads[0].throughput.A10G: speeds (relative, or requests/s) must be ≥ 1e-06, got 1e-09"]


def test_a_currency_in_small_letters_suggests_the_code_and_asks_for_the_rate_the_code_needs():
    # a currency in small letters is read as the code suggested (an audit, 2026-12: the rate it needs was asked only
    # once the suggestion was taken): the scenario's usd is USD, which needs no rate for cloud prices; the custom
    # card's eur is EUR, which needs one. Line 5: "    my-card: {" is 14 characters, "gpu: T4, price: 1000, currency: " 32 more
    text = ("name: x\ncurrency: usd\nonprem:\n  custom_cards:\n    my-card: {gpu: T4, price: 1000, currency: eur, "
            "busy_watts: 100, idle_watts: 10, life_years: 4}\n" + WORKLOAD)
    assert problems_of_text(text) == [
        "t.yaml:2:11: currency: expected a currency code of three capital letters (ISO 4217), got 'usd'; "
        "did you mean 'USD'?",
        "t.yaml:5:47: onprem.custom_cards.my-card.currency: expected a currency code of three capital letters "
        "(ISO 4217), got 'eur'; did you mean 'EUR'?",
        "t.yaml:5:47: fx: card 'my-card' is priced in EUR; add its rate, e.g. fx: {EUR: <USD per 1 EUR>}"]


def test_a_card_override_currency_in_small_letters_suggests_the_code_and_asks_for_its_rate():
    # Line 5: "    rtx-4090: {price: 1800, currency: " is 38 characters
    text = ("name: x\nonprem:\n  cards: [rtx-4090]\n  card_overrides:\n    rtx-4090: {price: 1800, currency: eur}\n"
            + WORKLOAD)
    assert problems_of_text(text) == [
        "t.yaml:5:39: onprem.card_overrides.rtx-4090.currency: expected a currency code of three capital letters "
        "(ISO 4217), got 'eur'; did you mean 'EUR'?",
        "t.yaml:5:39: fx: card 'rtx-4090' is priced in EUR; add its rate, e.g. fx: {EUR: <USD per 1 EUR>}"]


def test_yaml_tags_are_not_executed(tmp_path):
    text = "name: !!python/object/apply:os.system ['echo pwned']\nworkloads: []\n"
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(text, origin="t.yaml")
    assert any("YAML syntax" in p for p in info.value.problems)


def test_load_scenario_accepts_path_dict_and_text():
    path = ROOT / "scenarios" / "entry.yaml"
    a = load_scenario(str(path))
    b = load_scenario(path.read_text())
    c = load_scenario({"name": "Entry — small datasets", "workloads": [
        {"name": "w", "gpu_hours_per_month": 10, "reference_gpu": "T4"}]})
    assert isinstance(a, Scenario) and a.name == b.name == c.name


# Owned cards with no service left. Line 3: "  existing: {" is 13 characters, "rtx-4090: {" 11 more, "count: 2, "
# 10 more, "age_months: " 12 more: the age is at column 47.
OWNED = "name: x\nonprem:\n  existing: {rtx-4090: {count: 2, age_months: AGE}}\n" + WORKLOAD


def test_owned_cards_as_old_as_their_catalog_life_are_refused_at_their_line():
    # rtx-4090: life_years 3 in onprem_cards.csv, 36 months
    assert problems_of_text(OWNED.replace("AGE", "36")) == [
        "t.yaml:3:47: onprem.existing.rtx-4090.age_months: 36 months is not below the card's life of 36 months "
        "(life_years 3); retire it (leave it out) or set onprem.card_overrides.rtx-4090.life_years"]
    assert load_scenario_text(OWNED.replace("AGE", "35")).onprem.owned_age_months("rtx-4090") == 35


def test_an_overridden_life_gives_owned_cards_more_months():
    # life_years 4: 48 months, so 36 months old leaves 12
    text = OWNED.replace("AGE", "36").replace("  existing:", "  card_overrides: {rtx-4090: {life_years: 4}}\n  existing:")
    assert load_scenario_text(text).onprem.owned_age_months("rtx-4090") == 36
    text = OWNED.replace("AGE", "48").replace("  existing:", "  card_overrides: {rtx-4090: {life_years: 4}}\n  existing:")
    assert [p.split(": ", 2)[1:] for p in problems_of_text(text)] == [[
        "onprem.existing.rtx-4090.age_months", "48 months is not below the card's life of 48 months (life_years 4); "
        "retire it (leave it out) or set onprem.card_overrides.rtx-4090.life_years"]]


def test_an_owned_custom_card_is_held_to_its_own_life_and_none_owned_is_no_problem():
    # life_years 2.5: 30 months. Line 4: "  existing: {" is 13 characters, "my-card: {count: 1, age_months: " 32 more
    text = ("name: x\nonprem:\n  custom_cards: {my-card: {gpu: T4, price: 1000, busy_watts: 100, idle_watts: 10, "
            "life_years: 2.5}}\n  existing: {my-card: {count: 1, age_months: 30}, rtx-4090: {count: 0, age_months: 99}}\n"
            + WORKLOAD)
    assert problems_of_text(text) == [
        "t.yaml:4:46: onprem.existing.my-card.age_months: 30 months is not below the card's life of 30 months "
        "(life_years 2.5); retire it (leave it out) or set onprem.custom_cards.my-card.life_years"]


def test_a_tab_indented_file_reports_its_tabs_and_no_follow_on_error():
    # lines 3 and 4 are blanked to parse the rest, which leaves `workloads:` with no value: that is not a
    # second problem of the file ("workloads: expected a list, got nothing" was reported next to the tabs)
    text = "name: t\nworkloads:\n\t- name: w\n\t  gpu_hours_per_month: 100\n"
    with pytest.raises(ScenarioError) as caught:
        load_scenario_text(text, origin="t.yaml")
    assert [p.split(": YAML syntax: ")[0] for p in caught.value.problems] == ["t.yaml:3:1", "t.yaml:4:1"]
    assert all(p.endswith("indent with spaces: YAML does not allow tabs") for p in caught.value.problems)


def test_a_syntax_error_does_not_hide_a_bad_value_elsewhere():
    text = "name: t\nhorizon_months: 12\nworkloads:\n  - {name: w, gpu_hours_per_month: -1, reference_gpu: T4}\n: :\n"
    with pytest.raises(ScenarioError) as caught:
        load_scenario_text(text, origin="t.yaml")
    assert any(p.startswith("t.yaml:4:") and "expected a number ≥ 0, got -1" in p for p in caught.value.problems)
    assert any(": YAML syntax: " in p for p in caught.value.problems)


@pytest.mark.parametrize("life_years, months", [(0.375, 5), (1.125, 14), (1.375, 17), (2.5, 30), (0.01, 1)])
def test_a_life_rounds_to_whole_months_halves_up(life_years, months):
    # 12 × 0.375 = 4.5 and 12 × 1.375 = 16.5 made 4 and 16 months (Python's round: halves to even), while
    # 12 × 1.125 = 13.5 made 14; an owned card as old as its life in months is refused
    text = ("name: x\nonprem:\n  custom_cards: {my-card: {gpu: T4, price: 1000, busy_watts: 100, idle_watts: 10, "
            f"life_years: {life_years}}}}}\n  existing: {{my-card: {{count: 1, age_months: AGE}}}}\n" + WORKLOAD)
    assert load_scenario_text(text.replace("AGE", str(months - 1))).onprem.owned_age_months("my-card") == months - 1
    assert f"{months} months is not below the card's life of {months} months" in problems_of_text(
        text.replace("AGE", str(months)))[0]


def test_a_custom_card_id_with_a_colon_is_refused_at_its_key():
    # an offer id is provider:region:sku:option, and the reports tell a reservation (its offer id) from a card (its
    # card id) by the colon: `my:card` made onprem:onprem:my:card:purchase and counted as a reservation.
    # Line 3: "  custom_cards: {" is 17 characters, so the key starts in column 18
    card = "{gpu: T4, price: 1000, busy_watts: 100, idle_watts: 10, life_years: 3}"
    text = f"name: x\nonprem:\n  custom_cards: {{my:card: {card}}}\n" + WORKLOAD
    assert problems_of_text(text) == [
        "t.yaml:3:18: onprem.custom_cards.my:card: expected a card id without ':', which separates the parts of an "
        "offer id (onprem:onprem:<card id>:purchase), got 'my:card'"]
    assert list(load_scenario_text(text.replace("my:card", "my-card")).onprem.custom_cards) == ["my-card"]


def test_a_plan_saved_with_a_custom_card_id_holding_a_colon_still_compares():
    # planned before such ids were refused: compare shows a saved plan's scenario, never plans it again
    from planner import plan, to_json
    from planner.reports.compare import compare

    card = "{gpu: T4, price: 1000, busy_watts: 100, idle_watts: 10, life_years: 3}"
    text = f"name: x\nhorizon_months: 3\nonprem:\n  custom_cards: {{my-card: {card}}}\n" + WORKLOAD
    saved = json.loads(to_json(plan(load_scenario_text(text), baselines=False)).replace("my-card", "my:card"))
    assert "my:card" in saved["scenario_inputs"]["onprem"]["custom_cards"]
    assert [compare(saved, saved).totals[side] for side in ("a", "b")] == [saved["total"]] * 2
