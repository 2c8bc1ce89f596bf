"""The confirmation reader (interaction/confirmation): the shipped classifier on tricky replies, its
data and weights file, its held-out test split, the ask-again policy, and the model's reading when one
is configured.

Floors on the held-out test split (python -m scripts.eval.train_confirmation; figures in
scripts/eval/README.md): a wrong yes deletes a memory or links a profile, so the false-yes rate must
stay low on replies never used to choose anything; accuracy leaves room for an honest retrain."""

from __future__ import annotations

import csv
import json
from collections import defaultdict

import numpy as np
import pytest

from common.embedding.registry import offline_text_embedder
from interaction.confirmation import next_step, read_reply
from interaction.confirmation.reader import (
    ANSWERS,
    REPLIES,
    WEIGHTS,
    ConfirmationReader,
    default_reader,
    split_of,
)
from interaction.offline.extract import answer_name

# Replies a person may give to "Do you want me to forget ...?" or "Is your name ...?"; the first ten
# are the issue's, the rest are not in replies.tsv.
TRICKY = [
    ("absolutely not", "no"), ("Of course not!", "no"), ("yes — no, wait", "no"),
    ("sure, why not", "yes"),
    ("go ahead", "yes"), ("please don't", "no"), ("I'd rather you didn't", "no"), ("hmm, maybe", "unclear"),
    ("no, keep it", "no"), ("yes please do", "yes"),
    ("Absolutely not, I want you to keep it!", "no"), ("Yes, please delete it.", "yes"),
    ("No no, don't delete anything.", "no"), ("Of course, go ahead and forget it.", "yes"),
    ("I'm not really sure to be honest.", "unclear"), ("Definitely not, that's important to me.", "no"),
    ("What's the time?", "unclear"), ("Yes, that's me.", "yes"),
    # a yes that says again what goes
    ("yes, every bit of it", "yes"),
    # a no with who they are instead ("no, the student" to "is your name Sam Okafor?" was unclear: tester31)
    ("no, the pharmacist", "no"), ("No, I'm the other Tom.", "no"),
]


def rows() -> list[dict[str, str]]:
    with REPLIES.open(encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


@pytest.fixture(scope="module")
def reader() -> ConfirmationReader:
    loaded = default_reader()
    assert loaded is not None, "the shipped confirmation weights did not load"
    return loaded


@pytest.mark.parametrize("reply,expected", TRICKY)
def test_tricky_replies(reader, reply, expected):
    assert reader.read(reply) == expected


@pytest.mark.parametrize("reply", ["you sure?", "will it be gone forever?", "do you really have to?",
                                   "and then nobody can ever see it?"])
def test_a_question_back_is_never_a_yes(reader, reply):
    """The embedding of a worried question lies near a yes; a yes is said, not asked."""
    assert reader.read(reply) != "yes"


def test_a_yes_said_before_a_question_is_a_yes(reader):
    assert reader.read("yes please, can you do it now?") == "yes"


def test_anything_but_a_confident_yes_is_not_a_yes(reader):
    assert reader.read("") == "unclear" and reader.read("   ") == "unclear"
    probs = reader.probabilities(["yes", "absolutely not"])
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-5)
    assert reader.decide(np.array([reader.yes_above - 1e-3, 0.0, 1 - reader.yes_above + 1e-3])) == "unclear"


def test_weights_file_matches_the_reader_and_the_embedder():
    data = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    assert data["classes"] == list(ANSWERS) and data["embedder"] == offline_text_embedder().name
    assert 0.5 <= data["yes_above"] < 1.0
    vectors = 3 if data.get("clause_vectors") else 1  # the reply's, and its first and last clause's
    assert np.asarray(data["coef"]).shape == (3, vectors * offline_text_embedder().dim + len(data["vocabulary"]))


def test_replies_are_labelled_and_split_by_group():
    table = rows()
    assert len(table) >= 400 and {r["label"] for r in table} == set(ANSWERS)
    labels = defaultdict(set)
    for r in table:
        labels[r["group"]].add(r["label"])
    assert all(len(v) == 1 for v in labels.values()), "a paraphrase group holds one answer"
    texts = [r["text"] for r in table]
    assert len(texts) == len(set(texts))
    by_split = defaultdict(set)
    for group in labels:
        by_split[split_of(group)].add(group)
    assert set(by_split) == {"train", "dev", "test"}
    for split, groups in by_split.items():  # every answer is in every split
        assert {next(iter(labels[g])) for g in groups} == set(ANSWERS), split
    # a group is in exactly one split, so near-copies never straddle them
    assert sum(len(g) for g in by_split.values()) == len(labels)


def test_held_out_test_split(reader):
    test = [r for r in rows() if split_of(r["group"]) == "test"]
    read = [reader.read(r["text"]) for r in test]
    gold = [r["label"] for r in test]
    not_yes = [p for p, g in zip(read, gold, strict=True) if g != "yes"]
    assert np.mean([p == "yes" for p in not_yes]) <= 0.03
    assert np.mean([p == g for p, g in zip(read, gold, strict=True)]) >= 0.8
    yes = [p for p, g in zip(read, gold, strict=True) if g == "yes"]
    assert np.mean([p == "yes" for p in yes]) >= 0.7


@pytest.mark.parametrize("answer,asked_again,step", [
    ("yes", False, "act"), ("yes", True, "act"), ("unclear", False, "ask_again"), ("unclear", True, "keep"),
    ("no", False, "keep"), ("no", True, "keep"),
])
def test_only_a_clear_yes_acts_and_unclear_is_asked_once_more(answer, asked_again, step):
    assert next_step(answer, asked_again) == step


class Deps:
    """AgentDeps' ask_json as a configured model answers it (or None when it gives nothing usable)."""

    def __init__(self, answer):
        self.answer, self.asked = answer, []

    def ask_json(self, agent, messages, schema, prepare=None, **kw):
        self.asked.append((agent, messages))
        return None if self.answer is None else schema.model_validate({"answer": self.answer})


def test_a_configured_model_reads_the_reply_and_the_offline_reader_is_its_fallback():
    model = Deps("no")
    assert read_reply(model, "Do you want me to forget everything?", "yes") == "no"
    agent, messages = model.asked[0]
    assert agent == "confirmation_reader" and "Reply: yes" in messages[-1]["content"]
    assert read_reply(Deps(None), "Do you want me to forget everything?", "absolutely not") == "no"
    assert read_reply(None, "Is your name Maya?", "yes, that's me") == "yes"


@pytest.mark.parametrize("text,name", [
    ("Mia", "Mia"), ("No, it's Leonora.", "Leonora"), ("Absolutely", None), ("Absolutely not", None),
    ("Of course", None), ("Yes please", None), ("Certainly not!", None),
])
def test_an_answer_is_not_taken_for_a_name(text, name):
    assert answer_name(text) == name


def test_a_statement_with_a_verb_is_no_bare_answer_without_running_the_reader(monkeypatch):
    from interaction.confirmation import reader

    asked: list[str] = []
    monkeypatch.setattr(reader, "read_offline", lambda text: asked.append(text) or "yes")
    assert not reader.bare_answer("We walked along the canal after lunch.")
    assert not reader.bare_answer("Yes, 12.")  # a number tells something too
    assert asked == []
    assert reader.bare_answer("Yes please!") and asked == ["Yes please!"]
