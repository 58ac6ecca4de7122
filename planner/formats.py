"""Output formats shared by the CLI commands."""

from enum import Enum


class Format(str, Enum):
    table = "table"
    json = "json"
    csv = "csv"
