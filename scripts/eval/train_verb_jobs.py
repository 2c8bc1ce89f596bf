"""Train the reader of jobs said with a verb (interaction/offline/verb_jobs.py) and report it, deterministically.

    python -m scripts.eval.train_verb_jobs [--write]

Data: interaction/offline/data/verb_jobs.tsv (label, text): self-descriptions said with a verb, labelled
job ("I mend fishing nets in the harbour") or other ("I knit scarves for my grandchildren"), written for
this repo; a sentence's split is a seeded hash of it (verb_jobs.split_of). Steps:
1-3. vocabulary, logistic regression (with and without first / last clause vectors) and softmax
   temperature, fitted as scripts/eval/linear_text.py says;
4. job_above, the smallest P(job) threshold of 0.50, 0.51, ... 0.99 at which at most MAX_FALSE_JOB of
   the dev sentences labelled other read as jobs (linear_text.lowest_safe_threshold);
5. accuracy, precision and recall of "job" on dev and on the held-out test split, the sentences read
   wrong, and one JSON line. --write stores the weights (with the training rows' fingerprint).
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from common.embedding.registry import offline_text_embedder
from interaction.offline.verb_jobs import (
    CLASSES,
    MAX_FALSE_JOB,
    WEIGHTS,
    VerbJobModel,
    load_rows,
    split_of,
    training_fingerprint,
)
from scripts.eval.linear_text import Split, evaluate, fit, lowest_safe_threshold

SPLITS = ("train", "dev", "test")


def load() -> dict[str, Split]:
    rows: dict[str, tuple[list[str], list[int]]] = {s: ([], []) for s in SPLITS}
    for label, text in load_rows():
        texts, labels = rows[split_of(text)]
        texts.append(text)
        labels.append(CLASSES.index(label))
    return {s: Split(t, np.array(y)) for s, (t, y) in rows.items()}




def report(predicted: np.ndarray, labels: np.ndarray) -> dict:
    job, said_job = labels == 0, predicted == 0
    right = int((job & said_job).sum())
    return {"n": int(len(labels)), "jobs": int(job.sum()), "accuracy": round(float((predicted == labels).mean()), 3),
            "precision": round(right / max(int(said_job.sum()), 1), 3), "recall": round(right / max(int(job.sum()), 1), 3),
            "false_job": int((said_job & ~job).sum())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.eval.train_verb_jobs", description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="store interaction/offline/data/verb_job_weights.json")
    args = parser.parse_args(argv)
    data = load()
    embedder = offline_text_embedder()
    fitted = fit(embedder, data, list(CLASSES), clause_options=(False, True))
    job_above = lowest_safe_threshold(fitted.calibrated["dev"][:, 0], data["dev"].labels, MAX_FALSE_JOB)
    weights = {**fitted.weights, "job_above": job_above, "training_fingerprint": training_fingerprint(load_rows())}
    results, predicted = evaluate(WEIGHTS, weights, lambda path: VerbJobModel(embedder, path), data, fitted,
                                  list(CLASSES), report, args.write)
    w = fitted.weights
    print(f"sentences per split { {s: len(d.texts) for s, d in data.items()} }; chosen: "
          f"clause_vectors={w.get('clause_vectors', False)} lexical_weight={w['lexical_weight']} C={w['C']} "
          f"temperature={w['temperature']:.3f} job_above={job_above}")
    for split in ("dev", "test"):
        r = results[split]
        print(f"{split:<5} n={r['n']:>3} (jobs {r['jobs']})  accuracy {r['accuracy']:.3f}  job precision "
              f"{r['precision']:.3f} recall {r['recall']:.3f}  other read as a job {r['false_job']}  "
              f"ECE {r['ece_uncalibrated']:.3f} -> {r['ece_calibrated']:.3f}")
        for text, gold, got in zip(data[split].texts, data[split].labels, predicted[split], strict=True):
            if gold != got:
                print(f"  {split} misread {CLASSES[gold]} -> {CLASSES[got]}: {text}")
    if args.write:
        print(f"wrote {WEIGHTS}")
    print(json.dumps({"chosen": {"clause_vectors": w.get("clause_vectors", False), "lexical_weight": w["lexical_weight"],
                                 "C": w["C"], "temperature": w["temperature"], "job_above": job_above}, **results}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
