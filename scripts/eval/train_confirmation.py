"""Train the confirmation reader (interaction/confirmation) and report it, deterministically.

    python -m scripts.eval.train_confirmation [--write]

Data: interaction/confirmation/replies.tsv (group, label, text): replies to yes / no questions, labelled
yes / no / unclear, in paraphrase groups: written one by one, and composed (groups "c_...": a yes / no /
unclear core with a tail, a correction or a hedge, each group's copies differing in opener and
punctuation). A reply's split is its group's
(interaction.confirmation.reader.split_of: a seeded hash of the group id), so near-copies never
straddle splits. Steps:
1-3. vocabulary, logistic regression (with and without first / last clause vectors) and softmax
   temperature, fitted as scripts/eval/linear_text.py says;
4. yes_above, the smallest P(yes) threshold of 0.50, 0.51, ... 0.99 at which at most MAX_FALSE_YES of
   the dev replies labelled no or unclear read as yes (a wrong yes deletes or links); no_above, the
   same for P(no) and the dev replies labelled yes or unclear (MAX_FALSE_NO: a wrong no to "is your
   name ...?" makes a second person of someone known);
5. accuracy, the false-yes rate, per-class precision / recall and calibration error on dev and on the
   held-out test split (and on its written replies alone), printed as a table and one JSON line;
6. the whole reader (ConfirmationReader.read: a yes asked as a question, or taken back or narrowed, is
   no yes) on dev and test, and on reservations.tsv beside this script: yeses said with a part to keep
   or a condition ("yes but keep my mum's birthday"), all labelled unclear and never trained on (the
   linear model, trained on them, let them pull a bare "yeah" below yes_above).
   --write stores weights.json.
"""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path

import numpy as np
from sklearn.metrics import precision_recall_fscore_support

from common.embedding.registry import offline_text_embedder
from interaction.confirmation.reader import ANSWERS, REPLIES, WEIGHTS, ConfirmationReader, split_of
from scripts.eval.linear_text import Split, evaluate, fit, lowest_safe_threshold, misread, print_class_table

MAX_FALSE_YES = 0.01
MAX_FALSE_NO = 0.01
SPLITS = ("train", "dev", "test")
COMPOSED = "c_"  # the group prefix of composed replies
RESERVATIONS = Path(__file__).with_name("confirmation_reservations.tsv")


def load() -> tuple[dict[str, Split], dict[str, np.ndarray]]:
    """The splits, and per split which replies were written one by one (not composed)."""
    rows: dict[str, tuple[list[str], list[int], list[bool]]] = {s: ([], [], []) for s in SPLITS}
    with REPLIES.open(encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            texts, labels, written = rows[split_of(row["group"])]
            texts.append(row["text"])
            labels.append(ANSWERS.index(row["label"]))
            written.append(not row["group"].startswith(COMPOSED))
    return ({s: Split(t, np.array(y)) for s, (t, y, _) in rows.items()},
            {s: np.array(w) for s, (_, _, w) in rows.items()})


def choose_yes_above(p_yes: np.ndarray, labels: np.ndarray) -> float:
    return lowest_safe_threshold(p_yes, labels, MAX_FALSE_YES)


def choose_no_above(p_no: np.ndarray, labels: np.ndarray) -> float:
    """As yes_above, for no: the no replies are the first class."""
    return lowest_safe_threshold(p_no, np.where(labels == ANSWERS.index("no"), 0, 1), MAX_FALSE_NO)


def report(predicted: np.ndarray, labels: np.ndarray) -> dict:
    p, r, _, n = precision_recall_fscore_support(labels, predicted, labels=list(range(len(ANSWERS))), zero_division=0)
    out: dict = {c: {"precision": round(float(p[i]), 3), "recall": round(float(r[i]), 3), "n": int(n[i])}
                 for i, c in enumerate(ANSWERS)}
    out["accuracy"] = {"value": round(float((predicted == labels).mean()), 3), "n": int(len(labels))}
    not_yes = labels != 0
    wrong = int(((predicted == 0) & not_yes).sum())
    out["false_yes"] = {"value": round(wrong / max(int(not_yes.sum()), 1), 4), "wrong": wrong, "n": int(not_yes.sum())}
    return out


def whole_reader(reader: ConfirmationReader, data: dict[str, Split]) -> dict[str, dict]:
    """What ConfirmationReader.read, which every confirmation calls, makes of dev, test and the
    reservations: the yes replies it still reads as yes, and the others it reads as yes."""
    with RESERVATIONS.open(encoding="utf-8") as f:
        reservations = [row["text"] for row in csv.DictReader(f, delimiter="\t")]
    splits = {**{s: (data[s].texts, data[s].labels) for s in ("dev", "test")},
              "reservations": (reservations, np.full(len(reservations), ANSWERS.index("unclear")))}
    out = {}
    for name, (texts, labels) in splits.items():
        said_yes = np.array([reader.read(text) == "yes" for text in texts])
        yes = labels == ANSWERS.index("yes")
        out[name] = {"yes_read_yes": {"kept": int((said_yes & yes).sum()), "n": int(yes.sum())},
                     "false_yes": {"wrong": int((said_yes & ~yes).sum()), "n": int((~yes).sum())}}
        if not yes.any():
            del out[name]["yes_read_yes"]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="store interaction/confirmation/weights.json")
    args = parser.parse_args(argv)
    data, written = load()
    embedder = offline_text_embedder()
    fitted = fit(embedder, data, list(ANSWERS), clause_options=(False, True))
    yes_above = choose_yes_above(fitted.calibrated["dev"][:, 0], data["dev"].labels)
    no_above = choose_no_above(fitted.calibrated["dev"][:, 1], data["dev"].labels)
    readers: list[ConfirmationReader] = []

    def load_reader(path: Path) -> ConfirmationReader:
        readers.append(ConfirmationReader(embedder, path))
        return readers[-1]

    results, predicted = evaluate(WEIGHTS, {**fitted.weights, "yes_above": yes_above, "no_above": no_above},
                                  load_reader, data, fitted, list(ANSWERS), report, args.write)
    mine = written["test"]
    results["test_written"] = report(predicted["test"][mine], data["test"].labels[mine])
    for split in ("dev", "test"):
        results[split]["misread"] = misread(list(ANSWERS), data[split], predicted[split])
    whole = whole_reader(readers[-1], data)
    sizes = {s: len(d.texts) for s, d in data.items()}
    w = fitted.weights
    print(f"replies per split {sizes}; chosen: clause_vectors={w.get('clause_vectors', False)} "
          f"lexical_weight={w['lexical_weight']} C={w['C']} "
          f"temperature={w['temperature']:.3f} yes_above={yes_above} no_above={no_above}")
    print_class_table("answer", list(ANSWERS), results)
    for split in ("dev", "test", "test_written"):
        r = results[split]
        print(f"{split}: accuracy {r['accuracy']['value']:.3f} (n={r['accuracy']['n']}), false yes "
              f"{r['false_yes']['wrong']}/{r['false_yes']['n']} = {r['false_yes']['value']:.3f}"
              + (f", ECE {r['ece_uncalibrated']:.3f} -> {r['ece_calibrated']:.3f} after temperature scaling"
                 if "ece_calibrated" in r else f", yes recall {r['yes']['recall']:.3f}"))
        for line in r.get("misread", []):
            print(f"  {split} misread {line}")
    for split, r in whole.items():
        print(f"whole reader, {split}: " + ", ".join(f"{k} {v['wrong' if k == 'false_yes' else 'kept']}/{v['n']}"
                                                     for k, v in r.items()))
    print(json.dumps({"whole_reader": whole, "chosen": {"clause_vectors": w.get("clause_vectors", False), "lexical_weight": w["lexical_weight"],
                                 "C": w["C"], "temperature": w["temperature"],
                                 "yes_above": yes_above, "no_above": no_above}, "replies": sizes, **results}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
