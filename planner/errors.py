"""One exception family; each carries what a user needs to act on it. The CLI maps them to exit codes."""

from __future__ import annotations

# not planner.text: errors and text are independent layers ([tool.importlinter])
from pricing_adapters.shown import counted


class PlannerError(Exception):
    """Base of every error the planner reports to a user (no traceback shown)."""

    exit_code = 2


MAX_PROBLEMS_SHOWN = 100   # of a ScenarioError's problems, in its message


def shown_problems(problems: list[str]) -> list[str]:
    """The first MAX_PROBLEMS_SHOWN of `problems`, then `… and N more` when there are more: what a message
    shows of them (a generated file with 90,000 bad card ids wrote 17.6 MB to the terminal)."""
    shown = list(problems[:MAX_PROBLEMS_SHOWN])
    if len(problems) > MAX_PROBLEMS_SHOWN:
        shown.append(f"… and {len(problems) - MAX_PROBLEMS_SHOWN:,} more")
    return shown


class ScenarioError(PlannerError):
    """A scenario file or override is invalid. `problems` holds one line per problem, all of them."""

    def __init__(self, problems: list[str], origin: str = "scenario"):
        self.problems = list(problems)
        self.origin = origin
        count = len(self.problems)
        head = f"{origin}: {counted(count, 'problem')}"
        # the message shows the first MAX_PROBLEMS_SHOWN (the list `problems` keeps them all)
        super().__init__(head + "\n" + "\n".join(f"  {p}" for p in shown_problems(self.problems)))

    def __reduce__(self):   # pickled as it was made (a sweep's process pool): its args hold only the message
        return type(self), (self.problems, self.origin), self.__dict__


class ModelTooLarge(PlannerError):
    """The model of a scenario would hold more dispatch variables (unit–workload pairs × periods) than the
    caller allows: refused before it is built, as its memory and build time grow with that count."""

    def __init__(self, pairs: int, periods: int, limit: int, remedy: str, where: str = ""):
        self.pairs, self.periods, self.limit, self.remedy, self.where = pairs, periods, limit, remedy, where
        self.dispatch_variables = pairs * periods
        super().__init__(f"{where}too large to plan here: {self.dispatch_variables:,} dispatch variables ({pairs:,} "
                         f"unit–workload pairs × {periods:,} periods; at most {limit:,}): {remedy}")

    def __reduce__(self):   # pickled as it was made (a plan in a process pool): its args hold only the message
        return type(self), (self.pairs, self.periods, self.limit, self.remedy, self.where)

    def naming(self, where: str) -> ModelTooLarge:
        """The same refusal, its message led by `where` (compare names the side)."""
        return type(self)(*self.__reduce__()[1][:-1], where)


class TooManyPurchaseVariables(ModelTooLarge):
    """The model of a scenario would hold more integer purchase variables (one per card and purchase month,
    per owned batch's choice, per reservation offer, per serving group's share of a unit in a period) than the
    caller allows: refused before it is built, as branch and bound's time and memory grow steeply with them
    (engine.model.PurchaseVariables). A ModelTooLarge, caught where that is, without its dispatch counts (None)."""

    def __init__(self, purchases: tuple[int, ...], limit: int, remedy: str, where: str = ""):
        # (purchases, cards, months, owned, reservations[, serving_shares]): engine.model.PurchaseVariables' fields
        self.purchases, self.limit, self.remedy, self.where = tuple(purchases), limit, remedy, where
        bought, cards, months, owned, reservations, shares = (*self.purchases, 0)[:6]
        self.purchase_variables = bought + owned + reservations + shares
        self.pairs = self.periods = self.dispatch_variables = None
        parts = [f"{bought:,} purchases: {counted(cards, 'card type')} × {counted(months, 'purchase month')}"]
        parts += [f"{owned:,} for owned cards"] if owned else []
        parts += [counted(reservations, 'reservation offer')] if reservations else []
        parts += [f"{shares:,} serving groups' shares of units (one per group, unit and period)"] if shares else []
        self.detail = "; ".join(parts)
        PlannerError.__init__(self, f"{where}too large to plan here: {self.purchase_variables:,} integer purchase "
                                    f"variables ({self.detail}; at most {limit:,}): {remedy}")

    def __reduce__(self):
        return type(self), (self.purchases, self.limit, self.remedy, self.where)


class CatalogError(PlannerError):
    """A packaged or user-supplied catalog (GPUs, cards, frameworks) is malformed or lacks an entry."""


class PriceSourceError(PlannerError):
    """Prices could not be read (missing file, bad snapshot, failed refresh)."""


class PriceStoreLocked(PriceSourceError):
    """The price store is locked by another process (a refresh saving) past the wait: it passes, so try again; a
    plan on the store fails rather than use other prices (pricing_adapters' StoreLocked, as the planner raises it)."""


class PriceStoreUnusable(PriceSourceError):
    """The price store's path holds a file that is no usable store (another application's file, a damaged store of
    ours, a folder, a file that cannot be read, a broken symbolic link): a plan on the store fails rather than use other
    prices, as for a lock, but this does not pass: the file must be moved aside (the link mended) or another store
    given (pricing_adapters' StoreError, as the planner raises it). No file there yet is no error: plans use the
    packaged snapshot and say so."""


class PricesRefuteScenario(PriceSourceError):
    """A scenario field that its prices refute (a region no offer has): a mistake in the scenario file,
    whose name the CLI puts in front of the message. `field`: the path of the value refuted, when one is
    (("prices", "regions", 1)), for the CLI to add its line and column (scenario.loading.text_places)."""

    def __init__(self, message: str, field: tuple | None = None):
        super().__init__(message)
        self.field = field

    def __reduce__(self):   # pickled (a forked child's error) with its field
        return type(self), (str(self), self.field)


class InfeasibleError(PlannerError):
    """No fleet satisfies the scenario; the message says which workload or cap, with the numbers. `warnings`: where
    the prices came from where that is worth saying (engine.run.price_source_warnings: a damaged store, rows of it
    skipped as bad), as a plan says it first among its own; set by plan()."""

    exit_code = 1
    warnings: tuple[str, ...] | list[str] = ()


class SolverError(PlannerError):
    """The solver stopped without an answer (a time limit with no fleet found yet, or a solver failure):
    not a statement that no fleet exists."""

    exit_code = 3


class SolverFailed(SolverError):
    """The solver itself failed (CBC exited with an error, was killed, or wrote no solution): nothing is known of
    the model, which the other solver may well solve. `detail`: what failed, as the solver's interface said it."""

    def __init__(self, solver: str, other: str, detail: str):
        self.solver, self.other, self.detail = solver, other, detail
        # a library caller's argument and the CLI's flag (plan(), sweep(), add_decisions() raise it too)
        super().__init__(f"solver {solver} failed ({detail}); solver={other!r} (--solver {other}) solves the same model")

    def __reduce__(self):   # pickled (a sweep's process pool) as it was made: its args hold only the message
        return type(self), (self.solver, self.other, self.detail)
