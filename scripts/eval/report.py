"""Study report from the study logs (interaction/study_logger.py JSONL), per condition.

    python -m scripts.eval.report --logs DIR [--png out.png]

Reads every *.jsonl under DIR (one record per turn) except perception's FER samples, which the
project writes beside the study records. Per condition (A: visual memory on, B: off):
turns, participants, p50 / p95 / p99 of each latency field (latency_s: transcript -> reply text;
latency_first_sentence_s: -> first sentence to TTS; full_latency_s: end of speech -> audio onset),
the scene-injection rate (turns with an injected scene / turns) and the reply-references-scene rate
(turns whose reply repeats the injected scene's distinctive words / turns with an injected scene whose
reply came from a language model). A figure no record measured (null in every record:
latency_first_sentence_s when no reply was streamed, as with the offline rules, and
reply_references_scene when every reply came from the offline rules, which quote the scene by
template) is reported as "not measured", never as a copy of another figure; once records measure all
three latencies, the table and the plot show all three. Prints tables and one JSON line; --png draws the same numbers with matplotlib.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from common.store.layout import FER_SAMPLES_NAME
from scripts.eval.bar_chart import Panel, write_png
from scripts.eval.stats import percentile, ratio

LATENCY_FIELDS = ("latency_s", "latency_first_sentence_s", "full_latency_s")
PERCENTILES = (50, 95, 99)
STUDY_KEYS = {"turn_id", "user_text", "robot_text", "visual"}  # present in every StudyLogger record
SHORT = {"latency_s": "reply", "latency_first_sentence_s": "1st sent.", "full_latency_s": "audio"}


def read_records(folder: Path) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
    """All turn records, and (file name, reason) for each line that was skipped."""
    records, problems = [], []
    for path in sorted(folder.rglob("*.jsonl")):
        if path.name == FER_SAMPLES_NAME:
            continue
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                problems.append((path.name, f"not JSON ({exc.msg})"))
                continue
            if not isinstance(record, dict) or not STUDY_KEYS <= record.keys():
                problems.append((path.name, "not a study-log record"))
                continue
            record.setdefault("condition", path.name.split("_", 1)[0])
            records.append(record)
    return records, problems


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def summarize(records: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    by_condition: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        by_condition[str(r.get("condition") or "?")].append(r)
    out = {}
    for condition in sorted(by_condition):
        turns = by_condition[condition]
        injected = [r for r in turns if (r.get("visual") or {}).get("injected")]
        judged = [r for r in injected if r.get("reply_references_scene") is not None]
        references = sum(bool(r["reply_references_scene"]) for r in judged)
        latency = {}
        for name in LATENCY_FIELDS:
            values = [v for r in turns if (v := _number(r.get(name))) is not None]
            latency[name] = {"n": len(values), **{f"p{q}": percentile(values, q) for q in PERCENTILES}}
        out[condition] = {
            "turns": len(turns),
            "participants": len({r.get("participant") for r in turns}),
            "latency": latency,
            "scene_injection_rate": ratio(len(injected), len(turns)),
            "reply_references_scene_rate": ratio(references, len(judged)),
            "injected_turns": len(injected),
            "reply_references_scene_n": len(judged),
        }
    return out


NOT_MEASURED = "not measured"


def _cell(value: float | None, fmt: str, scale: float = 1.0, suffix: str = "") -> str:
    return "-" if value is None else format(value * scale, fmt) + suffix


def _measured(summary: dict[str, dict[str, Any]]) -> list[str]:
    """Latency fields at least one record of some condition measured."""
    return [name for name in LATENCY_FIELDS if any(s["latency"][name]["n"] for s in summary.values())]


def tables(summary: dict[str, dict[str, Any]]) -> str:
    lines = [f"{'condition':<10}{'field':<28}{'n':>6}" + "".join(f"{'p' + str(q) + ' (s)':>10}" for q in PERCENTILES)]
    for condition, s in summary.items():
        for name, stats in s["latency"].items():
            cells = ("".join(f"{_cell(stats[f'p{q}'], '.3f'):>10}" for q in PERCENTILES) if stats["n"]
                     else f"{NOT_MEASURED:>{10 * len(PERCENTILES)}}")
            lines.append(f"{condition:<10}{name:<28}{stats['n']:>6}" + cells)
    lines.append("")
    lines.append(f"{'condition':<10}{'turns':>7}{'participants':>14}{'scene injected':>16}{'reply refs scene':>18}")
    for condition, s in summary.items():
        refs = (_cell(s["reply_references_scene_rate"], ".1f", 100, "%") if s["reply_references_scene_n"]
                or not s["injected_turns"] else NOT_MEASURED)
        lines.append(f"{condition:<10}{s['turns']:>7}{s['participants']:>14}"
                     f"{_cell(s['scene_injection_rate'], '.1f', 100, '%'):>16}{refs:>18}")
    return "\n".join(lines)


def panels(summary: dict[str, dict[str, Any]]) -> list[Panel]:
    measured = _measured(summary)
    groups = [f"{SHORT[name]} p{q}" for name in measured for q in PERCENTILES]
    latency = {
        f"condition {c}": [s["latency"][name][f"p{q}"] for name in measured for q in PERCENTILES]
        for c, s in summary.items()
    }
    unmeasured = [SHORT[name] for name in LATENCY_FIELDS if name not in measured]
    latency_title = "Latency percentiles per condition" + (
        f" ({', '.join(unmeasured)}: {NOT_MEASURED})" if unmeasured else "")
    refs_label = "reply refs scene" + (
        "" if any(s["reply_references_scene_n"] for s in summary.values()) else f" ({NOT_MEASURED})")
    rates = {
        f"condition {c}": [None if s[k] is None else 100 * s[k]
                           for k in ("scene_injection_rate", "reply_references_scene_rate")]
        for c, s in summary.items()
    }
    return [
        Panel(latency_title, groups, latency, " s"),
        Panel("Scene injection and replies that reference the scene", ["scene injected", refs_label], rates, "%"),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.eval.report", description=__doc__.split("\n")[0])
    parser.add_argument("--logs", type=Path, required=True, help="a study_logs folder (searched recursively)")
    parser.add_argument("--png", type=Path, default=None)
    args = parser.parse_args(argv)
    if not args.logs.is_dir():
        print(f"report: {args.logs} is not a folder", file=sys.stderr)
        return 2
    records, problems = read_records(args.logs)
    for (name, reason), count in Counter(problems).items():
        print(f"report: skipped {count} line(s) of {name}: {reason}", file=sys.stderr)
    if not records:
        print(f"report: no study-log records under {args.logs}", file=sys.stderr)
        return 2
    summary = summarize(records)
    print(tables(summary))
    if args.png:
        write_png(args.png, panels(summary))
        print(f"wrote {args.png}")
    print(json.dumps({"records": len(records), "skipped_lines": len(problems), "conditions": summary}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
