"""Load: the whole suite with perception on a 30 fps replay and one turn (one affect event) per second.

    .venv/bin/python -m scripts.bench.load [--duration-s 600] [--fps 30] [--rate 1.0] [--strong-every 10]

A person (the demo's public-domain photo, jittered into 30 frames) is in view the whole time; after
introducing herself she says one sentence per second with a pinned emotion (every --strong-every-th
one strong enough to be stored). Reported: turns answered, storage decisions and scenes stored per
turn (each turn must get exactly one decision and at most one scene), turn latency, and each
process's RSS at the start (after warm-up), every minute and at the end (flat = end within 10 % of
start). Prints one JSON summary line last; exit code 0 when every criterion holds, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from common import topics as t
from common.bus import Bus
from common.messages import EmotionSignal, UserInput
from common.supervisor.suite import Suite
from scripts.eval.stats import percentile

DEMO_PHOTO = Path(__file__).resolve().parents[1] / "demo" / "eileen.jpg"
RSS_FLAT = 1.10
WARMUP_TURNS = 5
REPLAY_FRAMES = 30


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def write_replay(folder: Path, photo: Path, frames: int) -> None:
    """One second of 'video': the photo shifted by a few pixels per frame, as a hand-held camera."""
    folder.mkdir(parents=True, exist_ok=True)
    img = cv2.imread(str(photo))
    if img is None:
        raise SystemExit(f"load: cannot read {photo}")
    h, w = img.shape[:2]
    for i in range(frames):
        dx, dy = int(4 * np.sin(i / frames * 2 * np.pi)), int(3 * np.cos(i / frames * 2 * np.pi))
        shifted = cv2.warpAffine(img, np.float32([[1, 0, dx], [0, 1, dy]]), (w, h), borderMode=cv2.BORDER_REPLICATE)
        cv2.imwrite(str(folder / f"frame_{i:03d}.jpg"), shifted)


class Tally:
    """What the suite published, per turn id."""

    def __init__(self, bus: Bus) -> None:
        self.results: dict[str, float] = {}
        self.decisions: Counter[str] = Counter()
        self.scenes: Counter[str] = Counter()
        self.faces = 0
        self.user_name: str | None = None
        self._cond = threading.Condition()
        bus.subscribe(t.TURN_RESULT, self._result)
        bus.subscribe(t.STORAGE_DECISION, lambda m: self._count(self.decisions, m.turn_id))
        bus.subscribe(t.SCENE_STORED, lambda m: self._count(self.scenes, m.turn_id))
        bus.subscribe(t.FACE_STORED, self._face)

    def _result(self, msg) -> None:
        with self._cond:
            self.results[msg.turn_id] = msg.latency_s
            self.user_name = msg.user_name
            self._cond.notify_all()

    def _count(self, counter: Counter[str], turn_id: str | None) -> None:
        with self._cond:
            counter[turn_id or "-"] += 1
            self._cond.notify_all()

    def _face(self, msg) -> None:
        with self._cond:
            self.faces += 1
            self._cond.notify_all()

    def wait(self, predicate, timeout: float) -> bool:
        with self._cond:
            return self._cond.wait_for(predicate, timeout)


def say(bus: Bus, text: str, emotion: EmotionSignal | None = None) -> str:
    turn_id = uuid.uuid4().hex[:12]
    bus.publish(t.USER_INPUT, UserInput(text=text, turn_id=turn_id, user_emotion=emotion))
    return turn_id


def run(args: argparse.Namespace) -> dict:
    scratch = Path(tempfile.mkdtemp(prefix="nadine-load-"))
    write_replay(scratch / "replay", DEMO_PHOTO, REPLAY_FRAMES)
    overrides = [f"perception.camera.source={scratch / 'replay'}", f"perception.camera.fps={args.fps}",
                 "perception.camera.loop=true"]
    suite = Suite(scratch / "data", scratch / "logs", overrides, env={"NADINE_TTS": "none"})
    bus: Bus | None = None
    try:
        suite.start()
        bus = Bus("bench-load", suite.mqtt_settings, suite.topics)
        tally = Tally(bus)
        if not bus.start(wait_s=10):
            raise SystemExit("load: cannot connect to the suite's broker")
        intro = say(bus, "Hello! My name is Maya.")
        if not tally.wait(lambda: intro in tally.results and tally.faces > 0, 60):
            raise SystemExit(f"load: the introduction was not answered / no face registered\n{suite.log_tail('perception')}")
        for i in range(WARMUP_TURNS):
            warm = say(bus, f"Warming up, sentence {i}.", EmotionSignal(label="neutral", intensity=0.1))
            tally.wait(lambda w=warm: w in tally.results, 30)
        pids = {name: p.pid for name, p in suite.procs.items()}
        rss_start = {n: rss_kb(p) for n, p in pids.items()}
        rss_trace = [{"t_s": 0, **rss_start}]
        turn_ids: list[str] = []
        period = 1.0 / args.rate
        started = time.monotonic()
        next_at = started
        next_sample = started + 60
        while time.monotonic() - started < args.duration_s:
            n = len(turn_ids)
            strong = args.strong_every and n % args.strong_every == 0
            emotion = EmotionSignal(label="happy", intensity=0.95) if strong else EmotionSignal(label="neutral", intensity=0.2)
            turn_ids.append(say(bus, f"Here is sentence {n} of my long story, about day {n % 7}.", emotion))
            now = time.monotonic()
            if now >= next_sample:
                rss_trace.append({"t_s": round(now - started), **{nm: rss_kb(p) for nm, p in pids.items()}})
                next_sample += 60
            suite.check_alive()
            next_at += period
            time.sleep(max(0.0, next_at - time.monotonic()))
        tally.wait(lambda: all(tid in tally.results and tally.decisions[tid] >= 1 for tid in turn_ids), 120)
        rss_end = {n: rss_kb(p) for n, p in pids.items()}
        rss_trace.append({"t_s": round(time.monotonic() - started), **rss_end})
        latencies = [tally.results[tid] for tid in turn_ids if tid in tally.results]
        scenes_per_turn = Counter(tally.scenes[tid] for tid in turn_ids)
        decisions_per_turn = Counter(tally.decisions[tid] for tid in turn_ids)
        summary = {
            "duration_s": args.duration_s, "fps": args.fps, "rate_hz": args.rate,
            "turns": len(turn_ids), "answered": len(latencies), "user_name": tally.user_name,
            "scenes_stored": sum(tally.scenes[tid] for tid in turn_ids),
            "max_scenes_per_turn": max(scenes_per_turn) if turn_ids else 0,
            "decisions_per_turn": {str(k): v for k, v in sorted(decisions_per_turn.items())},
            "latency_p50_s": round(percentile(latencies, 50), 3) if latencies else None,
            "latency_p95_s": round(percentile(latencies, 95), 3) if latencies else None,
            "rss_start_kb": rss_start, "rss_end_kb": rss_end,
            "rss_ratio": {n: round(rss_end[n] / rss_start[n], 3) for n in rss_start if rss_start[n]},
            "rss_trace_kb": rss_trace,
        }
        summary["ok"] = (
            summary["answered"] == summary["turns"] and summary["max_scenes_per_turn"] <= 1
            and set(decisions_per_turn) == {1} and all(r <= RSS_FLAT for r in summary["rss_ratio"].values())
        )
        return summary
    finally:
        if bus is not None:
            bus.stop()
        suite.stop()
        if args.keep:
            print(f"kept {scratch}", file=sys.stderr)
        else:
            shutil.rmtree(scratch, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m scripts.bench.load", description=__doc__.split("\n\n")[0])
    p.add_argument("--duration-s", type=float, default=600.0, help="length of the loaded phase (default 10 min)")
    p.add_argument("--fps", type=float, default=30.0, help="camera replay rate")
    p.add_argument("--rate", type=float, default=1.0, help="turns (affect events) per second")
    p.add_argument("--strong-every", type=int, default=10, help="every n-th turn carries a strong emotion (0: none)")
    p.add_argument("--keep", action="store_true", help="keep the data root and logs")
    args = p.parse_args(argv)
    s = run(args)
    print(f"turns {s['turns']} answered {s['answered']}  scenes stored {s['scenes_stored']} "
          f"(max per turn {s['max_scenes_per_turn']})  decisions per turn {s['decisions_per_turn']}  "
          f"latency p50 {s['latency_p50_s']} s p95 {s['latency_p95_s']} s")
    for name in s["rss_start_kb"]:
        print(f"{name:<12} RSS start {s['rss_start_kb'][name] / 1024:7.1f} MB  end {s['rss_end_kb'][name] / 1024:7.1f} MB"
              f"  ratio {s['rss_ratio'].get(name, 0):.3f} (flat: <= {RSS_FLAT})")
    print(json.dumps(s))
    return 0 if s["ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
