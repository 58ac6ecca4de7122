"""Serving groups (workloads[].serving_group), four defects a session's audit left open (2026-12-07), each checked
against figures worked out by hand:

- a serving workload without serving_group is a group of its own, also where another workload's serving_group is
  spelled as its name: two models of 20 GB each (1 request/s, 2.5 a 24 GB A10G) rent an A10G each, 2 × 1.00 USD/h ×
  730 h = 1,460 USD; merged into one group they shared one A10G, 730 USD;
- the model-size check counts the integers the groups add (one per group, unit and period where two or more groups
  can use the unit), and --max-purchase-variables bounds them;
- the serving table shows, for a group's share of a unit, the fewest whole shares that hold what it serves, not the
  share it holds where the model leaves that open (the cost is the same either way);
- the serving table's rows come in month order.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from planner import TooManyPurchaseVariables, load_scenario
from planner.cli.plan_views import serving_by_months
from planner.engine import plan
from planner.engine.model import build_model, purchase_variables
from planner.engine.readback import read_plan
from planner.engine.reductions import reduce
from planner.engine.run import check_size, inputs_for
from planner.engine.solve import solve
from tests.planner.test_serving_beside_whole_jobs import HEAD, TRAIN
from tests.planner.test_serving_groups import TWO_OF_FOUR, api, audit_scenario, card_scenario, llm, replicas, two_models
from tests.planner.test_whole_jobs_on_instances import HEADER, NC48

HOURS = 730.0


@pytest.fixture(scope="module")
def offers_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("serving-groups-audit-offers")


# 1. A workload without serving_group never joins a group named as it


def test_a_group_named_after_a_workload_without_one_is_another_group_1460_usd(offers_dir):
    # llama-8b has no serving_group (a group of its own); mistral-7b's serving_group is spelled "llama-8b". Each model
    # needs ceil(1 / 2.5) = 1 A10G of its own: two 1-GPU instances at 1.00 USD/h (a 4-GPU one is 5.00), 1,460 USD
    workloads = [llm("llama-8b"), llm("mistral-7b", serving_group="llama-8b")]
    p = plan(load_scenario(audit_scenario(offers_dir, workloads)), baselines=False)
    assert p.total == pytest.approx(2 * 1.0 * HOURS)
    assert p.fleet[["sku", "units"]].values.tolist() == [["serve.a10g.1x", 2.0]]
    assert p.serving["instances"].tolist() == [1, 1]


def test_two_workloads_that_name_one_group_still_share_it_730_usd(offers_dir):
    # both name "llama-8b" (one of them its own name): one group, one A10G holds 2 requests/s of 2.5
    workloads = [llm("llama-8b", serving_group="llama-8b"), llm("mistral-7b", serving_group="llama-8b")]
    p = plan(load_scenario(audit_scenario(offers_dir, workloads)), baselines=False)
    assert p.total == pytest.approx(1.0 * HOURS)


# 2. The model-size check counts the groups' shares


def test_the_groups_shares_are_counted_as_purchase_variables(offers_dir):
    # two groups that can both use each of 2 offers (A10G 1x and 4x; the A100 offers serve neither) in 1 period:
    # 2 offers × 2 groups × 1 period = 4 shares, and no purchase, owned card or reservation
    inp = reduce(inputs_for(load_scenario(audit_scenario(offers_dir, [llm("llama-8b"), llm("mistral-7b")]))))
    counted = purchase_variables(inp)
    assert (counted.purchases, counted.owned, counted.reservations, counted.serving_shares) == (0, 0, 0, 4)
    assert counted.total == 4
    m = build_model(inp)   # the model makes as many
    assert len(m.group_instances) + len(m.shares) + len(m.job_shares) == 4


def test_three_groups_on_a_card_and_an_offer_over_12_months_add_72_to_4_purchases(offers_dir):
    # card_scenario over 12 months, demand growing 10 % a month (a period a month): groups x, y and c (no
    # serving_group: its own) can all use the RTX 4090 card (one-GPU work) and the on-demand RTX-4090 offer:
    # 2 units × 3 groups × 12 periods = 72 shares, beside the card's 4 purchases (months 1, 4, 7 and 10: the default
    # purchase_every_months, 3)
    s = card_scenario(offers_dir, {"a": 1.5, "b": 0.7, "c": 1.2}, 1000.0, {"a": "x", "b": "y", "c": None})
    s["horizon_months"] = 12
    for w in s["workloads"]:
        w["growth_per_month"] = 0.1
    inp = reduce(inputs_for(load_scenario(s)))
    assert len(inp.periods) == 12
    counted = purchase_variables(inp)
    assert (counted.purchases, counted.serving_shares, counted.total) == (4, 72, 76)
    with pytest.raises(TooManyPurchaseVariables) as raised:
        check_size(inp, None, 75)
    assert raised.value.purchase_variables == 76
    assert "72 serving groups' shares of units (one per group, unit and period)" in str(raised.value)
    assert "one serving_group" in str(raised.value)
    check_size(inp, None, 76)   # within the limit: no error


def test_one_group_adds_no_shares(offers_dir):
    workloads = [llm("short", serving_group="llama-8b"), llm("long", serving_group="llama-8b")]
    inp = reduce(inputs_for(load_scenario(audit_scenario(offers_dir, workloads))))
    assert purchase_variables(inp).serving_shares == 0


# 3. The serving table shows what a group uses, not more than it needs


def solved_with_share_raised(scenario: dict | Path, raise_share) -> tuple:
    """The serving table of `scenario` solved as plan solves it, after `raise_share(model)` raised a group's share
    to another value of the same cost (the model leaves it open); and the model."""
    s = load_scenario(scenario)
    inp = reduce(inputs_for(s))
    m = build_model(inp)
    sol = solve(m)
    raise_share(m)
    return read_plan(inp, m, sol, s).serving, m


def test_a_group_shown_on_the_cards_it_uses_not_the_cards_it_holds(offers_dir):
    # 4 owned RTX 4090s, kept (neither sold nor switched off), two models of 0.5 reference GPUs each: at availability
    # 0.95 each needs ceil(0.5 / 0.95) = 1 card. Model a's share raised to 3 (3 + 1 ≤ 4 cards: the same cost) is
    # shown as 1 card, 0.95 reference GPUs of capacity (not 3 cards, 2.85)
    s = card_scenario(offers_dir, {"a": 0.5, "b": 0.5}, 1000.0, None)
    s["onprem"].update(existing={"rtx-4090": 4}, sell_owned=False, switch_off_owned=False)

    def raise_a(m):
        (share_a,) = [v for (i, g, p), v in m.shares.items() if g == 0]
        assert share_a.varValue == pytest.approx(1.0)
        share_a.varValue = 3.0

    serving, m = solved_with_share_raised(s, raise_a)
    assert len(m.shares) == 2
    assert serving["months"].tolist() == ["1-3", "1-3"]   # flat demand: one period
    rows = {r.workload: r for r in serving.itertuples()}
    assert (rows["a"].instances, rows["b"].instances) == (1, 1)
    assert rows["a"].capacity == pytest.approx(0.95)


def test_a_group_shown_on_the_gpus_it_uses_of_a_shared_4_gpu_instance(offers_dir):
    # one 4-GPU A10G instance (4.00 USD/h) for two models of 0.6 and 1.6 reference A10Gs: ceil(0.6) = 1 GPU and
    # ceil(1.6) = 2 GPUs of its 4. Model a's GPUs raised to 2 (2 + 2 ≤ 4: the same instance) are shown as 1 GPU:
    # a quarter of the instance, 1.0 reference GPUs of capacity (not 2.0)
    s = two_models(offers_dir, TWO_OF_FOUR, ["on_demand"], 1)
    s["workloads"][0]["reference_gpus"] = 0.6

    def raise_a(m):
        (gpus_a,) = [v for (i, g, p), v in m.group_instances.items() if g == 0 and v.varValue]
        assert gpus_a.varValue == pytest.approx(1.0)
        gpus_a.varValue = 2.0

    serving, _ = solved_with_share_raised(s, raise_a)
    rows = {r.workload: r for r in serving.itertuples()}
    assert rows["a"].sku == "serve.a10g.4x" and rows["a"].instances == 1
    assert rows["a"].capacity == pytest.approx(1.0)
    assert rows["b"].capacity == pytest.approx(2.0)


# 4. The serving table in month order


def test_serving_rows_come_in_month_order(offers_dir):
    # one model of 0.8 reference A10Gs growing 15 % a month, on 1-GPU instances at 1.50 USD/h or 4-GPU ones at 4.00:
    # months 1-2 (0.80, 0.92) one 1-GPU instance; months 3-7 (1.06-1.85) two (3.00 < 4.00); months 8-12 (2.13-3.72)
    # one 4-GPU instance (three 1-GPU ones would be 4.50): 730 × (2 × 1.50 + 5 × 3.00 + 5 × 4.00) = 27,740 USD.
    # The 4-GPU offer is the first unit, so its rows came first
    s = two_models(offers_dir, TWO_OF_FOUR, ["on_demand"], 12)
    s["workloads"] = [{**s["workloads"][0], "reference_gpus": 0.8, "growth_per_month": 0.15}]
    assert [0.8 * 1.15 ** n for n in (1, 2, 6, 7, 10, 11)] == pytest.approx([0.92, 1.058, 1.850, 2.128, 3.236, 3.721],
                                                                            abs=1e-3)
    p = plan(load_scenario(s), baselines=False)
    assert p.total == pytest.approx(HOURS * (2 * 1.5 + 5 * 3.0 + 5 * 4.0))
    first = [int(str(months).split("-")[0].split(",")[0]) for months in p.serving["months"]]
    assert first == sorted(first)
    # as `fleetplan plan` shows it: a row a month (the demand differs each month)
    shown = serving_by_months(p.serving)
    assert shown[["in_months", "sku", "instances"]].values.tolist() == (
        [[str(n), "serve.a10g.1x", 1] for n in (1, 2)] + [[str(n), "serve.a10g.1x", 2] for n in range(3, 8)]
        + [[str(n), "serve.a10g.4x", 1] for n in range(8, 13)])


def test_k_gpu_replicas_of_two_groups_count_a_job_share_each(tmp_path):
    # test_serving_groups' two models of 2-GPU replicas (chat, code) and a one-GPU API (x) beside 8-GPU training, on a
    # custom A100 card and a 2 × A100 Azure instance, flat demand over 12 months bought once: 1 period. The card's
    # 2-card job groups are shared by chat and code (2 job shares; x alone uses its one-GPU cards: none); the instance
    # by all three (3): 5 shares, beside 1 purchase
    (tmp_path / "offers.csv").write_text(HEADER + NC48)
    (tmp_path / "s.yaml").write_text(HEAD.format(csv=tmp_path / "offers.csv") + TRAIN + replicas("chat")
                                     + replicas("code") + api("x"))
    inp = reduce(inputs_for(load_scenario(tmp_path / "s.yaml")))
    assert len(inp.periods) == 1
    counted = purchase_variables(inp)
    assert (counted.purchases, counted.serving_shares) == (1, 5)
    m = build_model(inp)
    assert (len(m.job_shares), len(m.shares), len(m.group_instances)) == (2, 0, 3)


def test_a_group_shown_on_the_job_groups_it_uses_not_those_it_holds(tmp_path):
    # two models of 2-GPU replicas (chat, code: 5 requests/s each, 10 a GPU, availability 1): each needs 0.5 cards
    # busy, one 2-card job group. The solved plan buys 4 cards (2 groups); set by hand to 6 cards in 3 groups with
    # chat holding 2 of them (2 + 1 ≤ 3: feasible, if dearer), chat is shown on ceil(0.5 / 2) = 1 group, 2 cards, 20
    # requests/s of capacity (not 4 cards, 40)
    (tmp_path / "offers.csv").write_text(HEADER + NC48)
    (tmp_path / "s.yaml").write_text(HEAD.format(csv=tmp_path / "offers.csv") + replicas("chat") + replicas("code"))

    def six_cards(m):
        (buy,), (jobs,) = m.buy.values(), m.jobs.values()
        chat = next(v for (i, g, p, k), v in m.job_shares.items() if g == 0)
        assert (buy.varValue, jobs.varValue, chat.varValue) == pytest.approx((4, 2, 1))
        buy.varValue, jobs.varValue, chat.varValue = 6, 3, 2

    serving, _ = solved_with_share_raised(tmp_path / "s.yaml", six_cards)
    rows = {r.workload: r for r in serving.itertuples()}
    assert (rows["chat"].kind, rows["chat"].instances, rows["code"].instances) == ("card", 2, 2)
    assert rows["chat"].capacity == pytest.approx(20.0)
