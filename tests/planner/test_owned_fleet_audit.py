"""What an audit by an owner of GPUs (keep, sell, add or move to cloud) found said wrongly."""

import pytest

from planner import ScenarioError, load_scenario, plan

HYBRID = "scenarios/startup-hybrid.yaml"


@pytest.mark.parametrize("gpu", ["A100-80GB-SXM", "A100-40GB-SXM"])
def test_an_owned_gpu_without_a_card_is_not_pointed_to_another_gpus_card(gpu):
    # A100-80GB-SXM is spelt most like a100-80gb-pcie, a card of another GPU (300 W against 400 W, another speed):
    # an owner of an HGX A100 rack was told to count it as PCIe cards
    with pytest.raises(ScenarioError) as info:
        plan(load_scenario(HYBRID), overrides={"onprem.existing": {gpu: 8}})
    text = str(info.value)
    assert f"unknown card '{gpu}': GPU {gpu} has no on-prem card in the catalog; describe yours in onprem.custom_cards" \
        in text, text
    assert "did you mean" not in text, text


def test_a_gpu_with_one_card_is_still_pointed_to_it():
    with pytest.raises(ScenarioError) as info:
        plan(load_scenario(HYBRID), overrides={"onprem.cards": ["H100-SXM"]})
    assert "unknown card 'H100-SXM'; did you mean 'hgx-h100-8gpu'?" in str(info.value)
