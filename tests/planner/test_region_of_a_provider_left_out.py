"""A region the scenario lists where only a provider it leaves out has offers (us-east-1, an AWS region, beside
`providers: [azure]`) is warned of at its prices.regions item, naming the region, the provider whose it is and that
prices.providers does not include it: validate passed such a scenario without a word, and the region added no offer.
The regions of each provider are read from the prices the scenario uses (the packaged snapshot, or its offers CSV).
Where no listed region is usable, validate and plan still fail (no offer allowed), now with the warning said too."""

from __future__ import annotations

from planner.scenario.loading import load_scenario_text, plausibility_warnings, regions_of_providers_left_out
from tests.planner.cli_run import run


def text(providers: str, regions: str, source: str = "snapshot") -> str:
    return ("name: t\nhorizon_months: 12\nprices:\n"
            f"  source: {source}\n"
            f"  providers: [{providers}]\n"
            f"  regions: [{regions}]\n"
            "  purchase_options: [on_demand]\n"
            "workloads:\n  - {name: a, reference_gpus: 2, reference_gpu: A100-80GB-SXM}\n")


def warned(region: str, index: int, owner: str, providers: str, prices: str = "snapshot") -> str:
    return (f"prices.regions[{index}]: {region} is a region of {owner} (its offers in the {prices} prices), and "
            f"prices.providers ({providers}) does not include {owner}: the region adds no offer; add {owner} to "
            "prices.providers to plan on it, or remove the region")


def test_us_east_1_beside_azure_only_is_warned_of_as_an_aws_region_and_eastus_is_not():
    scenario = load_scenario_text(text("azure", "eastus, us-east-1"))
    expected = (("prices", "regions", 1), warned("us-east-1", 1, "aws", "azure"))
    assert regions_of_providers_left_out(scenario) == [expected]
    assert expected in plausibility_warnings(scenario)


def test_regions_of_the_providers_allowed_are_not_warned_of():
    assert regions_of_providers_left_out(load_scenario_text(text("aws, azure", "eastus, us-east-1"))) == []
    assert regions_of_providers_left_out(load_scenario_text(text("aws", "us-east-1"))) == []


def test_validate_places_the_warning_at_the_region_and_still_passes(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(text("azure", "eastus, us-east-1"), encoding="utf-8")
    result = run("validate", path)
    assert result.exit_code == 0, result.output
    # line 6 `  regions: [eastus, us-east-1]`: us-east-1 after 20 characters
    assert f"warning: {path}:6:21: {warned('us-east-1', 1, 'aws', 'azure')}" in result.stderr.splitlines()


def test_no_usable_region_still_fails_validate_and_plan_and_says_why(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(text("azure", "us-east-1"), encoding="utf-8")
    said = warned("us-east-1", 0, "aws", "azure")
    checked = run("validate", path)
    assert checked.exit_code != 0
    assert "no offers or cards allowed" in checked.stderr
    assert f"warning: {path}:6:13: {said}" in checked.stderr.splitlines()
    planned = run("plan", path)
    assert planned.exit_code != 0
    assert "no offers or cards allowed" in planned.stderr
    assert said in planned.stderr


def test_the_regions_come_from_the_scenarios_offers_csv(tmp_path):
    # an aws row in a region no packaged snapshot has: only the CSV says lab-east is aws's
    row = ("aws:lab-east:g5.xlarge:on_demand,aws,lab-east,g5.xlarge,on_demand,A10G,True,A10G,1.0,24.0,4.0,16.0,1.006,"
           "0.0,USD,0,,2026-07-20,test,\n")
    header = ("offer_id,provider,region,sku,purchase_option,gpu,gpu_known,accelerator_name,gpu_count,gpu_memory_gb,"
              "vcpus,memory_gb,hourly_price,upfront_price,currency,term_months,zone,as_of,source,note\n")
    (tmp_path / "offers.csv").write_text(header + row, encoding="utf-8")
    path = tmp_path / "s.yaml"
    path.write_text(text("azure", "lab-east", source="offers.csv"), encoding="utf-8")
    result = run("validate", path)
    assert f"warning: {path}:6:13: {warned('lab-east', 0, 'aws', 'azure', prices='offers.csv')}" in result.stderr.splitlines()
