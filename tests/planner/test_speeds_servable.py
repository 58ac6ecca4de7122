"""The plan's speeds table (and its warning on estimated speeds) lists only the (workload, GPU) pairs that a unit
of the fleet can serve. It paired every GPU of the fleet with every workload, so startup-hybrid's plan warned that
"llm-finetune: the speeds of RTX-3060-12GB are estimates" for a 12 GB card that an 80 GB fine-tune cannot use
(and the plan sells), and industrial's named the 40 GB A100 of p4d for its 80 GB pretraining."""

from __future__ import annotations

import pytest

from planner import plan


@pytest.fixture(scope="module")
def startup():
    return plan("scenarios/startup-hybrid.yaml", baselines=False)


def test_startup_hybrid_lists_the_pairs_its_fleet_can_serve(startup):
    # the fleet (README's example table): the two owned RTX 3060s (sold), an RTX 4090, the A100 80 GB and p5
    # on-demand (H100); llm-finetune needs 80 GB (A100 80 GB and H100 have it; 12 and 24 GB cards do not),
    # prototyping 12 GB (all four have it)
    assert set(startup.fleet["gpu"]) == {"RTX-3060-12GB", "RTX-4090", "A100-80GB-PCIE", "H100-SXM"}
    pairs = set(zip(startup.speeds["workload"], startup.speeds["gpu"]))
    assert pairs == {("llm-finetune", "A100-80GB-PCIE"), ("llm-finetune", "H100-SXM"),
                     ("prototyping", "A100-80GB-PCIE"), ("prototyping", "H100-SXM"),
                     ("prototyping", "RTX-3060-12GB"), ("prototyping", "RTX-4090")}


def test_no_warning_names_a_gpu_its_workload_cannot_use(startup):
    finetune = [w for w in startup.warnings if w.startswith("llm-finetune:") and "estimates" in w]
    assert not any("RTX-3060" in w or "RTX-4090" in w for w in finetune), finetune


def test_industrial_pretraining_is_not_paired_with_the_40_gb_a100():
    p = plan("scenarios/industrial.yaml", baselines=False)
    assert "A100-40GB-SXM" in set(p.fleet["gpu"])   # p4d spot, for inference-batch (README's example table)
    pretraining = set(p.speeds.loc[p.speeds["workload"] == "pretraining", "gpu"])
    assert "A100-40GB-SXM" not in pretraining and "A100-80GB-PCIE" in pretraining
    assert not any(w.startswith("pretraining:") and "A100-40GB-SXM" in w for w in p.warnings)
    batch = set(p.speeds.loc[p.speeds["workload"] == "inference-batch", "gpu"])
    assert "A100-40GB-SXM" in batch
