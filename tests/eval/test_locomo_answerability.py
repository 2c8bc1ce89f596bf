"""LoCoMo answerability scoring on a fixed slice of the first conversation (conv-26): who a question
is about, the question in that person's words, their own turns as their memory, and the per-category
counts of the decision (skipped with a reason when the shared data is absent)."""

from __future__ import annotations

import pytest

from common.config import load_settings
from common.embedding.registry import offline_text_embedder
from interaction.memory.retrieval.core import RetrievalCore
from interaction.memory.retrieval.entities import Thresholds, build_reader
from scripts.eval.locomo_answerability import first_person, speaker_pool, speaker_questions, table
from scripts.eval.locomo_data import load
from scripts.eval.recall_questions import Asked, shortlist, tally

SLICE = 12  # questions of each kind


@pytest.fixture(scope="module")
def nlp():
    from interaction.offline.self_description import load_parser

    return load_parser()


@pytest.mark.parametrize("question,expected", [
    ("What did Caroline realize after her charity race?", "What did I realize after my charity race?"),
    ("When did Melanie paint a sunrise?", "When did I paint a sunrise?"),
    ("What is Caroline's identity?", "What is my identity?"),
    ("What does Melanie do to destress?", "What do I do to destress?"),
    ("Is Caroline a member of the LGBTQ community?", "Am I a member of the LGBTQ community?"),
])
def test_a_question_is_asked_in_the_persons_own_words(nlp, question, expected):
    name = "Caroline" if "Caroline" in question else "Melanie"
    assert first_person(question, name, nlp) == expected


def test_the_fixed_slice_is_scored_per_category(shared_data, nlp):
    conv = load(shared_data / "locomo" / "locomo10.json")[0]
    kept = speaker_questions(conv)
    spoken_by = {t.dia_id: t.speaker for s in conv.sessions for t in s.turns}
    for speaker, question, kind, evidence in kept:
        assert speaker in question.question
        assert (kind == "answerable") == bool(evidence)
        assert all(spoken_by[e] == speaker for e in evidence)
    answerable = [k for k in kept if k[2] == "answerable"][:SLICE]
    adversarial = [k for k in kept if k[2] == "adversarial"][:SLICE]
    assert len(answerable) == len(adversarial) == SLICE

    settings = load_settings()
    recall = settings.interaction.retrieval.recall
    embedder = offline_text_embedder()
    cal = recall.decision_for(embedder.name)
    entities = build_reader(embedder.embed, Thresholds.of(cal))
    from interaction.memory.retrieval.verifier import build_verifier

    core = RetrievalCore(recall, build_verifier(recall.verifier, recall.verifier_model), cal, entities=entities)
    pools = {s: speaker_pool(conv, s, embedder) for s in (conv.speaker_a, conv.speaker_b)}
    for pool, speaker in ((p, s) for s, p in pools.items()):
        assert all(c.memory_id in spoken_by and spoken_by[c.memory_id] == speaker for c in pool.items)
    asked = []
    for speaker, question, kind, evidence in answerable + adversarial:
        text = first_person(question.question, speaker, nlp)
        judged = shortlist(core, pools[speaker], text, embedder.embed([text])[0])
        asked.append(Asked(speaker, text, evidence, judged, kind))
    counts = tally(core, cal, asked, by="category")
    for kind in ("answerable", "adversarial"):
        assert counts[f"{kind}:n"] == SLICE
        assert sum(counts[f"{kind}:{o}"] for o in ("asserted", "offered", "abstained")) == SLICE
    assert counts["adversarial:asserted_right"] == 0  # nothing answers an adversarial question
    assert counts["answerable:asserted_right"] <= counts["answerable:asserted"]
    lines = table(core, cal, {"slice": asked})
    assert any(line.startswith("adversarial") for line in lines)
