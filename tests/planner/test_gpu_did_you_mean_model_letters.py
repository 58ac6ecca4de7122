"""A GPU's "did you mean" offers only the same model (docs/scenario-format.md): `reference_gpu: L40` got "did you mean
'L40S'?", another card (the L40S is a later, faster Ada card than the L40, the same 48 GB) — accepted, a plan runs on
the wrong card's speeds and prices. The number alone also offered V100 for H100 and B300 for MI300, and a digit added
L4 for L40. A GPU the catalog lacks is pointed to the catalog and gpu_specs instead."""

from __future__ import annotations

import pytest
from test_scenario_limits import problems_of

from planner.catalog import suggest_gpu


@pytest.mark.parametrize(("typed", "first"), [
    ("L40", None),             # not the L40S (a letter on the number: another model), nor the L4 (a digit added)
    ("NVIDIA L40", None),
    ("MI300", None),           # not the MI300X, nor the B300 (another series)
    ("H100", "H100-SXM"),      # the H100 family's first, never the V100
    ("H100-SXMM", "H100-SXM"),  # a form factor mistyped after the number: the same model
    ("RTX 40990", "RTX-4090"),  # a digit doubled
    ("L40S", "L40S"),
])
def test_letters_on_the_number_make_another_model(typed, first):
    assert (suggest_gpu(typed, same_model=True) or [None])[0] == first


def test_h100_is_never_offered_the_v100():
    assert "V100-16GB-SXM2" not in suggest_gpu("H100", same_model=True)


def test_reference_gpu_l40_gets_no_l40s():
    problems = problems_of("name: t\nworkloads:\n  - {name: a, gpu_hours_per_month: 100, reference_gpu: L40}\n")
    assert len(problems) == 1 and "unknown GPU 'L40'" in problems[0] and "did you mean" not in problems[0], problems
