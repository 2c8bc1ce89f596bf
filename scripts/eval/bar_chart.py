"""Grouped bar charts drawn with Pillow (matplotlib is not a dependency): enough for an evaluation
summary figure, stacked panels in one PNG."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

PALETTE = ((52, 101, 164), (204, 102, 0), (78, 154, 6), (117, 80, 123), (164, 0, 0))
WIDTH, PANEL_HEIGHT, MARGIN_LEFT, MARGIN_BOTTOM, MARGIN_TOP = 1000, 360, 70, 70, 40


@dataclass
class Panel:
    title: str
    groups: list[str]  # x-axis categories
    series: dict[str, list[float | None]]  # legend name -> one value per group (None: no bar)
    unit: str = ""


def _font(size: int) -> ImageFont.ImageFont:
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow built without FreeType
        return ImageFont.load_default()


def _nice_max(value: float) -> float:
    """The smallest 1, 2, 2.5 or 5 times a power of ten that is >= value (the axis top)."""
    if value <= 0:
        return 1.0
    magnitude = 10 ** math.floor(math.log10(value))
    return next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= value)


def _draw_panel(draw: ImageDraw.ImageDraw, panel: Panel, top: int) -> None:
    small, title_font = _font(12), _font(16)
    x0, x1 = MARGIN_LEFT, WIDTH - 20
    y0, y1 = top + MARGIN_TOP, top + PANEL_HEIGHT - MARGIN_BOTTOM
    draw.text((x0, top + 10), panel.title, fill="black", font=title_font)
    values = [v for vals in panel.series.values() for v in vals if v is not None]
    ymax = _nice_max(max(values, default=0.0))
    for i in range(5):
        y = y1 - (y1 - y0) * i / 4
        draw.line([(x0, y), (x1, y)], fill=(225, 225, 225))
        draw.text((8, y - 7), f"{ymax * i / 4:g}{panel.unit}", fill="black", font=small)
    draw.line([(x0, y0), (x0, y1), (x1, y1)], fill="black")
    n_groups, n_series = max(1, len(panel.groups)), max(1, len(panel.series))
    group_w = (x1 - x0) / n_groups
    bar_w = group_w * 0.8 / n_series
    for g, label in enumerate(panel.groups):
        gx = x0 + g * group_w + group_w * 0.1
        for s, (_, vals) in enumerate(panel.series.items()):
            value = vals[g] if g < len(vals) else None
            if value is None:
                continue
            bx = gx + s * bar_w
            by = y1 - (y1 - y0) * min(value, ymax) / ymax
            draw.rectangle([bx, by, bx + bar_w - 2, y1], fill=PALETTE[s % len(PALETTE)])
            draw.text((bx, by - 14), f"{value:.2g}", fill="black", font=small)
        draw.text((gx, y1 + 6), label, fill="black", font=small)
    for s, name in enumerate(panel.series):
        lx = x1 - 150
        ly = top + 12 + s * 16
        draw.rectangle([lx, ly, lx + 12, ly + 12], fill=PALETTE[s % len(PALETTE)])
        draw.text((lx + 18, ly - 1), name, fill="black", font=small)


def write_png(path: Path, panels: list[Panel]) -> None:
    image = Image.new("RGB", (WIDTH, PANEL_HEIGHT * max(1, len(panels))), "white")
    draw = ImageDraw.Draw(image)
    for i, panel in enumerate(panels):
        _draw_panel(draw, panel, i * PANEL_HEIGHT)
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path, format="PNG")
