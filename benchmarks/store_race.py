"""The store race at full size: N processes open one store path at once, R rounds, three cases.

    .venv/bin/python benchmarks/store_race.py [--rounds 50] [--processes 20]

Cases per round: a user's foreign SQLite file at the path and a file that is no database at all (each
must survive byte for byte, untouched, with no lock file beside it, every process refused it with StoreForeign),
a fresh path (exactly one valid
store, no process fails), and a damaged store of ours (its header still says so: set aside once, byte
for byte). The test suite runs the same code with fewer rounds (tests/pricing_adapters/test_attacks.py).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "pricing_adapters"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from store_race import damaged_store, foreign_sqlite, race  # noqa: E402

from pricing_adapters.store import APPLICATION_ID, _connect  # noqa: E402


def main() -> int:
    """Run the rounds; print failures and timings; 0 when every round held."""
    args = argparse.ArgumentParser()
    args.add_argument("--rounds", type=int, default=50)
    args.add_argument("--processes", type=int, default=20)
    opts = args.parse_args()
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        foreign = [root / f"foreign{r}" / "prices.sqlite" for r in range(opts.rounds)]
        garbage = [root / f"garbage{r}" / "prices.sqlite" for r in range(opts.rounds)]
        fresh = [root / f"fresh{r}" / "prices.sqlite" for r in range(opts.rounds)]
        damaged = [root / f"damaged{r}" / "prices.sqlite" for r in range(opts.rounds)]
        originals = {p: foreign_sqlite(p) for p in foreign}
        for p in garbage:
            p.parent.mkdir(parents=True)
            p.write_bytes(b"not a database " * 500)
            originals[p] = p.read_bytes()
        damaged_bytes = {p: damaged_store(p) for p in damaged}
        started = time.perf_counter()
        results = race(foreign + garbage + fresh + damaged, opts.processes)
        took = time.perf_counter() - started
        for p, got in zip(foreign + garbage + fresh + damaged, results):
            # another application's file is refused (StoreForeign), never opened nor replaced by the packaged prices
            foreign_refused = p in originals and all(m.startswith("StoreForeign: ") for _, m in got)
            raised = [m for kind, m in got if kind == "raised" and not foreign_refused]
            failures += bool(raised) + (p in originals and not foreign_refused)
            if p in originals and (not p.exists() or p.read_bytes() != originals[p]
                                   or [q.name for q in p.parent.iterdir()] != ["prices.sqlite"]):
                failures += 1
                print(f"another application's file changed, moved or given a lock file: {p}")
            if p in fresh:
                con = _connect(p)
                ok = con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
                con.close()
                extra = [q.name for q in p.parent.iterdir() if q.name not in ("prices.sqlite", "prices.sqlite.lock")]
                if not ok or extra or any(kind != "store" for kind, _ in got):
                    failures += 1
                    print(f"fresh path: store ok={ok}, extra files {extra}, results { {k for k, _ in got} }")
            if p in damaged_bytes:
                asides = list(p.parent.glob("*.bad-*"))
                if len(asides) != 1 or asides[0].read_bytes() != damaged_bytes[p]:
                    failures += 1
                    print(f"damaged store: {len(asides)} copies set aside")
            for m in raised:
                print(f"raised: {m}")
    print(f"{opts.rounds} rounds x 4 cases x {opts.processes} processes: {failures} failures, "
          f"{took:.1f} s in all, process start-up included")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
