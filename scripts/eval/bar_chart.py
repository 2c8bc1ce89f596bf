"""Grouped bar charts drawn with matplotlib (Agg, no display): stacked panels in one PNG, each bar
labelled with its value in the panel's unit, the legend placed beside the axes so it never covers a bar."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # headless: the report runs on machines without a display

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.ticker import FuncFormatter, PercentFormatter  # noqa: E402


@dataclass
class Panel:
    title: str
    groups: list[str]  # x-axis categories
    series: dict[str, list[float | None]]  # legend name -> one value per group (None: no bar)
    unit: str = ""  # "%" for values already in percent (0-100), " s" for seconds


def _label(value: float, unit: str) -> str:
    return f"{value:.0f}%" if unit == "%" else f"{value:.3g}{unit}"


def _draw_panel(ax: plt.Axes, panel: Panel) -> None:
    x = np.arange(len(panel.groups))
    n_series = max(1, len(panel.series))
    width = 0.8 / n_series
    for s, (name, values) in enumerate(panel.series.items()):
        heights = [np.nan if v is None else v for v in values[: len(panel.groups)]]
        heights += [np.nan] * (len(panel.groups) - len(heights))
        bars = ax.bar(x - 0.4 + width * (s + 0.5), heights, width * 0.95, label=name)
        ax.bar_label(bars, labels=["" if v is None or np.isnan(v) else _label(v, panel.unit) for v in heights],
                     padding=2, fontsize=8)
    ax.set_title(panel.title, loc="left")
    ax.set_xticks(x, panel.groups, fontsize=9)
    ax.set_xlim(-0.5, len(panel.groups) - 0.5)  # a missing (None) bar must not shift the groups
    if panel.unit == "%":
        ax.yaxis.set_major_formatter(PercentFormatter(xmax=100, decimals=0))
        ax.set_ylim(0, 110)  # room for the labels above a 100% bar
    else:
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:g}{panel.unit}"))
        ax.margins(y=0.15)
    ax.grid(axis="y", color="0.9")
    ax.set_axisbelow(True)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)  # outside the axes


def write_png(path: Path, panels: list[Panel]) -> None:
    fig, axes = plt.subplots(max(1, len(panels)), 1, figsize=(11, 3.8 * max(1, len(panels))), squeeze=False)
    for ax, panel in zip(axes[:, 0], panels, strict=False):
        _draw_panel(ax, panel)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png", dpi=100)
    plt.close(fig)
