"""extra_constraints that RETURN a constraint (`lambda m: m.card("rtx-4090") <= 0`) instead of adding it to
`m.prob`: build_model threw the return value away, and the plan bought an RTX 4090 the caller had capped at 0,
without a word. A returned pulp constraint, or an iterable of them, is now added; anything else returned but None is
a PlannerError saying what was returned and how to add a constraint.

Facts used: scenarios/startup-hybrid.yaml's plan holds one RTX 4090 (36,499 USD); without that card (the
constraint added the documented way, `constraints.max_units.rtx-4090: 0`, or the card not listed in onprem.cards)
the best plan holds two A100s and keeps the two owned RTX 3060s (40,568.00 USD: 40,571.57 at 0.14 USD/CNY, less the
two cards' 3 %/year maintenance over their 3-year life on a capex 7,900 CNY × (0.14 − 0.13749) = 19.829 USD lower,
2 × 19.829 × 0.09 = 3.57; they retire at book value 0, so no credit changes): one model, or one whose only
difference is a card it may not buy, so the three totals agree to the solver's round-off."""

from pathlib import Path

import pytest

from planner import load_scenario, plan
from planner.errors import PlannerError

ROOT = Path(__file__).resolve().parents[2]
HYBRID = ROOT / "scenarios" / "startup-hybrid.yaml"
NO_4090_TOTAL = 40_568.00   # USD: the plan without an RTX 4090, as the three ways below give it


@pytest.fixture(scope="module")
def hybrid():
    return load_scenario(HYBRID)


def _units(p, sku: str) -> float:
    return float(p.fleet.loc[p.fleet["sku"] == sku, "units"].sum())


@pytest.fixture(scope="module")
def added(hybrid):
    """The plan with the cap added to the model the documented way."""
    return plan(hybrid, baselines=False,
                extra_constraints=lambda m: m.prob.addConstraint(m.card("rtx-4090") <= 0, "no_4090"))


def test_a_returned_constraint_holds_as_one_added_to_the_model(hybrid, added):
    free = plan(hybrid, baselines=False)
    assert _units(free, "rtx-4090") == 1   # the cap must change the plan for the test to tell anything
    returned = plan(hybrid, baselines=False, extra_constraints=lambda m: m.card("rtx-4090") <= 0)
    assert _units(returned, "rtx-4090") == 0 and _units(added, "rtx-4090") == 0
    assert returned.total == pytest.approx(added.total, rel=1e-9)
    assert returned.total == pytest.approx(NO_4090_TOTAL, abs=0.01)
    assert returned.total > free.total


def test_the_capped_plan_costs_what_a_scenario_without_the_card_costs(hybrid, added):
    capped = plan(hybrid, baselines=False, overrides={"constraints.max_units.rtx-4090": 0})
    unlisted = plan(hybrid, baselines=False, overrides={"onprem.cards": ["rtx-3060-12gb", "rtx-a5000", "a100-80gb-pcie"]})
    assert capped.total == pytest.approx(added.total, rel=1e-9)
    assert unlisted.total == pytest.approx(added.total, rel=1e-9)


def test_a_list_or_generator_of_constraints_is_added_and_one_also_added_by_hand_only_once(hybrid, added):
    def both(m):
        mine = m.card("rtx-4090") <= 0
        m.prob += (mine, "mine")   # added by hand and returned: not a second row
        return [mine, m.card("a100-80gb-pcie") <= 5]

    assert plan(hybrid, baselines=False, extra_constraints=both).total == pytest.approx(added.total, rel=1e-9)
    generated = plan(hybrid, baselines=False, extra_constraints=lambda m: (c for c in [m.card("rtx-4090") <= 0]))
    assert generated.total == pytest.approx(added.total, rel=1e-9)


@pytest.mark.parametrize(("returns", "said"), [
    (lambda m: 1, "extra_constraints returned 1 (int); "),
    (lambda m: True, "extra_constraints returned True (bool); "),
    (lambda m: m.card("rtx-4090"), "(LpAffineExpression: an expression, not a constraint (compare it: <=, >= or ==)); "),
    (lambda m: (m.card("rtx-4090") <= 0, "no_4090"), "extra_constraints returned a tuple holding 'no_4090' (str), not "
                                                     "only pulp constraints; "),
    (lambda m: m.prob, "extra_constraints returned the problem 'fleet' (LpProblem); "),
])
def test_anything_else_returned_is_refused_saying_how_to_add_a_constraint(hybrid, returns, said):
    with pytest.raises(PlannerError) as refused:
        plan(hybrid, baselines=False, extra_constraints=returns)
    message = str(refused.value)
    assert said in message
    assert message.endswith("expected None, a pulp constraint or a list of them: add it to model.prob (model.prob += "
                            "(model.card('rtx-4090') <= 2, 'at_most_2_4090')) and return None, or return the "
                            "constraint itself (lambda m: m.card('rtx-4090') <= 2), or a list of them")


def test_a_returned_constraint_named_as_one_in_the_model_is_added_under_a_name_of_its_own(hybrid, added):
    import pulp

    def named_twice(m):
        m.prob += (m.card("a100-80gb-pcie") <= 5, "cap")
        return pulp.LpConstraint(m.card("rtx-4090"), pulp.LpConstraintLE, "cap", 0)   # pulp refused the name again

    assert plan(hybrid, baselines=False, extra_constraints=named_twice).total == pytest.approx(added.total, rel=1e-9)
