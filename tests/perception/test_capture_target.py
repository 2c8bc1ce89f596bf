"""A capture may only write an image file under <data>/nadine_view/ (never stored memory)."""

from __future__ import annotations

import pytest

from common.store import DataLayout
from common.store.layout import PathOutsideDataRoot
from perception.capture import CaptureRefused, capture_target


def test_capture_targets(tmp_path):
    layout = DataLayout(tmp_path)
    assert capture_target(layout, "view.jpg") == layout.captures_dir / "view.jpg"
    assert capture_target(layout, str(layout.captures_dir / "b.PNG")).name == "b.PNG"
    for refused in ("user_ids.json", str(layout.user_ids_file), "../user_ids.json", "view.txt",
                    "samples/x.jpg", str(layout.captures_dir / "a" / "b.jpg"),
                    str(layout.root / "memory" / "x.jpg")):
        with pytest.raises((CaptureRefused, PathOutsideDataRoot)):
            capture_target(layout, refused)
    with pytest.raises(PathOutsideDataRoot):
        capture_target(layout, "/etc/passwd.jpg")


def test_a_symlink_out_of_nadine_view_is_refused(tmp_path):
    layout = DataLayout(tmp_path / "data")
    layout.captures_dir.mkdir(parents=True)
    (layout.captures_dir / "link.jpg").symlink_to(layout.root / "user_ids.json")
    with pytest.raises((CaptureRefused, PathOutsideDataRoot)):
        capture_target(layout, "link.jpg")
