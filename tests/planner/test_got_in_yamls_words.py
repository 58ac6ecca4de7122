"""What a message says was got is said in YAML's words, not Python's: `name:` left empty said "expected a text, got
None", `name: true` "got True", `.nan` "got nan". YAML has no None or True: an empty value is nothing, true and
false are its yes/no values, and it writes infinity and not-a-number as .inf and .nan."""

from __future__ import annotations

import pytest
from test_scenario_limits import HEAD, WORKLOAD
from test_scenario_limits import problems_of as problems


@pytest.mark.parametrize(("text", "message"), [
    (HEAD.replace("name: t", "name:") + WORKLOAD, "s.yaml:1:6: name: expected a text, got nothing (an empty value)"),
    (HEAD.replace("name: t", "name: false") + WORKLOAD,
     "s.yaml:1:7: name: expected a text, got false (a yes/no value); put it in quotes to make it text"),
    # "  - {name: a, gpu_hours_per_month: 100, reference_gpu: T4, interruptible: " is 73 characters
    (HEAD + WORKLOAD.replace("T4}", "T4, interruptible: }"),
     "s.yaml:5:74: workloads[0].interruptible: expected true or false, got nothing (an empty value)"),
    (HEAD + "onprem: {pue: true}\n" + WORKLOAD, "s.yaml:4:15: onprem.pue: expected a number, got true (a yes/no value)"),
    (HEAD + "discount_rate: .inf\n" + WORKLOAD, "s.yaml:4:16: discount_rate: expected a finite number, got .inf"),
    (HEAD.replace("12", "-.Inf") + WORKLOAD, "s.yaml:2:17: horizon_months: expected a finite number, got -.inf"),
])
def test_what_was_got_is_said_as_yaml_writes_it(text, message):
    assert problems(text) == [message]
