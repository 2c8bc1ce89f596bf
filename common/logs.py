"""Logging setup: one line per event to stderr and to <log_dir>/<process>.log."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"


def setup_logging(process: str, log_dir: Path | None, level: str = "INFO") -> None:
    root = logging.getLogger()
    root.setLevel(level)
    for handler in list(root.handlers):
        root.removeHandler(handler)
    formatter = logging.Formatter(FORMAT)
    stderr = logging.StreamHandler(sys.stderr)
    stderr.setFormatter(formatter)
    root.addHandler(stderr)
    if log_dir is not None:
        log_dir.mkdir(parents=True, exist_ok=True)
        fh = logging.FileHandler(log_dir / f"{process}.log", encoding="utf-8")
        fh.setFormatter(formatter)
        root.addHandler(fh)
    for noisy in ("httpx", "chromadb", "urllib3", "httpcore", "openai"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
