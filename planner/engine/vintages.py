"""Card vintages and fleet epochs: when on-prem cards can be bought, how long each stays in service,
and the stretches of months in which the set of cards in service cannot change.

A vintage is one batch of a card: bought at the start of a purchase month (1, 1 + k, 1 + 2k … with
k = onprem.purchase_every_months), or already owned at month 1 at some age. It serves from its first
month until the end of its life (`life_years` × 12 months, counted from its age) or the horizon,
whichever comes first, and leaves service in `leave_month` (H + 1 when it still serves at the end).

The fleet can only change where a vintage is bought or leaves, so the months between two such
boundaries are one epoch: card counts are constant inside it, and the demand periods are split by it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from planner.engine.columns import column_rows
from planner.errors import ScenarioError
from planner.scenario.model import life_months, owned_age_problem
from planner.scenario.size import purchase_months

VINTAGE_COLUMNS = ["unit", "owned", "count", "first_service", "last_service", "leave_month", "age_at_start",
                   "life_months"]


def check_owned_ages(cards: pd.DataFrame, scenario_name: str, custom: frozenset[str] = frozenset()) -> None:
    """An owned card older than its life has no service left: a scenario error, not a silent zero.
    `cards`: the card units (engine.inputs; `sku` is the card id). `custom`: the scenario's custom card ids
    (their life is set in custom_cards, not card_overrides). Loading a scenario file checks the same rule
    (scenario.loading); this catches scenarios changed in memory."""
    problems = []
    for card_id, existing, age_months, life_years in column_rows(cards, "sku", "existing", "age_months",
                                                                 "life_years"):
        problem = owned_age_problem(card_id, age_months, life_years, card_id in custom) if existing > 0 else None
        if problem:
            problems.append(f"onprem.existing.{card_id}.age_months: {problem}")
    if problems:
        raise ScenarioError(problems, scenario_name)


VINTAGE_DTYPES = {"unit": np.int64, "owned": bool, "count": np.int64, "first_service": np.int64,
                  "last_service": np.int64, "leave_month": np.int64, "age_at_start": np.int64,
                  "life_months": np.int64}


def build_vintages(units: pd.DataFrame, horizon_months: int, every_months: int) -> pd.DataFrame:
    """One row per vintage of every card unit (VINTAGE_COLUMNS, indexed 0..V−1): the owned batch (when
    cards are owned) and one purchase batch per purchase month (when the card may be bought)."""
    H = horizon_months
    rows = []
    cards = np.flatnonzero(units["kind"].to_numpy() == "card")
    # column arrays read once: a units.iloc[i] row per card costs more than the loop
    life_years, existing, age_months, buyable, min_units = (
        units[c].to_numpy()[cards] for c in ("life_years", "existing", "age_months", "buyable", "min_units"))
    for k, i in enumerate(cards):
        life = life_months(life_years[k])
        if existing[k] > 0:
            age = int(age_months[k])
            last = min(H, life - age)
            rows.append((i, True, int(existing[k]), 1, last, last + 1, age, life))
        if buyable[k] or min_units[k] > 0:
            for s in purchase_months(H, every_months):
                last = min(H, s + life - 1)
                rows.append((i, False, 0, s, last, last + 1, 0, life))
    columns = zip(*rows) if rows else [()] * len(VINTAGE_COLUMNS)
    return pd.DataFrame({c: np.array(values, dtype=VINTAGE_DTYPES[c]) for c, values in zip(VINTAGE_COLUMNS, columns)})


def epoch_of_month(vintages: pd.DataFrame, horizon_months: int) -> np.ndarray:
    """[H] the epoch (0, 1, …) of each month: a new epoch starts where any vintage starts or leaves."""
    starts = set(vintages["first_service"].tolist()) | set(vintages["leave_month"].tolist()) | {1}
    bounds = np.array(sorted(m for m in starts if 1 <= m <= horizon_months))
    return np.searchsorted(bounds, np.arange(1, horizon_months + 1), side="right") - 1


def in_service(vintages: pd.DataFrame, horizon_months: int) -> np.ndarray:
    """[vintages × H] True in the months each vintage serves."""
    m = np.arange(1, horizon_months + 1)
    return (m >= vintages["first_service"].to_numpy()[:, None]) & (m <= vintages["last_service"].to_numpy()[:, None])
