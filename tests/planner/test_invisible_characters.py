"""An invisible format character inside a word — a zero-width space, non-joiner or joiner, a word joiner, a byte order
mark past the file's start, a soft hyphen — is read by YAML as part of the key or value and shown by no editor:
`currency: U\u200bSD` was "expected a currency code …, got 'U\\u200bSD'", `horizon\u200b_months:` an unknown key
"horizon\u200b_months" printed as if it were spelt right. Now it is one problem at its line and column naming the
character, and the rest of the file is read as it shows (without it), so it causes no other error. In a free text
(a description, a card override's or custom card's `source`) it is kept: shown, never matched against anything.

Places are counted here by hand: lines split at line feeds, columns in characters, as an editor counts them."""

from __future__ import annotations

import unicodedata

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from planner.cli import app
from planner.errors import ScenarioError
from planner.scenario import OnPrem, Scenario, apply_overrides, load_scenario
from planner.scenario.loading import _INVISIBLE_CHAR, check_scenario_text
from tests.planner.test_pasted_characters import LINES  # entry.yaml's lines, numbered there

ADVICE = "an invisible character YAML reads as part of it; delete it (it often comes with text pasted from a web page or a chat)"
# the model's words (scenario.model.Frozen._no_invisible_characters), for what reaches it otherwise than written in a file
MODEL_ADVICE = ("an invisible character, which no table of the plan shows; delete it (it often comes with text pasted "
                "from a web page or a chat)")


def check(lines: list[str]):
    return check_scenario_text("\n".join(lines) + "\n", "s.yaml")


def changed(line: int, text: str) -> list[str]:
    """LINES with line `line` (1-based) replaced by `text`."""
    lines = list(LINES)
    lines[line - 1] = text
    return lines


def test_the_file_loads_as_written():
    assert check(LINES).problems == []


@pytest.mark.parametrize(("line", "text", "said"), [
    # "currency: U" is 11 characters: the character is column 12
    (7, "currency: U\u200bSD", "7:12: currency: zero-width space U+200B inside the value"),
    (7, "currency: U\u200cSD", "7:12: currency: zero-width non-joiner U+200C inside the value"),
    (7, "currency: U\u200dSD", "7:12: currency: zero-width joiner U+200D inside the value"),
    (7, "currency: U\u2060SD", "7:12: currency: word joiner U+2060 inside the value"),
    (7, "currency: U\ufeffSD", "7:12: currency: zero-width no-break space (byte order mark) U+FEFF inside the value"),
    (7, "currency: U\u00adSD", "7:12: currency: soft hyphen U+00AD inside the value"),
    # "currency: " is 10: a character beginning the value is column 11, and still inside it (no syntax error)
    (7, "currency: \u200bUSD", "7:11: currency: zero-width space U+200B inside the value"),
    # "horizon" is 7: the key is horizon_months as it shows; "horizon_months: 2" is 17
    (8, "horizon\u200b_months: 24", "8:8: horizon_months: zero-width space U+200B inside the key"),
    (8, "horizon_months: 2\u200b4", "8:18: horizon_months: zero-width space U+200B inside the value"),
    # one beginning a line is the key's first letter (it was a space of indentation, then a syntax error)
    (8, "\u200bhorizon_months: 24", "8:1: horizon_months: zero-width space U+200B inside the key"),
    (8, "\u00adhorizon_months: 24", "8:1: horizon_months: soft hyphen U+00AD inside the key"),
    # "  cards: [" is 10, "rtx-3060-12gb, " 15 more, "rtx-40" 6 more: column 32 of the second card
    (20, "  cards: [rtx-3060-12gb, rtx-40\u200b60-ti-16gb]", "20:32: onprem.cards[1]: zero-width space U+200B inside the value"),
    # "    reference_gpu: RTX-" is 23
    (25, "    reference_gpu: RTX-\u200b3060-12GB", "25:24: workloads[0].reference_gpu: zero-width space U+200B inside the value"),
    # a name is no free text, quoted or not: two names would look the same; '  - name: "course' is 17
    (23, '  - name: "course\u200bwork"', "23:18: workloads[0].name: zero-width space U+200B inside the value"),
    (5, "name: En\u200btry", "5:9: name: zero-width space U+200B inside the value"),
    # two in one value: the first named, the other counted
    (7, "currency: U\u200bS\u00adD", "7:12: currency: zero-width space U+200B inside the value (and 1 more invisible character)"),
])
def test_an_invisible_character_inside_a_word_is_one_problem_at_it(line, text, said):
    assert check(changed(line, text)).problems == [f"s.yaml:{said}: {ADVICE}"]


def test_one_in_a_quoted_value_on_two_lines_is_placed_on_its_line():
    # a quoted name on two lines: the character is on line 24, after "      w" (7 characters)
    lines = LINES[:22] + ['  - name: "course', '      w\u200bork"'] + LINES[23:]
    assert check(lines).problems == [f"s.yaml:24:8: workloads[0].name: zero-width space U+200B inside the value: {ADVICE}"]


def test_one_after_a_quoted_line_separator_is_placed_as_the_editor_shows_it():
    # YAML ends a line at U+2028 (kept in quotes), an editor does not: '  cards: ["rtx' is 14 characters, the
    # separator 15, '3060", ' 16-22, "rtx-40" 23-28, so the zero-width space is column 29 of line 20
    lines = changed(20, '  cards: ["rtx\u20283060", rtx-40\u200b60-ti-16gb]')
    assert check(lines).problems == [
        "s.yaml:20:11: onprem.cards[0]: unknown card 'rtx 3060'; did you mean 'rtx-3060-12gb'?",
        f"s.yaml:20:29: onprem.cards[1]: zero-width space U+200B inside the value: {ADVICE}"]


def test_the_rest_of_the_file_is_read_as_it_shows():
    # with the character left out, USD and 36 are what they show: no "unknown currency", no "expected a number"
    lines = changed(7, "currency: U\u200bSD")
    lines[7] = "horizon_months: 3\u200b6"
    checked = check(lines)
    assert checked.problems == [f"s.yaml:7:12: currency: zero-width space U+200B inside the value: {ADVICE}",
                                f"s.yaml:8:18: horizon_months: zero-width space U+200B inside the value: {ADVICE}"]
    assert checked.data["currency"] == "USD" and checked.data["horizon_months"] == 36


def test_one_written_as_an_escape_shows_and_is_refused_by_the_model():
    # "\u200b" in double quotes is six visible characters in the file, but the code read holds the invisible one, which
    # no table of the plan shows: the model refuses it (MODEL_ADVICE), at the value ("currency: " is 10), quoting it
    assert check(changed(7, 'currency: "U\\u200bSD"')).problems == [
        f"s.yaml:7:11: currency: zero-width space U+200B inside the value: {MODEL_ADVICE}, got 'U\\u200bSD'"]


def test_a_free_text_keeps_them():
    # a soft hyphen marks where a word may break, a zero-width joiner builds an emoji: text a description may mean
    lines = changed(6, "description: Data\u00adsets under 10 GB \U0001f468\u200d\U0001f4bb")
    lines[19:21] = ["  cards: [rtx-3060-12gb]", "  card_overrides:",
                    '    rtx-3060-12gb: {price: 300, source: "shop\u200b.example quote"}', "  capex_budget: 1500"]
    checked = check(lines)
    assert checked.problems == []
    assert checked.scenario.description == "Data\u00adsets under 10 GB \U0001f468\u200d\U0001f4bb"
    assert checked.scenario.onprem.card_overrides["rtx-3060-12gb"].source == "shop\u200b.example quote"


def test_a_key_is_no_free_text():
    # description's value is free text, its key is not: "descr" is 5 characters
    assert check(changed(6, "descr\u200biption: Datasets")).problems == [
        f"s.yaml:6:6: description: zero-width space U+200B inside the key: {ADVICE}"]


def test_every_character_refused_is_an_invisible_format_character():
    # Unicode's general category Cf (format), each default-ignorable: none shows a sign
    refused = [chr(c) for c in range(0x110000) if _INVISIBLE_CHAR.fullmatch(chr(c))]
    assert {unicodedata.category(c) for c in refused} == {"Cf"}
    assert set("\u200b\u200c\u200d\u2060\ufeff\u00ad") <= set(refused)
    assert "\u0600" not in refused   # ARABIC NUMBER SIGN: a Cf character that shows


def test_validate_exits_2_with_the_one_problem(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("\n".join(changed(7, "currency: U\u200bSD")) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 2, result.output
    said = " ".join(result.output.split())
    assert "s.yaml:7:12: currency: zero-width space U+200B inside the value: an invisible character" in said, said
    assert "ISO 4217" not in said and "Traceback" not in said, said


# What reaches the model without the loader reading it as written: a YAML alias reuses the node its anchor names (a free
# text's, which keeps them), a dict, an override. The model refuses them in one place all of them pass through: any
# text but free text (a description, a card override's or custom card's source) — names, ids, codes, regions, paths
# (review, 2026-12: `description: &d Fo\u200bo` then `name: *d` loaded with that name)


def test_an_alias_of_a_free_text_is_refused_where_it_is_no_free_text():
    # the anchored description is on line 5: "description: " is 13 characters, so its node (the anchor) is column 14,
    # where the character is written; the problem names the field it reached, name
    lines = changed(5, "description: &d En\u200btry")
    lines[5] = "name: *d"
    assert check(lines).problems == [
        f"s.yaml:5:14: name: zero-width space U+200B inside the value: {MODEL_ADVICE}, got 'En\\u200btry'"]


def test_an_alias_in_a_list_of_regions_is_refused_at_its_item():
    lines = changed(6, "description: &r us-east\u200b-1")
    lines[13] = "  regions: [*r, eastus]"
    assert check(lines).problems == [
        f"s.yaml:6:14: prices.regions[0]: zero-width space U+200B inside the value: {MODEL_ADVICE}"]


def test_an_override_of_a_name_is_refused_naming_the_path_given():
    scenario = check(LINES).scenario
    with pytest.raises(ScenarioError) as info:
        apply_overrides(scenario, {"workloads.0.name": "course\u200bwork"})
    assert info.value.problems == [
        f"workloads.0.name: zero-width space U+200B inside the value: {MODEL_ADVICE}, got 'course\\u200bwork'"]


@pytest.mark.parametrize(("change", "said"), [
    (lambda d: d.update(currency="U\u00adSD"), "currency: soft hyphen U+00AD inside the value"),
    (lambda d: d.update(fx={"CN\u200bY": 0.14}), "fx: zero-width space U+200B inside the key"),
    (lambda d: d["prices"].update(regions=["us-east-1", "east\u2060us"]),
     "prices.regions[1]: word joiner U+2060 inside the value"),
    (lambda d: d["workloads"][0].update(reference_gpu="RTX-3060\u200d-12GB"),
     "workloads[0].reference_gpu: zero-width joiner U+200D inside the value"),
    (lambda d: d["onprem"]["card_overrides"].update({"rtx-3060\ufeff-12gb": {"price": 300}}),
     "onprem.card_overrides: zero-width no-break space (byte order mark) U+FEFF inside the key"),
])
def test_a_dict_with_one_in_a_name_id_or_code_is_refused(change, said):
    data = check(LINES).scenario.model_dump(mode="json")
    change(data)
    with pytest.raises(ScenarioError) as info:
        load_scenario(data)
    assert f"<dict>: {said}: {MODEL_ADVICE}" in [p.split(", got ")[0] for p in info.value.problems]


def test_a_dict_keeps_them_in_free_text():
    data = check(LINES).scenario.model_dump(mode="json")
    data["description"] = "Data\u00adsets \U0001f468\u200d\U0001f4bb"
    data["onprem"]["card_overrides"] = {"rtx-3060-12gb": {"price": 300, "source": "shop\u200b.example quote"}}
    scenario = load_scenario(data)
    assert scenario.description == "Data\u00adsets \U0001f468\u200d\U0001f4bb"
    assert scenario.onprem.card_overrides["rtx-3060-12gb"].source == "shop\u200b.example quote"


def test_a_scenario_built_in_code_is_refused_too():
    data = check(LINES).scenario.model_dump(mode="json")
    data["name"] = "En\u200btry"
    with pytest.raises(ValueError, match="zero-width space U\\+200B inside the value"):
        Scenario(**data)


# A key of a dict that is a field's name with one inside (`horiz\u200bon_months`) was "unknown key; did you mean
# 'horizon_months'?", printed as if spelt right and naming no character. Now it is what a file's is (test_a_key_is_no_free_text):
# one problem at the field meant naming the character, and the dict read as the key shows, so no other follows from it


def _with_key(data: dict, key: str, written: str) -> dict:
    """`data` with its key `key` written `written`, the other keys in their order."""
    return {written if k == key else k: v for k, v in data.items()}


@pytest.mark.parametrize(("change", "said"), [
    (lambda d: _with_key(d, "horizon_months", "horiz\u200bon_months"), "horizon_months: zero-width space U+200B"),
    (lambda d: _with_key(d, "currency", "currency\u2060"), "currency: word joiner U+2060"),
    # name is required: not also "name: required field is missing"
    (lambda d: _with_key(d, "name", "\u00adname"), "name: soft hyphen U+00AD"),
    (lambda d: {**d, "onprem": _with_key(d["onprem"], "cards", "ca\ufeffrds")},
     "onprem.cards: zero-width no-break space (byte order mark) U+FEFF"),
    (lambda d: {**d, "workloads": [_with_key(d["workloads"][0], "reference_gpu", "reference\u200d_gpu")]},
     "workloads[0].reference_gpu: zero-width joiner U+200D"),
])
def test_a_dict_key_with_one_names_it_and_the_field_meant(change, said):
    data = change(check(LINES).scenario.model_dump(mode="json"))
    with pytest.raises(ScenarioError) as info:
        load_scenario(data)
    assert info.value.problems == [f"<dict>: {said} inside the key: {MODEL_ADVICE}"]


def test_a_key_written_as_an_escape_in_a_file_is_the_one_problem_at_the_key():
    # "\u200b" in a quoted key is six visible characters, read as the invisible one (as a value's is: the model's
    # words); the key, line 8, begins its line; onprem.cards' key is at column 3 of line 20
    lines = changed(8, '"horizon\\u200b_months": 24')
    lines[19] = '  "ca\\u200brds": [rtx-3060-12gb]'
    assert check(lines).problems == [f"s.yaml:8:1: horizon_months: zero-width space U+200B inside the key: {MODEL_ADVICE}",
                                     f"s.yaml:20:3: onprem.cards: zero-width space U+200B inside the key: {MODEL_ADVICE}"]


def test_a_dict_key_with_one_has_its_value_checked_as_the_field_meant():
    # horizon_months is 1 to 120 months (model.Scenario): 0 is refused as the field it shows, not as an unknown key
    data = _with_key(check(LINES).scenario.model_dump(mode="json"), "horizon_months", "horizon_months\u200b")
    data["horizon_months\u200b"] = 0
    with pytest.raises(ScenarioError) as info:
        load_scenario(data)
    assert info.value.problems == [f"<dict>: horizon_months: zero-width space U+200B inside the key: {MODEL_ADVICE}",
                                   "<dict>: horizon_months: expected a number ≥ 1, got 0"]


def test_a_dict_key_with_one_beside_the_key_as_it_shows_is_the_one_problem():
    # the key as it shows is read (24 months); the other is what to delete, and no "unknown key" besides
    data = check(LINES).scenario.model_dump(mode="json")
    data["horizon_months\u200b"] = 36
    with pytest.raises(ScenarioError) as info:
        load_scenario(data)
    assert info.value.problems == [f"<dict>: horizon_months: zero-width space U+200B inside the key: {MODEL_ADVICE}"]
    assert data["horizon_months\u200b"] == 36 and data["horizon_months"] == 24   # the caller's dict left as it was


def test_a_dict_key_with_one_that_names_no_field_is_still_unknown():
    # "horizon" is no field either: the character named, and the key as it shows unknown, with the field meant
    data = check(LINES).scenario.model_dump(mode="json")
    data["hori\u200bzon"] = 36
    with pytest.raises(ScenarioError) as info:
        load_scenario(data)
    assert info.value.problems == [f"<dict>: horizon: zero-width space U+200B inside the key: {MODEL_ADVICE}",
                                   "<dict>: horizon: unknown key; did you mean 'horizon_months'?"]


# Scenario(**d), or any section built alone (OnPrem(**d)), refused such a key with pydantic's bare "Extra inputs are not
# permitted" at the key printed as if spelt right (and "Field required" for a required field it was meant to be). Now the
# model says what load_scenario says: the character at the key as it shows, in one ValidationError with every other
# problem of the data read as its keys show (scenario.model.Frozen._no_invisible_keys)


# pydantic's word for a list whose only item failed: loading leaves it out, the item's problem saying it better
TOO_SHORT = "Tuple should have at least 1 item after validation, not 0"


def _refused(build) -> list[tuple[tuple, str]]:
    """(place, message) of each error of the ValidationError `build()` raises."""
    with pytest.raises(ValidationError) as info:
        build()
    assert "Extra inputs are not permitted" not in str(info.value)
    return [(err["loc"], err["msg"]) for err in info.value.errors()]


@pytest.mark.parametrize(("change", "place", "said"), [
    (lambda d: _with_key(d, "horizon_months", "horizon_months\u200b"), ("horizon_months",), "zero-width space U+200B"),
    # name is required: not also "Field required"
    (lambda d: _with_key(d, "name", "na\u200dme"), ("name",), "zero-width joiner U+200D"),
    (lambda d: {**d, "onprem": _with_key(d["onprem"], "electricity_per_kwh", "electricity_per_kwh\u200b")},
     ("onprem", "electricity_per_kwh"), "zero-width space U+200B"),
    (lambda d: {**d, "workloads": [_with_key(d["workloads"][0], "reference_gpu", "\u2060reference_gpu")]},
     ("workloads", 0, "reference_gpu"), "word joiner U+2060"),
    (lambda d: {**d, "prices": _with_key(d["prices"], "regions", "regions\ufeff")},
     ("prices", "regions"), "zero-width no-break space (byte order mark) U+FEFF"),
])
def test_a_scenario_built_in_code_with_one_in_a_key_names_it_at_the_field_meant(change, place, said):
    data = change(check(LINES).scenario.model_dump(mode="json"))
    assert _refused(lambda: Scenario(**data))[:1] == [(place, f"{said} inside the key: {MODEL_ADVICE}")]
    # and no more, but pydantic's own "too short" for the list of one workload whose item failed (as for any problem in it)
    assert _refused(lambda: Scenario(**data))[1:] == ([] if place[0] != "workloads" else [(("workloads",), TOO_SHORT)])


def test_a_section_built_alone_names_it_too():
    onprem = check(LINES).scenario.onprem.model_dump(mode="json")
    onprem["pue\u200b"] = onprem.pop("pue")
    assert _refused(lambda: OnPrem(**onprem)) == [(("pue",), f"zero-width space U+200B inside the key: {MODEL_ADVICE}")]


def test_a_scenario_built_in_code_lists_every_problem_in_one_error():
    # three keys with one, at three levels, and a value the model refuses besides: four errors, none "Field required"
    data = check(LINES).scenario.model_dump(mode="json")
    data = _with_key(data, "name", "name\u200b")
    data["onprem"] = _with_key(data["onprem"], "pue", "p\u200bue")
    data["workloads"][0] = _with_key(data["workloads"][0], "name", "name\u200c")
    data["horizon_months"] = 0   # 1 to 120 months
    assert sorted(_refused(lambda: Scenario(**data)), key=str) == sorted([
        (("name",), f"zero-width space U+200B inside the key: {MODEL_ADVICE}"),
        (("horizon_months",), "Input should be greater than or equal to 1"),
        (("onprem", "pue"), f"zero-width space U+200B inside the key: {MODEL_ADVICE}"),
        (("workloads", 0, "name"), f"zero-width non-joiner U+200C inside the key: {MODEL_ADVICE}"),
        (("workloads",), TOO_SHORT),
    ], key=str)


def test_a_scenario_built_in_code_reads_the_key_as_it_shows_beside_it():
    # horizon_months given as it shows too: that one is read, and the other is the one problem
    data = check(LINES).scenario.model_dump(mode="json")
    data["horizon_months\u200b"] = 0
    assert _refused(lambda: Scenario(**data)) == [(("horizon_months",),
                                                   f"zero-width space U+200B inside the key: {MODEL_ADVICE}")]


def test_a_dict_key_with_one_inside_a_key_with_one_is_named_too():
    # the section's key and a key inside it: each named, the inner one at the field it shows (was "unknown key 'pue\u200d'")
    data = check(LINES).scenario.model_dump(mode="json")
    data = _with_key(data, "onprem", "onprem\u200b")
    data["onprem\u200b"] = _with_key(data["onprem\u200b"], "pue", "pue\u200d")
    with pytest.raises(ScenarioError) as info:
        load_scenario(data)
    assert info.value.problems == [f"<dict>: onprem: zero-width space U+200B inside the key: {MODEL_ADVICE}",
                                   f"<dict>: onprem.pue: zero-width joiner U+200D inside the key: {MODEL_ADVICE}"]
