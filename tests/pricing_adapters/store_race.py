"""Many processes calling `open_store` on the same path at the same instant (test_attacks.py and
benchmarks/store_race.py). Each process imports once, then runs every round: all wait at a barrier,
then open the round's path together, so the race window is as narrow as the OS can make it."""

from __future__ import annotations

import multiprocessing as mp
import queue
import sqlite3
import tempfile
from pathlib import Path


def _worker(paths: list[str], barrier, results, wid: int) -> None:
    from pricing_adapters.store import open_store

    out = []
    for path in paths:
        try:
            barrier.wait(timeout=120)
            store, warning = open_store(path)
            out.append(("store" if store is not None else "none", warning or ""))
        except BaseException as exc:  # noqa: BLE001 - reported to the parent, which fails the test
            out.append(("raised", f"{type(exc).__name__}: {exc}"))
    results.put((wid, out))


def race(paths: list[Path], processes: int, timeout: float = 300.0) -> list[list[tuple[str, str]]]:
    """For each round (one path each), what every process got: ("store" | "none" | "raised", message)."""
    ctx = mp.get_context("spawn")
    barrier, results = ctx.Barrier(processes), ctx.Queue()
    procs = [ctx.Process(target=_worker, args=([str(p) for p in paths], barrier, results, i), daemon=True)
             for i in range(processes)]
    for p in procs:
        p.start()
    got: dict[int, list] = {}
    try:
        for _ in procs:
            wid, out = results.get(timeout=timeout)
            got[wid] = out
    except queue.Empty:
        raise TimeoutError(f"only {len(got)} of {processes} processes finished within {timeout} s") from None
    finally:
        for p in procs:
            p.join(timeout=10)
            if p.is_alive():
                p.kill()
    return [[got[w][r] for w in sorted(got)] for r in range(len(paths))]


def foreign_sqlite(path: Path) -> bytes:
    """Write a user's own SQLite database (not a fleetplan store) at `path`; its bytes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    con.executemany("INSERT INTO notes (body) VALUES (?)", [(f"my note {i}",) for i in range(200)])
    con.commit()
    con.close()
    return path.read_bytes()


def damage(path: Path) -> bytes:
    """Overwrite every byte of the SQLite file at `path` after its 100-byte header (a disk fault that
    spared the header: SQLite reports "database disk image is malformed"); the new bytes."""
    data = path.read_bytes()
    data = data[:100] + b"\xff" * (len(data) - 100)
    path.write_bytes(data)
    return data


def damaged_store(path: Path) -> bytes:
    """Write a fleetplan price store, damaged by `damage`, at `path` (its header still says it is ours:
    application id "FPLN"); its bytes. Made in another folder, so `path`'s folder holds no lock file."""
    from pricing_adapters.store import PriceStore

    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        made = PriceStore(Path(tmp) / "prices.sqlite").path
        path.write_bytes(made.read_bytes())
    return damage(path)
