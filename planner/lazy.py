"""Names a package imports on first use (PEP 562), so that importing the package stays light: `planner`
(all `fleetplan --help` imports of it), `planner.engine` (the decision values) and `planner.reports` (the
workbook, FOCUS and Markdown writers)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable


def lazy_names(package: str, names: dict[str, str | tuple[str, str]]) -> tuple[Callable, Callable]:
    """(__getattr__, __dir__) for the package `package`. Each of `names` is imported on first use and kept
    in the package: `"name": "module"`, or `"name": ("module", "attribute")` for another name there. The
    package's own submodules among those modules are its attributes as if imported with it
    (`planner.reports.excel`), imported on first use too."""
    prefix = f"{package}."
    modules = {target if isinstance(target, str) else target[0] for target in names.values()}
    submodules = {m.removeprefix(prefix) for m in modules if m.startswith(prefix) and "." not in m.removeprefix(prefix)}

    def __getattr__(name: str):
        if name in submodules:
            return importlib.import_module(prefix + name)
        target = names.get(name)
        if target is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, attribute = (target, name) if isinstance(target, str) else target
        value = getattr(importlib.import_module(module), attribute)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *names, *submodules})

    return __getattr__, __dir__
