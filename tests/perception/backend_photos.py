"""The shared photo sets as (manifest row, RGB image) pairs, for the backend tests."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from common.vision.image import read_rgb


def manifest_photos(shared_data: Path, folder: str) -> Iterator[tuple[dict[str, str], np.ndarray]]:
    with open(shared_data / folder / "MANIFEST.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        yield row, read_rgb(shared_data / folder / row["file"])
