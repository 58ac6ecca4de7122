"""A lower-case currency and a repeated offer_id in an offers CSV name their rows, as every other problem of the
file does (docs/offers-contract.md: "Each problem names its row"; by its file line, the header being line 1).
Before, they said only "currency ['usd']: …" and "duplicate offer_id, e.g. [...]", leaving the user to search a
file of thousands of rows. The rows are the example's g5.xlarge row (1.006 USD/h) under other ids."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app
from pricing_adapters.schema import OffersSchemaError
from pricing_adapters.snapshot import read_offers_csv

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def offers_csv(tmp_path: Path, rows: list[tuple[str, str]]) -> Path:
    """The example CSV with its one row written once per (offer_id, currency) of `rows`."""
    header, row = (EXAMPLES / "offers-g5-us-east-1.csv").read_text().splitlines()
    oid = "aws:us-east-1:g5.xlarge:on_demand"
    assert row.startswith(oid + ",") and row.count(",USD,") == 1
    path = tmp_path / "offers.csv"
    path.write_text("\n".join([header, *(row.replace(oid, i, 1).replace(",USD,", f",{c},") for i, c in rows)]) + "\n")
    return path


def refused(path: Path) -> str:
    with pytest.raises(OffersSchemaError) as info:
        read_offers_csv(str(path), origin="offers.csv")
    return str(info.value)


def test_a_lower_case_currency_names_its_row_and_the_code_meant(tmp_path):
    message = refused(offers_csv(tmp_path, [("a", "USD"), ("b", "usd"), ("c", "EUR"), ("d", "eur")]))
    # the file's lines: its header, then one a row (the second row on line 3)
    assert message == ("offers.csv: line 3 (offer b): currency 'usd': expected an ISO 4217 code of three capital "
                       "letters (did you mean 'USD'?); line 5 (offer d): currency 'eur': expected an ISO 4217 code of "
                       "three capital letters (did you mean 'EUR'?)")


def test_a_repeated_offer_id_names_each_repeat_and_the_row_it_repeats(tmp_path):
    message = refused(offers_csv(tmp_path, [("a", "USD"), ("b", "USD"), ("a", "USD"), ("b", "USD"), ("a", "USD")]))
    assert message == ("offers.csv: line 4 (offer a): duplicate offer_id, first at line 2; line 5 (offer b): duplicate "
                       "offer_id, first at line 3; line 6 (offer a): duplicate offer_id, first at line 2")


def test_plan_says_the_rows(tmp_path):
    csv = offers_csv(tmp_path, [("a", "USD"), ("a", "usd")])
    scenario = (EXAMPLES / "worked-example.yaml").read_text().replace("source: offers-g5-us-east-1.csv", f"source: {csv}")
    (tmp_path / "s.yaml").write_text(scenario)
    result = CliRunner().invoke(app, ["plan", str(tmp_path / "s.yaml"), "--no-decisions"])
    said = " ".join(result.stderr.split())
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert ("line 3 (offer a): currency 'usd': expected an ISO 4217 code of three capital letters (did you mean "
            "'USD'?); line 3 (offer a): duplicate offer_id, first at line 2") in said


def test_an_empty_currency_is_named_once_as_empty(tmp_path):
    # before, also "currency ['']: expected an ISO 4217 code …" beside the row's "empty 'currency'"
    assert refused(offers_csv(tmp_path, [("a", "")])) == "offers.csv: line 2 (offer a): empty 'currency'"
