"""LoCoMo scoring through the retrieval core on a small fixed slice written here in LoCoMo's format:
storage with the sessions' own dates, the labelling of turns back to dia_ids, session and turn
recall@k, the dev/test split and the CLI's JSON line."""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import datetime

import pytest

from common.config import load_settings
from common.config.interaction_settings import ChromaSettings
from common.embedding.chroma import NadineEmbeddingFunction
from common.embedding.registry import offline_text_embedder
from interaction.memory.chroma_store import make_client
from interaction.memory.episodic import EpisodicMemory
from interaction.memory.retrieval.core import RetrievalCore
from interaction.memory.retrieval.text_pool import TextPools
from scripts.eval import locomo
from scripts.eval.locomo_data import load

SESSIONS = [
    ("1:56 pm on 8 May, 2023", [("Caroline", "I went to the LGBTQ support group yesterday, it was powerful."),
                                ("Melanie", "That sounds great! I painted a lake sunrise last year."),
                                ("Caroline", "I want to study counseling to help people like me.")]),
    ("10:04 am on 19 June, 2023", [("Melanie", "We went camping in the mountains with the kids."),
                                   ("Caroline", "Did you see any wildlife?"),
                                   ("Melanie", "Yes, a family of deer near the tent at dawn!")]),
    ("8:30 pm on 2 August, 2023", [("Caroline", "My adoption application was approved today."),
                                   ("Melanie", "Congratulations! Will you adopt a girl or a boy?"),
                                   ("Caroline", "A little girl, we are meeting her next month.")]),
]
QUESTIONS = [
    ("When did Caroline go to the LGBTQ support group?", 2, ["D1:1"]),
    ("What animals did Melanie see while camping?", 4, ["D2:3"]),
    ("What career does Caroline want to pursue?", 4, ["D1:3"]),
    ("What happened with Caroline's adoption?", 1, ["D3:1", "D3:3"]),
]


def _slice() -> list[dict]:
    conversation = {"speaker_a": "Caroline", "speaker_b": "Melanie"}
    for n, (date, turns) in enumerate(SESSIONS, start=1):
        conversation[f"session_{n}_date_time"] = date
        conversation[f"session_{n}"] = [{"speaker": s, "dia_id": f"D{n}:{i}", "text": t}
                                        for i, (s, t) in enumerate(turns, start=1)]
    qa = [{"question": q, "category": c, "evidence": e, "answer": "-"} for q, c, e in QUESTIONS]
    return [{"sample_id": "conv-x", "conversation": conversation, "qa": qa}]


@pytest.fixture
def stored(tmp_path):
    path = tmp_path / "slice.json"
    path.write_text(json.dumps(_slice()))
    conv = load(path)[0]
    clock = locomo.SessionClock()
    embedder = offline_text_embedder()
    memory = EpisodicMemory(make_client(ChromaSettings(), tmp_path / "chroma"), NadineEmbeddingFunction(embedder), clock)
    durations = locomo.store_conversation(memory, clock, conv)
    return path, conv, memory, TextPools(memory, embedder.name, embedder.dim).pool(conv.sample_id), durations


def test_turns_are_stored_with_their_sessions_date_and_labelled_back(stored):
    _, conv, memory, pool, durations = stored
    assert len(durations) == 3
    labels = locomo.label_pool(pool, conv)
    turns = {dia: int(s) for dia, s in zip(labels.dia_id, labels.session, strict=True) if dia}
    # every turn that tells something; "Did you see any wildlife?" is a question, never a memory
    assert turns == {f"D{n}:{i}": n for n in (1, 2, 3) for i in (1, 2, 3) if f"D{n}:{i}" != "D2:2"}
    for c, number in zip(pool.items, labels.session, strict=True):
        when = conv.sessions[int(number) - 1].when
        assert when <= datetime.fromtimestamp(c.occurred_ts) < when.replace(minute=when.minute + 1)  # never "now"
    assert sum(c.kind == "episode" for c in pool.items) == 3


def test_session_and_turn_recall_at_k(stored):
    _, conv, memory, pool, _ = stored
    core = RetrievalCore(load_settings(environ={}).interaction.retrieval.recall, None, None)  # type: ignore[arg-type]
    tallies: dict[str, locomo.Tally] = defaultdict(locomo.Tally)
    skipped = locomo.evaluate(core, memory, pool, conv, [1, 2, 3], tallies, "dev", [])
    assert skipped == 0 and tallies["all"].questions == tallies["dev"].questions == 4
    assert tallies["all"].recall([1, 2, 3]) == {1: 1.0, 2: 1.0, 3: 1.0}  # every session is found first
    turn = tallies["all"].recall([1, 2, 3], "turns")
    assert turn[1] >= 0.75 and turn[3] == 1.0
    assert tallies["4 single-hop"].questions == 2 and tallies["1 multi-hop"].questions == 1
    assert tallies["all"].recall([3], "chance") == {3: 1.0}  # 3 of 3 sessions: chance finds them all


def test_chance_recall():
    assert locomo.chance_recall(10, 1, 1) == pytest.approx(0.1)
    assert locomo.chance_recall(10, 2, 5) == pytest.approx(1 - 10 / 45)
    assert locomo.chance_recall(3, 1, 5) == 1.0


def test_the_cli_prints_dev_test_and_all(tmp_path, capsys):
    path = tmp_path / "slice.json"
    path.write_text(json.dumps(_slice() * 1))
    assert locomo.main(["--data", str(path), "--k", "1", "2"]) == 0
    out = capsys.readouterr().out
    result = json.loads(out.strip().splitlines()[-1])
    assert result["sessions"] == 3 and result["recall"]["all"]["n"] == 4
    assert result["recall"]["all"]["1"] == 1.0 and "dev" in result["recall"] and "turn_recall" in result
    assert result["query_p95_s"] > 0 and result["store_time_s"]["p95"] > 0
    assert result["query_cpu_p95_s"] > 0 and result["store_cpu_s"]["p95"] > 0
