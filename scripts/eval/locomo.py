"""LoCoMo evidence retrieval through Nadine's own episodic store (held out: nothing is tuned on it).

    python -m scripts.eval.locomo [--k 1 5 10] [--limit-conversations N] [--data PATH]

Each conversation becomes one "user" (user id = sample id, name = speaker_a, one Chroma collection).
Each session is saved the way interaction saves a finished conversation: the offline episodic summary
(interaction.agents.episode.offline_summary) plus the transcript, through EpisodicMemory.save, with the
session's own date ("%I:%M %p on %d %B, %Y") as the timestamp instead of "now". Both speakers are
people, so every turn is a user turn prefixed by the speaker's name; a shared photo is given by its
caption. For every question with resolvable evidence, the sessions are ranked by the best cosine
similarity of their episode or conversation document to the question (the same queries interaction
makes, with n = max k), and a question counts as found at k when a session holding any of its
evidence is among the k best; a random ranking's expected recall is printed beside it. No LLM and no judge: this measures retrieval only.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from common.config import ConfigError, load_settings
from common.embedding.chroma import NadineEmbeddingFunction
from common.embedding.registry import offline_text_embedder
from common.store.layout import DataLayout
from common.vision.base import BackendUnavailable
from interaction.agents.episode import offline_summary
from interaction.memory.chroma_store import make_client
from interaction.memory.contracts import TranscriptTurn
from interaction.memory.episodic import EpisodicMemory
from scripts.eval.locomo_data import CATEGORIES, Conversation, Question, Session, load
from scripts.eval.stats import percentile
from scripts.shared_data import shared_path


class SessionClock:
    """The clock EpisodicMemory reads while one LoCoMo session is saved: that session's date."""

    def __init__(self) -> None:
        self.at = datetime(2000, 1, 1)

    def now(self) -> datetime:
        return self.at


def transcript(session: Session) -> list[TranscriptTurn]:
    # turns a second apart keep their order without moving the session's date
    return [
        TranscriptTurn("user", f"{t.speaker}: {t.spoken}", session.when + timedelta(seconds=i))
        for i, t in enumerate(session.turns)
    ]


def store_conversation(
    memory: EpisodicMemory, clock: SessionClock, conv: Conversation
) -> tuple[dict[str, int], list[float]]:
    """Save every session; returns the stored timestamp -> session number, and the seconds each took."""
    by_timestamp: dict[str, int] = {}
    durations: list[float] = []
    for session in conv.sessions:
        clock.at = session.when
        turns = transcript(session)
        started = time.perf_counter()
        saved = memory.save(conv.sample_id, conv.speaker_a, turns, offline_summary(turns, conv.speaker_a))
        durations.append(time.perf_counter() - started)
        if not saved:
            raise RuntimeError(f"{conv.sample_id} session {session.number} was not saved")
        by_timestamp[session.when.isoformat()] = session.number
    return by_timestamp, durations


def ranked_sessions(memory: EpisodicMemory, user_id: str, question: str, n: int, by_timestamp: dict[str, int]) -> list[int]:
    """Sessions best first, each scored by its better document (episode or conversation)."""
    best: dict[int, float] = {}
    for kind in ("episode", "conversation"):
        for hit in memory.query(user_id, question, kind, n=n):
            number = by_timestamp.get(hit.timestamp or "")
            if number is not None and hit.similarity > best.get(number, -2.0):
                best[number] = hit.similarity
    return sorted(best, key=lambda s: -best[s])


def chance_recall(sessions: int, evidence: int, k: int) -> float:
    """Probability that a random ranking puts one of `evidence` sessions among the first k."""
    return 1.0 - math.comb(sessions - evidence, k) / math.comb(sessions, k) if k < sessions else 1.0


@dataclass
class Tally:
    questions: int = 0
    found: dict[int, float] = field(default_factory=dict)
    chance: dict[int, float] = field(default_factory=dict)

    def add(self, ranking: list[int], evidence: frozenset[int], sessions: int, ks: list[int]) -> None:
        self.questions += 1
        for k in ks:
            self.found[k] = self.found.get(k, 0) + bool(evidence.intersection(ranking[:k]))
            self.chance[k] = self.chance.get(k, 0.0) + chance_recall(sessions, len(evidence), k)

    def recall(self, ks: list[int], chance: bool = False) -> dict[int, float]:
        counts = self.chance if chance else self.found
        return {k: counts.get(k, 0) / self.questions if self.questions else 0.0 for k in ks}


def evaluate(memory: EpisodicMemory, conv: Conversation, by_timestamp: dict[str, int], ks: list[int],
             tallies: dict[str, Tally]) -> int:
    """Adds each answerable question to its category's tally (and 'all'); returns questions skipped."""
    skipped = 0
    for q in conv.questions:
        if not q.sessions:
            skipped += 1
            continue
        ranking = ranked_sessions(memory, conv.sample_id, q.question, max(ks), by_timestamp)
        for key in (_category(q), "all"):
            tallies[key].add(ranking, q.sessions, len(conv.sessions), ks)
    return skipped


def _category(q: Question) -> str:
    return f"{q.category} {CATEGORIES.get(q.category, '?')}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.eval.locomo", description=__doc__.split("\n")[0])
    parser.add_argument("--k", type=int, nargs="+", default=[1, 5, 10])
    parser.add_argument("--limit-conversations", type=int, default=None)
    parser.add_argument("--data", type=Path, default=shared_path("locomo", "locomo10.json"), help="locomo10.json (stays in shared/)")
    args = parser.parse_args(argv)
    ks = sorted(set(args.k))
    try:
        conversations = load(args.data)[: args.limit_conversations]
        settings = load_settings()
        embedder = offline_text_embedder()
    except (OSError, ValueError, ConfigError, BackendUnavailable) as exc:
        print(f"locomo: {exc}", file=sys.stderr)
        return 2
    tallies: dict[str, Tally] = defaultdict(Tally)
    store_times: list[float] = []
    skipped = 0
    with tempfile.TemporaryDirectory(prefix="nadine-locomo-") as tmp:
        layout = DataLayout(Path(tmp))
        clock = SessionClock()
        chroma = settings.interaction.chroma.model_copy(update={"mode": "embedded"})
        memory = EpisodicMemory(make_client(chroma, layout.chroma_dir), NadineEmbeddingFunction(embedder), clock)
        for conv in conversations:
            by_timestamp, durations = store_conversation(memory, clock, conv)
            store_times += durations
            skipped += evaluate(memory, conv, by_timestamp, ks, tallies)
    rows = sorted(k for k in tallies if k != "all") + ["all"]
    print(f"{len(conversations)} conversations, {len(store_times)} sessions stored with {embedder.name}; "
          f"{tallies['all'].questions} questions ({skipped} without resolvable evidence skipped)")
    print(f"{'category':<18}{'n':>6}" + "".join(f"{'R@' + str(k):>8}" for k in ks)
          + "".join(f"{'chance@' + str(k):>10}" for k in ks))
    for key in rows:
        r, c = tallies[key].recall(ks), tallies[key].recall(ks, chance=True)
        print(f"{key:<18}{tallies[key].questions:>6}" + "".join(f"{100 * r[k]:>8.1f}" for k in ks)
              + "".join(f"{100 * c[k]:>10.1f}" for k in ks))
    times = {"mean": sum(store_times) / len(store_times) if store_times else None,
             "p50": percentile(store_times, 50), "p95": percentile(store_times, 95)}
    print("store time per session (s): " + ", ".join(f"{k} {v:.3f}" for k, v in times.items() if v is not None))
    print(json.dumps({
        "conversations": len(conversations), "sessions": len(store_times), "skipped_questions": skipped,
        "recall": {key: {"n": tallies[key].questions, **{str(k): v for k, v in tallies[key].recall(ks).items()}}
                   for key in rows},
        "chance": {key: {str(k): v for k, v in tallies[key].recall(ks, chance=True).items()} for key in rows},
        "store_time_s": times,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
