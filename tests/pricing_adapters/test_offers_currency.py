"""An offers CSV's currency is an ISO 4217 code as written: an empty or lower-case one was read as given and
then asked for a rate under a key no `fx` names ("add fx: {: <USD per 1 >}")."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app
from pricing_adapters.schema import OffersSchemaError
from pricing_adapters.snapshot import read_offers_csv

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


ROW = "row 1 (offer aws:us-east-1:g5.xlarge:on_demand): "   # the example's one data row


@pytest.mark.parametrize("written, said", [
    ("", ROW + "empty 'currency'"),
    ("eur", ROW + "currency 'eur': expected an ISO 4217 code of three capital letters (did you mean 'EUR'?)"),
    (" USD", ROW + "currency ' USD': expected an ISO 4217 code of three capital letters (did you mean 'USD'?)"),
    ("US$", ROW + "currency 'US$': expected an ISO 4217 code of three capital letters, e.g. USD"),
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
