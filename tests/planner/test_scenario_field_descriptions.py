"""Every scenario field says what it means: the workbook's assumptions sheet gives each row the scenario schema's
description (docs/workbook.md), and horizon_months, name, description and card_overrides.*.cards_per_server /
source had none, so their "meaning" was empty (an audit, 2026-12-06). The committed JSON schema carries them."""

from __future__ import annotations

import io
import json
import typing
from pathlib import Path

from openpyxl import load_workbook
from pydantic import BaseModel

from planner import load_scenario, plan
from planner.reports import plan_to_excel
from planner.scenario import Scenario, scenario_json_schema

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"


def models_in(annotation) -> list[type[BaseModel]]:
    """The pydantic models a field's annotation holds (in a tuple, a dict's values, an optional …)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in typing.get_args(annotation) for m in models_in(arg)]


def fields_without_description() -> list[str]:
    seen: set = set()
    missing: list[str] = []

    def walk(model: type[BaseModel]) -> None:
        if model in seen:
            return
        seen.add(model)
        for name, info in model.model_fields.items():
            if not (info.description or "").strip():
                missing.append(f"{model.__name__}.{name}")
            for inner in models_in(info.annotation):
                walk(inner)

    walk(Scenario)
    return missing


def test_every_field_of_every_scenario_model_has_a_description():
    assert fields_without_description() == []


def test_the_committed_schema_is_the_models_with_their_descriptions():
    committed = json.loads((ROOT / "schema" / "scenario.schema.json").read_text(encoding="utf-8"))
    assert committed == scenario_json_schema()
    assert committed["properties"]["horizon_months"]["description"] == (
        "the planning horizon, months of 730 h: costs are counted over them")


def test_every_row_of_the_workbooks_assumptions_sheet_has_a_meaning():
    doc = {**load_scenario(WORKED).model_dump(mode="json", exclude_unset=True), "description": "a quote and a cloud"}
    doc["prices"]["source"] = str(WORKED.parent / "offers-g5-us-east-1.csv")
    doc["onprem"]["card_overrides"]["rtx-a5000"].update(cards_per_server=4, source="vendor quote 2026-11")
    p = plan(load_scenario(doc), baselines=False)
    sheet = load_workbook(io.BytesIO(plan_to_excel(p, start="2027-01")))["assumptions"]
    rows = [dict(zip(("path", "value", "meaning", "section"), r)) for r in sheet.iter_rows(min_row=2, values_only=True)]
    assert [r["path"] for r in rows if not r["meaning"]] == []
    meaning = {r["path"]: r["meaning"] for r in rows}
    assert meaning["name"] == "label of the scenario and of its plan in every report"
    assert meaning["description"] == "free text on the scenario, shown with its plan"
    assert meaning["onprem.card_overrides.rtx-a5000.cards_per_server"] == (
        "cards in one server: a job's gpus_per_job GPUs must fit in one")
    assert meaning["onprem.card_overrides.rtx-a5000.source"] == (
        "where the quote came from (free text, shown with the plan's prices)")
