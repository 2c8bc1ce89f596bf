"""The understanding's reading of memory intent (the shipped classifier, then the parse's form:
interaction/memory_intent/form.py) beside the classifier alone, on the dev and the held-out test
split of interaction/memory_intent/utterances.tsv, and on sentences that are no requests by their
form although their words are near one (form_checks.tsv: news opened with "guess what", a "yes
please" when nothing was asked). Nothing is fitted here.

    python -m scripts.eval.memory_intent_reading [--errors]
"""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path

import numpy as np

from interaction.memory_intent.classifier import MEMORY_INTENTS, classify, default_classifier
from scripts.eval.train_memory_intent import load, report

FORM_CHECKS = Path(__file__).parent / "memory_intent" / "form_checks.tsv"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--errors", action="store_true", help="print the sentences the reading gets wrong")
    args = parser.parse_args(argv)
    classifier = default_classifier()
    assert classifier is not None, "the memory-intent classifier did not load"
    data = load()
    with FORM_CHECKS.open(encoding="utf-8") as f:
        checks = [(r["text"], MEMORY_INTENTS.index(r["intent"])) for r in csv.DictReader(f, delimiter="\t")]
    splits = {"dev": (data["dev"].texts, data["dev"].labels), "test": (data["test"].texts, data["test"].labels),
              "form_checks": ([t for t, _ in checks], np.array([y for _, y in checks]))}
    out: dict[str, dict] = {}
    for split, (texts, labels) in splits.items():
        alone = np.array([MEMORY_INTENTS.index(classifier.classify(t).intent) for t in texts])
        read = np.array([MEMORY_INTENTS.index(classify(t).intent) for t in texts])
        out[split] = {"classifier": report(alone, labels), "reading": report(read, labels)}
        a, r = out[split]["classifier"]["accuracy"]["value"], out[split]["reading"]["accuracy"]["value"]
        print(f"{split:<12} n={len(texts):<5} accuracy: classifier {a:.3f}, reading {r:.3f}")
        for intent in MEMORY_INTENTS:
            c, d = out[split]["classifier"][intent], out[split]["reading"][intent]
            print(f"  {intent:<11} P {c['precision']:.3f} -> {d['precision']:.3f}   R {c['recall']:.3f} -> {d['recall']:.3f}"
                  f"   n={c['n']}")
        if args.errors:
            for text, want, got in zip(texts, labels, read, strict=True):
                if want != got:
                    print(f"    {MEMORY_INTENTS[want]} read as {MEMORY_INTENTS[got]}: {text}")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
