"""The report figure: a real PNG, rates labelled as percents, the legend outside the bars' axes."""

import matplotlib.pyplot as plt
from PIL import Image

from scripts.eval import bar_chart
from scripts.eval.bar_chart import Panel


def test_percent_panel_labels_and_legend(tmp_path, monkeypatch):
    drawn = []
    monkeypatch.setattr(bar_chart.plt, "close", drawn.append)  # keep the figure to inspect it
    out = tmp_path / "fig.png"
    bar_chart.write_png(out, [
        Panel("latency", ["p50", "p95"], {"condition A": [0.5, 1.25], "condition B": [0.4, None]}, " s"),
        Panel("rates", ["scene injected", "reply refs scene"], {"condition A": [75.0, 66.7], "condition B": [0.0, None]}, "%"),
    ])
    assert Image.open(out).format == "PNG"
    fig = drawn[0]
    rates = fig.axes[1]
    labels = {t.get_text() for t in rates.texts}
    assert {"75%", "67%", "0%"} <= labels
    assert rates.yaxis.get_major_formatter()(50, 0) == "50%"
    legend = rates.get_legend().get_window_extent(fig.canvas.get_renderer())
    axes_box = rates.get_window_extent(fig.canvas.get_renderer())
    assert legend.x0 >= axes_box.x1  # beside the axes, so it cannot cover a bar
    plt.close(fig)
