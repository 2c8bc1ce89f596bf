"""Whether the camera preview window can open here: checked at start so --preview refuses with one
line naming the fix, instead of failing on the first frame (the default install is OpenCV's headless
build, which has no window support).

    python -m perception.preview   exit 0 when a preview can open, else 2 with the reason
"""

from __future__ import annotations

import os
import re
import sys

import cv2

GUI_FIX = (".venv/bin/pip uninstall -y opencv-python-headless && "
           ".venv/bin/pip install 'opencv-python>=4.9,<5'")


def preview_unavailable(environ: dict[str, str] | None = None) -> str | None:
    """None when a preview window can open, else one line saying why and what to do."""
    environ = os.environ if environ is None else environ
    gui = re.search(r"^\s*GUI:\s*(\S+)", cv2.getBuildInformation(), re.M)
    if gui is None or gui.group(1).upper() == "NONE":
        return f"--preview needs OpenCV with window support, and this one is the headless build; install it: {GUI_FIX}"
    if sys.platform.startswith("linux") and not (environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY")):
        return "--preview needs a display (DISPLAY or WAYLAND_DISPLAY is not set); run it on the robot's desktop"
    return None


def main() -> int:
    reason = preview_unavailable()
    if reason:
        print(f"perception: {reason}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
