"""Memory benchmark: plays every benchmark conversation script through the real runner and scores it.

    python -m scripts.eval.memory [--scripts DIR] [--only NAME ...] [--split dev|test] [--category C ...]
        [--jobs N] [--failures] [--config-override KEY=VALUE ...]

Each script runs as `python -m scripts.run_script FILE` (its own Mosquitto, the three processes and a
fresh data root, so scripts never see each other's people); `--jobs` scripts run side by side (the
suite mostly waits for the camera and the bus, so 3 fit on 2 cores). The metrics are defined in
memory_metrics.py. Every metric is reported for the dev split, the test split and all scripts side by
side (splits.yaml: a seeded hash of the file name), then turns met per category and split. Prints the
tables (and with --failures every miss) and one JSON line on stdout; progress goes to stderr. Exit code 0 when every script ran, 2 when a suite could not run.
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
from scripts.eval.memory_metrics import METRICS, Ratio, Tally, score_script
from scripts.eval.splits import SPLITS, load_manifest, split_of
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
    # The runner's JSON lines stay beside its logs, so a run can be read (and re-scored) afterwards.
    (log_root / path.stem).mkdir(parents=True, exist_ok=True)
    (log_root / path.stem / "records.jsonl").write_text(out.stdout, encoding="utf-8")
    records = parse_records(out.stdout)
    error = out.stderr.strip().splitlines()[-1] if out.returncode == RUNNER_EXIT_SUITE and out.stderr.strip() else ""
    return Run(path, out.returncode, records, time.monotonic() - began, error)


def recorded(path: Path, log_root: Path) -> Run:
    """An earlier run's records for this script (none when it was not played there)."""
    file = log_root / path.stem / "records.jsonl"
    if not file.is_file():
        return Run(path, RUNNER_EXIT_SUITE, [], 0.0, f"no records in {file}")
    return Run(path, 0, parse_records(file.read_text(encoding="utf-8")), 0.0)


def parse_records(stdout: str) -> list[dict]:
    records = []
    for line in stdout.splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return records


COLUMNS = (*SPLITS, "all")
LABELS = {
    "recall_hit_rate": "recall-turn hit rate", "wrong_scene_rate": "wrong-scene rate",
    "false_injection_rate": "false injection (ordinary turns)", "first_meeting_precision": "first-meeting precision",
    "first_meeting_recall": "first-meeting recall", "profile_accuracy": "profile-fact accuracy",
    "storage_precision": "storage precision", "storage_recall": "storage recall",
    "recognition_accuracy": "returning user recognised", "recall_detection_accuracy": "recall detected",
    "false_recall_rate": "false recall (untold, asserted)", "abstain_rate": "abstained (untold)",
    "offer_rate": "offered (untold)", "recalled_text_hit_rate": "recalled-text hit rate",
    "window_accuracy": "time-window accuracy", "intent_accuracy": "memory-intent accuracy",
    "impostor_leak_rate": "impostor leak rate", "impostor_separated": "impostor given a new user",
    "same_person_recognised": "real person recognised again", "fact_change_accuracy": "fact-change accuracy",
    "recall_report_coverage": "recall report present", "expectations_met": "turns with every expectation met",
}


def table(tallies: dict[str, Tally]) -> str:
    """Every metric, one column per split and one for all scripts."""
    head = f"{'metric':<36}" + "".join(f"{c:>22}" for c in COLUMNS)
    rows = [f"{LABELS[name]:<36}" + "".join(f"{tallies[c].ratios[name]!s:>22}" for c in COLUMNS) for name in METRICS]
    return "\n".join([head, *rows])


def category_table(by_category: dict[str, dict[str, Ratio]]) -> str:
    """Turns with every expectation met, per category and split."""
    head = f"{'category':<36}" + "".join(f"{c:>22}" for c in COLUMNS)
    rows = [f"{cat:<36}" + "".join(f"{cols[c]!s:>22}" for c in COLUMNS) for cat, cols in sorted(by_category.items())]
    return "\n".join([head, *rows])


def assignments(paths: list[Path]) -> dict[Path, tuple[str, str]]:
    """Split and category per script: from the manifest; a file it lacks gets the rule's split and
    category "unlisted" (say so: the manifest should be regenerated)."""
    manifest = load_manifest()
    out = {}
    for p in paths:
        entry = manifest.scripts.get(p.name)
        if entry is None:
            print(f"memory: {p.name} is not in splits.yaml; split by the rule, category 'unlisted'", file=sys.stderr)
        out[p] = (entry.split, entry.category) if entry else (split_of(p.name, manifest.seed), "unlisted")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.eval.memory", description=__doc__.split("\n")[0])
    parser.add_argument("--scripts", type=Path, default=DEFAULT_SCRIPTS)
    parser.add_argument("--only", nargs="+", default=None, help="script names (or parts of them)")
    parser.add_argument("--split", choices=SPLITS, default=None, help="only the scripts of this split")
    parser.add_argument("--category", nargs="+", default=None, help="only the scripts of these categories")
    parser.add_argument("--jobs", type=int, default=3)
    parser.add_argument("--failures", action="store_true", help="list every missed expectation")
    parser.add_argument("--config-override", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--log-dir", type=Path, default=None)
    parser.add_argument("--rescore", type=Path, default=None, metavar="LOG_DIR",
                        help="score the records.jsonl an earlier run left in LOG_DIR instead of playing the scripts")
    args = parser.parse_args(argv)
    paths = select(args.scripts, args.only)
    assigned = assignments(paths)
    paths = [p for p in paths if (args.split is None or assigned[p][0] == args.split)
             and (args.category is None or assigned[p][1] in args.category)]
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
    tallies = {c: Tally() for c in COLUMNS}
    by_category: dict[str, dict[str, Ratio]] = {}
    broken: list[Run] = []
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        play = (lambda p: recorded(p, args.rescore)) if args.rescore else (lambda p: run_one(p, args.config_override, log_root))
        for run in pool.map(play, paths):
            split, category = assigned[run.path]
            tally = score_script(scripts[run.path], run.records, run.path.stem, category)
            tallies[split].merge(tally)
            tallies["all"].merge(tally)
            cols = by_category.setdefault(category, {c: Ratio() for c in COLUMNS})
            for column in (split, "all"):
                cols[column].num += tally.ratios["expectations_met"].num
                cols[column].den += tally.ratios["expectations_met"].den
            if run.code == RUNNER_EXIT_SUITE:
                broken.append(run)
            met = tally.ratios["expectations_met"]
            print(f"{run.path.stem}: {met.num}/{met.den} turns met, {run.seconds:.0f} s"
                  + (f", SUITE FAILED: {run.error}" if run.code == RUNNER_EXIT_SUITE else ""), file=sys.stderr)
    elapsed = time.monotonic() - began
    print(f"{len(paths)} scripts, {sum(len(s.sessions) for s in scripts.values())} sessions, "
          f"{sum(len(x.turns) for s in scripts.values() for x in s.sessions)} turns in {elapsed:.0f} s; logs {log_root}")
    print(table(tallies))
    print()
    print(category_table(by_category))
    total = tallies["all"]
    if args.failures and total.failures:
        print("misses:")
        print("\n".join(f"  {f}" for f in total.failures))
    print(json.dumps({
        "scripts": len(paths), "seconds": round(elapsed, 1), "suite_failures": len(broken),
        "metrics": total.as_dict(), "splits": {c: tallies[c].as_dict() for c in SPLITS},
        "categories": {cat: {c: {"value": r.value, "n": r.den} for c, r in cols.items()}
                       for cat, cols in sorted(by_category.items())},
    }))
    return RUNNER_EXIT_SUITE if broken else 0


if __name__ == "__main__":
    sys.exit(main())
