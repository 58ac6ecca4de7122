"""Dashboard speed as a user feels it: key press on a slider -> the new total painted in a real browser.

Starts `streamlit run app.py` on a free localhost port, drives Debian's /usr/bin/chromium with
Playwright (no downloaded browser) and measures, in the page itself (`performance.now()`):

- first load: navigation start -> the "Total cost" metric painted, on a freshly started server;
- slider steps: each main slider of the Plan page (every workload's demand, the horizon, the electricity
  price; `--all-sliders` adds growth and PUE) moved `--steps` times with the arrow key, one step per
  press; latency = keydown -> the next animation frame after the total's text changed. A user reads
  the new total before pressing again: `--pause` seconds between presses (default 0.5);
- scenario switch: picking another file in the Scenario box -> its total painted.

For startup-hybrid.yaml (the default scenario) and industrial.yaml, first without and then with a
second process keeping one core busy (`--load`), each with a fresh server. Prints median and p95 of
each against the issue's targets and the machine's load averages; asserts nothing (a benchmark, not
a timed test). The server marks its runs in a trace file (`fleetplan_dashboard/trace.py`), lined up
with the browser's clock: each step is split into the rerun request, the page above the total, the
recommended plan (found made ahead, or made then), and the delivery and paint in the browser.
Run: .venv/bin/python benchmarks/dashboard_browser.py [--load quiet|busy|both]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from fleetplan_dashboard.server import free_port, stop, wait_until_healthy

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]
SCENARIOS = ("startup-hybrid.yaml", "industrial.yaml")
TARGETS_MS = {  # the targets: (median, p95) of a slider step; None = no target
    "startup-hybrid.yaml": (150, 300),
    "industrial.yaml": (300, None),
}
TARGET_SWITCH_MS, TARGET_FIRST_LOAD_MS = 1000, 2000

# Runs in the page before Streamlit: stamps every keydown and the paint after each change of the total.
PROBE = """
window.__fp = {key: 0, change: 0, value: null, navigation: 0};
document.addEventListener('keydown', () => { window.__fp.key = performance.now(); }, true);
document.addEventListener('click', () => { window.__fp.click = performance.now(); }, true);
const fpTotal = () => {
  for (const m of document.querySelectorAll('[data-testid="stMetric"]')) {
    if (m.innerText.includes('Total cost')) {
      const v = m.querySelector('[data-testid="stMetricValue"]');
      return v ? v.innerText.trim() : null;
    }
  }
  return null;
};
const fpTitle = () => { const h = document.querySelector('h1'); return h ? h.innerText : ''; };
new MutationObserver(() => {
  const v = fpTotal();
  const t = fpTitle();
  if (v && (v !== window.__fp.seen || t !== window.__fp.seenTitle)) {
    window.__fp.seen = v; window.__fp.seenTitle = t;
    requestAnimationFrame(() => { window.__fp.change = performance.now(); window.__fp.value = v; window.__fp.title = t; });
  }
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


@contextlib.contextmanager
def streamlit_server(log_path: Path, trace_path: Path):
    """`streamlit run app.py` on a free 127.0.0.1 port; yields its URL once /_stcore/health says ok."""
    port = free_port()
    env = dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false", AWS_EC2_METADATA_DISABLED="true",
               FLEETPLAN_DASHBOARD_TRACE=str(trace_path))
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.port", str(port),
             "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            if not wait_until_healthy(url, proc):
                raise SystemExit("streamlit did not start:\n" + log_path.read_text())
            yield url
        finally:
            stop(proc)


@contextlib.contextmanager
def one_core_busy(enabled: bool):
    """A second process spinning on one core for as long as the block runs."""
    if not enabled:
        yield
        return
    proc = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield
    finally:
        proc.kill()
        proc.wait()


def _wait_total(page, timeout_ms: float, since: str, before: str | None = None, title_has: str | None = None):
    """Wait until the total was painted after the event stamped in `window.__fp[since]` (and differs from
    `before`, and the title names `title_has`); return the ms from that event, or None on timeout."""
    condition = f"window.__fp.change > window.__fp.{since} && window.__fp.value"
    if before is not None:
        condition += f" && window.__fp.value !== {before!r}"
    if title_has is not None:
        condition += f" && (window.__fp.title || '').includes({title_has!r})"
    try:
        page.wait_for_function(condition, timeout=timeout_ms)
    except Exception:  # playwright's TimeoutError: the total did not change
        return None
    return page.evaluate(f"window.__fp.change - window.__fp.{since}")


def _sliders(page, all_sliders: bool) -> list[str]:
    """Labels of the Plan page's sliders to move (demand, horizon, electricity; growth and PUE too)."""
    labels = page.locator('[data-testid="stSidebar"] [data-testid="stSlider"] [data-testid="stWidgetLabel"]')
    names = [t.strip() for t in labels.all_inner_texts()]
    main = ("GPU-hours per month", "Horizon", "Electricity")
    return [n for n in names if all_sliders or any(m in n for m in main)]


def _epochs(page, since: str) -> tuple[float, float]:
    """(the event, the total painted after it) in seconds since the epoch: the server's trace clock."""
    return tuple(page.evaluate(f"[(performance.timeOrigin + window.__fp.{since}) / 1000, "
                               "(performance.timeOrigin + window.__fp.change) / 1000]"))


def _move(page, label: str, steps: int, pause: float, timeout_ms: float, stamps: list) -> tuple[list[float], int]:
    """Press the arrow key `steps` times on the slider labelled `label`: (latencies in ms, unchanged steps);
    appends (key press, total painted) in epoch seconds to `stamps`."""
    slider = page.locator('[data-testid="stSidebar"] [data-testid="stSlider"]').filter(has_text=label).first
    thumb = slider.locator('input[type="range"]')
    value, top = float(thumb.input_value()), float(thumb.get_attribute("max") or "inf")
    key = "ArrowRight" if value < top - 1e-9 else "ArrowLeft"
    latencies, unchanged = [], 0
    for _ in range(steps):
        thumb.focus()
        before = page.evaluate("window.__fp.value")
        page.keyboard.press(key)
        ms = _wait_total(page, timeout_ms, "key", before=before)
        if ms is None:
            unchanged += 1
        else:
            latencies.append(ms)
            stamps.append(_epochs(page, "key"))
        time.sleep(pause)
    return latencies, unchanged


def _switch(page, file_name: str, title: str, timeout_ms: float) -> float | None:
    """Pick `file_name` in the Scenario box: ms from the click on the option to its total painted."""
    box = page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').filter(has_text="Scenario").first
    option = page.locator('[role="option"]').get_by_text(file_name, exact=True)
    for _ in range(5):   # the list may not open while the page redraws: open it again
        box.locator("input").click()
        try:
            option.wait_for(timeout=3000)
            break
        except Exception:
            page.keyboard.press("Escape")
    before = page.evaluate("window.__fp.value")
    option.click()
    return _wait_total(page, timeout_ms, "click", before=before, title_has=title)


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def _line(label: str, values: list[float], target: tuple[float | None, float | None] = (None, None)) -> str:
    if not values:
        return f"  {label:<44} no measurement"
    med, p95 = statistics.median(values), _p95(values)
    verdict = []
    if target[0] is not None:
        verdict.append(f"median {'meets' if med <= target[0] else 'misses'} <= {target[0]:.0f}")
    if target[1] is not None:
        verdict.append(f"p95 {'meets' if p95 <= target[1] else 'misses'} <= {target[1]:.0f}")
    return (f"  {label:<44} median {med:7.0f} ms   p95 {p95:7.0f}   max {max(values):7.0f}   n={len(values):<3}"
            + (f"  ({', '.join(verdict)})" if verdict else ""))


def _read_trace(path: Path) -> list[tuple[float, str]]:
    """The server's marks (`fleetplan_dashboard.trace`): (epoch seconds, event), in time order."""
    if not path.exists():
        return []
    marks = []
    for line in path.read_text().splitlines():
        when, _, event = line.partition(" ")
        with contextlib.suppress(ValueError):
            marks.append((float(when), event))
    return sorted(marks)


def _breakdown(stamps: list[tuple[float, float]], marks: list[tuple[float, str]]) -> dict[str, list[float]]:
    """Where each step's time went, in ms, from the server's marks lined up with the browser's stamps: the
    rerun request reaching the script, the page above the total (widgets, edited scenario), the recommended
    plan (found made, or made or waited for), the total written, and its delivery and paint."""
    parts: dict[str, list[float]] = {}
    for key, painted in stamps:
        start = next((t for t, e in marks if e == "start" and t >= key), None)
        run = [(t, e) for t, e in marks if start is not None and t >= start]
        total = next((t for t, e in run if e == "total"), None)
        if total is None or total > painted + 0.05:
            continue
        page = next((t for t, e in run if e == "p:page"), start)
        made = next((t for t, e in run if e == "p:plan"), page)
        for name, ms in (("key -> run start", start - key), ("run start -> page drawn above the total", page - start),
                         ("recommended plan (cache, or engine)", made - page), ("plan -> total written", total - made),
                         ("total written -> painted in the browser", painted - total)):
            parts.setdefault(name, []).append(ms * 1000)
    return parts


def _print_breakdown(parts: dict[str, list[float]]) -> None:
    for part, values in parts.items():
        print(f"      {part:<44} median {statistics.median(values):5.0f} ms   p95 {_p95(values):5.0f}")
    plans = parts.get("recommended plan (cache, or engine)", [])
    if plans:
        found = sum(ms < 20 for ms in plans)
        print(f"      plan found made (< 20 ms) in {found} of {len(plans)} steps")


def _titles() -> dict[str, str]:
    from planner import load_scenario

    return {name: load_scenario(ROOT / "scenarios" / name).name for name in SCENARIOS}


def run_pass(busy: bool, args) -> None:
    from playwright.sync_api import sync_playwright

    titles = _titles()
    log = ROOT / "tests" / "artifacts" / f"benchmark-streamlit-{'busy' if busy else 'quiet'}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    trace_path = log.with_suffix(".trace")
    trace_path.unlink(missing_ok=True)
    load_before = os.getloadavg()
    with one_core_busy(busy), streamlit_server(log, trace_path) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.add_init_script(PROBE)
        page.goto(url, wait_until="commit")
        page.wait_for_function("window.__fp && window.__fp.value", timeout=120_000)
        first_load = page.evaluate("window.__fp.change")
        first_stamps = _epochs(page, "navigation")
        time.sleep(args.settle)
        steps: dict[str, list[float]] = {}
        per_slider: dict[str, list[tuple[str, float]]] = {}
        unchanged: dict[str, int] = {}
        stamps: dict[str, list[tuple[float, float]]] = {}
        switches: list[float] = []
        order = [SCENARIOS[0], SCENARIOS[1], SCENARIOS[0], SCENARIOS[1]]
        for i, name in enumerate(order):
            if i:
                ms = _switch(page, name, titles[name], args.timeout * 1000)
                if ms is not None:
                    switches.append(ms)
                time.sleep(args.settle)
            if name in steps:
                continue
            steps[name], per_slider[name], unchanged[name], stamps[name] = [], [], 0, []
            for label in _sliders(page, args.all_sliders):
                latencies, same = _move(page, label, args.steps, args.pause, args.timeout * 1000, stamps[name])
                steps[name] += latencies
                per_slider[name].append((label, statistics.median(latencies) if latencies else float("nan")))
                unchanged[name] += same
        browser.close()
    load_after = os.getloadavg()
    marks = _read_trace(trace_path)

    print(f"\n{'With a second process keeping one core busy' if busy else 'No extra load'}   "
          f"(load averages 1/5/15 min: before {'/'.join(f'{x:.2f}' for x in load_before)}, "
          f"after {'/'.join(f'{x:.2f}' for x in load_after)}; {os.cpu_count()} cores)")
    print(_line("first load (navigation -> total painted)", [first_load], (TARGET_FIRST_LOAD_MS, None)))
    navigation, painted = first_stamps
    start = next((t for t, e in marks if e == "start"), None)
    total = next((t for t, e in marks if e == "total"), None)
    if start is not None and total is not None:
        print(f"      navigation -> first run starts {(start - navigation) * 1000:.0f} ms (the browser loads Streamlit), "
              f"-> total written {(total - start) * 1000:.0f} ms (imports, first plan), "
              f"-> painted {(painted - total) * 1000:.0f} ms")
    for name in SCENARIOS:
        print(_line(f"slider step -> new total, {name}", steps.get(name, []), TARGETS_MS[name]))
        print("      per slider (median ms): " + ", ".join(f"{label.split(',')[0]} {ms:.0f}"
                                                          for label, ms in per_slider.get(name, [])))
        if unchanged.get(name):
            print(f"      {unchanged[name]} steps left the total unchanged (not counted)")
        _print_breakdown(_breakdown(stamps.get(name, []), marks))
    print(_line("scenario switch -> new total", switches, (TARGET_SWITCH_MS, None)))
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--load", choices=("quiet", "busy", "both"), default="both",
                        help="quiet: no extra load; busy: a second process keeps one core busy; both (default)")
    parser.add_argument("--steps", type=int, default=10, help="arrow-key steps per slider (default 10)")
    parser.add_argument("--pause", type=float, default=0.5, help="seconds between presses: reading the total (0.5)")
    parser.add_argument("--settle", type=float, default=2.0, help="seconds after a load or switch before moving (2)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for a total to change (10)")
    parser.add_argument("--all-sliders", action="store_true", help="move the growth and PUE sliders too")
    args = parser.parse_args()
    if not CHROMIUM.exists():
        print(f"skipped: needs Debian's chromium at {CHROMIUM}")
        return
    print(f"Dashboard in Chromium: {args.steps} steps per slider, {args.pause:g} s between presses, "
          f"scenario switches {SCENARIOS[0]} <-> {SCENARIOS[1]}")
    for busy in {"quiet": (False,), "busy": (True,), "both": (False, True)}[args.load]:
        run_pass(busy, args)


if __name__ == "__main__":
    main()
