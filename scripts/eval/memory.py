"""Memory benchmark: plays every benchmark conversation script through the real runner and scores it.

    python -m scripts.eval.memory [--scripts DIR] [--only NAME ...] [--jobs N] [--failures]
        [--config-override KEY=VALUE ...]

Each script runs as `python -m scripts.run_script FILE` (its own Mosquitto, the three processes and a
fresh data root, so scripts never see each other's people); `--jobs` scripts run side by side (the
suite mostly waits for the camera and the bus, so 3 fit on 2 cores). The metrics are defined in
memory_metrics.py. Prints a table (and with --failures every miss) and one JSON line on stdout;
progress goes to stderr. Exit code 0 when every script ran, 2 when a suite could not run.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from common.config.loader import PROJECT_ROOT
from scripts.eval.memory_metrics import METRICS, Tally, score_script
from scripts.runner.script import ScriptError, load_script

DEFAULT_SCRIPTS = Path(__file__).resolve().parent / "scripts"
SCRIPT_TIMEOUT_S = 600
RUNNER_EXIT_SUITE = 2


@dataclass
class Run:
    path: Path
    code: int
    records: list[dict]
    seconds: float
    error: str = ""


def select(folder: Path, only: list[str] | None) -> list[Path]:
    paths = sorted(folder.glob("*.yaml"))
    if only:
        paths = [p for p in paths if any(o == p.stem or o in p.stem for o in only)]
    return paths


def run_one(path: Path, overrides: list[str], log_root: Path) -> Run:
    args = [sys.executable, "-m", "scripts.run_script", str(path), "--log-dir", str(log_root / path.stem)]
    for pair in overrides:
        args += ["--config-override", pair]
    began = time.monotonic()
    try:
        out = subprocess.run(args, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=SCRIPT_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return Run(path, RUNNER_EXIT_SUITE, [], time.monotonic() - began, f"timed out after {SCRIPT_TIMEOUT_S} s")
    records = []
    for line in out.stdout.splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    error = out.stderr.strip().splitlines()[-1] if out.returncode == RUNNER_EXIT_SUITE and out.stderr.strip() else ""
    return Run(path, out.returncode, records, time.monotonic() - began, error)


def table(tally: Tally) -> str:
    labels = {
        "recall_hit_rate": "recall-turn hit rate", "wrong_scene_rate": "wrong-scene rate",
        "false_injection_rate": "false injection (ordinary turns)", "first_meeting_precision": "first-meeting precision",
        "first_meeting_recall": "first-meeting recall", "profile_accuracy": "profile-fact accuracy",
        "storage_precision": "storage precision", "storage_recall": "storage recall",
        "recognition_accuracy": "returning user recognised", "recall_detection_accuracy": "recall detected",
        "expectations_met": "turns with every expectation met",
    }
    return "\n".join(f"{labels[name]:<36}{tally.ratios[name]!s:>22}" for name in METRICS)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.eval.memory", description=__doc__.split("\n")[0])
    parser.add_argument("--scripts", type=Path, default=DEFAULT_SCRIPTS)
    parser.add_argument("--only", nargs="+", default=None, help="script names (or parts of them)")
    parser.add_argument("--jobs", type=int, default=3)
    parser.add_argument("--failures", action="store_true", help="list every missed expectation")
    parser.add_argument("--config-override", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--log-dir", type=Path, default=None)
    args = parser.parse_args(argv)
    paths = select(args.scripts, args.only)
    if not paths:
        print(f"memory: no scripts in {args.scripts} match {args.only}", file=sys.stderr)
        return 2
    try:
        scripts = {p: load_script(p)[0] for p in paths}
    except ScriptError as exc:
        print(f"memory: {exc}", file=sys.stderr)
        return 2
    log_root = (args.log_dir or PROJECT_ROOT / "logs" / "eval_memory" / time.strftime("%Y%m%d-%H%M%S")).resolve()
    began = time.monotonic()
    total = Tally()
    broken: list[Run] = []
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for run in pool.map(lambda p: run_one(p, args.config_override, log_root), paths):
            tally = score_script(scripts[run.path], run.records, run.path.stem)
            total.merge(tally)
            if run.code == RUNNER_EXIT_SUITE:
                broken.append(run)
            met = tally.ratios["expectations_met"]
            print(f"{run.path.stem}: {met.num}/{met.den} turns met, {run.seconds:.0f} s"
                  + (f", SUITE FAILED: {run.error}" if run.code == RUNNER_EXIT_SUITE else ""), file=sys.stderr)
    elapsed = time.monotonic() - began
    print(f"{len(paths)} scripts, {sum(len(s.sessions) for s in scripts.values())} sessions, "
          f"{sum(len(x.turns) for s in scripts.values() for x in s.sessions)} turns in {elapsed:.0f} s; logs {log_root}")
    print(table(total))
    if args.failures and total.failures:
        print("misses:")
        print("\n".join(f"  {f}" for f in total.failures))
    print(json.dumps({"scripts": len(paths), "seconds": round(elapsed, 1), "suite_failures": len(broken),
                      "metrics": total.as_dict()}))
    return RUNNER_EXIT_SUITE if broken else 0


if __name__ == "__main__":
    sys.exit(main())
