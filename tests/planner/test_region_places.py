"""A region no offer has is placed at its list item, as the scenario's other problems are (FILE:LINE:COL):
`validate` said `FILE: prices.regions: no offers in 'us-east1' …` with no line. The check is made against the
prices, after loading (catalog.check_regions), so its error carries the field (PricesRefuteScenario.field) and
the CLI finds its place in the file (scenario.loading.field_places)."""

from __future__ import annotations

import pickle

from planner.errors import PricesRefuteScenario
from planner.scenario.loading import field_places
from tests.planner.cli_run import run

BLOCK_LIST = """\
name: reg
prices:
  providers: [aws]
  regions:
    - us-east-1
    - us-eats-1
workloads:
  - {name: w, gpu_hours_per_month: 100, reference_gpu: T4}
"""
TWO_TYPOS = """\
name: date ok
horizon_months: 12
prices:
  regions: [us-east1, west-europe]
workloads:
  - {name: w, gpu_hours_per_month: 100, reference_gpu: T4}
"""


def said(result) -> str:
    return " ".join(result.stderr.split())


def test_validate_places_a_region_of_a_block_list_at_its_item(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(BLOCK_LIST)
    result = run("validate", path)
    # the second item: line 6, after "    - " (6 characters)
    assert result.exit_code == 2
    assert (f"error: {path}:6:7: prices.regions: no offers in 'us-eats-1' (did you mean 'us-east-1'?) in the "
            "snapshot prices") in said(result), result.stderr


def test_two_regions_no_offer_has_are_one_error_at_the_first(tmp_path):
    # the audit's m08.yaml: line 4, after "  regions: [" (12 characters)
    path = tmp_path / "m08.yaml"
    path.write_text(TWO_TYPOS)
    result = run("validate", path)
    assert result.exit_code == 2
    assert (f"error: {path}:4:13: prices.regions: no offers in 'us-east1' (did you mean 'us-east-1'?), "
            "'west-europe' (did you mean 'westeurope'?) in the snapshot prices") in said(result), result.stderr


def test_the_error_carries_the_field_also_through_a_pickle():
    exc = PricesRefuteScenario("prices.regions: no offers in 'x'", ("prices", "regions", 1))
    again = pickle.loads(pickle.dumps(exc))
    assert (str(again), again.field) == ("prices.regions: no offers in 'x'", ("prices", "regions", 1))
    assert PricesRefuteScenario("fx: …").field is None


def test_field_places_gives_the_file_alone_where_it_cannot_place_the_field(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(BLOCK_LIST)
    assert field_places(path, [("prices", "regions", 1), ("prices", "regions", 0), ("onprem", "pue"), (), None]) == [
        f"{path}:6:7", f"{path}:5:7", str(path), str(path), str(path)]   # pue not in the file: a default; () no field
    assert field_places(tmp_path / "gone.yaml", [("prices", "regions", 0)]) == [str(tmp_path / "gone.yaml")]
    assert field_places(path, []) == []
