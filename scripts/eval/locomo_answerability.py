"""LoCoMo answerability: does the recall decision assert what a person told, and never what the
other person did? Judge-free, on conversations nobody here wrote.

    python -m scripts.eval.locomo_answerability [--split dev|test|all] [--limit-conversations N] [--data PATH]

For each conversation and each of its two speakers, only that speaker's own turns are that person's
memory (one candidate per turn the person told: interaction/memory/told.py leaves out questions,
greetings and farewells as on a recall turn; a shared photo is given by its caption). A question
about that speaker (it names them and no one else of the two) is asked in their own words: the name
becomes "I" / "my" / "me" (spaCy's parse says which), their pronouns likewise. It is

- answerable (categories 1-4) when every evidence turn is theirs: asserting one of its evidence turns
  is right, asserting another turn is a wrong memory;
- adversarial (category 5) when no evidence turn is theirs (LoCoMo attributes the other speaker's
  experience to them): nothing may be asserted.

Every question goes through the retrieval core as a recall turn does (dense + BM25 fused, the
shortlist read by the verifier and the entity reader, the calibrated decision); asserted / asked
(offered) / abstained are reported per category. Split: the first DEV_CONVERSATIONS conversations
(scripts/eval/locomo.py's) are dev, used with scripts/eval/recall_labels/dev.jsonl to fit the
decision (scripts.eval.calibrate_recall); the rest are only reported.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from datetime import timedelta
from pathlib import Path

from common.config import ConfigError, load_settings
from common.config.interaction_settings import RecallCalibration
from common.embedding.registry import offline_text_embedder
from common.vision.base import BackendUnavailable
from interaction.memory.retrieval.candidates import Candidate, CandidatePool
from interaction.memory.retrieval.core import RetrievalCore
from interaction.memory.retrieval.entities import Thresholds, build_reader
from interaction.memory.retrieval.verifier import build_verifier
from interaction.memory.told import is_told
from scripts.eval.locomo import DEFAULT_DATA, DEV_CONVERSATIONS
from scripts.eval.locomo_data import CATEGORIES, Conversation, Question, load
from scripts.eval.recall_questions import Asked, shortlist, tally

_SUBJECT_FORMS = {"does": "do", "has": "have", "is": "am", "doesn't": "don't", "hasn't": "haven't", "isn't": "am not"}
_PRONOUNS = {"she": "I", "he": "I", "herself": "myself", "himself": "myself", "his": "my", "hers": "mine"}


def first_person(question: str, name: str, nlp) -> str:
    """The question as the named person would ask it ("What did Caroline realize after her charity
    race?" -> "What did I realize after my charity race?"): the name and the third-person pronouns
    become first person, by their role in spaCy's parse; an auxiliary agrees with "I"."""
    doc = nlp(question)
    out: list[str] = []
    subjects: set[int] = set()
    for t in doc:
        word = t.text
        if t.text == name or t.text.casefold() in _PRONOUNS or t.lower_ == "her":
            role = t.dep_
            nxt = doc[t.i + 1] if t.i + 1 < len(doc) else None
            if t.text == name and nxt is not None and nxt.tag_ == "POS":
                out.append("my" + nxt.whitespace_)  # "Caroline's " -> "my "
                continue
            elif t.lower_ == "her":
                word = "my" if role == "poss" else "me"
            elif t.text == name:
                word = "I" if role in ("nsubj", "nsubjpass") else "me"
            else:
                word = _PRONOUNS[t.lower_]
            if word == "I":
                subjects.add(t.i)
        elif t.tag_ == "POS" and t.i > 0 and doc[t.i - 1].text == name:
            word = ""
        out.append(word + t.whitespace_ if word else "")
    for i in subjects:  # "does Caroline like" -> "do I like"; "is she" -> "am I"
        for aux in doc[i].head.children:
            if aux.dep_ in ("aux", "auxpass") and aux.lower_ in _SUBJECT_FORMS:
                out[aux.i] = _SUBJECT_FORMS[aux.lower_] + aux.whitespace_
        head = doc[i].head
        if head.lower_ in _SUBJECT_FORMS and head.pos_ == "AUX":
            out[head.i] = _SUBJECT_FORMS[head.lower_] + head.whitespace_
    text = "".join(out).strip()
    return text[:1].upper() + text[1:]


def speaker_pool(conv: Conversation, speaker: str, embedder, told=is_told) -> CandidatePool:
    """The speaker's own told turns, one candidate each (memory_id = dia_id), dated by their session."""
    items = [Candidate(kind="turn", memory_id=t.dia_id, text=t.spoken, quote=t.spoken,
                       occurred_ts=(s.when + timedelta(seconds=i)).timestamp(), group=f"session_{s.number}")
             for s in conv.sessions for i, t in enumerate(s.turns) if t.speaker == speaker and told(t.text)]
    if not items:
        return CandidatePool.empty(embedder.name, embedder.dim)
    return CandidatePool(items, embedder.embed([c.text for c in items]), embedder.name)


def speaker_questions(conv: Conversation) -> list[tuple[str, Question, str, frozenset[str]]]:
    """(speaker, question, "answerable" / "adversarial", evidence ids) for every question about one
    speaker that the rules above keep."""
    spoken_by = {t.dia_id: t.speaker for s in conv.sessions for t in s.turns}
    out = []
    for q in conv.questions:
        named = [n for n in (conv.speaker_a, conv.speaker_b) if n in q.question]
        if len(named) != 1 or not q.evidence:
            continue
        speaker = named[0]
        theirs = [spoken_by[e] == speaker for e in q.evidence]
        if q.category == 5 and not any(theirs):
            out.append((speaker, q, "adversarial", frozenset()))
        elif q.category != 5 and all(theirs):
            out.append((speaker, q, "answerable", frozenset(q.evidence)))
    return out


def conversation_questions(core: RetrievalCore, conv: Conversation, embedder, nlp) -> list[Asked]:
    pools = {s: speaker_pool(conv, s, embedder) for s in (conv.speaker_a, conv.speaker_b)}
    asked = []
    for speaker, question, _, evidence in speaker_questions(conv):
        pool = pools[speaker]
        if not len(pool):
            continue
        text = first_person(question.question, speaker, nlp)
        judged = shortlist(core, pool, text, embedder.embed([text])[0])
        label = f"{question.category} {CATEGORIES[question.category]}"
        asked.append(Asked(f"{conv.sample_id}/{speaker}", text, evidence, judged, label))
    return asked


def questions(core: RetrievalCore, conversations: list[Conversation], embedder, nlp) -> dict[str, list[Asked]]:
    """dev / test Asked lists (the split of scripts/eval/locomo.py)."""
    split: dict[str, list[Asked]] = {"dev": [], "test": []}
    for n, conv in enumerate(conversations):
        split["dev" if n < DEV_CONVERSATIONS else "test"] += conversation_questions(core, conv, embedder, nlp)
    return split


def dev_conversations(data: Path = DEFAULT_DATA) -> list[Conversation]:
    return load(data)[:DEV_CONVERSATIONS]


def table(core: RetrievalCore, cal: RecallCalibration, split: dict[str, list[Asked]]) -> list[str]:
    """asserted (right) / asked / abstained per category, dev and test side by side."""
    counts = {name: tally(core, cal, asked, by="category") for name, asked in split.items()}
    for name, asked in split.items():
        counts[name].update({f"answerable (1-4):{k.split(':', 1)[1]}": v
                             for k, v in tally(core, cal, [a for a in asked if a.told], by="kind").items()})
    groups = sorted({k.split(":")[0] for c in counts.values() for k in c})
    lines = [f"{'category':<18}" + "".join(f"{name + ': n, asserted (right), asked, abstained':>52}" for name in split)]
    for g in groups:
        cells = []
        for name in split:
            c: Counter[str] = counts[name]
            n = c[f"{g}:n"]
            pct = {k: 100 * c[f"{g}:{k}"] / n if n else 0.0 for k in ("asserted", "asserted_right", "offered", "abstained")}
            cells.append(f"{n:>5}, {pct['asserted']:5.1f}% ({pct['asserted_right']:5.1f}%), "
                         f"{pct['offered']:5.1f}%, {pct['abstained']:5.1f}%")
        lines.append(f"{g:<18}" + "".join(f"{cell:>52}" for cell in cells))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.eval.locomo_answerability",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--split", choices=["dev", "test", "all"], default="all")
    parser.add_argument("--limit-conversations", type=int, default=None)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="locomo10.json (stays in shared/)")
    parser.add_argument("--json", action="store_true", help="also print the counts as one JSON line")
    args = parser.parse_args(argv)
    try:
        conversations = load(args.data)[: args.limit_conversations]
        settings = load_settings()
        embedder = offline_text_embedder()
    except (OSError, ValueError, ConfigError, BackendUnavailable) as exc:
        print(f"locomo_answerability: {exc}", file=sys.stderr)
        return 2
    recall = settings.interaction.retrieval.recall
    cal = recall.decision_for(embedder.name)
    assert cal is not None
    verifier = build_verifier(recall.verifier, recall.verifier_model)
    entities = build_reader(embedder.embed, Thresholds.of(cal))
    if entities is None:
        print("locomo_answerability: the spaCy pipeline is needed to ask in the person's words", file=sys.stderr)
        return 2
    core = RetrievalCore(recall, verifier, cal, entities=entities)
    split = questions(core, conversations, embedder, entities.nlp)
    if args.split != "all":
        split = {args.split: split[args.split]}
    print(f"{len(conversations)} conversations; questions: "
          + ", ".join(f"{k} {len(v)}" for k, v in split.items()))
    print("\n".join(table(core, cal, split)))
    if args.json:
        print(json.dumps({name: dict(tally(core, cal, asked, by="category")) for name, asked in split.items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
