"""What every process's __main__ shares: parse common flags, load config, log, connect, wait for a stop."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from dataclasses import dataclass

from common.bus import Bus
from common.clock import Clock
from common.config import ConfigError, NadineSettings, load_settings
from common.config.env import describe_unknown_env_vars
from common.logs import setup_logging
from common.model_files import MODEL_FILES, ModelFileMismatch, ModelFiles
from common.store import DataLayout, SceneStore
from common.store.atomic import LEFTOVER_AGE_S, sweep_leftovers
from common.topics import Topics


@dataclass
class ProcessContext:
    name: str
    settings: NadineSettings
    layout: DataLayout
    topics: Topics
    bus: Bus
    clock: Clock
    stop_event: threading.Event


def base_parser(process: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=f"python -m {process}")
    parser.add_argument(
        "--config-override", action="append", default=[], metavar="KEY=VALUE",
        help="override one config key, e.g. perception.camera.fps=5",
    )
    return parser


def startup_sweep(layout: DataLayout) -> int:
    """Remove what a killed writer left half-done: temp files, folders pending deletion, scene
    images without metadata (readers already skip all of these)."""
    removed = sweep_leftovers(layout.root)
    scenes = SceneStore(layout)
    for user_id in layout.user_ids():
        removed += scenes.sweep_orphans(user_id, LEFTOVER_AGE_S)
    return removed


def problems_stream():  # noqa: ANN201 - a text stream or None
    """NADINE_PROBLEMS_FD: a descriptor open on the terminal that started the suite (start_nadine.sh),
    where every error is said once, on one line, while the log file keeps the details."""
    fd = os.environ.get("NADINE_PROBLEMS_FD", "")
    if not fd.isdigit():
        return None
    try:
        return os.fdopen(int(fd), "w", buffering=1, closefd=False)
    except OSError:
        return None  # not inherited (started by hand with the variable set): the log file still has it


def refuse_changed_models(name: str, files: ModelFiles, console: bool) -> None:
    """Exit 2 with one line naming the file and its package when a model file the process loads is
    not the published one (the line goes to the log, and to stderr also when the log does not)."""
    try:
        files.check_process(name)
    except ModelFileMismatch as exc:
        logging.getLogger(f"nadine.{name}").critical("%s", exc)
        if not console:
            print(f"{name}: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


def start_process(name: str, args: argparse.Namespace) -> ProcessContext:
    """Load and validate config (exit 2 with one line naming the bad key), check the model files (exit
    2 with one line naming a changed one), set up logging and the bus."""
    try:
        settings = load_settings(overrides=args.config_override, process=name)
    except ConfigError as exc:
        print(f"{name}: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    common = settings.common
    # NADINE_LOG_TO_FILE=0: the caller keeps the process's stderr as its log (the runner, tests);
    # NADINE_LOG_CONSOLE=0: the rotated file only (start_nadine.sh)
    to_file = os.environ.get("NADINE_LOG_TO_FILE", "1") != "0"
    console = os.environ.get("NADINE_LOG_CONSOLE", "1") != "0"
    setup_logging(name, common.log_dir if to_file else None, common.log_level, data_root=common.data_dir,
                  console=console, problems=problems_stream())
    for line in describe_unknown_env_vars(dict(os.environ)):
        logging.getLogger(f"nadine.{name}").warning(line.removeprefix("warning: "))
    refuse_changed_models(name, MODEL_FILES, console)
    layout = DataLayout(common.data_dir, common.robot_id)
    layout.root.mkdir(parents=True, exist_ok=True)
    startup_sweep(layout)
    topics = Topics(common.topic_root)
    bus = Bus(name, common.mqtt, topics)
    stop_event = threading.Event()

    def _stop(signum: int, frame: object) -> None:
        logging.getLogger(f"nadine.{name}").info("signal %d: stopping", signum)
        stop_event.set()

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    return ProcessContext(name, settings, layout, topics, bus, Clock(layout.runtime_dir), stop_event)
