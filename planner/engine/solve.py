"""Solving a built model: HiGHS in this process (the default) or CBC (bundled with pulp, run as a
subprocess), with the status, gap and seconds reported.

HiGHS gets the model as arrays (`_highs_model`, no file and no per-column calls) and, when the model
has the fixed-cost binary `any_onprem`, is run twice — with it fixed at 0 and at 1 — and the better
of the two kept: with the binary fixed the big-M rows that tie it to the card counts vanish, so the
LP bound is tight (industrial.yaml: 0.06 s for both branches against 0.3 s for the MIP as one).
"""

from __future__ import annotations

import contextlib
import math
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from itertools import chain
from operator import attrgetter

import highspy
import numpy as np
import pulp

from planner.engine.model import Model
from planner.errors import PlannerError, SolverFailed
from planner.process import solver_run, stop_requested, stopping_solves
from planner.scratch import scratch_folder

SOLVERS = ("highs", "cbc")
# HiGHS is the default: in-process (no MPS file, no subprocess) and faster than CBC on staged purchases
# (industrial.yaml at 60 months with quarterly purchases: 0.25 s against 1.7 s; with monthly purchases
# 0.34 s, where CBC had not proved the optimum within 60 s; 2026-12-02, benchmarks/plan_speed.py
# --sections periods).
DEFAULT_SOLVER = "highs"
GAP_REL = 1e-9
# HiGHS's reported objective and the objective at the point it returns agree to round-off; further apart than
# this share of the objective, the answer is not trusted (_objective_agrees)
OBJECTIVE_AGREEMENT = 1e-7
# HiGHS's RINS and RENS sub-MIP heuristics cost more than they find on these models (a few dozen to a
# few hundred integers over a large LP): off, startup-hybrid.yaml solves in 0.15 s instead of 0.22 s and
# the 120-month monthly-purchase industrial plan in 3.3 s instead of 3.7 s, with the same optima. So does
# the root reduced-cost heuristic: off, the CPU time of whole plans (baselines included) drops 10-45 %
# on mid-research.yaml and startup-hybrid.yaml, and no scenario tried got slower. Presolve off: over 13
# variants of the shipped scenarios (horizon, purchase period, fixed site cost) the solves' CPU time
# falls from 1.40 s to 0.97 s in all, startup-hybrid.yaml 67 → 26 ms (at 120 months 532 → 116 ms),
# while industrial.yaml rises 82 → 99 ms and two small variants by 20-30 ms; a 200-point sweep of
# startup-hybrid on 2 processes runs at 24.1 plans/s instead of 14.6 (2026-12-01, same optima throughout).
# The feasibility-jump heuristic too: the LP solution rounded is as good a first fleet here, and without it
# the solves' CPU time of whole plans with baselines falls 15-25 % on industrial.yaml (quarterly and monthly
# purchases, 36 and 60 months), 5-8 % on mid-research and entry, unchanged on startup-hybrid at 120 months;
# the root MIP of industrial.yaml's on-prem side 72 → 59 ms (2026-12-01, same optima and baselines throughout).
# (No `threads` here: HiGHS's scheduler belongs to the thread that runs it, set by its first run there, and
# a second non-zero value breaks later solves in that thread; `_first_run` sets it once per thread.)
HIGHS_OPTIONS = {"mip_heuristic_run_rins": False, "mip_heuristic_run_rens": False,
                 "mip_heuristic_run_root_reduced_cost": False, "mip_heuristic_run_feasibility_jump": False,
                 "presolve": "off"}
# Models with whole-job groups (model.define_whole_jobs: an integer count of k-GPU groups per card and
# fleet epoch) are the exception: over long horizons HiGHS spends seconds in root cut rounds and finds good
# fleets late, and its light presolve (presolve_mode 2; on HiGHS versions without the option, full
# presolve) with RINS on cuts that 5-10×. industrial.yaml's solve (both branches of the fixed-cost binary),
# presolve off → these: 120 months 9.9 → 1.8 s quarterly, 28.6 → 3.0 s monthly, 1.26 → 1.05 s yearly; 60 months
# 0.32 → 0.27 s monthly, 0.27 → 0.22 s yearly, but 0.166 → 0.183 s quarterly (its default); 36 months
# 0.19 → 0.38 s monthly, 0.12 → 0.17 s quarterly. Over 36 variants of startup-hybrid and mid-research with
# jobs of 2 or 4 GPUs (36-120 months, purchases every 1, 3, 12 months) 8.09 → 8.11 s in all, the largest
# loss 1.77 → 1.92 s; without whole jobs presolve off stays faster (the shipped scenarios but industrial,
# 27 variants: 2.99 → 3.33 s; startup-hybrid at 120 months, yearly purchases, 0.065 → 0.245 s). Same optima
# throughout (2026-12-02, HiGHS 1.16; `benchmarks/plan_speed.py --sections horizons`).
WHOLE_JOBS_OPTIONS = {"presolve": "on", "presolve_mode": 2, "mip_heuristic_run_rins": True}
# Set by the first HiGHS run of each thread, which starts HiGHS's scheduler for that thread and any worker
# threads it asks for: a forked child would lack those while its copy of the scheduler still counts on them
# (engine.baselines forks only before any run, `_highs_started`). The first run asks for one thread, always:
# these MIPs are solved at or near the root, and a second worker only spins — one thread costs 10 % less CPU
# over a plan with baselines of industrial.yaml (0.82 → 0.73 s, load 5). Threads of one process solve separate
# models side by side (engine.decisions), each with its own scheduler. A plan whose baselines a forked child
# solved, and `fleetplan plan --no-baselines`, once asked for two (the analytic centre HiGHS computes at every
# MIP root beside the root LP: 0.023 s sooner on industrial.yaml, 2026-12-03); but the scheduler keeps its
# threads for every later run of the thread, and on two workers the MIP search of other models went astray: a
# review's hour-by-hour serving model (tests/planner/test_serving_instances_under_cap.py) solved in 2.6 s on one
# thread and had not finished after 300 s on two, its memory growing (2026-12-08, load 4-9) — in a notebook,
# every plan after the first with baselines.
_highs_started = False              # HiGHS has run in some thread of this process
_this_thread = threading.local()    # .started: HiGHS has run in this thread


@contextlib.contextmanager
def progress_reported(report: Callable[[float, float], None]):
    """Within the block, this thread's MIP runs call `report(seconds, gap)` at HiGHS's interrupt checks (many
    times a second in its branch and bound): the seconds since the run began and HiGHS's relative gap of
    the run (inf before it has a fleet). For a front end's progress line (`fleetplan plan` on a terminal);
    the re-solves of other threads never report."""
    before = getattr(_this_thread, "report", None)
    _this_thread.report = report
    try:
        yield
    finally:
        _this_thread.report = before


def _reporting(report: Callable[[float, float], None]) -> Callable:
    """A HiGHS callback that passes the run's seconds and gap to `report`; an error of the display is dropped:
    it must not cross HiGHS's C++ (nor stop the solve)."""
    def on_check(event) -> None:
        try:
            report(float(event.data_out.running_time), float(event.data_out.mip_gap))
        except Exception:   # noqa: BLE001, S110 — a progress line is no reason to lose the plan
            pass
    return on_check


def highs_started() -> bool:
    """Whether HiGHS has run in this process (its scheduler exists)."""
    return _highs_started


def _first_run(h: highspy.Highs) -> None:
    """Run `h`, starting this thread's HiGHS scheduler with one thread. If
    another caller started it with more (this process's code outside the engine), HiGHS refuses another
    thread count: run with the default (0)."""
    global _highs_started
    _highs_started = _this_thread.started = True
    h.setOptionValue("threads", 1)
    if h.run() == highspy.HighsStatus.kError:
        h.setOptionValue("threads", 0)
        h.run()


Start = dict   # pulp variable -> value: a partial MIP start (solve)


class TimeBudget:
    """Seconds for several solves together (None: no limit), counted from the first solve that asks what is left
    (`left`, just before it starts: building the first model is not counted, building later ones is). Each solve
    is given what is left, and a solve given none is not run (solve: `not_solved`, as one the limit stopped
    before its first fleet). `plan(time_limit=60)` gave each of a plan's solves 60 s: a refined profile grouping
    (three plans, two bounds) took 100 s of the dashboard's 60; an infeasible plan's explanation had another 60
    after its solve."""

    clock = staticmethod(time.monotonic)   # seconds; tests set a clock of their own

    def __init__(self, seconds: float | None):
        self.seconds = seconds
        self.began: float | None = None

    @classmethod
    def of(cls, time_limit: float | TimeBudget | None) -> TimeBudget:
        """`time_limit` as a budget: itself when it is one (shared with the solves before), else a new one."""
        return time_limit if isinstance(time_limit, TimeBudget) else cls(time_limit)

    def left(self) -> float | None:
        """Seconds left for the next solve (None: no limit), 0 once spent; the first call starts the count."""
        if self.seconds is None:
            return None
        now = self.clock()
        if self.began is None:
            self.began = now
        return max(0.0, self.seconds - (now - self.began))

    def spent(self) -> bool:
        """Whether nothing is left (one not yet begun has all of it: asking does not start the count)."""
        return self.began is not None and self.left() == 0.0


@dataclass(frozen=True)
class Solution:
    status: str          # optimal | feasible (limit reached) | infeasible | unbounded | not_solved
    objective: float
    solver: str
    seconds: float
    gap: float | None


class _SilentHighs(highspy.Highs):
    """A HiGHS model with its output off from its first call on; `col_cost` ([n]) holds the objective's
    coefficients it was given (objective_costs), read by the checks on its answers without a copy of its LP."""

    col_cost: np.ndarray

    def enableCallbacks(self):
        # highspy.Highs.__init__ calls this before any option can be set, and HiGHS writes its banner
        # ("Running HiGHS … Copyright") to file descriptor 1 on the first call of a model that logs.
        self.setOptionValue("output_flag", False)
        super().enableCallbacks()


_column_of = attrgetter("index")   # a variable's column in the HiGHS model, set by _highs_model


def _highs_model(prob: pulp.LpProblem, columns: list, options: dict) -> _SilentHighs:
    """A silent HiGHS model of `prob` with `options`, columns in the order of `columns` (pulp's, sorted by
    name), passed as arrays in one call."""
    inf = highspy.kHighsInf
    for i, var in enumerate(columns):
        var.index = i
    n = len(columns)
    cost = objective_costs(prob, n)
    starts, index, value = _rowwise_matrix(list(prob._constraints.values()))
    row_lower, row_upper = _row_bounds(prob._constraints.values(), inf)
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = n, len(row_lower)
    lp.col_cost_ = cost
    lp.col_lower_ = np.array([-inf if v.lowBound is None else v.lowBound for v in columns], dtype=float)
    lp.col_upper_ = np.array([inf if v.upBound is None else v.upBound for v in columns], dtype=float)
    lp.row_lower_, lp.row_upper_ = row_lower, row_upper
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = n, len(row_lower)
    lp.a_matrix_.start_ = starts
    lp.a_matrix_.index_ = index
    lp.a_matrix_.value_ = value
    integer = [v.cat == pulp.LpInteger for v in columns]
    if any(integer):
        kinds = (highspy.HighsVarType.kContinuous, highspy.HighsVarType.kInteger)
        lp.integrality_ = [kinds[is_integer] for is_integer in integer]
    h = _SilentHighs()
    for key, option in {"output_flag": False, "mip_rel_gap": GAP_REL, **options}.items():
        h.setOptionValue(key, option)
    h.passModel(lp)
    h.col_cost = cost
    return h


def objective_costs(prob: pulp.LpProblem, n: int) -> np.ndarray:
    """[n] the objective's coefficient of each column (the variables carry their column as `index`), its
    constant left out as HiGHS's objective leaves it."""
    cost = np.zeros(n)
    cost[list(map(_column_of, prob.objective.keys()))] = list(prob.objective.values())
    return cost


def _rowwise_matrix(constraints: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(starts, column indices, values) of the constraints' rows, zero coefficients left out; the
    variables carry their column as `index`. The rows' expressions (dicts) are read in C (chain, map)
    and the zeros dropped in numpy, rather than a Python loop over every term."""
    rows = [c.expr for c in constraints]
    lengths = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
    nonzeros = int(lengths.sum())
    index = np.fromiter(map(_column_of, chain.from_iterable(rows)), dtype=np.int32, count=nonzeros)
    value = np.fromiter(chain.from_iterable(map(dict.values, rows)), dtype=float, count=nonzeros)
    kept = value != 0
    row_of_term = np.repeat(np.arange(len(rows)), lengths)
    per_row = np.bincount(row_of_term[kept], minlength=len(rows))
    starts = np.zeros(len(rows) + 1, dtype=np.int32)
    np.cumsum(per_row, out=starts[1:])
    return starts, index[kept], value[kept]


def _row_bounds(constraints, inf: float) -> tuple[np.ndarray, np.ndarray]:
    """(lower, upper) bound of every row: −constant on the side(s) its sense bounds (LpConstraint.getLb
    and getUb), ±inf on the other."""
    sense = np.array([c.sense for c in constraints], dtype=np.int64)
    bound = np.array([-c.constant for c in constraints], dtype=float)   # negated first: an int 0 gives +0.0
    lower = np.where(sense != pulp.LpConstraintLE, bound, -inf)
    upper = np.where(sense != pulp.LpConstraintGE, bound, inf)
    return lower, upper


@dataclass(frozen=True)
class _Branch:
    status: str
    objective: float        # HiGHS's objective (without the objective's constant); nan without a solution
    lower_bound: float      # the least objective proved possible (inf when infeasible)
    values: np.ndarray | None


def _run(h: highspy.Highs, time_limit: float | None, mip: bool) -> _Branch:
    """Run HiGHS on its current model: status, objective, proved bound and column values."""
    if time_limit is not None:
        if time_limit <= 0:
            return _Branch("not_solved", math.nan, -math.inf, None)
        h.setOptionValue("time_limit", float(time_limit))
    if stopping_solves():   # Ctrl-C stops the run at HiGHS's next check (planner.process), as highspy's own does
        for checks in (h.cbMipInterrupt, h.cbSimplexInterrupt, h.cbIpmInterrupt):
            checks.subscribe(_interrupt_if_stopping)
    report = getattr(_this_thread, "report", None)
    if mip and report is not None:
        h.cbMipInterrupt.subscribe(_reporting(report))
    with solver_run():
        if getattr(_this_thread, "started", False):
            h.run()
        else:
            _first_run(h)
    status, info = h.getModelStatus(), h.getInfo()
    S = highspy.HighsModelStatus
    if status == S.kModelEmpty and h.getNumCol() == 0:
        # nothing to decide (a baseline with no unit left to buy or rent, every demand 0): HiGHS solves nothing
        # and reports no solution. Every row is then the constant 0: the optimum is the objective's constant
        # (which HiGHS omits) where each row's bounds hold 0, and there is none where one does not
        lp = h.getLp()
        if np.all(np.asarray(lp.row_lower_) <= 1e-9) and np.all(np.asarray(lp.row_upper_) >= -1e-9):
            return _Branch("optimal", 0.0, 0.0, np.zeros(0))
        return _Branch("infeasible", math.nan, math.inf, None)
    if status in (S.kInfeasible, S.kUnboundedOrInfeasible):
        return _Branch("infeasible", math.nan, math.inf, None)
    if status == S.kUnbounded:
        return _Branch("unbounded", -math.inf, -math.inf, None)
    if info.primal_solution_status != 2:   # no feasible point (limit reached first, or an error)
        return _Branch("not_solved", math.nan, -math.inf, None)
    objective = float(info.objective_function_value)
    optimal = status == S.kOptimal
    bound = float(info.mip_dual_bound) if mip else (objective if optimal else -math.inf)
    if optimal and not math.isfinite(bound):
        bound = objective
    return _Branch("optimal" if optimal else "feasible", objective, bound,
                   np.array(h.getSolution().col_value, dtype=float))


def _interrupt_if_stopping(event) -> None:
    """HiGHS's interrupt callback (branch and bound, simplex and interior point): stop the run once Ctrl-C asked
    every run to stop. Its branch and bound calls it often (1,379 times in a 21 s solve of industrial.yaml with
    every catalog card, at most 2.6 s apart; 28 times in industrial.yaml's own 0.2 s), an LP at its iterations;
    presolve never. The checks cost nothing measurable (benchmarks/plan_speed.py, README)."""
    if stop_requested.is_set():
        event.interrupt()


def _best(branches: list[_Branch]) -> tuple[str, _Branch | None, float]:
    """(status, the branch with the least objective, the least objective proved over all branches)."""
    solved = [b for b in branches if b.values is not None]
    lower = min(b.lower_bound for b in branches)
    if not solved:
        for status in ("not_solved", "unbounded", "infeasible"):
            if any(b.status == status for b in branches):
                return status, None, lower
    best = min(solved, key=lambda b: b.objective)   # ties: the first branch (fixed cost off)
    proven = all(b.status in ("optimal", "infeasible") for b in branches)
    return ("optimal" if proven else "feasible"), best, lower


def highs_options(m: Model) -> dict:
    """The HiGHS options `m` is solved with: HIGHS_OPTIONS, and WHOLE_JOBS_OPTIONS over them when it has
    whole-job groups."""
    return {**HIGHS_OPTIONS, **WHOLE_JOBS_OPTIONS} if m.jobs else dict(HIGHS_OPTIONS)


def _solve_highs(m: Model, time_limit: float | None, start: Start | None = None) -> tuple[str, float | None]:
    """Solve `m` with HiGHS in this process, split on the fixed-cost binary when there is one; the
    variables get their values (varValue). `start`: a partial MIP start for the run with cards (see solve).
    Returns (status, gap)."""
    begin = time.perf_counter()
    columns = m.prob.variables()
    m.columns = columns
    h = _highs_model(m.prob, columns, highs_options(m))
    cost = h.col_cost
    z = None if m.z is None else getattr(m.z, "index", None)   # None: the binary is in no row
    mip, branches = any(v.cat == pulp.LpInteger for v in columns), []
    for fixed in ((None,) if z is None else (0.0, 1.0)):
        if fixed is not None:
            h.changeColBounds(z, fixed, fixed)
        started = bool(start and mip and fixed != 0.0)   # a start with cards says nothing of the run without any
        if started:
            _set_start(h, start)
        left = None if time_limit is None else time_limit - (time.perf_counter() - begin)
        branch = _run(h, left, mip)
        if not _objective_agrees(branch, cost):
            branch = _run_again(m, columns, cost, z, fixed, started, begin, time_limit, mip)
        branches.append(branch)
    if z is not None:
        constant = m.prob.objective.constant
        m.fixed_cost_runs = {fixed: (b.status, b.objective + constant) for fixed, b in zip((0.0, 1.0), branches)}
        m.no_card_values = branches[0].values
    status, best, lower = _best(branches)
    if best is None:
        return status, None
    for var, x in zip(columns, best.values.tolist()):
        var.varValue = x
    if not math.isfinite(lower):
        return status, None   # no bound proved (a branch stopped before its first bound): no gap to report
    # relative to the whole objective (HiGHS's omits the objective's constant), as Solution.gap is read
    absolute = max(0.0, best.objective - lower)
    gap = absolute / max(abs(best.objective + m.prob.objective.constant), 1e-9)
    # optimal: proven within HiGHS's tolerances (relative GAP_REL, or its absolute gap of 1e-6)
    return status, (0.0 if status == "optimal" and (gap <= GAP_REL or absolute <= 1e-6) else gap)


def _objective_agrees(branch: _Branch, cost: np.ndarray) -> bool:
    """Whether the objective HiGHS reports is that of the point it returns (within OBJECTIVE_AGREEMENT).
    HiGHS 1.16 can value a MIP start wrongly in its presolved model ("MIP start solution is feasible in the
    reduced space: objective value is 13330", for a start of 18356), prune everything the wrong value
    beats, and return the start as "optimal" with the wrong value: a review's count alternative reported
    18,356.46 where the optimum is 13,330.15 (tests/planner/test_solve_guard.py)."""
    if branch.values is None:
        return True
    at_point = float(cost @ branch.values)
    return abs(at_point - branch.objective) <= OBJECTIVE_AGREEMENT * max(1.0, abs(at_point))


def _run_again(m: Model, columns: list, cost: np.ndarray, z: int | None, fixed: float | None, started: bool,
               begin: float, time_limit: float | None, mip: bool) -> _Branch:
    """A branch whose reported objective was not its point's, solved again on a model of its own: without the
    start if it had one, then with presolve off. Where HiGHS still disagrees with itself, its point is kept
    as a fleet that is feasible but not proved optimal, valued at the point."""
    tries = ([{}] if started else []) + [{"presolve": "off"}]
    for options in tries:
        h = _highs_model(m.prob, columns, {**highs_options(m), **options})
        if fixed is not None:
            h.changeColBounds(z, fixed, fixed)
        left = None if time_limit is None else time_limit - (time.perf_counter() - begin)
        branch = _run(h, left, mip)
        if _objective_agrees(branch, cost):
            return branch
    at_point = float(cost @ branch.values)
    return _Branch("feasible", at_point, min(branch.lower_bound, at_point), branch.values)


def _set_start(h: highspy.Highs, start: Start) -> None:
    """Give HiGHS the values of some integer columns (the variables carry their column as `index`): it
    completes them into a fleet by a small sub-MIP and, if that is feasible, starts from it. A hint only:
    an infeasible start, or a HiGHS that takes no partial start, leaves the solve as it was."""
    columns = [var for var in start if getattr(var, "index", None) is not None]
    index = np.array([var.index for var in columns], dtype=np.int32)
    value = np.array([float(start[var]) for var in columns], dtype=float)
    try:
        h.setSolution(len(index), index, value)
    except TypeError:   # highspy before the sparse setSolution
        pass


# Run in place of CBC on Linux (_CbcStarter): asks the kernel to SIGKILL this process when the
# thread that started it ends (PR_SET_PDEATHSIG = 1, which exec keeps), then becomes CBC. Without it a
# planner killed outright (SIGKILL, the OOM killer) leaves its CBC solving on as an orphan, for minutes on a
# large model. The planner's pid is checked after: had it died before the signal was set, no signal would
# come. The signals Python ignores at start (SIGPIPE, SIGXFSZ) get their defaults back, as subprocess gives a
# program; exec looks a bare name up on PATH, as subprocess does; a prctl that fails leaves CBC as before.
_CBC_LAUNCHER = ("import ctypes, os, signal, sys\n"
                 "ctypes.CDLL(None).prctl(1, signal.SIGKILL)\n"
                 "if os.getppid() != int(sys.argv[1]):\n    os._exit(1)\n"
                 "for name in ('SIGPIPE', 'SIGXFSZ'):\n"
                 "    signal.signal(getattr(signal, name), signal.SIG_DFL)\n"
                 "os.execvp(sys.argv[2], sys.argv[2:])\n")


class _CbcStarter:
    """In place of the `subprocess` module in pulp's coin_api: its Popen notes the CBC process it starts as this
    thread's (`_this_thread.cbc`, which _solve_cbc kills when its solve is interrupted) and, with `launcher`,
    starts CBC through _CBC_LAUNCHER (a Python started with -I -S: 0.022-0.026 s more per CBC solve of the
    worked example and startup-hybrid, 2026-12-03); everything else is subprocess's own, looked up at each use
    (so tests that replace subprocess.Popen still reach CBC's start)."""

    def __init__(self, launcher: bool):
        self.launcher = launcher

    def __getattr__(self, name: str):
        return getattr(subprocess, name)

    def Popen(self, args, **kwargs):   # noqa: N802 — subprocess's name
        # -I: isolated (no current folder on sys.path, where a ctypes.py would run in the launcher; no
        # PYTHON* variables, no user site); -S: no site packages. The launcher execs CBC: the pid stays CBC's.
        if self.launcher:
            args = [sys.executable, "-I", "-S", "-c", _CBC_LAUNCHER, str(os.getpid()), *args]
        _this_thread.cbc = process = subprocess.Popen(args, **kwargs)
        return process


def _start_cbc_through_starter() -> None:
    """Start pulp's CBC through _CbcStarter, through _CBC_LAUNCHER where the kernel can tie a process to its
    starter (Linux); once per process (pulp's coin_api module is changed in place)."""
    from pulp.apis import coin_api

    # a Python that runs `-c` code (not a frozen app's binary, nor an embedding server's such as uWSGI)
    python = (bool(sys.executable) and not getattr(sys, "frozen", False)
              and os.path.basename(sys.executable).lower().startswith(("python", "pypy")))
    if not isinstance(coin_api.subprocess, _CbcStarter):
        coin_api.subprocess = _CbcStarter(launcher=sys.platform.startswith("linux") and python)


def _end_cbc() -> None:
    """Kill the CBC process this thread's solve started, if it still runs, and reap it (no zombie). Only this
    thread's: other threads may be running CBC solves of their own."""
    process, _this_thread.cbc = getattr(_this_thread, "cbc", None), None
    if process is not None:
        process.kill()   # nothing sent once it was reaped (its pid may be another process's by then)
        process.wait()


def _solve_cbc(m: Model, time_limit: float | None) -> tuple[str, float | None]:
    """Solve `m` with CBC through pulp (a subprocess that dies with the thread that started it, on Linux, and is
    killed when the solve is interrupted; its output discarded)."""
    _start_cbc_through_starter()
    # The models hold a few dozen integers at most (cards, reservations) over a large LP: CBC's cut
    # generation costs 5× the solve there and branch and bound still proves the optimum without it. Not with
    # servers packed by pattern (model._define_patterns): 3-, 5-, 6- and 7-GPU jobs on 16-card servers over
    # 24 months of monthly purchases were not proved within 120 s without cuts, 0.1 s with them (60 months 0.2 s).
    cbc = pulp.PULP_CBC_CMD(msg=False, gapRel=GAP_REL, timeLimit=time_limit, options=[] if m.patterns else ["cuts off"])
    # pulp deletes its MPS and solution files only after a solve that worked: when CBC fails or is
    # interrupted (Ctrl-C) they would stay in the temporary folder, so they go to a folder of this solve's
    # (planner.scratch: a folder left by a planner killed outright is removed by the next one's first CBC solve)
    with scratch_folder("cbc") as folder:
        cbc.tmpDir = folder
        try:
            m.prob.solve(cbc)
        except pulp.PulpSolverError as exc:   # CBC exited with an error, was killed, or wrote no solution
            raise SolverFailed("cbc", "highs", str(exc)) from None
        except BaseException:
            # Ctrl-C (KeyboardInterrupt), SIGTERM (Terminated) while pulp waits on CBC: CBC would solve on, minutes
            # on a large model, until this process ends, with its folder removed under it
            _end_cbc()
            raise
        finally:
            _this_thread.cbc = None
    status = {1: "optimal", 2: "feasible", 0: "not_solved", -1: "infeasible", -2: "unbounded", -3: "not_solved"
              }.get(m.prob.sol_status, "not_solved")
    if status == "optimal" and pulp.LpStatus[m.prob.status] != "Optimal":
        status = "infeasible"
    # infeasibility proved by CBC's preprocessing: no solution read (sol_status 0), the problem's status
    # Infeasible — a proof, not a solver that stopped without an answer
    if status == "not_solved" and m.prob.status == pulp.LpStatusInfeasible:
        status = "infeasible"
    return status, (0.0 if status == "optimal" else None)   # optimal: proven within GAP_REL


def solve(m: Model, solver: str = DEFAULT_SOLVER, time_limit: float | None = None,
          start: Start | None = None) -> Solution:
    """Solve the model in place; the status says whether the values are a proven optimum.

    `start`: values of some integer variables of `m` (a fleet close to the optimum, e.g. the plan's with
    one purchase moved) that HiGHS completes and starts from; the optimum it proves is the same, found
    sooner (engine.decisions), though among tied optima it may return the start's. Completing the start
    does not watch `time_limit` closely: a solve can end a few hundredths of a second past it (0.06 s
    limits ended at 0.09-0.11 s, 2026-12-03), and one stopped by the limit may end `feasible` at the
    start's fleet rather than `not_solved`. CBC ignores it."""
    if solver not in SOLVERS:
        raise PlannerError(f"unknown solver {solver!r}; expected one of {', '.join(SOLVERS)}")
    began = time.perf_counter()
    m.time_limit = time_limit
    if time_limit is not None and time_limit <= 0:   # what a spent TimeBudget leaves: not run (nor CBC started)
        return Solution("not_solved", math.nan, solver, 0.0, None)
    if solver == "highs":
        status, gap = _solve_highs(m, time_limit, start)
    else:
        status, gap = _solve_cbc(m, time_limit)
    seconds = time.perf_counter() - began
    objective = _objective_value(m.prob) if status in ("optimal", "feasible") else math.nan
    return Solution(status, objective, solver, seconds, gap)


def _objective_value(prob: pulp.LpProblem) -> float:
    """The objective at the solution: its constant and each variable's term. pulp's value() is None where a
    variable has none, as the column pulp adds to a model without variables for CBC has not, which lost the
    constant (0 instead of a baseline's fixed costs)."""
    return float(prob.objective.constant + sum(c * (v.varValue or 0.0) for v, c in prob.objective.items()))

