"""Train the turn-act reader (interaction/turn_act) and report it, deterministically.

    python -m scripts.eval.train_turn_act [--write]

Data: interaction/turn_act/turns.tsv (group, writer, label, text): turns labelled farewell, backchannel,
decline or other, written in paraphrase groups by invented writers (Irish, Scottish, Australian, Nigerian,
Ghanaian, Indian and Pakistani English, US slang, elderly formal speech, learners writing from German,
Spanish, Italian, Portuguese, Japanese and Swedish, terse typists), with words of parting said of
something else among the others ("my gran waved bye from the window", "I'm leaving for Lisbon on
Thursday", "see you later, said the doctor"). A writer's turns share a split
(interaction.turn_act.reader.split_of). Steps:
1-3. vocabulary, logistic regression (with and without first / last clause vectors, character n-grams)
   and softmax temperature, fitted as scripts/eval/linear_text.py says;
4. each act's line, the smallest P(act) of 0.50, 0.51, ... 0.99 at which at most MAX_FALSE[act] of the
   dev turns of other labels read as it (a wrong farewell ends the conversation);
5. per-act precision / recall, accuracy and calibration error on the dev and the held-out test writers,
   printed as a table and one JSON line. --write stores weights.json.
"""

from __future__ import annotations

import argparse
import csv
import json

import numpy as np
from sklearn.metrics import precision_recall_fscore_support

from common.embedding.registry import offline_text_embedder
from interaction.turn_act.reader import ACTS, OTHER, TURNS, WEIGHTS, TurnActReader, split_of
from scripts.eval.linear_text import Split, evaluate, fit, lowest_safe_threshold, misread, print_class_table

MAX_FALSE = {"farewell": 0.02, "backchannel": 0.02, "decline": 0.02}
SPLITS = ("train", "dev", "test")


def load() -> dict[str, Split]:
    rows: dict[str, tuple[list[str], list[int]]] = {s: ([], []) for s in SPLITS}
    with TURNS.open(encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            texts, labels = rows[split_of(row["writer"])]
            texts.append(row["text"])
            labels.append(ACTS.index(row["label"]))
    return {s: Split(t, np.array(y)) for s, (t, y) in rows.items()}


def choose_lines(dev_probs: np.ndarray, labels: np.ndarray) -> dict[str, float]:
    """Each act's line on the dev turns: the act is the first class, every other label the second."""
    return {act: lowest_safe_threshold(dev_probs[:, i], np.where(labels == i, 0, 1), MAX_FALSE[act])
            for i, act in enumerate(ACTS) if act != OTHER}


def report(predicted: np.ndarray, labels: np.ndarray) -> dict:
    p, r, _, n = precision_recall_fscore_support(labels, predicted, labels=list(range(len(ACTS))), zero_division=0)
    out: dict = {a: {"precision": round(float(p[i]), 3), "recall": round(float(r[i]), 3), "n": int(n[i])}
                 for i, a in enumerate(ACTS)}
    out["accuracy"] = {"value": round(float((predicted == labels).mean()), 3), "n": int(len(labels))}
    farewell = ACTS.index("farewell")
    not_farewell = labels != farewell
    wrong = int(((predicted == farewell) & not_farewell).sum())
    out["false_farewell"] = {"wrong": wrong, "n": int(not_farewell.sum())}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="store interaction/turn_act/weights.json")
    args = parser.parse_args(argv)
    data = load()
    embedder = offline_text_embedder()
    fitted = fit(embedder, data, list(ACTS), clause_options=(False, True), char_weights=(0.0, 1.0),
                 lexical_weights=(0.5, 1.0))
    above = choose_lines(fitted.calibrated["dev"], data["dev"].labels)
    results, predicted = evaluate(WEIGHTS, {**fitted.weights, "above": above},
                                  lambda path: TurnActReader(embedder, path), data, fitted, list(ACTS),
                                  report, args.write)
    for split in ("dev", "test"):
        results[split]["misread"] = misread(list(ACTS), data[split], predicted[split])
    sizes = {s: len(d.texts) for s, d in data.items()}
    w = fitted.weights
    print(f"turns per split {sizes}; chosen: clause_vectors={w.get('clause_vectors', False)} "
          f"lexical_weight={w['lexical_weight']} char_weight={w.get('char_weight', 0.0)} C={w['C']} "
          f"temperature={w['temperature']:.3f} above={above}")
    print_class_table("act", list(ACTS), results)
    for split in ("dev", "test"):
        r = results[split]
        print(f"{split}: accuracy {r['accuracy']['value']:.3f} (n={r['accuracy']['n']}), false farewell "
              f"{r['false_farewell']['wrong']}/{r['false_farewell']['n']}, ECE {r['ece_uncalibrated']:.3f} -> "
              f"{r['ece_calibrated']:.3f} after temperature scaling")
        for line in r["misread"]:
            print(f"  {split} misread {line}")
    print(json.dumps({"chosen": {"clause_vectors": w.get("clause_vectors", False), "lexical_weight": w["lexical_weight"],
                                 "char_weight": w.get("char_weight", 0.0), "C": w["C"],
                                 "temperature": w["temperature"], "above": above}, "turns": sizes, **results}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
