"""Profile facts from self-descriptions: field accuracy of the rules and of the spaCy parse reader.

    python -m scripts.eval.profile_facts [--calibrate]

Reads scripts/eval/profile_facts/self_descriptions.jsonl (written for this repo: one sentence, its
split, and for current_position / current_company / location the accepted values or null). A field
is right when the extractor's value equals one accepted value (case, articles and punctuation aside)
or both are empty. `as_stored` is the whole offline path of a turn: the extraction, the fact-change
classifier and the grounding of each value in the speaker's words (what the profile would hold). Prints per extractor and split: field accuracy, sentences with all three fields
right, and milliseconds per sentence. Then the same, as stored, for hometown, location, age and relations on
profile_facts/personal_facts.jsonl (paraphrase groups, split by group), with and without the
personal-facts reader. --calibrate picks the parse reader's occupation threshold on
the dev split only (the test split is never used for choosing) and prints it.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections.abc import Callable
from pathlib import Path

from interaction.offline.self_description import FIELDS, OCCUPATION_THRESHOLD

DATA = Path(__file__).resolve().parent / "profile_facts" / "self_descriptions.jsonl"
# where they are from, their home said otherwise, their age, their people by name (personal_facts.py):
# paraphrase groups, each group wholly in dev or in test; nothing is chosen on either
PERSONAL = DATA.with_name("personal_facts.jsonl")
PERSONAL_FIELDS = ("hometown", "location", "age", "relations")


def load(path: Path = DATA) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def normalise(value: str | None) -> str:
    text = re.sub(r"[^\w\s'-]", " ", (value or "").casefold())
    text = re.sub(r"^\s*(?:the|a|an)\s+", "", text)
    return " ".join(text.split())


def field_right(expected, got: str | None) -> bool:
    accepted = expected if isinstance(expected, list) else [expected]
    return normalise(got) in {normalise(a) for a in accepted}


def score(rows: list[dict], predict: Callable[[str], dict]) -> dict:
    right = fields_total = whole = 0
    misses = []
    start = time.perf_counter()
    outputs = [predict(r["text"]) for r in rows]
    elapsed = time.perf_counter() - start
    for row, got in zip(rows, outputs, strict=True):
        ok = [field_right(row[f], got.get(f)) for f in FIELDS]
        right += sum(ok)
        fields_total += len(FIELDS)
        whole += all(ok)
        if not all(ok):
            misses.append({"text": row["text"], **{f: got.get(f) for f in FIELDS}})
    return {"sentences": len(rows), "field_accuracy": right / fields_total, "sentence_accuracy": whole / len(rows),
            "ms_per_sentence": 1000 * elapsed / max(1, len(rows)), "misses": misses}


def stored_predict(text: str) -> dict:
    """What a turn stores for a new person offline: the configured extraction (rules + parse reader),
    the fact-change classifier, and the grounding of every value in the speaker's own words."""
    from interaction.agents.memory_agents import decide_facts
    from interaction.offline.extract import extract_profile

    update, _, _ = decide_facts(text, extract_profile(text), {})
    return update.model_dump()


def _without_personal_facts(text: str) -> dict:
    """The stored path without the origin / home / age / people reader (personal_facts.py)."""
    from unittest import mock

    with mock.patch("interaction.offline.personal_facts.read", return_value=[]):
        return stored_predict(text)


def score_personal(rows: list[dict], predict: Callable[[str], dict]) -> dict:
    """Field accuracy on hometown, location, age and relations (the people as a set)."""
    right = whole = 0
    misses = []
    for row in rows:
        got = predict(row["text"])
        ok = [field_right(row[f], got.get(f)) for f in PERSONAL_FIELDS[:-1]]
        ok.append({normalise(v) for v in row["relations"]} == {normalise(v) for v in got.get("relations") or []})
        right += sum(ok)
        whole += all(ok)
        if not all(ok):
            misses.append({"text": row["text"], **{f: got.get(f) for f in PERSONAL_FIELDS}})
    n = max(1, len(rows))
    return {"sentences": len(rows), "field_accuracy": right / (n * len(PERSONAL_FIELDS)),
            "sentence_accuracy": whole / n, "misses": misses}


def rules_predict(text: str) -> dict:
    from interaction.offline.extract import extract_profile_rules

    return extract_profile_rules(text).model_dump()


def calibrate(reader, rows: list[dict]) -> float:
    """The occupation threshold that maximises dev field accuracy (each sentence parsed and scored once)."""
    parsed = []
    for row in rows:
        found = reader.candidates(row["text"])
        position = found.get("current_position")
        parsed.append((row, found, reader.occupation_score(position) if position else None))
    candidates = sorted({round(s, 3) for _, _, s in parsed if s is not None} | {-1.0, 1.0})
    best = (-1, OCCUPATION_THRESHOLD)
    for threshold in candidates:
        reader.threshold = threshold
        right = sum(field_right(row[f], reader.decide(found, reader.is_occupation(found, s)).get(f))
                    for row, found, s in parsed for f in FIELDS)
        if right > best[0]:  # ties go to the lowest threshold: fewer occupations thrown away
            best = (right, threshold)
    return best[1]


def _record(results: dict, key: str, r: dict, misses: bool) -> dict:
    """Keep a split's figures under `key` (its misses printed when asked) and hand them back."""
    results[key] = {k: v for k, v in r.items() if k != "misses"}
    for miss in r["misses"] if misses else []:
        print("   miss:", json.dumps(miss, ensure_ascii=False))
    return r


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.eval.profile_facts", description=__doc__.split("\n")[0])
    parser.add_argument("--calibrate", action="store_true", help="choose the occupation threshold on dev")
    parser.add_argument("--misses", action="store_true", help="print every sentence with a wrong field")
    args = parser.parse_args(argv)
    rows = load()
    splits = {s: [r for r in rows if r["split"] == s] for s in ("dev", "test")}

    from common.embedding.registry import offline_text_embedder
    from interaction.offline.self_description import SelfDescriptionReader, load_parser
    from interaction.offline.verb_jobs import VerbJobModel

    start = time.perf_counter()
    embedder = offline_text_embedder()
    reader = SelfDescriptionReader(load_parser(), embedder.embed, jobs=VerbJobModel(embedder).is_job)
    load_s = time.perf_counter() - start
    if args.calibrate:
        reader.threshold = calibrate(reader, splits["dev"])
        print(f"occupation threshold chosen on dev: {reader.threshold:.3f}")
    extractors = {"rules": rules_predict, "spacy_parse": reader.facts, "as_stored": stored_predict}
    results: dict = {}
    for name, predict in extractors.items():
        for split, subset in splits.items():
            r = _record(results, f"{name}/{split}", score(subset, predict), args.misses)
            print(f"{name:<12} {split:<5} n={r['sentences']:>3}  field accuracy {100 * r['field_accuracy']:5.1f} %  "
                  f"all three right {100 * r['sentence_accuracy']:5.1f} %  {r['ms_per_sentence']:6.1f} ms/sentence")
    for name, predict in (("personal", stored_predict), ("personal_without_reader", _without_personal_facts)):
        for split in ("dev", "test"):
            rows = [row for row in load(PERSONAL) if row["split"] == split]
            r = _record(results, f"{name}/{split}", score_personal(rows, predict), args.misses)
            print(f"{name:<23} {split:<5} n={r['sentences']:>3}  field accuracy {100 * r['field_accuracy']:5.1f} %  "
                  f"all right {100 * r['sentence_accuracy']:5.1f} %")
    print(f"spaCy pipeline + MiniLM load: {load_s:.1f} s once per process")
    print(json.dumps({"threshold": reader.threshold, "results": results}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
