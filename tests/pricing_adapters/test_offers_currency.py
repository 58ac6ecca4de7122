"""An offers CSV's currency is an ISO 4217 code as written: an empty or lower-case one was read as given and
then asked for a rate under a key no `fx` names ("add fx: {: <USD per 1 >}")."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from planner.cli import app
from pricing_adapters.schema import OffersSchemaError
from pricing_adapters.snapshot import read_offers_csv

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


ROW = "line 2 (offer aws:us-east-1:g5.xlarge:on_demand): "   # the example's one data row, under its header


@pytest.mark.parametrize("written, said", [
    ("", ROW + "empty 'currency'"),
    ("eur", ROW + "currency 'eur': expected an ISO 4217 code of three capital letters (did you mean 'EUR'?)"),
    (" USD", ROW + "currency ' USD': expected an ISO 4217 code of three capital letters (did you mean 'USD'?)"),
    ("US$", ROW + "currency 'US$': expected an ISO 4217 code of three capital letters, e.g. USD"),
    # three capital letters are not enough: the withdrawn BGN and a typo EUE were asked an fx rate the scenario refuses
    ("BGN", ROW + "currency 'BGN': expected a code of ISO 4217 list one (BGN, the Bulgarian Lev, was withdrawn in "
                  "January 2026: did you mean 'EUR', the code in use there now?)"),
    ("EUE", ROW + "currency 'EUE': expected a code of ISO 4217 list one (did you mean 'EUR'?)"),
    ("eue", ROW + "currency 'eue': expected an ISO 4217 code of three capital letters (did you mean 'EUR'?)"),
    ("XYZ", ROW + "currency 'XYZ': expected a code of ISO 4217 list one, e.g. USD"),
])
def test_a_currency_that_is_no_iso_code_is_refused_naming_it(tmp_path, written, said):
    text = (EXAMPLES / "offers-g5-us-east-1.csv").read_text()
    assert text.count(",USD,") == 1
    csv = tmp_path / "offers.csv"
    csv.write_text(text.replace(",USD,", f",{written},"))
    with pytest.raises(OffersSchemaError) as info:
        read_offers_csv(str(csv), origin=str(csv))
    assert said in str(info.value)

    scenario = (EXAMPLES / "worked-example.yaml").read_text().replace("source: offers-g5-us-east-1.csv",
                                                                        f"source: {csv}")
    (tmp_path / "s.yaml").write_text(scenario)
    result = CliRunner().invoke(app, ["plan", str(tmp_path / "s.yaml"), "--no-decisions"])
    assert result.exit_code == 2 and said in result.stderr and "Traceback" not in result.output, result.output


def test_the_examples_currency_loads():
    assert read_offers_csv(str(EXAMPLES / "offers-g5-us-east-1.csv"))["currency"].tolist() == ["USD"]


def test_a_withdrawn_currency_is_refused_at_its_cell_not_sent_to_fx(tmp_path):
    # before: "priced in BGN, which fx has no rate for; add fx: {BGN: <USD per 1 BGN>}", and with that fx entry
    # "fx.BGN: expected an ISO 4217 currency code …; did you mean 'BND'?": a circle the user could not leave
    csv = tmp_path / "offers.csv"
    csv.write_text((EXAMPLES / "offers-g5-us-east-1.csv").read_text().replace(",USD,", ",BGN,"))
    scenario = (EXAMPLES / "worked-example.yaml").read_text().replace("source: offers-g5-us-east-1.csv",
                                                                        f"source: {csv}")
    for fx in ("", "fx: {BGN: 0.55}\n"):
        (tmp_path / "s.yaml").write_text(scenario.replace("discount_rate: 0.0\n", "discount_rate: 0.0\n" + fx))
        result = CliRunner().invoke(app, ["plan", str(tmp_path / "s.yaml"), "--no-decisions"])
        said = " ".join(result.stderr.split())
        assert result.exit_code == 2 and "Traceback" not in result.output, result.output
        assert "add fx" not in said and "BND" not in said, said
        assert "was withdrawn in January 2026: did you mean 'EUR', the code in use there now?" in said, said
    # the scenario's fx.BGN is refused with the same words
    assert "fx.BGN: expected an ISO 4217 currency code" in said


def test_a_store_skips_a_row_in_a_withdrawn_currency_saying_why():
    from pricing_adapters.schema import row_problems, validate_offers

    rows = read_offers_csv(str(EXAMPLES / "offers-g5-us-east-1.csv"))
    table = pd.concat([rows, rows.assign(offer_id="b", currency="HRK"), rows.assign(offer_id="c", currency="usd")],
                      ignore_index=True)
    assert row_problems(validate_offers(table, check=False)).tolist() == [
        "", "currency not a code of ISO 4217 list one", "currency not an ISO 4217 code of three capital letters"]
