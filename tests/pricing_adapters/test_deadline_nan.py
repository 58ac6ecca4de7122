"""A library caller's deadline that is not a number of seconds ≥ 0: NaN compares false with every time, so
`Deadline(nan)` never passed and a refresh against a hanging API never gave up. The CLI's --deadline takes
1 s to a day (test_attacks); the library refuses NaN and negative values in one line, and keeps inf as "no
limit" (test_attacks: a huge deadline waits for the call)."""

from __future__ import annotations

import math

import pytest

from pricing_adapters import base
from pricing_adapters.azure import AzurePriceSource
from pricing_adapters.errors import DeadlineExceeded, PriceSourceError, SourceConfigError


@pytest.mark.parametrize("seconds", [math.nan, -1.0, -1e-9, -math.inf])
def test_a_deadline_that_is_nan_or_negative_is_refused_in_one_line(seconds):
    with pytest.raises(SourceConfigError, match=r"deadline .*: expected a number of seconds ≥ 0") as caught:
        base.Deadline(seconds)
    assert isinstance(caught.value, PriceSourceError) and "\n" not in str(caught.value)


def test_an_adapter_given_a_nan_deadline_refuses_it_before_any_request():
    with pytest.raises(SourceConfigError, match="deadline nan"):
        AzurePriceSource(deadline=math.nan)


@pytest.mark.parametrize("seconds", [0, 0.0])
def test_a_zero_deadline_has_passed_at_once(seconds):
    # what a budget made from a spent deadline is (azure: Deadline(remaining() * ARM_SHARE))
    deadline = base.Deadline(seconds)
    assert deadline.remaining() == 0.0
    with pytest.raises(DeadlineExceeded, match="after the 0 s deadline"):
        deadline.check("a page")


def test_none_is_the_default_deadline():
    assert base.Deadline(None).seconds == base.DEFAULT_DEADLINE_S == 600.0
