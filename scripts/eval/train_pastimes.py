"""Train the reader of pastimes said by their doing (interaction/offline/pastimes.py) and report it, deterministically.

    python -m scripts.eval.train_pastimes [--write]

Data: interaction/offline/data/pastimes.tsv (label, text): things people say they do, labelled pastime
("I ring the bells at our church") or other ("I take the ferry to work"), written for this repo; a
sentence's split is a seeded hash of it (verb_jobs.split_of with the pastimes' seed). Steps:
1-3. vocabulary, logistic regression (with and without first / last clause vectors) and softmax
   temperature, fitted as scripts/eval/linear_text.py says;
4. pastime_above, the smallest P(pastime) threshold of 0.50, 0.51, ... 0.99 at which at most
   MAX_FALSE_PASTIME of the dev sentences labelled other read as pastimes;
5. accuracy, precision and recall of "pastime" on dev and on the held-out test split, the sentences
   read wrong, and one JSON line. --write stores the weights.
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from common.embedding.registry import offline_text_embedder
from interaction.offline.pastimes import CLASSES, DATA, MAX_FALSE_PASTIME, SPLIT_SEED, WEIGHTS, PastimeModel
from interaction.offline.verb_jobs import load_rows, split_of
from scripts.eval.linear_text import Split, evaluate, fit, lowest_safe_threshold


def load() -> dict[str, Split]:
    rows: dict[str, tuple[list[str], list[int]]] = {s: ([], []) for s in ("train", "dev", "test")}
    for label, text in load_rows(DATA):
        texts, labels = rows[split_of(text, SPLIT_SEED)]
        texts.append(text)
        labels.append(CLASSES.index(label))
    return {s: Split(t, np.array(y)) for s, (t, y) in rows.items()}


def report(predicted: np.ndarray, labels: np.ndarray) -> dict:
    pastime, said = labels == 0, predicted == 0
    right = int((pastime & said).sum())
    return {"n": int(len(labels)), "pastimes": int(pastime.sum()),
            "accuracy": round(float((predicted == labels).mean()), 3),
            "precision": round(right / max(int(said.sum()), 1), 3), "recall": round(right / max(int(pastime.sum()), 1), 3),
            "false_pastime": int((said & ~pastime).sum())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.eval.train_pastimes", description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="store interaction/offline/data/pastime_weights.json")
    args = parser.parse_args(argv)
    data = load()
    embedder = offline_text_embedder()
    fitted = fit(embedder, data, list(CLASSES), clause_options=(False, True))
    above = lowest_safe_threshold(fitted.calibrated["dev"][:, 0], data["dev"].labels, MAX_FALSE_PASTIME)
    results, predicted = evaluate(WEIGHTS, {**fitted.weights, "pastime_above": above},
                                  lambda path: PastimeModel(embedder, path), data, fitted, list(CLASSES), report, args.write)
    w = fitted.weights
    print(f"sentences per split { {s: len(d.texts) for s, d in data.items()} }; chosen: "
          f"clause_vectors={w.get('clause_vectors', False)} lexical_weight={w['lexical_weight']} C={w['C']} "
          f"temperature={w['temperature']:.3f} pastime_above={above}")
    for split in ("dev", "test"):
        r = results[split]
        print(f"{split:<5} n={r['n']:>3} (pastimes {r['pastimes']})  accuracy {r['accuracy']:.3f}  pastime precision "
              f"{r['precision']:.3f} recall {r['recall']:.3f}  other read as a pastime {r['false_pastime']}  "
              f"ECE {r['ece_uncalibrated']:.3f} -> {r['ece_calibrated']:.3f}")
        for text, gold, got in zip(data[split].texts, data[split].labels, predicted[split], strict=True):
            if gold != got:
                print(f"  {split} misread {CLASSES[gold]} -> {CLASSES[got]}: {text}")
    print(json.dumps({"chosen": {"clause_vectors": w.get("clause_vectors", False), "lexical_weight": w["lexical_weight"],
                                 "C": w["C"], "temperature": w["temperature"], "pastime_above": above}, **results}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
