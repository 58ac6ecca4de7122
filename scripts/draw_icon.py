"""Draw the dashboard's tab icon (fleetplan_dashboard/icon.png): a chip seen from above, pins on its four sides.

    python scripts/draw_icon.py [--out fleetplan_dashboard/icon.png]

Drawn for this project from the shapes below (no third-party artwork), with the standard library alone: each
pixel's colour is the topmost shape covering it, sampled 4 × 4 times per pixel for smooth edges, written as an
RGBA PNG. The same shapes give the same bytes.
"""

from __future__ import annotations

import argparse
import struct
import zlib
from pathlib import Path

SIZE_PX = 64
SAMPLES = 4                          # per pixel and axis: 16 samples smooth the rounded corners
PIN = (148, 163, 184)                # slate grey
BODY = (30, 41, 59)                  # dark slate
DIE = (56, 189, 248)                 # light blue
PIN_CENTRES_PX = (20, 28, 36, 44)    # four pins a side, 8 px apart, centred on the 64 px square


def _in_rounded_box(x: float, y: float, left: float, top: float, right: float, bottom: float, radius: float) -> bool:
    """True when (x, y) lies in the box with corners rounded by `radius` (all in pixels)."""
    if not (left <= x <= right and top <= y <= bottom):
        return False
    cx = min(max(x, left + radius), right - radius)
    cy = min(max(y, top + radius), bottom - radius)
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2


def _is_pin(x: float, y: float) -> bool:
    """Pins: 4 px wide, from the square's edge (4 px in) to under the body, on each side."""
    for c in PIN_CENTRES_PX:
        across = c - 2 <= x <= c + 2
        if across and (4 <= y <= 16 or 48 <= y <= 60):
            return True
        if c - 2 <= y <= c + 2 and (4 <= x <= 16 or 48 <= x <= 60):
            return True
    return False


def colour_at(x: float, y: float) -> tuple[int, int, int] | None:
    """The colour of the topmost shape at (x, y) in pixels, None where the icon is transparent."""
    if _in_rounded_box(x, y, 24, 24, 40, 40, 2):
        return DIE
    if _in_rounded_box(x, y, 12, 12, 52, 52, 5):
        return BODY
    return PIN if _is_pin(x, y) else None


def pixel(px: int, py: int) -> bytes:
    """One RGBA pixel: the mean colour of its covered samples, alpha the share of samples covered."""
    hits = [c for i in range(SAMPLES) for j in range(SAMPLES)
            if (c := colour_at(px + (i + 0.5) / SAMPLES, py + (j + 0.5) / SAMPLES)) is not None]
    if not hits:
        return bytes(4)
    rgb = [round(sum(c[k] for c in hits) / len(hits)) for k in range(3)]
    return bytes([*rgb, round(255 * len(hits) / SAMPLES ** 2)])


def png_bytes() -> bytes:
    """The icon as a SIZE_PX × SIZE_PX RGBA PNG (8 bits a channel, no interlace)."""
    rows = b"".join(b"\x00" + b"".join(pixel(px, py) for px in range(SIZE_PX)) for py in range(SIZE_PX))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", SIZE_PX, SIZE_PX, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "fleetplan_dashboard" / "icon.png")
    args = parser.parse_args()
    args.out.write_bytes(png_bytes())
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
