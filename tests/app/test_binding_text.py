"""The dashboard's line under "What each limit costs" (fleetplan_dashboard.tables.binding_text), on tables
made here: which limits bind and what each costs, that none binds on its own, or that it is not known. Each limit is
named in words, as the table above names it (it said "onprem\\.capex\\_budget" to a budget holder)."""

from __future__ import annotations

import pandas as pd

from fleetplan_dashboard import tables


def _caps(rows):
    return pd.DataFrame(rows, columns=["cap", "saving", "binds"])


# that each row lifts one limit alone (an audit read "binds: no, saving 0" of a budget as costing nothing, where it
# costs once the power cap is lifted with it), then where to read more in the page's own terms: the baselines table's
# notes, in the box that holds it (not a repository file)
TAIL = (r" Each limit is lifted alone\, the others kept\: limits can bind together\, so lifting several at once can save "
        r"more than the sum of their savings \(a limit that saves nothing alone may save once another is lifted too\)\."
        " A baseline cheaper than the plan is so for the limits it drops, those that bind or several together: its "
        "note in the baselines table (*Cost by category, baselines and solver*) names them.")


def test_the_limits_that_bind_are_named_in_words_with_what_each_costs():
    caps = _caps([("onprem.capex_budget", 1356.26, True), ("onprem.power_cap_kw", 0.0, False),
                  ("constraints.min_units.rtx-4090", 47710.8, True)])
    assert tables.binding_text(caps, "USD") == (
        r"Binds: Capex budget — without it the plan would cost 1,356 USD less; rtx\-4090\: least cards"
        " — without it the plan would cost 47,711 USD less." + TAIL)


def test_none_binding_is_said_and_unknowns_are_named_in_words():
    assert tables.binding_text(_caps([("onprem.power_cap_kw", 0.0, False)]), "EUR") == (
        "No limit binds on its own: without any one of them the plan would cost no less." + TAIL)
    mixed = _caps([("onprem.power_cap_kw", 0.0, False), ("onprem.capex_budget", float("nan"), None)])
    assert tables.binding_text(mixed, "EUR") == "Not known for Capex budget (see its note)." + TAIL
