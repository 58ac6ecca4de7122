"""The Plan: the recommended fleet and what it costs, as DataFrames with the units of quantities in their column
names (`energy_kwh`, `instance_hours`); the currency and basis of money are in each table's `attrs`.

A Plan carries everything its reports need — the scenario it was solved for, the offers and prices it
used (`offers`), and every cash flow (`flows`) — so no report reads a price source or the catalog again.
Each table with money says its currency and basis in `DataFrame.attrs` (`MONEY_COLUMNS`).

A Plan keeps its tables to itself (`TABLES`): `plan.costs` is a copy, so a notebook that edits it (a column
converted for a slide, a row set to 0) changes none of the plan's exports, its `cost()` nor its `total`, as a
frozen scenario cannot be changed in place. The reports read the tables as the plan holds them (`held`). Its dicts
and lists (`CONTAINERS`: warnings, solver, prices, runner_up …) are given out as copies too: `p.warnings.append(…)`
or `p.prices["as_of"] = …` changes the copy only, and the engine sets a changed one whole
(`result.warnings = [*result.warnings, note]`); one it has just built for the plan alone it sets as it is, without
the copy (`_fresh_plan`, `_set_fresh`). A plan read back from its JSON (reports.compare.SavedPlan), a sweep point's
summary (engine.run.PlanSummary) and a comparison keep theirs the same way (`keep_to_itself`).
"""

from __future__ import annotations

import difflib
import functools
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path

import pandas as pd

from planner.engine.schedule import COST_CATEGORIES
from planner.errors import PlannerError

PRESENT, NOMINAL = "present value", "nominal"
# The money columns of each table of a Plan and their basis: PRESENT, discounted to month 1 at the scenario's
# discount_rate (docs/cost-model.md §10), or NOMINAL, as paid in its month (monthly and schedule, a price, a rate).
# The column names do not say it — `cost` is a present value in costs and fleet but nominal in flows — and renaming
# them would break every notebook and report that reads them, so the Plan writes it onto each table's `attrs`:
# currency, money_basis (the words of the CSV exports' money_basis column) and money_columns (column → basis).
MONEY_COLUMNS: dict[str, dict[str, str]] = {
    "costs": {"cost": PRESENT},
    "fleet": {"cost": PRESENT},
    "monthly": {**dict.fromkeys([*COST_CATEGORIES, "total"], NOMINAL), "total_discounted": PRESENT},
    "schedule": {"amount": NOMINAL},
    "owned": {"fixed_costs_avoided": PRESENT, "end_value": PRESENT},
    "baselines": {"total": PRESENT, "savings": PRESENT, "error_bound": PRESENT},
    "break_even": {"cloud_cost_per_reference_hour": NOMINAL, "card_fixed_cost_per_month": NOMINAL},
    "flows": {"cost": NOMINAL, "present_value": PRESENT},
    "offers": dict.fromkeys(["hourly_price", "upfront_price", "capex_per_unit", "list_hourly_price"], NOMINAL),
    "decisions": {"total_if_forbidden": PRESENT, "increase": PRESENT},
    "cap_costs": {"total_without": PRESENT, "saving": PRESENT},
}
# what labels the tables: a change of either relabels every table
LABEL_FIELDS = ("currency", "scenario")
# pandas 3 copies on write: a shallow copy shares the data until either side writes, and takes a copy of attrs
# (pandas 2 shares the data of a shallow copy both ways, so it gets a deep copy)
COPY_ON_WRITE = int(pd.__version__.split(".")[0]) >= 3


def present_value_words(discount_rate: float | None) -> str:
    """"present value at 8%/year", "present value at 0%/year, undiscounted", or "present value" where the rate is
    not known (a plan without its scenario): the words of reports.tables.present_value_basis. No parentheses of its
    own: labels put the words in theirs ("Baselines (USD, present value at 0%/year, undiscounted)")."""
    if discount_rate is None:
        return PRESENT
    return f"{PRESENT} at {discount_rate * 100:g}%/year" + (", undiscounted" if discount_rate == 0 else "")


def money_attrs(columns: dict[str, str], currency: str, discount_rate: float | None) -> dict:
    """The `attrs` of a table whose money columns are `columns` (column → PRESENT or NOMINAL): currency,
    money_basis (one basis, or the first column's and then the others', "nominal; total_discounted: present value at
    5%/year") and money_columns (column → its basis in words)."""
    words = {PRESENT: present_value_words(discount_rate), NOMINAL: NOMINAL}
    by_basis: dict[str, list[str]] = {}
    for column, basis in columns.items():
        by_basis.setdefault(words[basis], []).append(column)
    main, *others = by_basis
    basis = "; ".join([main, *(f"{', '.join(by_basis[b])}: {b}" for b in others)])
    return {"currency": currency, "money_basis": basis, "money_columns": {c: words[b] for c, b in columns.items()}}


def detached(table):
    """A copy of DataFrame `table` that no change of its own reaches, nor one of `table`'s (anything else as it is):
    under pandas' copy on write a shallow copy, which copies the data it changes only (0.03 ms against 0.1 to
    0.3 ms for a deep copy of a plan's table)."""
    return table.copy(deep=not COPY_ON_WRITE) if isinstance(table, pd.DataFrame) else table


def copied(value):
    """`value` with every dict, list, set and tuple in it copied, and every DataFrame `detached`: a change of the
    copy reaches nothing of `value`, nor the other way round. Anything else as it is: numbers and text cannot change,
    and a Plan (a baseline's) keeps its own to itself."""
    try:
        return _copied(value)
    except RecursionError:   # nested deeper than Python recurses: a saved plan's JSON may hold a dict 500 deep
        return _copied_in_a_loop(value)


def _copied(value):
    if isinstance(value, pd.DataFrame):
        return detached(value)
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    if isinstance(value, (list, set)):
        return type(value)(_copied(v) for v in value)
    if isinstance(value, tuple):   # a named tuple takes its fields one by one
        items = [_copied(v) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
    return value


def _copied_in_a_loop(value):
    """`copied` without recursion, however deep `value` is nested (a cycle of dicts or lists too: a dict or list
    met twice is copied once, and the copy holds it twice)."""
    out: list = [None]
    todo = [(value, functools.partial(out.__setitem__, 0))]   # (what to copy, where its copy goes)
    made: dict[int, object] = {}       # id of a dict or list → its copy
    built = []                         # (a set or tuple, its copied items, where it goes): made once they are filled
    while todo:
        item, put = todo.pop()
        if isinstance(item, (dict, list)) and id(item) in made:
            put(made[id(item)])
        elif isinstance(item, pd.DataFrame):
            put(detached(item))
        elif isinstance(item, dict):
            made[id(item)] = new = dict.fromkeys(item)   # its keys in order, each value filled in below
            put(new)
            todo += [(v, functools.partial(new.__setitem__, k)) for k, v in item.items()]
        elif isinstance(item, (list, set, tuple)):
            items = [None] * len(item)
            if type(item) is list:
                made[id(item)] = items
                put(items)
            else:
                built.append((item, items, put))
            todo += [(v, functools.partial(items.__setitem__, i)) for i, v in enumerate(item)]
        else:
            put(item)
    for item, items, put in reversed(built):   # the innermost first: each fills the items of the one around it
        if isinstance(item, tuple) and hasattr(item, "_fields"):
            put(type(item)(*items))
        else:
            put(type(item)(items))
    return out[0]


class PlannerKeyError(PlannerError, KeyError):
    """A lookup of a Plan that finds nothing, said in words: a KeyError too, as the table lookup it replaces raised."""

    def __str__(self) -> str:   # KeyError's would show the message quoted
        return str(self.args[0])


class UnknownCostCategory(PlannerKeyError):
    """`Plan.cost` of a category that is not one."""


class BaselinesNotComputed(PlannerKeyError):
    """A column of the baselines table of a plan made without them (NoBaselines)."""


class NoBaselines(pd.DataFrame):
    """The baselines table of a plan made without them (`plan(..., baselines=False)`): a DataFrame with no rows nor
    columns, as reports, exports and `len()` read it, whose columns say why there are none: `p.baselines["total"]`
    is a BaselinesNotComputed naming the calls that compute them, not a bare KeyError: 'total'."""

    @property
    def _constructor(self):   # a copy (the Plan gives out copies) is one too
        return NoBaselines

    def __getitem__(self, key):
        try:
            return super().__getitem__(key)
        except KeyError:
            if len(self.columns):   # a table made from it with columns of its own: a missing one as in any table
                raise
            raise BaselinesNotComputed(f"Plan.baselines[{key!r}]: the baselines are not computed (a plan made with "
                                       "baselines=False): add them with add_baselines(plan), or plan with "
                                       "plan(..., baselines=True)") from None


@dataclass
class Plan:
    """Money in `currency`; totals are present values. Each table with money carries its currency and basis in
    `attrs` (MONEY_COLUMNS), set whenever the table, the currency or the scenario is set."""

    scenario_name: str
    currency: str
    horizon_months: int
    status: str
    total: float
    costs: pd.DataFrame          # category, cost (present value; credits negative; sums to total)
    fleet: pd.DataFrame          # one row per unit bought, owned, reserved or rented (see read_plan)
    monthly: pd.DataFrame        # one row per month 1..H+1 (H+1: residual credit, payments after the horizon)
    utilisation: pd.DataFrame    # owned cards: units, busy_hours, owned_hours, utilisation, energy_kwh
    break_even: pd.DataFrame     # card × workload: utilisation at which owning beats the cheapest cloud
    exclusions: pd.DataFrame     # workload, provider, gpu, reason, offers (count)
    solver: dict
    prices: dict                 # source, as_of (newest), as_of_oldest, store snapshots, warning
    flows: pd.DataFrame          # every cash flow: unit, category, month, cost, present_value, pricing_quantity …
    offers: pd.DataFrame         # the units of the fleet with the prices used (scenario currency), as_of, source
    schedule: pd.DataFrame = field(default_factory=pd.DataFrame)   # month, card, action (buy|sell|switch off|retire|end value) …
    installed: pd.DataFrame = field(default_factory=pd.DataFrame)  # month, card, gpu, units in service
    owned: pd.DataFrame = field(default_factory=pd.DataFrame)      # owned batches: kept, switched off, sold, saving
    # workload × GPU a unit of the plan's fleet or of a baseline's can serve: speed, source, used_by (plan, all_cloud …)
    speeds: pd.DataFrame = field(default_factory=pd.DataFrame)
    warnings: list = field(default_factory=list)                   # what the plan rests on that needs a look
    scenario: object = None      # the Scenario solved
    baselines: pd.DataFrame = field(default_factory=NoBaselines)   # NoBaselines until they are solved
    baseline_plans: dict = field(default_factory=dict)
    # weekly hours grouped into load-duration blocks (engine.profile_slots): slots, weight_classes,
    # lower_bound, upper_bound (= total), error_bound (total − exact optimum is at most this),
    # error_bound_pct; None when the plan's periods are exact
    profile_grouping: dict | None = None
    # serving workloads (workloads[].serving): whole instances or cards per hour-of-week slot class — the columns of
    # engine.readback.SERVING_COLUMNS (hours_of_week: the slot's weekly hours in words); empty without serving work
    serving: pd.DataFrame = field(default_factory=pd.DataFrame)
    # card, workload, busy_hours: hours each card type works for each workload over the horizon, in the
    # plan's dispatch (rows with hours only)
    busy_by_workload: pd.DataFrame = field(default_factory=pd.DataFrame)
    # what each decision is worth (engine.decisions, set by add_decisions): one row per purchase, reservation
    # and sale with the cost increase when it is forbidden; the runner-up (the best plan with a different
    # fleet: fleet, total, increase, increase_pct); close_call when the runner-up is within close_call_share;
    # flip_points: per card bought, the demand of the workload it mainly serves just below which not buying wins
    decisions: pd.DataFrame | None = None
    runner_up: dict | None = None
    close_call: bool | None = None
    flip_points: pd.DataFrame | None = None
    # what each limit the scenario sets costs the plan (engine.decisions' cap costs, set by add_decisions):
    # cap (the scenario field), limit, unit, the total without it, the saving, and whether it binds
    cap_costs: pd.DataFrame | None = None
    # each scenario field naming a file (prices.source, workloads.NAME.profile) → the first 12 hex digits of the
    # sha256 of the content the plan read from it (Inputs.input_sha256): its JSON's input_files, never a later read
    input_sha256: dict = field(default_factory=dict)
    # the scenario file planned (absolute; set by plan() from the scenario as loaded, scenario.loading.loaded_from,
    # and by the CLI) and the folder its file names its files against (absolute, resolved; set by plan() from the
    # scenario as loaded, scenario.loading.file_folder): reports name those files as the file wrote them, relative to
    # it (reports.tables.as_written); None: as the scenario holds them (a plan of YAML text or a dict)
    scenario_file: Path | None = None
    scenario_folder: Path | None = None
    # the price store file the plan's prices were read from (set by plan(); None: it read none). A field, not kept
    # aside by the plan's id, so that a copy (dataclasses.replace) or an unpickled plan still refuses to export onto it
    store_file: Path | None = None
    # what plan()'s overrides changed of the scenario given: (path, the value given, the value planned) of each field,
    # scenario.diff_inputs' rows, for the summary's note (reports.markdown.plan_edits); () without overrides, or where
    # they changed no value. The planner's own choice of profile_slots is no override: `scenario` holds it alone
    overrides_changed: tuple = ()

    @property
    def energy_kwh(self) -> float:
        utilisation = held(self, "utilisation")
        return float(utilisation["energy_kwh"].sum()) if len(utilisation) else 0.0

    def __setattr__(self, name: str, value) -> None:
        # a copy: a later edit of the frame, dict or list given changes nothing of the plan (the engine's own values,
        # built for the plan alone, skip it: _set_fresh)
        self._keep(name, copied(value) if name in _PRIVATE else value)

    def _keep(self, name: str, value) -> None:
        """Set field `name` to `value` as it is, not a copy, and label the money of the tables it concerns."""
        if name in _PRIVATE:
            self.__dict__[_PRIVATE[name]] = value
        else:
            object.__setattr__(self, name, value)
        # here, not where each table is made: add_baselines and add_decisions set tables after read_plan
        if name in MONEY_COLUMNS:
            self._label_money(name)
        elif name in LABEL_FIELDS:
            for table in MONEY_COLUMNS:
                self._label_money(table)

    def __setstate__(self, state: dict) -> None:
        """Unpickled: a Plan pickled before it kept its tables (or its dicts and lists) to itself holds them under
        their own names."""
        self.__dict__.update({_PRIVATE.get(k, k): v for k, v in state.items()})

    def _label_money(self, name: str) -> None:
        """Write table `name`'s currency and money basis onto its attrs (not on None, nor on a table without
        its money columns: baselines never solved)."""
        table = self.__dict__.get(_PRIVATE[name])
        if not isinstance(table, pd.DataFrame):
            return
        columns = {c: basis for c, basis in MONEY_COLUMNS[name].items() if c in table.columns}
        if columns:
            rate = getattr(self.__dict__.get("scenario"), "discount_rate", None)
            table.attrs.update(money_attrs(columns, self.__dict__.get("currency"), rate))

    def cost(self, category: str) -> float:
        """The present value of cost category `category` (one of COST_CATEGORIES; credits negative)."""
        costs = held(self, "costs")
        found = costs["category"] == category
        if not found.any():
            known = [str(c) for c in costs["category"]]
            near = difflib.get_close_matches(str(category), known, n=1)
            hint = f"; did you mean '{near[0]}'?" if near else ""
            raise UnknownCostCategory(f"Plan.cost: unknown cost category {category!r}{hint} (categories: "
                                      f"{', '.join(known)})")
        return float(costs.loc[found, "cost"].iloc[0])

    def __repr__(self) -> str:
        """What the plan is, in a line or two, and what is not computed yet and how to get it: the dataclass's repr
        printed every table, and nothing said that `decisions` is None until add_decisions(plan) sets it."""
        d = self.__dict__
        total = d.get("total")
        money = f"{total:,.2f} {d.get('currency')}" if isinstance(total, (int, float)) else repr(total)
        fleet = d.get(_PRIVATE["fleet"])
        units = f"{len(fleet)} fleet rows" if isinstance(fleet, pd.DataFrame) else "no fleet"
        return (f"Plan({d.get('scenario_name')!r}, status {d.get('status')}, total {money} (present value), {units}; "
                f"{'; '.join(not_computed(self)) or 'baselines and decisions computed'})")


# What is not computed until a call sets it, as a plan's repr says it: for a notebook reading `plan.decisions` (None)
# or `plan.baselines` (no columns) of a plan made with baselines=False and no add_decisions
BASELINES_NOT_COMPUTED = "baselines: not computed — plan(..., baselines=True) or add_baselines(plan)"
# the fields add_decisions sets, None until then
DECISION_FIELDS = ("decisions", "runner_up", "close_call", "flip_points", "cap_costs")
DECISIONS_NOT_COMPUTED = (f"decisions: not computed — call add_decisions(plan) (it sets {', '.join(DECISION_FIELDS[:-1])} "
                          f"and {DECISION_FIELDS[-1]}, None until then)")


def not_computed(plan: Plan) -> list[str]:
    """What of `plan` is not computed yet, each as "what: not computed — the call that computes it"."""
    d = plan.__dict__
    baselines = d.get(_PRIVATE["baselines"])
    out = [BASELINES_NOT_COMPUTED] if isinstance(baselines, pd.DataFrame) and "baseline" not in baselines.columns else []
    if d.get(_PRIVATE["decisions"]) is None:
        out.append(DECISIONS_NOT_COMPUTED)
    return out


def annotated(cls, *kinds: str) -> tuple[str, ...]:
    """The fields of dataclass `cls` annotated with one of `kinds` first ("dict", "dict | None"), in their order."""
    return tuple(f.name for f in fields(cls) if str(f.type).split("|")[0].strip().rsplit(".", 1)[-1] in kinds)


# what keep_to_itself keeps: an object's DataFrames, and its dicts and lists
KEPT_KINDS = ("DataFrame", "dict", "list", "set", "tuple")


def keep_to_itself(cls, names: tuple[str, ...], what: str = "plan") -> dict[str, str]:
    """Give dataclass `cls` an attribute per field of `names` that keeps its value under a private name (`_costs`)
    and gives out a copy (`copied`): what a notebook does to the copy never reaches the object's reports. Setting
    the attribute stores a copy (`cls.__setattr__` must send `names` to the private names; a frozen dataclass, which
    can set its fields in `__init__` alone, `dataclasses.replace` included, needs none); returns name → private
    name, which `held` reads too."""
    private = {name: f"_{name}" for name in names}
    frozen = cls.__dataclass_params__.frozen

    def attribute(name: str) -> property:
        def get(self):
            try:
                return copied(self.__dict__[private[name]])
            except KeyError:   # an object pickled before the field existed: as any attribute missing
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}") from None

        def put(self, value) -> None:
            if frozen:   # its __init__ (object.__setattr__); `x.name = …` is refused before it reaches here
                self.__dict__[private[name]] = copied(value)
            else:
                self.__setattr__(name, value)

        return property(get, put, doc=f"A copy of the {what}'s {name}: changing it changes nothing of the {what}.")

    for name in names:
        setattr(cls, name, attribute(name))
    cls._kept_names = {**getattr(cls, "_kept_names", {}), **private}
    return private


# The DataFrames of a Plan, and its dicts and lists (warnings, solver, prices, baseline_plans, profile_grouping,
# runner_up, input_sha256), each kept under a private name (`_costs`) and given out as a copy by the attribute of
# its own name: what a notebook does to the copy never reaches the plan's reports, exports nor a comparison.
TABLES = annotated(Plan, "DataFrame")
CONTAINERS = annotated(Plan, *KEPT_KINDS[1:])
_PRIVATE = keep_to_itself(Plan, TABLES + CONTAINERS)


def _set_fresh(plan: Plan, **values) -> None:
    """Set fields of `plan` to values the engine has just built for it and that nothing else holds (a table read
    back, a list of warnings made anew, `{**plan.solver, …}`): kept as they are, where setting the attribute would
    copy each (`copied`, some 0.1 ms a table under pandas 3: about 3 % of a plan with its baselines). The engine's
    path alone: a value a caller gave, or that anything else (the Inputs) still holds, is set as an attribute."""
    for name, value in values.items():
        plan._keep(name, value)


def _fresh_plan(**values) -> Plan:
    """A Plan of `values`, as `Plan(**values)` but each value kept as it is, not copied (`_set_fresh`): for
    read_plan, whose tables and dicts are made for the plan alone. Each table's money is labelled once, when all are
    set (Plan(…) labels every table again as the currency and the scenario are set)."""
    unknown = [name for name in values if name not in _FIELDS]
    if unknown:
        raise TypeError(f"_fresh_plan: no field {unknown[0]!r} in a Plan")
    plan = Plan.__new__(Plan)
    for f in _FIELDS.values():
        if f.name in values:
            value = values[f.name]
        elif f.default is not MISSING:
            value = f.default
        elif f.default_factory is not MISSING:
            value = f.default_factory()
        else:
            raise TypeError(f"_fresh_plan: missing the field {f.name!r} of a Plan")
        if f.name in _PRIVATE:
            plan.__dict__[_PRIVATE[f.name]] = value
        else:
            plan.__dict__[f.name] = value
    for table in MONEY_COLUMNS:
        plan._label_money(table)
    return plan


_FIELDS = {f.name: f for f in fields(Plan)}


def held(plan, name: str, *default):
    """Table `name` of `plan` (one of TABLES) as the plan holds it, not a copy: for the reports, which read it and
    change nothing of it. Of another object (a plan read back from its JSON for a comparison, a sweep point's
    summary) the same where it keeps that table to itself (keep_to_itself), else its attribute `name`; `default`, as
    getattr's, where it has none."""
    if name not in TABLES:
        raise ValueError(f"held: {name!r} is no table of a Plan (tables: {', '.join(TABLES)})")
    private = getattr(type(plan), "_kept_names", {}).get(name)
    if private is not None and private in plan.__dict__:
        return plan.__dict__[private]
    return getattr(plan, name, *default)
