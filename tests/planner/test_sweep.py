"""Sweeps: the cross product in order, infeasible points as rows, the same table on local processes
and on a Dask cluster, and monotonicity properties checked with hypothesis."""

import csv
import io
import json
import math
import os
import socket
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from planner import ScenarioError, load_scenario, plan, sweep
from planner.cli import app
from planner.engine import plan_summary
from planner.reports import fleet_summary

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"
HYBRID = ROOT / "scenarios" / "startup-hybrid.yaml"

VARY = {"onprem.electricity_per_kwh": [0.10, 0.30],
        "workloads.prototyping.gpu_hours_per_month": [1500, 4000],
        "onprem.power_cap_kw": [0.1, 6]}          # 0.1 kW cannot hold the owned cards: infeasible


@pytest.fixture(scope="module")
def hybrid():
    return load_scenario(HYBRID)


@pytest.fixture(scope="module")
def local_table(hybrid):
    return sweep(hybrid, VARY, processes=2)


def test_rows_are_the_cross_product_in_order(local_table):
    assert list(local_table.columns) == [*VARY, "total", "fleet", "status", "note"]
    expected = [(e, h, c) for e in VARY["onprem.electricity_per_kwh"]
                for h in VARY["workloads.prototyping.gpu_hours_per_month"] for c in VARY["onprem.power_cap_kw"]]
    assert list(local_table[list(VARY)].itertuples(index=False, name=None)) == expected


def test_infeasible_points_are_rows_with_the_reason(local_table):
    bad = local_table[local_table["onprem.power_cap_kw"] == 0.1]
    assert set(bad["status"]) == {"infeasible"} and bad["total"].isna().all()
    # the one A100 min_units holds alone passes the cap: said before solving, in validate's words
    assert bad["note"].str.contains("more than onprem.power_cap_kw 0.1 kW", regex=False).all()
    good = local_table[local_table["onprem.power_cap_kw"] == 6]
    assert set(good["status"]) == {"optimal"} and (good["fleet"].str.contains("a100-80gb-pcie")).all()


def test_each_row_is_the_plan_of_its_point(hybrid, local_table):
    for row in local_table[local_table["status"] == "optimal"].itertuples(index=False):
        point = dict(zip(VARY, row[:len(VARY)]))
        assert row.total == plan(hybrid, overrides=point, baselines=False).total


def test_each_row_names_the_fleet_of_its_plan(hybrid, local_table):
    for row in local_table[local_table["status"] == "optimal"].itertuples(index=False):
        point = dict(zip(VARY, row[:len(VARY)]))
        fleet = plan(hybrid, overrides=point, baselines=False).fleet
        cards = fleet[fleet["provider"] == "onprem"]
        assert row.fleet.split("; ")[0] == ", ".join(
            f"{n:g} {sku}" + (f" ({sold:g} sold)" if sold else "") + (f" ({off:g} switched off)" if off else "")
            for n, sku, sold, off in zip(cards["units"], cards["sku"], cards["sold_units"], cards["switched_off_units"]))
    # startup-hybrid owns two RTX 3060 cards, which every optimal point here sells
    assert local_table.loc[local_table["status"] == "optimal", "fleet"].str.contains(r"0 rtx-3060-12gb \(2 sold\)").all()


def test_fleet_summary_lists_units_then_cloud_hours():
    fleet = pd.DataFrame({"provider": ["onprem", "aws", "azure", "onprem"],
                          "sku": ["a100-80gb-pcie", "g5.xlarge", "NC24ads_A100_v4", "rtx-3060-12gb"],
                          "purchase_option": ["purchase", "on_demand", "reserved_1y", "purchase"],
                          "units": [1.0, math.nan, 2.0, 3.5], "instance_hours": [0.0, 1234.4, 0.0, 0.0],
                          "unit_id": ["onprem:onprem:a100-80gb-pcie:purchase", "aws:us-east-1:g5.xlarge:on_demand",
                                      "azure:eastus:NC24ads_A100_v4:reserved_1y", "onprem:onprem:rtx-3060-12gb:purchase"]})
    assert fleet_summary(fleet) == ("1 a100-80gb-pcie, 2 azure:eastus:NC24ads_A100_v4:reserved_1y, 3.5 rtx-3060-12gb; "
                                    "aws:us-east-1:g5.xlarge:on_demand 1,234 h")
    assert fleet_summary(fleet.iloc[:0]) == "(none)"
    # owned cards all sold: the row holds 0 units, and says where they went
    sold = pd.DataFrame({"provider": ["onprem"], "sku": ["rtx-3060-12gb"], "purchase_option": ["purchase"],
                         "units": [0.0], "instance_hours": [0.0], "sold_units": [2.0],
                         "unit_id": ["onprem:onprem:rtx-3060-12gb:purchase"]})
    assert fleet_summary(sold) == "0 rtx-3060-12gb (2 sold)"
    # owned cards switched off are held (their maintenance paid) though not in service: said as sold ones are
    off = sold.assign(units=[3.0], sold_units=[1.0], switched_off_units=[1.0])
    assert fleet_summary(off) == "3 rtx-3060-12gb (1 sold, 1 switched off)"
    assert fleet_summary(off.assign(sold_units=[0.0])) == "3 rtx-3060-12gb (1 switched off)"


@pytest.mark.parametrize("name", ["entry", "mid-research", "startup-hybrid", "industrial"])
def test_plan_summary_is_the_plan_without_its_other_tables(name):
    """What a sweep reads of each point (engine.plan_summary) is what plan() gives, to the bit — but the
    baselines' totals: where the plan's run without cards is the all-cloud baseline (industrial.yaml), a
    sweep takes its total from that run instead of solving the baseline's own model, as plan() with Plans
    does (engine.baselines.settle_all_cloud): the same optimum, to HiGHS's last digits."""
    s = load_scenario(ROOT / "scenarios" / f"{name}.yaml")
    full, summary = plan(s, baselines=True), plan_summary(s, baselines=True)
    assert (summary.status, summary.total) == (full.status, full.total)
    pd.testing.assert_frame_equal(summary.fleet, full.fleet, check_exact=True)
    pd.testing.assert_frame_equal(summary.baselines, full.baselines, check_exact=False, rtol=1e-9, atol=0)
    assert summary.warnings == full.warnings
    assert plan_summary(s).baselines is None


def test_a_sweep_gives_its_plans_warnings_once_each_with_how_many_points_gave_it(tmp_path):
    # mid-research.yaml plans 36 months and buys cards: buying every 5 months leaves a last period of
    # 36 - 7 × 5 = 1 month, which plan() warns about; every 6 months divides 36. A sweep used to keep only
    # the price source's warning.
    mid = ROOT / "scenarios" / "mid-research.yaml"
    table = sweep(load_scenario(mid), {"onprem.purchase_every_months": [5, 6]}, processes=1)
    assert table["status"].tolist() == ["optimal", "optimal"]
    five = ("purchase_every_months 5 does not divide horizon_months 36: the last purchase period is 1 month "
            "long")
    got = {w["warning"]: w["points"] for w in table.attrs["warnings"]}
    assert got[five] == 1
    # the others are each point's plan's, in both: the same as plan() gives at 6 months
    assert {w for w, k in got.items() if k == 2} == set(plan(mid, baselines=False,
                                                             overrides={"onprem.purchase_every_months": 6}).warnings)
    result = CliRunner().invoke(app, ["sweep", str(mid), "--vary", "onprem.purchase_every_months=5,6",
                                      "--processes", "1", "--format", "json"])
    assert result.exit_code == 0
    assert f"warning: {five} (1 of 2 points)" in " ".join(result.stderr.split())


def test_in_process_run_matches(hybrid, local_table):
    pd.testing.assert_frame_equal(sweep(hybrid, VARY, processes=1), local_table)


def test_dask_cluster_returns_the_same_table(hybrid, local_table):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  host="127.0.0.1", protocol="tcp") as cluster:
        by_address = sweep(hybrid, VARY, scheduler=cluster.scheduler_address)
        with distributed.Client(cluster) as client:
            seen = []
            by_client = sweep(hybrid, VARY, scheduler=client, progress=lambda done, n: seen.append((done, n)))
            assert client.status == "running"          # a client passed in is left open
    pd.testing.assert_frame_equal(by_address, local_table)
    pd.testing.assert_frame_equal(by_client, local_table)
    assert seen[0] == (0, 8) and seen[-1] == (8, 8)


def test_savings_against_all_cloud_with_baselines():
    s = load_scenario(WORKED)
    table = sweep(s, {"onprem.electricity_per_kwh": [0.2]}, baselines=True, processes=1)
    # all cloud: 1,000 g5 hours a month (800 / 0.8) × 1.006 × 24 = 24,144; the plan costs 7,760.46
    assert table["savings_vs_all_cloud"].iloc[0] == pytest.approx(24144 - 8385.46, rel=1e-6)


def test_bad_paths_and_values_raise_before_solving(hybrid):
    with pytest.raises(ScenarioError) as info:
        sweep(hybrid, {"onprem.electricty_per_kwh": [0.1], "onprem.pue": [1.2, 0.5], "horizon_months": []})
    text = str(info.value)
    assert "did you mean 'electricity_per_kwh'" in text and "onprem.pue" in text and "no values" in text


def test_a_none_value_stays_none_and_its_row_plans_again():
    # pandas read [None, 5.0] as [NaN, 5.0], and plan() refuses NaN for a cap: the row could not be re-planned
    table = sweep(WORKED, {"onprem.power_cap_kw": [None, 5.0]}, processes=1)
    assert table["onprem.power_cap_kw"].tolist() == [None, 5.0]
    again = plan(WORKED, baselines=False, overrides={"onprem.power_cap_kw": table["onprem.power_cap_kw"].iloc[0]})
    assert again.total == pytest.approx(table["total"].iloc[0], rel=1e-9) == pytest.approx(8385.46, rel=1e-6)


def test_cli_sweep_csv_and_bad_vary(tmp_path):
    runner = CliRunner()
    result = runner.invoke(app, ["sweep", str(WORKED), "--vary", "onprem.electricity_per_kwh=0.2,0.4",
                                 "--vary", "workloads.training.gpu_hours_per_month=800", "--format", "csv",
                                 "--processes", "1"])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [float(r["onprem.electricity_per_kwh"]) for r in rows] == [0.2, 0.4]
    # by hand (README): 7,760.46 at 0.20 USD/kWh; + 1,944.72 energy at 0.40
    assert float(rows[0]["total"]) == pytest.approx(8385.46, rel=1e-6)
    assert float(rows[1]["total"]) == pytest.approx(8385.46 + 1944.72, rel=1e-6)
    bad = runner.invoke(app, ["sweep", str(WORKED), "--vary", "onprem.electricity_per_kwh"])
    assert bad.exit_code == 2 and "PATH=V1,V2" in bad.stderr
    twice = runner.invoke(app, ["sweep", str(WORKED), "--vary", "onprem.electricity_per_kwh=0.1",
                                "--vary", "onprem.electricity_per_kwh=0.2"])   # not silently just 0.2
    assert twice.exit_code == 2 and twice.stdout == ""
    assert "onprem.electricity_per_kwh is varied twice" in twice.stderr
    lists = runner.invoke(app, ["sweep", str(WORKED), "--vary", "prices.purchase_options=[on_demand],[on_demand, spot]",
                                "--format", "json", "--processes", "1"])
    assert lists.exit_code == 0, lists.output


def test_cli_sweep_starts_no_thread_before_its_workers(monkeypatch):
    """`fleetplan sweep` forks its workers where no other thread runs (reports.sweep.fork_safe): its progress
    bar must not start a refresh thread of its own (rich's default), or every sweep would start fresh
    interpreters instead, importing the planner again (about 1 s a worker on 2 busy cores)."""
    sweep_module = sys.modules["planner.reports.sweep"]
    solve_points, seen = sweep_module._solve_points, []

    def counting(*args, **kwargs):
        seen.append(threading.active_count())
        return solve_points(*args, **kwargs)

    monkeypatch.setattr(sweep_module, "_solve_points", counting)
    before = threading.active_count()
    result = CliRunner().invoke(app, ["sweep", str(WORKED), "--vary", "onprem.electricity_per_kwh=0.2,0.4",
                                      "--format", "csv", "--processes", "1"])
    assert result.exit_code == 0, result.output
    assert seen == [before]
    assert len(list(csv.DictReader(io.StringIO(result.stdout)))) == 2


# `fleetplan` as installed (planner.cli:main), its fresh-interpreter workers refused: argv as the command's
# (main sets the process up first, before pandas is imported; done here before the sweep module is)
FLEETPLAN_WITHOUT_FRESH_WORKERS = """
from planner.process import configure_process
configure_process()
sweep_module = __import__("importlib").import_module("planner.reports.sweep")
def refused(*args, **kwargs):
    raise AssertionError("fleetplan sweep must fork its workers here")
sweep_module._start_worker = refused
from planner.cli import main
main()
"""


def test_the_fleetplan_sweep_command_forks_its_workers():
    done = subprocess.run([sys.executable, "-c", FLEETPLAN_WITHOUT_FRESH_WORKERS, "sweep", str(WORKED), "--vary",
                           "onprem.electricity_per_kwh=0.2,0.4", "--processes", "2", "--format", "csv"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    # by hand (README): 8,385.46 at 0.20 USD/kWh; + 1,944.72 energy at 0.40 (as the in-process CLI test)
    assert [float(r["total"]) for r in rows] == pytest.approx([8385.46, 8385.46 + 1944.72], rel=1e-6)


# --- sweeps without a main guard, scheduler timeouts -----------------------------------------------

GRID = {"onprem.electricity_per_kwh": [0.1, 0.2, 0.3], "onprem.power_cap_kw": [0.1, 6]}


@pytest.fixture(scope="module")
def grid_table():
    """The worked example's sweep over GRID, in this process: what every other way of sweeping must give."""
    return sweep(WORKED, GRID, processes=1)


@pytest.fixture(scope="module")
def grid_rows(grid_table):
    """`grid_table` as JSON records (as the scripts below print their tables)."""
    return json.loads(grid_table.to_json(orient="records"))


def test_a_plain_script_without_a_main_guard_sweeps(tmp_path, grid_table, grid_rows):
    """An analyst's script, no `if __name__ == "__main__":`: it runs once, sweeps on worker processes and
    gets the rows of an in-process sweep."""
    script = tmp_path / "analysis.py"
    script.write_text(textwrap.dedent(f"""
        import sys
        from planner import sweep
        sys.stderr.write("top level ran\\n")
        table = sweep({str(WORKED)!r}, {GRID!r}, processes=3)
        print(table.to_json(orient="records"))
    """))
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "top level ran\n"            # the workers never ran the script again
    assert json.loads(result.stdout) == grid_rows
    assert len(grid_table) == 6 and set(grid_table["status"]) == {"optimal"}


# A script run as a fresh process, set up as `fleetplan` sets up its own (pyarrow kept out) but for host
# "pyarrow": argv[1] says which way its workers must start ("fork" or "spawn"); the other way is replaced
# by one that fails, so a sweep that took it would end in an error. argv[4], the host: "plain"; "sigchld"
# ignores SIGCHLD (children are reaped by the kernel); "proxy" has replaced sys.stdout with an object that
# writes to stderr, as rich's progress bar does, and its workers print; "thread" runs a thread of its own;
# "highs" has run HiGHS; "pyarrow" has pandas with pyarrow. It prints whether forking was safe, before and
# after the host's set-up, the rows and each worker's exit code when closed.
WORKER_KIND = """
import json, signal, sys, threading
kind, worked, grid, host = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), sys.argv[4]
if host != "pyarrow":
    from planner.process import configure_process
    configure_process()
from planner import plan, sweep
sweep_module = sys.modules["planner.reports.sweep"]
def refused(*args, **kwargs):
    raise AssertionError("this sweep must not start its workers this way")
setattr(sweep_module, "_start_worker" if kind == "fork" else "_fork_worker", refused)
close_worker, codes = sweep_module._close_worker, []
def closing(proc, kill):
    close_worker(proc, kill)
    codes.append(proc.returncode)
sweep_module._close_worker = closing
safe = [sweep_module.fork_safe()]
if host == "sigchld":
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
if host == "proxy":
    class Proxy:
        def write(self, text):
            return sys.__stderr__.write(text)
        def flush(self):
            sys.__stderr__.flush()
    sys.stdout = Proxy()
    solve_point = sweep_module._sweep_point
    def printing(*args):
        print("printed by a worker")
        return solve_point(*args)
    sweep_module._sweep_point = printing
if host == "thread":      # a host with a thread of its own (Streamlit, Jupyter)
    threading.Thread(target=threading.Event().wait, daemon=True).start()
if host == "highs":       # HiGHS has run in this process
    plan(worked, baselines=False)
safe.append(sweep_module.fork_safe())
table = sweep(worked, grid, processes=2)
sys.__stdout__.write(json.dumps({"fork_safe": safe, "rows": json.loads(table.to_json(orient="records")),
                                 "codes": codes}))
"""


@pytest.mark.parametrize("kind, host", [("fork", "plain"), ("fork", "sigchld"), ("fork", "proxy"),
                                        ("spawn", "thread"), ("spawn", "highs"), ("spawn", "pyarrow")])
def test_workers_are_forked_only_where_it_is_safe_and_give_the_same_rows(kind, host, grid_table, grid_rows):
    """A plain process set up as `fleetplan` forks its workers (they start with its imports); one with
    another thread, where HiGHS has run, or whose pandas loaded pyarrow starts fresh interpreters. The rows
    are the in-process sweep's either way, and each worker ends by itself (code 0) once its tasks end: a
    worker holding another's task pipe open would wait for its end forever, and be killed (code -9)."""
    if host == "pyarrow":
        pytest.importorskip("pyarrow")   # pandas loads it at its import when it is installed
    done = subprocess.run([sys.executable, "-c", WORKER_KIND, kind, str(WORKED), json.dumps(GRID), host],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["fork_safe"] == {"thread": [True, False], "highs": [True, False],
                                "pyarrow": [False, False]}.get(host, [True, True])
    assert out["rows"] == grid_rows
    assert len(grid_table) == 6 and set(grid_table["status"]) == {"optimal"}
    assert out["codes"] == [0, 0]
    # a worker's print goes nowhere: not into a replaced sys.stdout of the host (rich's bar), nor its output
    assert "printed by a worker" not in done.stderr + done.stdout


# A script whose second fork fails (EAGAIN: too many processes), with CBC (which has the sweep make a
# folder): the sweep raises, and the first worker, the pipes and the folder are gone
FORK_FAILS = """
import errno, json, os, sys, tempfile
from planner.process import configure_process
configure_process()
from planner import sweep
sweep_module = sys.modules["planner.reports.sweep"]
assert sweep_module.fork_safe()
fork, forks = os.fork, []
def second_fails():
    forks.append(1)
    if len(forks) == 2:
        raise OSError(errno.EAGAIN, "Resource temporarily unavailable")
    return fork()
os.fork = second_fails
fds = sorted(os.listdir("/proc/self/fd"))
try:
    sweep(sys.argv[1], json.loads(sys.argv[2]), processes=2, solver="cbc")
except OSError as exc:
    error = str(exc)
def parent_of(pid):   # None once the process has gone (it may go between listing /proc and reading it)
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[1]
    except (FileNotFoundError, ProcessLookupError):
        return None
children = [d for d in os.listdir("/proc") if d.isdigit() and parent_of(d) == str(os.getpid())]
print(json.dumps({"error": error, "forks": len(forks), "children": children,
                  "new_fds": sorted(set(os.listdir("/proc/self/fd")) - set(fds)), "temp": os.listdir(tempfile.gettempdir())}))
"""


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="reads a process's fds and children in Linux's /proc")
def test_a_worker_that_cannot_be_forked_ends_the_sweep_and_leaves_nothing_behind(tmp_path):
    done = subprocess.run([sys.executable, "-c", FORK_FAILS, str(WORKED), json.dumps(GRID)], capture_output=True,
                          text=True, timeout=300, env={**os.environ, "TMPDIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["forks"] == 2 and "Resource temporarily unavailable" in out["error"]
    assert out["children"] == []     # the first worker was killed and reaped: no zombie
    assert out["new_fds"] == []      # no pipe left open
    assert out["temp"] == []         # the sweep's CBC folder is removed
    assert "Traceback" not in done.stderr


# A script whose forked workers misbehave (reports.sweep's functions replaced before they are forked):
# argv[1] "dies" — the worker given point 0 exits with code 7 at once, the other serves the rest;
# "endless" — each worker answers its first point with its pid and that of a "CBC" it started, then solves
# on; the caller stops (Ctrl-C) after the first row
FORKED_MISBEHAVING = """
import json, os, pickle, subprocess, sys
from planner.process import configure_process
configure_process()
from planner import sweep
sweep_module = sys.modules["planner.reports.sweep"]
assert sweep_module.fork_safe()
mode, worked, grid = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
solve_point = sweep_module._sweep_point

def dies_on_point_0(scenario, solver, baselines):   # point 0: the first value of each path
    if (scenario.onprem.electricity_per_kwh, scenario.onprem.power_cap_kw) == tuple(v[0] for v in grid.values()):
        os._exit(7)
    return solve_point(scenario, solver, baselines)

def endless(tasks, answers):
    pickle.dump(("ready", os.getpid()), answers)
    answers.flush()
    i, *_ = pickle.load(tasks)
    cbc = subprocess.Popen([sys.executable, "-c", "import time; print(flush=True); time.sleep(300)"],
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)
    cbc.stdout.readline()   # it runs
    pickle.dump((i, {"worker": os.getpid(), "cbc": cbc.pid}), answers)
    answers.flush()
    tasks.read()

if mode == "dies":
    sweep_module._sweep_point = dies_on_point_0
    print(sweep(worked, grid, processes=2).to_json(orient="records"))
else:
    sweep_module._serve = endless
    rows = []
    def store_then_stop(i, row):
        rows.append(row)
        raise KeyboardInterrupt
    try:
        sweep_module._solve_in_workers([(0, None), (1, None), (2, None)], store_then_stop, workers=2, solver="highs",
                                       baselines=False)
    except KeyboardInterrupt:
        print(json.dumps(rows))
"""


def test_a_forked_worker_that_dies_leaves_its_point_a_row_and_the_others_solved(grid_rows):
    done = subprocess.run([sys.executable, "-c", FORKED_MISBEHAVING, "dies", str(WORKED), json.dumps(GRID)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert rows[0]["status"] == "error"
    assert rows[0]["note"] == "the worker process solving this point ended (exit code 7)"
    assert rows[1:] == grid_rows[1:]


def test_a_sweep_stopped_early_ends_its_forked_workers_and_what_they_started(process_ended):
    done = subprocess.run([sys.executable, "-c", FORKED_MISBEHAVING, "endless", str(WORKED), json.dumps(GRID)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    (row,) = json.loads(done.stdout)
    assert process_ended(row["worker"])   # the worker, killed …
    assert process_ended(row["cbc"])      # … with the "CBC" in its session


THREAD_COUNT = """
import os, sys
from planner import load_scenario, plan
from planner.reports.sweep import _one_solver_thread
if sys.argv[1] == "worker":
    _one_solver_thread()
s = load_scenario(sys.argv[2])
plan(s, solver="cbc", baselines=False)      # the libraries' own threads (BLAS …) start here, not in HiGHS
before = len(os.listdir("/proc/self/task"))
p = plan(s, solver="highs", baselines=False)
print(before, len(os.listdir("/proc/self/task")), p.status, repr(p.total))
"""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts a process's threads in /proc (Linux)")
def test_a_sweep_worker_gives_highs_no_threads_of_its_own_and_gets_the_same_plan():
    """A sweep runs one worker process per core: HiGHS threads on top would compete for the same cores.
    Set up as a worker, a process starts no thread when HiGHS solves, and gets the same optimum as a
    plain process (which starts none either since HiGHS runs with one thread everywhere)."""
    runs = {}
    for kind in ("worker", "plain"):
        done = subprocess.run([sys.executable, "-c", THREAD_COUNT, kind, str(HYBRID)], capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        before, after, status, total = done.stdout.split()
        runs[kind] = (int(before), int(after), status, float(total))
    assert runs["worker"][1] == runs["worker"][0]
    assert runs["worker"][2] == runs["plain"][2] == "optimal"
    assert runs["worker"][3] == pytest.approx(runs["plain"][3], rel=1e-9)
    # the engine's first HiGHS run asks for one thread in every process now (engine.solve._first_run), so
    # a plain process starts none either (tests/planner/test_engine_speed_paths.py tells the count can)
    assert runs["plain"][1] == runs["plain"][0]


def test_sweep_inside_a_dask_worker_uses_worker_processes(grid_table):
    """A Dask worker is a daemonic process (multiprocessing refuses it children): a sweep submitted to the
    cluster still runs on its own worker processes."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                                  host="127.0.0.1", protocol="tcp") as cluster, distributed.Client(cluster) as client:
        remote = client.submit(sweep, WORKED, GRID, processes=2, pure=False).result(timeout=300)
    pd.testing.assert_frame_equal(remote, grid_table)


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_unreachable_scheduler_with_a_1_s_timeout_exits_2_quickly_in_one_line():
    pytest.importorskip("distributed")   # without the [dask] extra the command says which to install (test_packaging)
    exe = Path(sys.executable).parent / "fleetplan"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "planner.cli"]
    address = f"tcp://127.0.0.1:{_closed_port()}"
    t0 = time.monotonic()
    result = subprocess.run([*cmd, "sweep", str(WORKED), "--vary", "onprem.electricity_per_kwh=0.1,0.2",
                             "--scheduler", address, "--scheduler-timeout", "1"],
                            capture_output=True, text=True, timeout=120)
    elapsed = time.monotonic() - t0
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and address in lines[0] and "within 1 s" in lines[0], result.stderr
    assert elapsed < 15                                   # not distributed's 30 s default


def test_library_scheduler_timeout_raises_a_planner_error():
    pytest.importorskip("distributed")
    from planner.errors import PlannerError

    t0 = time.monotonic()
    with pytest.raises(PlannerError, match="cannot connect within 1 s"):
        sweep(WORKED, {"onprem.electricity_per_kwh": [0.1, 0.2]}, scheduler=f"tcp://127.0.0.1:{_closed_port()}",
              scheduler_timeout=1)
    assert time.monotonic() - t0 < 15


@pytest.mark.parametrize("address", ["notanaddress", "http://127.0.0.1:9", "tcp://127.0.0.1:notaport", ""])
def test_a_malformed_scheduler_address_is_one_error_line_and_exit_2(address):
    pytest.importorskip("distributed")
    exe = Path(sys.executable).parent / "fleetplan"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "planner.cli"]
    result = subprocess.run([*cmd, "sweep", str(WORKED), "--vary", "onprem.electricity_per_kwh=0.1,0.2",
                             "--scheduler", address], capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()   # no traceback, and no complaint of a half-made Client
    assert len(lines) == 1 and f"Dask scheduler {address!r} is not an address" in lines[0], result.stderr
    assert "tcp://10.0.0.5:8786" in lines[0]


@pytest.mark.parametrize(("scheme", "said"), [
    ("tls", "tls:// needs Dask's TLS settings (distributed.comm.tls: ca-file and the client's cert and key, e.g. "
            "DASK_DISTRIBUTED__COMM__TLS__CA_FILE), or pass a distributed.Client of your own to planner.sweep(scheduler=…)"),
    ("inproc", "inproc:// is a scheduler inside one process, which a sweep cannot reach from here; give its tcp:// "
               "address, or pass a distributed.Client of your own to planner.sweep(scheduler=…)"),
    ("ucx", "distributed no longer speaks ucx:// (it moved to the distributed-ucxx package); give a tcp:// address, "
            "or pass a distributed.Client of your own to planner.sweep(scheduler=…)")])
def test_a_scheduler_address_a_client_cannot_use_is_one_error_line_and_exit_2(scheme, said, monkeypatch):
    # each passed the address check and failed inside distributed with a traceback (tls: no ssl_context)
    pytest.importorskip("distributed")
    for name in [n for n in os.environ if n.startswith("DASK_")]:   # no TLS settings of this machine's
        monkeypatch.delenv(name)
    exe = Path(sys.executable).parent / "fleetplan"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "planner.cli"]
    address = f"{scheme}://127.0.0.1:{_closed_port()}"
    result = subprocess.run([*cmd, "sweep", str(WORKED), "--vary", "onprem.electricity_per_kwh=0.1,0.2",
                             "--scheduler", address, "--scheduler-timeout", "1"], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [f"error: Dask scheduler {address!r}: {said}"]


def test_tls_with_a_security_loader_configured_goes_on_to_connect():
    pytest.importorskip("distributed")
    import dask

    from planner.reports.sweep import _check_scheme

    with dask.config.set({"distributed.client.security-loader": "my_site.load_security"}):
        _check_scheme("tls://127.0.0.1:8786", "tls")   # no error: the Client builds its Security from the loader


def test_a_ws_scheduler_that_is_not_there_cannot_be_connected_to():
    pytest.importorskip("distributed")
    from planner.errors import PlannerError

    with pytest.raises(PlannerError, match="cannot connect within 1 s"):
        sweep(WORKED, {"onprem.electricity_per_kwh": [0.1, 0.2]}, scheduler=f"ws://127.0.0.1:{_closed_port()}",
              scheduler_timeout=1)


def test_an_upper_case_tcp_scheme_is_refused_with_the_address_it_meant():
    pytest.importorskip("distributed")
    from planner.errors import PlannerError

    with pytest.raises(PlannerError, match=r"did you mean 'tcp://127\.0\.0\.1:8786'\?"):
        sweep(WORKED, {"onprem.electricity_per_kwh": [0.1]}, scheduler="TCP://127.0.0.1:8786", scheduler_timeout=1)


def test_scheduler_without_distributed_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)        # `import distributed` fails as if not installed
    result = CliRunner().invoke(app, ["sweep", str(WORKED), "--vary", "onprem.electricity_per_kwh=0.1,0.2",
                                      "--scheduler", "tcp://127.0.0.1:8786"])
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "pip install 'gpu-fleet-planner[dask]'" in lines[0], result.stderr


# --- properties ----------------------------------------------------------------------------------------

PROPS = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _worked_variant(hours: float, growth: float):
    s = load_scenario(WORKED)
    return s.model_copy(update={"workloads": (s.workloads[0].model_copy(
        update={"gpu_hours_per_month": hours, "growth_per_month": growth}),)})


def _monotone(totals: list[float]) -> bool:
    t = [math.inf if math.isnan(x) else x for x in totals]
    return all(b >= a - 1e-7 * max(1.0, abs(a)) for a, b in zip(t, t[1:]))


@PROPS
@given(hours=st.floats(100, 2000), growth=st.floats(0, 0.05),
       prices=st.lists(st.floats(0.0, 1.0), min_size=2, max_size=3, unique=True))
def test_higher_electricity_never_lowers_the_total(hours, growth, prices):
    table = sweep(_worked_variant(hours, growth), {"onprem.electricity_per_kwh": sorted(prices)}, processes=1)
    assert _monotone(list(table["total"])), table


@PROPS
@given(growth=st.floats(0, 0.05), electricity=st.floats(0.0, 0.6),
       demand=st.lists(st.floats(0, 3000), min_size=2, max_size=3, unique=True))
def test_more_demand_never_lowers_the_total(growth, electricity, demand):
    s = _worked_variant(100, growth)
    table = sweep(s, {"workloads.training.gpu_hours_per_month": sorted(demand),
                      "onprem.electricity_per_kwh": [electricity]}, processes=1)
    assert _monotone(list(table["total"])), table


# A stand-in for a sweep worker (reports.sweep._WORKER) that answers one point while a "CBC" it started
# solves on (a process that sleeps) with pulp's model file written, then waits for its next point
ENDLESS_CBC_WORKER = """
import os, pickle, subprocess, sys, tempfile
answers = os.fdopen(os.dup(1), "wb")
pickle.dump(("ready", os.getpid()), answers)
answers.flush()
i, *_ = pickle.load(sys.stdin.buffer)
open(os.path.join(tempfile.gettempdir(), "model-pulp.mps"), "w").close()
cbc = subprocess.Popen([sys.executable, "-c", "import time; print(flush=True); time.sleep(300)"], stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE)
cbc.stdout.readline()   # it runs
pickle.dump((i, {"cbc": cbc.pid, "temp": tempfile.gettempdir()}), answers)
answers.flush()
sys.stdin.buffer.read()
"""


def test_a_sweep_stopped_early_ends_its_workers_cbc_and_leaves_no_files(monkeypatch, tmp_path, process_ended):
    sweep_module = sys.modules["planner.reports.sweep"]   # planner.reports.sweep is also the name of a function

    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(sweep_module, "_WORKER", ENDLESS_CBC_WORKER)
    monkeypatch.setattr(sweep_module, "fork_safe", lambda: False)   # workers are fresh interpreters running _WORKER
    rows = []

    def store_then_stop(i, row):   # the caller stops after the first point (an error, Ctrl-C)
        rows.append(row)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        sweep_module._solve_in_workers([(0, None), (1, None)], store_then_stop, workers=1, solver="cbc", baselines=False)
    (row,) = rows
    assert Path(row["temp"]).parent == tmp_path                 # the worker's files went to the sweep's folder …
    assert process_ended(row["cbc"])                            # … its CBC ended with it …
    assert list(tmp_path.iterdir()) == []                       # … and the folder is gone
