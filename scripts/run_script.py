"""python -m scripts.run_script FILE [--data-dir DIR] [--keep] [--config-override key=value ...] [--demo]

Plays a conversation script (shared/spec/conversation-script.md) against the whole suite: starts a
private Mosquitto on a free loopback port and every process not already online there, with a fresh
data root (unless --data-dir or the script's data_dir names one) and perception watching a folder the
runner fills with the session's camera images. Prints one JSON object per turn and a summary line on
stdout; logs go to stderr and logs/run_script/<script>-<time>/. Exit code: 0 every expectation met,
1 some not met, 2 the suite could not run. --demo prints a readable transcript on stdout instead,
writes the JSON lines to turns.jsonl in the log folder (its path is printed at the end), and paces the
turns like a person: each waits until Nadine has finished speaking the previous reply.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import TextIO

from common.bus import Bus
from common.config import ConfigError, load_settings
from common.config.loader import PROJECT_ROOT
from common.logs import FORMAT
from common.supervisor.suite import Suite, SuiteError
from scripts.runner.camera import CameraFeeder
from scripts.runner.observer import Observer
from scripts.runner.player import ScriptPlayer, TurnOutcome
from scripts.runner.script import ScriptError, load_script
from scripts.runner.transcript import Transcript

log = logging.getLogger("nadine.runner")

EXIT_MET, EXIT_UNMET, EXIT_SUITE = 0, 1, 2
RECORDS_FILE = "turns.jsonl"
# Sessions change quickly: a person who left is "gone" after 1.5 s instead of the robot's 5 s, and a
# script's next session is a new meeting (no presence grace period, which would join the two).
DEFAULT_OVERRIDES = ("perception.faces.no_face_timeout_s=1.5", "interaction.presence_grace_s=0")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m scripts.run_script", description=__doc__.split("\n\n")[0])
    p.add_argument("file", type=Path, help="conversation script (YAML)")
    p.add_argument("--data-dir", type=Path, help="data root to use (default: the script's data_dir, else a fresh temp dir)")
    p.add_argument("--keep", action="store_true", help="keep the temporary data root and camera folder")
    p.add_argument("--config-override", action="append", default=[], metavar="KEY=VALUE",
                   help="passed to every process after the runner's own, e.g. perception.camera.fps=5")
    p.add_argument("--demo", action="store_true",
                   help="print a readable transcript (JSON lines go to <log dir>/turns.jsonl), and let Nadine "
                        "finish speaking before each turn")
    p.add_argument("--broker", metavar="HOST:PORT", help="use this broker (and processes already online on it)")
    p.add_argument("--log-dir", type=Path, help="where the processes' and the runner's logs go")
    return p.parse_args(argv)


def setup_logging(log_dir: Path, quiet: bool) -> None:
    root = logging.getLogger()
    root.setLevel(logging.INFO)
    for handler in list(root.handlers):
        root.removeHandler(handler)
    formatter = logging.Formatter(FORMAT)
    stderr = logging.StreamHandler(sys.stderr)
    stderr.setLevel(logging.WARNING if quiet else logging.INFO)
    stderr.setFormatter(formatter)
    log_dir.mkdir(parents=True, exist_ok=True)
    file = logging.FileHandler(log_dir / "run_script.log", encoding="utf-8")
    file.setFormatter(formatter)
    root.addHandler(stderr)
    root.addHandler(file)


def _broker(text: str | None) -> tuple[str, int] | None:
    if not text:
        return None
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        raise SystemExit(f"--broker must look like HOST:PORT, not {text!r}")
    return host, int(port)


def watch_line(host: str, port: int, root: str) -> str:
    """Where the suite's broker is (a private port) and the command that shows its traffic."""
    return f"broker {host}:{port}; watch it: mosquitto_sub -h {host} -p {port} -t '{root}/#' -v"


def _emit(obj: dict, out: TextIO) -> None:
    print(json.dumps(obj, ensure_ascii=False), file=out, flush=True)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # SIGTERM must also stop the suite this runner started


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, _interrupt)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    log_base = Path(os.environ.get("NADINE_LOG_DIR") or PROJECT_ROOT / "logs")
    log_dir = (args.log_dir or log_base / "run_script" / f"{args.file.stem}-{stamp}-{os.getpid()}").resolve()
    setup_logging(log_dir, quiet=args.demo)
    try:
        script, cameras = load_script(args.file.resolve())
    except ScriptError as exc:
        log.error("%s", exc)
        return EXIT_SUITE
    scratch = Path(tempfile.mkdtemp(prefix="nadine-run-"))
    camera_dir = scratch / "camera"
    if args.data_dir:
        data_dir = args.data_dir.resolve()
    elif script.data_dir:
        data_dir = (args.file.resolve().parent / script.data_dir).resolve()
    else:
        data_dir = scratch / "data"  # removed with the scratch folder unless --keep
    overrides = [f"perception.camera.source=watch:{camera_dir}", *DEFAULT_OVERRIDES, *args.config_override]
    try:
        settings = load_settings(overrides=overrides)
    except ConfigError as exc:
        log.error("%s", exc)
        shutil.rmtree(scratch, ignore_errors=True)
        return EXIT_SUITE
    log.info("script %s: %d sessions; data root %s; logs %s", args.file, len(script.sessions), data_dir, log_dir)
    transcript = Transcript(sys.stdout) if args.demo else None
    records_path = log_dir / RECORDS_FILE if args.demo else None
    records = open(records_path, "w", encoding="utf-8") if records_path else sys.stdout  # noqa: SIM115
    camera = CameraFeeder(camera_dir)
    suite = Suite(data_dir, log_dir, overrides, topic_root=settings.common.topic_root, broker=_broker(args.broker))
    bus: Bus | None = None
    turns = expectations = met = 0
    code = EXIT_SUITE
    try:
        suite.start()
        # the suite's broker listens on a private port: say where, so the bus can be watched
        print(watch_line(suite.host, suite.port, suite.topics.root), file=sys.stderr, flush=True)
        if "perception" in suite.reused:
            log.warning("perception was already running: it does not see this script's camera images")
        bus = Bus("runner", suite.mqtt_settings, suite.topics)
        observer = Observer(bus)
        if not bus.start(wait_s=10):
            raise SuiteError("the runner could not connect to the broker")
        player = ScriptPlayer(bus, observer, camera, data_dir, settings.perception.faces.no_face_timeout_s,
                              alive=suite.check_alive, settings=settings, wait_for_speech=args.demo)
        for event in player.play(script, cameras):
            if transcript is not None:
                transcript.show(event)
            if isinstance(event, TurnOutcome):
                turns += 1
                expectations += len(event.checks)
                met += sum(event.checks.values())
                _emit(event.record(), records)
        code = EXIT_MET if met == expectations else EXIT_UNMET
    except SuiteError as exc:
        log.error("the suite could not run: %s", exc)
    except KeyboardInterrupt:
        log.error("interrupted")
    finally:
        _emit({"turns": turns, "expectations": expectations, "met": met}, records)
        if records is not sys.stdout:
            records.close()
        camera.close()
        if bus is not None:
            bus.stop()
        suite.stop()
        if args.keep:
            log.warning("kept: data root %s, camera folder %s", data_dir, camera_dir)
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    if transcript is not None:
        print(f"\n{turns} turns, {met}/{expectations} expectations met; logs in {log_dir}")
        print(f"per-turn JSON lines: {records_path}")
    return code


if __name__ == "__main__":
    raise SystemExit(main())
