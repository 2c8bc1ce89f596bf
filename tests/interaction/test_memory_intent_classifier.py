"""The shipped memory-intent classifier on its fixed held-out test split (never used for training or
for choosing anything), and the request wording helpers.

Floors: the shipped model scores 0.919 accuracy and 0.983 recall precision on this split, casual and
misspelt paraphrase groups included (python -m scripts.eval.train_memory_intent); the majority class
alone scores 0.29. A floor of 0.85 accuracy / 0.90 recall precision leaves room for an honest retrain
on more data, and fails at once if features, weights, class order or the embedder go wrong.
Calibration: expected calibration error 0.019 shipped; above 0.10 the probabilities no longer mean
what the thresholds assume."""

from __future__ import annotations

import csv

import numpy as np
import pytest

from interaction.memory_intent.classifier import UTTERANCES, classify, default_classifier
from interaction.memory_intent.phrasing import request_content, second_person
from scripts.eval.linear_text import ece


@pytest.fixture(scope="module")
def held_out():
    with UTTERANCES.open(encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t")]
    assert len(rows) >= 600 and {r["split"] for r in rows} == {"train", "dev", "test"}
    test = [r for r in rows if r["split"] == "test"]
    classifier = default_classifier()
    assert classifier is not None
    probs = classifier.probabilities([r["text"] for r in test])
    predicted = [classifier.decide(p) for p in probs]
    return classifier, test, probs, predicted


def test_held_out_accuracy_and_recall_precision(held_out):
    classifier, test, _, predicted = held_out
    gold = [r["intent"] for r in test]
    accuracy = np.mean([p == g for p, g in zip(predicted, gold, strict=True)])
    assert accuracy >= 0.85, accuracy
    said_recall = [g for p, g in zip(predicted, gold, strict=True) if p == "recall"]
    assert said_recall and np.mean([g == "recall" for g in said_recall]) >= 0.90
    for intent in classifier.classes:  # every intent is actually found on unseen phrasings
        hits = [p == g for p, g in zip(predicted, gold, strict=True) if g == intent]
        assert np.mean(hits) >= 0.7, intent


def test_probabilities_are_calibrated(held_out):
    classifier, test, probs, _ = held_out
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-5)
    labels = np.array([classifier.classes.index(r["intent"]) for r in test])
    assert ece(probs, labels) <= 0.10


@pytest.mark.parametrize("text,intent", [
    ("I forgot my keys", "statement"), ("we met at a conference", "statement"),
    ("remember to call mum", "statement"), ("please remember that my niece is called Ada", "remember"),
    ("forget what I said about my neighbour", "forget_one"), ("What do you know about me?", "about_me"),
])
def test_the_issue_examples(text, intent):
    assert default_classifier().classify(text).intent == intent


@pytest.mark.parametrize("text,intent", [
    # the same words but a negation apart: forgetting the fact, or keeping it
    ("please forget that my bike is kept in shed 3", "forget_one"),
    ("don't forget that my bike is kept in shed 3", "remember"),
    ("forget that my aunt is in hospital", "forget_one"),
    # one thing named is one memory; everything about the person is all of them
    ("delete my insurance details", "forget_one"),
    ("please delete everything you know about me", "forget_me"),
    # asking after a kept thing, without any memory verb, is a recall, never a forget
    ("laptop password pls", "recall"),
    ("what's the number of my hotel room?", "recall"),
])
def test_what_the_memory_verb_does_decides(text, intent):
    assert default_classifier().classify(text).intent == intent


def test_request_content_and_second_person():
    assert request_content("Please remember that my daughter's birthday is on 3 May.") == \
        "my daughter's birthday is on 3 May"
    assert request_content("For the record, my middle name is Ada. Please remember that.") == \
        "For the record, my middle name is Ada"
    # the fact may come before the first comma: the comma after it is no boundary of the request
    assert request_content("pls remember my gym pin is 2291, I always forget it") == \
        "my gym pin is 2291, I always forget it"
    assert request_content("Can you remember for me that the boiler man comes Thursday") == \
        "the boiler man comes Thursday"
    assert request_content("pls remember my niece's recital is on the 4th of May, ok?") == \
        "my niece's recital is on the 4th of May"  # the tag question is no part of the fact
    # the classifier stops asking a few words into the noun phrase: the phrase is kept whole
    assert request_content("please remember my gym locker code is 3318") == "my gym locker code is 3318"
    assert second_person("my daughter's birthday is on 3 May") == "your daughter's birthday is on 3 May"
    assert second_person("I am sure I was right, it's mine") == "you are sure you were right, it's yours"
    assert second_person("you promised me a dance") == "I promised you a dance"
    assert second_person("I'm a nurse and my son is ten") == "you're a nurse and your son is ten"


def test_a_text_classified_again_is_not_read_again(monkeypatch):
    """A recall turn classifies every earlier statement of the conversation, each already classified
    on its own turn: the classifier answers those from memory, with the same guess."""
    classifier = default_classifier()
    assert classifier is not None
    text = "Remind me what I said about the greenhouse my uncle built?"
    read: list[list[str]] = []
    model = classifier._model
    monkeypatch.setattr(classifier, "_recent", type(classifier._recent)(classifier._recent.maxsize))
    monkeypatch.setattr(classifier, "_model", type("Noted", (), {
        "probabilities": lambda self, texts: read.append(list(texts)) or model.probabilities(texts)})())
    first = classifier.classify(text)
    assert classifier.classify(text) == first and first.intent == "recall"
    assert read == [[text]]
    assert classifier.classify("My uncle built a greenhouse.").intent == "statement" and len(read) == 2


def test_a_sure_forget_unsure_of_everything_is_a_forget_of_the_one_thing():
    """"Please delete my student ID." read 0.57 forget everything (below its line) and 0.42 forget
    one: surely a forget, so the one thing, asked about before anything goes; never everything, and
    never news (tester: "I see, Lena. Tell me more!")."""
    import numpy as np

    classifier = default_classifier()
    def probs(**p):
        return np.array([p.get(c, 0.0) for c in classifier.classes])
    assert classifier.decide(probs(forget_me=0.57, forget_one=0.42, statement=0.01)) == "forget_one"
    assert classifier.decide(probs(forget_me=0.3, forget_one=0.05, statement=0.65)) == "statement"
    assert classifier.decide(probs(forget_me=0.35, forget_one=0.01, statement=0.34, recall=0.3)) == "statement"
    assert classifier.decide(probs(forget_me=0.9, forget_one=0.1)) == "forget_me"


@pytest.mark.parametrize(("said", "intent"), [
    # the tester's question, and one more the classifier reads near "what do you know about me"
    ("Who supervises me?", "statement"), ("Who looks after me?", "statement"),
    ("What do you remember about me?", "about_me"), ("What's stored about me?", "about_me"),
])
def test_who_does_something_to_them_asks_after_someone_not_what_she_knows_of_them(said, intent):
    assert classify(said).intent == intent
