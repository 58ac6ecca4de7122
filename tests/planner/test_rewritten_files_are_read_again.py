"""A price or profile CSV rewritten in place is read again by the next plan of the same process, even
when the new text has the old size and the old modification time is put back (`touch -r`, `cp -p`,
`rsync -t`): the caches' keys held only the mtime and size, and the second plan used the old prices.
The figures to match come from a fresh `fleetplan` process, which has no cache."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from planner import plan

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "worked-example.yaml"


def _scenario(tmp_path: Path, **workload) -> Path:
    data = yaml.safe_load(EXAMPLE.read_text())
    data["horizon_months"] = 12
    shutil.copy(EXAMPLE.parent / data["prices"]["source"], tmp_path / "offers.csv")
    data["prices"]["source"] = str(tmp_path / "offers.csv")
    data["workloads"][0].update(workload)
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def _rewrite_keeping_size_and_mtime(path: Path, old: str, new: str) -> None:
    assert len(old) == len(new)
    st = path.stat()
    text = path.read_text()
    assert text.count(old) == 1
    path.write_text(text.replace(old, new))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns) == (st.st_size, st.st_mtime_ns)


def _fresh_total(path: Path) -> float:
    fleetplan = Path(sys.executable).with_name("fleetplan")
    out = subprocess.run([str(fleetplan), "plan", str(path), "--format", "json", "--no-decisions", "--no-baselines"],
                         capture_output=True, text=True, check=True,
                         env=dict(os.environ, AWS_EC2_METADATA_DISABLED="true"))
    return json.loads(out.stdout)["total"]


def test_an_offers_csv_rewritten_with_its_old_size_and_mtime_is_read_again(tmp_path):
    path = _scenario(tmp_path)
    before = plan(path, baselines=False).total
    _rewrite_keeping_size_and_mtime(tmp_path / "offers.csv", ",1.006,", ",2.006,")   # the g5.xlarge hour
    after = plan(path, baselines=False).total
    assert after > before
    assert after == pytest.approx(_fresh_total(path), rel=1e-9)


def test_a_profile_csv_rewritten_with_its_old_size_and_mtime_is_read_again(tmp_path):
    profile = tmp_path / "profile.csv"
    profile.write_text("1\n" * 168)
    path = _scenario(tmp_path, profile=str(profile))
    before = plan(path, baselines=False).total
    # business hours (Mon-Fri 09-18) at 9, the rest at 1: the same 336 characters
    weights = ["9" if h // 24 < 5 and 9 <= h % 24 < 18 else "1" for h in range(168)]
    st = profile.stat()
    profile.write_text("".join(w + "\n" for w in weights))
    os.utime(profile, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert (profile.stat().st_size, profile.stat().st_mtime_ns) == (st.st_size, st.st_mtime_ns)
    after = plan(path, baselines=False).total
    assert after != pytest.approx(before, rel=1e-6)   # a peaky week needs more capacity than a flat one
    assert after == pytest.approx(_fresh_total(path), rel=1e-9)
