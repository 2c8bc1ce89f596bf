"""LoCoMo evidence retrieval through Nadine's own episodic store and retrieval core (held out: nothing
is tuned on it; the fusion method is chosen on the dev conversations only).

    python -m scripts.eval.locomo [--k 1 5 10] [--limit-conversations N] [--data PATH]
                                  [--fusion zscore|rrf|weighted] [--lexical-weight W] [--context-turns N]
                                  [--rerank N]

Each conversation becomes one "user" (user id = sample id, name = speaker_a, one Chroma collection).
Each session is saved the way interaction saves a finished conversation (EpisodicMemory.save: the
offline summary, the transcript and one document per turn with its neighbouring context), dated with
the session's own date ("%I:%M %p on %d %B, %Y"), never "now". Both speakers are people, so every turn
is a user turn prefixed by the speaker's name; a shared photo is given by its caption. For every
question with resolvable evidence the retrieval core ranks the user's candidates (dense MiniLM +
BM25, fused) and verifies the best ones as on a recall turn (the calibrated decision's probability,
cross-encoder included, reorders the verify_top best; --rerank 0 ranks only), a session ranks by its
best candidate, and a question counts as found at k when a
session holding any of its evidence is among the k best ("session R@k") and when an evidence turn
itself is among the k best candidates ("turn R@k"); a random ranking's expected session recall is
printed beside it. Conversations are split: the first DEV_CONVERSATIONS are the dev split (fusion
chosen there), the rest the test split; both and all are printed. No LLM and no judge.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np

from common.config import ConfigError, load_settings
from common.config.interaction_settings import RecallSettings
from common.embedding.chroma import NadineEmbeddingFunction
from common.embedding.registry import offline_text_embedder
from common.store.layout import DataLayout
from common.vision.base import BackendUnavailable
from interaction.agents.episode import offline_summary
from interaction.memory.chroma_store import make_client
from interaction.memory.contracts import TranscriptTurn
from interaction.memory.episodic import EpisodicMemory
from interaction.memory.retrieval.candidates import CandidatePool
from interaction.memory.retrieval.core import Judged, Ranked, RetrievalCore
from interaction.memory.retrieval.text_pool import TextPools
from interaction.memory.retrieval.verifier import build_verifier
from scripts.eval.locomo_data import CATEGORIES, Conversation, Question, Session, load
from scripts.eval.stats import percentile
from scripts.shared_data import shared_path

DEV_CONVERSATIONS = 3  # conv-26, conv-30, conv-41: fusion and context are chosen on these only
DEFAULT_DATA = shared_path("locomo", "locomo10.json")


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


def store_conversation(memory: EpisodicMemory, clock: SessionClock, conv: Conversation,
                       cpu: list[float] | None = None) -> list[float]:
    """Save every session with its own date; returns the seconds each save took (and adds the CPU
    seconds of each to `cpu`: a machine shared with other jobs stretches the first, far less the second)."""
    durations: list[float] = []
    for session in conv.sessions:
        clock.at = session.when
        turns = transcript(session)
        started, cpu_started = time.perf_counter(), time.process_time()
        saved = memory.save(conv.sample_id, conv.speaker_a, turns, offline_summary(turns, conv.speaker_a))
        durations.append(time.perf_counter() - started)
        if cpu is not None:
            cpu.append(time.process_time() - cpu_started)
        if not saved:
            raise RuntimeError(f"{conv.sample_id} session {session.number} was not saved")
    return durations


@dataclass
class Labels:
    """What each candidate of a conversation's pool is, in LoCoMo's terms."""

    session: np.ndarray  # LoCoMo session number per candidate (0: unknown)
    dia_id: list[str | None]  # the turn's dia_id (None for summaries)


def label_pool(pool: CandidatePool, conv: Conversation) -> Labels:
    """Sessions are recognised by their date (every document of a save carries the session's date
    or, for a turn, that date plus its position in seconds)."""
    by_start = {s.when.timestamp(): s for s in conv.sessions}
    group_session: dict[str, Session] = {}
    for c in pool.items:
        if c.kind == "episode" and c.occurred_ts in by_start:
            group_session[c.group] = by_start[c.occurred_ts]
    sessions, dia = [], []
    for c in pool.items:
        s = group_session.get(c.group)
        sessions.append(s.number if s else 0)
        index = int(c.memory_id.rsplit("_turn", 1)[1]) if c.kind == "turn" else None
        dia.append(s.turns[index].dia_id if s is not None and index is not None else None)
    return Labels(np.array(sessions), dia)


def ranked_sessions(fused: np.ndarray, labels: Labels) -> list[int]:
    """Sessions best first, each by its best candidate."""
    seen: list[int] = []
    for i in np.argsort(-fused, kind="stable"):
        number = int(labels.session[i])
        if number and number not in seen:
            seen.append(number)
    return seen


def ranked_turns(fused: np.ndarray, labels: Labels, n: int) -> list[str]:
    order = [int(i) for i in np.argsort(-fused, kind="stable") if labels.dia_id[int(i)] is not None]
    return [labels.dia_id[i] for i in order[:n]]  # type: ignore[misc]


def chance_recall(sessions: int, evidence: int, k: int) -> float:
    """Probability that a random ranking puts one of `evidence` sessions among the first k."""
    return 1.0 - math.comb(sessions - evidence, k) / math.comb(sessions, k) if k < sessions else 1.0


@dataclass
class Tally:
    questions: int = 0
    found: dict[int, float] = field(default_factory=dict)
    turns: dict[int, float] = field(default_factory=dict)
    chance: dict[int, float] = field(default_factory=dict)

    def add(self, ranking: list[int], turns: list[str], q: Question, sessions: int, ks: list[int]) -> None:
        self.questions += 1
        evidence = set(q.evidence)
        for k in ks:
            self.found[k] = self.found.get(k, 0) + bool(q.sessions.intersection(ranking[:k]))
            self.turns[k] = self.turns.get(k, 0) + bool(evidence.intersection(turns[:k]))
            self.chance[k] = self.chance.get(k, 0.0) + chance_recall(sessions, len(q.sessions), k)

    def recall(self, ks: list[int], of: str = "found") -> dict[int, float]:
        counts = getattr(self, of)
        return {k: counts.get(k, 0) / self.questions if self.questions else 0.0 for k in ks}


def verified(core: RetrievalCore, ranked: Ranked, question: str, n: int) -> np.ndarray:
    """The fused order with its n best reordered by the recall decision's probability (dense,
    coverage and the verifier's score together): the verification stage of the core."""
    top = ranked.order[:n]
    judged = [Judged(ranked.pool.items[i], float(ranked.dense[i]), float(ranked.lexical[i]),
                     float(ranked.coverage[i]), float(ranked.fused[i])) for i in top]
    core.judge(question, judged)
    scores = ranked.fused.copy()
    scores[top] = ranked.fused.max() + 1.0 + np.array([j.probability for j in judged])
    return scores


def evaluate(core: RetrievalCore, memory: EpisodicMemory, pool: CandidatePool, conv: Conversation, ks: list[int],
             tallies: dict[str, Tally], split: str, query_times: list[float], rerank: int = 0,
             query_cpu: list[float] | None = None) -> int:
    """Adds each answerable question to its category's tally, its split's and 'all'; returns questions
    skipped. Each question's seconds go to `query_times`, its CPU seconds to `query_cpu`."""
    labels = label_pool(pool, conv)
    skipped = 0
    for q in conv.questions:
        if not q.sessions:
            skipped += 1
            continue
        started, cpu_started = time.perf_counter(), time.process_time()
        ranked = core.rank(pool, q.question, memory.embed_query(q.question))
        fused = verified(core, ranked, q.question, rerank) if rerank else ranked.fused
        query_times.append(time.perf_counter() - started)
        if query_cpu is not None:
            query_cpu.append(time.process_time() - cpu_started)
        ranking, turns = ranked_sessions(fused, labels), ranked_turns(fused, labels, max(ks))
        for key in (_category(q), split, "all"):
            tallies[key].add(ranking, turns, q, len(conv.sessions), ks)
    return skipped


def _category(q: Question) -> str:
    return f"{q.category} {CATEGORIES.get(q.category, '?')}"


def _table(tallies: dict[str, Tally], ks: list[int]) -> list[str]:
    rows = sorted(k for k in tallies if k[0].isdigit()) + [k for k in ("dev", "test", "all") if k in tallies]
    lines = [f"{'questions':<18}{'n':>6}" + "".join(f"{'R@' + str(k):>8}" for k in ks)
             + "".join(f"{'turn@' + str(k):>9}" for k in ks) + "".join(f"{'chance@' + str(k):>10}" for k in ks)]
    for key in rows:
        t = tallies[key]
        r, tr, c = t.recall(ks), t.recall(ks, "turns"), t.recall(ks, "chance")
        lines.append(f"{key:<18}{t.questions:>6}" + "".join(f"{100 * r[k]:>8.1f}" for k in ks)
                     + "".join(f"{100 * tr[k]:>9.1f}" for k in ks) + "".join(f"{100 * c[k]:>10.1f}" for k in ks))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.eval.locomo", description=__doc__.split("\n")[0])
    parser.add_argument("--k", type=int, nargs="+", default=[1, 5, 10])
    parser.add_argument("--limit-conversations", type=int, default=None)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="locomo10.json (stays in shared/)")
    parser.add_argument("--fusion", choices=["zscore", "rrf", "weighted"], default=None, help="default: config")
    parser.add_argument("--lexical-weight", type=float, default=None, help="default: config")
    parser.add_argument("--context-turns", type=int, default=None, help="default: config")
    parser.add_argument("--rerank", type=int, default=None,
                        help="reorder the N best candidates by the recall decision (verifier included); "
                             "default: interaction.retrieval.recall.verify_top, as on a recall turn; 0: ranking only")
    args = parser.parse_args(argv)
    ks = sorted(set(args.k))
    try:
        conversations = load(args.data)[: args.limit_conversations]
        settings = load_settings()
        embedder = offline_text_embedder()
    except (OSError, ValueError, ConfigError, BackendUnavailable) as exc:
        print(f"locomo: {exc}", file=sys.stderr)
        return 2
    recall: RecallSettings = settings.interaction.retrieval.recall
    overrides = {k: v for k, v in (("fusion", args.fusion), ("lexical_weight", args.lexical_weight),
                                   ("context_turns", args.context_turns)) if v is not None}
    recall = recall.model_copy(update=overrides)
    if args.rerank is None:
        args.rerank = recall.verify_top
    verifier = build_verifier(recall.verifier, recall.verifier_model) if args.rerank else None
    core = RetrievalCore(recall, verifier, recall.decision_for(embedder.name))  # type: ignore[arg-type]
    tallies: dict[str, Tally] = defaultdict(Tally)
    store_times: list[float] = []
    query_times: list[float] = []
    store_cpu: list[float] = []
    query_cpu: list[float] = []
    skipped = 0
    with tempfile.TemporaryDirectory(prefix="nadine-locomo-") as tmp:
        layout = DataLayout(Path(tmp))
        clock = SessionClock()
        chroma = settings.interaction.chroma.model_copy(update={"mode": "embedded"})
        memory = EpisodicMemory(make_client(chroma, layout.chroma_dir), NadineEmbeddingFunction(embedder), clock,
                                context_turns=recall.context_turns)
        pools = TextPools(memory, embedder.name, embedder.dim)
        for n, conv in enumerate(conversations):
            store_times += store_conversation(memory, clock, conv, store_cpu)
            split = "dev" if n < DEV_CONVERSATIONS else "test"
            skipped += evaluate(core, memory, pools.pool(conv.sample_id), conv, ks, tallies, split, query_times,
                                args.rerank, query_cpu)
    print(f"{len(conversations)} conversations, {len(store_times)} sessions stored with {embedder.name}; "
          f"{tallies['all'].questions} questions ({skipped} without resolvable evidence skipped); "
          f"fusion {recall.fusion} (lexical weight {recall.lexical_weight}), context turns {recall.context_turns}, "
          f"rerank {args.rerank or 'off'}")
    print("\n".join(_table(tallies, ks)))
    times = {"mean": sum(store_times) / len(store_times) if store_times else None,
             "p50": percentile(store_times, 50), "p95": percentile(store_times, 95)}
    cpu = {"mean": sum(store_cpu) / len(store_cpu) if store_cpu else None,
           "p50": percentile(store_cpu, 50), "p95": percentile(store_cpu, 95)}
    q95, q95_cpu = percentile(query_times, 95), percentile(query_cpu, 95)
    print("store time per session (s): " + ", ".join(f"{k} {v:.3f}" for k, v in times.items() if v is not None)
          + "; CPU time " + ", ".join(f"{k} {v:.3f}" for k, v in cpu.items() if v is not None))
    print(f"query time p95 (ms, embedding + dense + BM25 + fusion + verification): {1000 * q95:.1f}; CPU time "
          f"{1000 * q95_cpu:.1f}; load average {os.getloadavg()[0]:.1f}" if q95 is not None else "")
    rows = [k for k in tallies]
    print(json.dumps({
        "conversations": len(conversations), "sessions": len(store_times), "skipped_questions": skipped,
        "fusion": recall.fusion, "lexical_weight": recall.lexical_weight, "context_turns": recall.context_turns,
        "recall": {key: {"n": tallies[key].questions, **{str(k): v for k, v in tallies[key].recall(ks).items()}}
                   for key in rows},
        "turn_recall": {key: {str(k): v for k, v in tallies[key].recall(ks, "turns").items()} for key in rows},
        "chance": {key: {str(k): v for k, v in tallies[key].recall(ks, "chance").items()} for key in rows},
        "store_time_s": times, "query_p95_s": q95, "store_cpu_s": cpu, "query_cpu_p95_s": q95_cpu,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
