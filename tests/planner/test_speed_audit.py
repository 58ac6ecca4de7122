"""What an audit by an ML engineer checking where each speed comes from found said wrongly."""

import pytest

from planner import ScenarioError, plan
from planner.catalog.frameworks import exclusion_reason
from planner.catalog.gpus import family_members, resolve_gpu

OFFERS = "\n".join([
    "offer_id,provider,region,sku,purchase_option,gpu,gpu_known,accelerator_name,gpu_count,gpu_memory_gb,"
    "vcpus,memory_gb,hourly_price,upfront_price,currency,term_months,zone,as_of,source,note",
    "aws:us-east-1:p3.2xlarge:on_demand,aws,us-east-1,p3.2xlarge,on_demand,V100-16GB-SXM2,True,V100,1,16,"
    "8,61,0.5,0,USD,0,,2026-11-01,audit test,",
    "aws:us-east-1:x1pcie:on_demand,aws,us-east-1,x1pcie,on_demand,A100-80GB-PCIE,True,A100,1,80,12,128,5"
    ".0,0,USD,0,,2026-11-01,audit test,",
]) + "\n"


@pytest.mark.parametrize(("spec", "gpu", "cc", "why"), [
    # the CUDA 12.8 wheels of PyTorch 2.8-2.10 have kernels from sm_70 (pytorch/pytorch#158700), 2.11's from sm_75
    # (pytorch/pytorch#172352); CUDA 12.8 itself reaches back to 5.0, which let a Maxwell M60 (5.2) and a V100 (7.0) in
    ("pytorch==2.8", "M60", 5.2, "pytorch 2.8 (CUDA 12.8) supports compute capability ≥ 7; M60 is 5.2"),
    ("pytorch==2.10", "P100", 6.0, "pytorch 2.10 (CUDA 12.8) supports compute capability ≥ 7; P100 is 6"),
    ("pytorch==2.11", "V100-16GB-SXM2", 7.0,
     "pytorch 2.11 (CUDA 12.8) supports compute capability ≥ 7.5; V100-16GB-SXM2 is 7"),
    ("pytorch==2.10", "V100-16GB-SXM2", 7.0, None),
    ("pytorch==2.11", "T4", 7.5, None),
    ("pytorch==2.7", "M60", 5.2, None),   # CUDA 12.6: Maxwell still in
])
def test_pytorch_cuda_12_8_builds_start_where_their_kernels_do(spec, gpu, cc, why):
    assert exclusion_reason(spec, gpu, cc) == why


def scenario(tmp_path, **workload) -> dict:
    offers = tmp_path / "offers.csv"
    offers.write_text(OFFERS, encoding="utf-8")
    return {"name": "audit", "currency": "USD", "horizon_months": 1, "discount_rate": 0.0,
            "prices": {"source": str(offers), "providers": ["aws"], "purchase_options": ["on_demand"]},
            "onprem": {"cards": []},
            "workloads": [{"name": "w", "gpu_hours_per_month": 100, "reference_gpu": "A100-80GB-PCIE", "profile": "flat",
                           **workload}]}


def test_a_v100_is_left_out_of_a_pytorch_2_11_plan(tmp_path):
    # with the V100 (0.3684 of the A100's speed at 0.5 USD/h: 135.72 USD) left out, 100 h on the A100 at 5 USD/h
    p = plan(scenario(tmp_path, framework="pytorch==2.11"), baselines=False)
    assert p.total == pytest.approx(500.0)
    reasons = p.exclusions.loc[p.exclusions["gpu"] == "V100-16GB-SXM2", "reason"].tolist()
    assert reasons == ["pytorch 2.11 (CUDA 12.8) supports compute capability ≥ 7.5; V100-16GB-SXM2 is 7"]


def test_a_gpu_without_a_compute_capability_is_not_said_to_have_nan(tmp_path):
    s = scenario(tmp_path, min_compute_capability=8.0)
    s["prices"] = {"source": "snapshot", "providers": ["azure"], "purchase_options": ["on_demand"]}
    p = plan(s, baselines=False)
    reasons = set(p.exclusions.loc[p.exclusions["gpu"] == "MI300X", "reason"])
    assert reasons == {"MI300X has no CUDA compute capability; 8 needed"}, reasons


def test_a_measured_gpu_is_not_called_extrapolated_for_its_estimated_reference(tmp_path):
    # the reference H200-SXM is estimated and extrapolated (4,800 GB/s, above the fit's 3,350); the A100 80GB PCIe is
    # measured (1.0, one of the fit's points): the baselines' warning and the break-even note named the A100 as the
    # estimate, outside the fit's range
    s = scenario(tmp_path, gpu_hours_per_month=2000, min_gpu_memory_gb=20, reference_gpu="H200-SXM")
    s.update(horizon_months=12, onprem={"cards": ["rtx-4090"], "pue": 1.0, "availability": 1.0,
                                        "electricity_per_kwh": 0.1})
    p = plan(s)
    [said] = [w for w in p.warnings if w.startswith("w: the baselines' totals may rest on speeds that are estimates")]
    assert ("w could run on A100-80GB-PCIE (all cloud) (A100-80GB-PCIE measured itself: relative to the reference GPU H200-SXM, "
            "whose speed is an estimate); H200-SXM lies outside the range of the measured GPUs the fit was made on") in said
    assert "A100-80GB-PCIE lies outside" not in said
    notes = p.break_even.loc[p.break_even["cloud_offer"] == "aws:us-east-1:x1pcie:on_demand", "note"].tolist()
    assert notes and all(n == "A100-80GB-PCIE's speed here is relative to the reference GPU H200-SXM's, an estimate "
                              "(speeds table)" for n in notes), notes


def test_a_relative_speed_beyond_a_million_times_the_reference_is_refused(tmp_path):
    # each entry lies within 1e-6 … 1e6, but 1e6 ÷ 1e-6 = 1e12 times the reference's speed: one RTX 4090 busy 0.001 h
    # served 1e9 GPU-hours
    s = scenario(tmp_path, gpu_hours_per_month=1e9, throughput={"A100-80GB-PCIE": 1e-6, "RTX-4090": 1e6})
    with pytest.raises(ScenarioError) as info:
        plan(s, baselines=False)
    assert ("workloads[0].throughput: RTX-4090 1e+06 ÷ A100-80GB-PCIE 1e-06 (the reference GPU) is a relative speed of "
            "1e+12; expected 1e-06 to 1e+06 times the reference GPU's") in str(info.value), str(info.value)
    # a million times exactly is taken
    s["workloads"][0]["throughput"] = {"A100-80GB-PCIE": 1e-3, "RTX-4090": 1e3}
    s["workloads"][0]["gpu_hours_per_month"] = 100
    assert plan(s, baselines=False).status == "optimal"


@pytest.mark.parametrize("name", ["H100-80GB", "H100 80GB"])
def test_h100_80gb_names_both_80_gb_boards_not_the_sxm_alone(tmp_path, name):
    # the H100 PCIe is an 80 GB H100 too (Lambda's "H100 80GB PCIe Gen5"): the name gave the SXM's speed, 46 % above
    assert resolve_gpu(name) is None and family_members(name) == ("H100-PCIE", "H100-SXM")
    with pytest.raises(ScenarioError) as info:
        plan(scenario(tmp_path, reference_gpu=name), baselines=False)
    assert f"'{name}' names a family: H100-PCIE and H100-SXM; give one of them" in str(info.value), str(info.value)
    # nvidia-smi's name of the SXM board is still that board
    assert resolve_gpu("NVIDIA H100 80GB HBM3") == "H100-SXM"
