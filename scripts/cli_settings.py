"""What the operator CLIs (scripts.memory, scripts.inspector) share at start: quiet logging to stderr and
settings for the data root they were pointed at."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from common.config import NadineSettings
from common.config.loader import ConfigError, load_settings


def cli_settings(args: argparse.Namespace, tool: str) -> NadineSettings | None:
    """Settings from --data-dir / --config-override, or None after one line naming the problem."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    for noisy in ("nadine.bus", "chromadb", "httpx"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    overrides = list(args.config_override)
    if args.data_dir:
        overrides.append(f"common.data_dir={Path(args.data_dir).resolve()}")
    try:
        return load_settings(overrides=overrides)
    except ConfigError as exc:
        print(f"{tool}: {exc}", file=sys.stderr)
        return None
