"""The dashboard's tab icon is a file of the package (no request to fonts.gstatic.com for a material icon): found
where app.py looks for it, readable as package data, and declared so that a wheel carries it.

Facts from outside the code: the PNG format's signature and IHDR layout (width, height at bytes 16-24), and
setuptools' rule that a package's data files are those matching its [tool.setuptools.package-data] globs.
"""

from __future__ import annotations

import struct
from fnmatch import fnmatch
from importlib.resources import files
from pathlib import Path

import pytest

from fleetplan_dashboard import app

ROOT = Path(__file__).resolve().parents[2]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def test_the_icon_app_py_passes_is_a_64_px_png_of_the_package():
    data = files("fleetplan_dashboard").joinpath("icon.png").read_bytes()
    assert data[:8] == PNG_SIGNATURE and data[12:16] == b"IHDR"
    assert struct.unpack(">II", data[16:24]) == (64, 64)
    assert app.ICON.read_bytes() == data                     # the same file: the path app.py gives page_icon
    assert app.ICON.parent == Path(app.__file__).resolve().parent


def test_pyproject_declares_the_icon_as_package_data_so_a_wheel_carries_it():
    tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from Python 3.11")
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]
    name = app.ICON.relative_to(Path(app.__file__).resolve().parent).as_posix()
    assert any(fnmatch(name, glob) for glob in package_data.get("fleetplan_dashboard", [])), package_data
