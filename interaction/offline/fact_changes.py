"""What a self-statement does to a profile fact: set it, supersede it with a new value, or close it
("I moved to Lyon", "I started a new job at Spotify", "I don't play tennis any more").

Three small models, fitted by scripts/eval/train_fact_changes.py on the committed labelled set
data/fact_changes.jsonl (train split; the dev split chose the features and C, the test split reports:
python -m scripts.eval.fact_changes) and shipped as data/fact_changes_weights.json, which records the
fingerprint of the training rows it was fitted on; inference is numpy only:
- the operation (set / supersede / close / none), a logistic regression over the sentence's MiniLM
  embedding (the offline text embedder interaction already loads; word n-grams did worse on dev),
- the field it concerns (location, company, position, hobbies, interests), the same way,
- the value's span, a per-token tagger over the words around each token.
The profile extraction (interaction/offline/extract.py, or the LLM's) stays the first source of a new
value; this module adds the operation, finds values the extraction missed, and decides which current
fact a close ends; a workplace ended in one breath with the speaker placed at another ("I left the
bank, I'm at the garden centre now") is superseded by that one (self_description.workplace_named),
whatever the model reads of the second clause alone. When unsure it changes nothing: a wrong fact is worse than a missing one. A clause whose
parse tells the speaker is back (personal_facts.tells_a_return) ends nothing, whatever the operation model
reads: back in a place is their home now, back from one a trip ended.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import threading
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from rapidfuzz import fuzz

from common.embedding.base import TextEmbedder
from common.store.facts import FactChange
from common.store.profile_fields import FIELDS_BY_NAME
from common.vision.base import BackendUnavailable
from interaction import cues
from interaction.offline import personal_facts
from interaction.offline.parsing import spliced
from interaction.offline.self_description import an_occupation, rank_named, workplace_named

DATA = Path(__file__).with_name("data") / "fact_changes.jsonl"
WEIGHTS = Path(__file__).with_name("data") / "fact_changes_weights.json"
OPS = ("set", "supersede", "close", "none")
MIN_CONFIDENCE = 0.6  # below this an operation changes nothing (dev: 26 of 29 acted-on operations right, recall 72%)
# below this the field of a new value is not known well enough to file it ("I have a cocker spaniel called
# Biscuit": a set at 0.68 into current_company at 0.38); dev: the smallest of 0.40, 0.45, ... 0.60 at
# which no value set is filed under a wrong field (19 right, 2 wrong -> 19, 0); test 30 / 5 -> 28 / 2
MIN_FIELD_CONFIDENCE = 0.6
MATCH_SCORE = 80  # rapidfuzz score for "the value they close is this current fact"
_TOKEN = re.compile(r"\w+(?:['’]\w+)*|[^\w\s]")
_WORK = ("current_company", "current_position")  # where and what: the two halves of one job


@dataclass(frozen=True)
class Example:
    text: str
    op: str
    field: str
    value: str | None
    split: str


@dataclass(frozen=True)
class Prediction:
    op: str
    op_p: float
    field: str
    field_p: float
    value: str | None


def load_examples(path: Path = DATA) -> list[Example]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [Example(r["text"], r["op"], r["field"], r.get("value"), r["split"]) for r in rows]


def training_fingerprint(examples: list[Example]) -> str:
    """sha256 of the training rows (order and every label included): the weights belong to exactly these."""
    rows = [json.dumps(asdict(e), sort_keys=True, ensure_ascii=False) for e in examples if e.split == "train"]
    return hashlib.sha256("\n".join(rows).encode("utf-8")).hexdigest()


def tokens(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text)]


def token_features(toks: list[tuple[str, int, int]], i: int) -> dict[str, float]:
    def word(j: int) -> str:
        return toks[j][0].lower() if 0 <= j < len(toks) else ("<s>" if j < 0 else "</s>")

    w = toks[i][0]
    return {
        f"w={w.lower()}": 1.0, f"w-1={word(i - 1)}": 1.0, f"w-2={word(i - 2)}": 1.0, f"w+1={word(i + 1)}": 1.0,
        f"w-2,-1={word(i - 2)}_{word(i - 1)}": 1.0, "cap": float(w[:1].isupper()), "first": float(i == 0),
        "punct": float(not w[0].isalnum()), f"suffix={w[-3:].lower()}": 1.0,
    }


def _softmax(logits: np.ndarray) -> np.ndarray:
    z = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return z / z.sum(axis=-1, keepdims=True)


class _Linear:
    """A fitted logistic regression read from the weights file: multinomial (softmax over classes)
    or, with one row of coefficients, binary (the probability of class 1)."""

    def __init__(self, params: dict) -> None:
        self.classes = [str(c) for c in params["classes"]]
        self.coef = np.asarray(params["coef"], dtype=np.float64)
        self.intercept = np.asarray(params["intercept"], dtype=np.float64)

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        logits = x @ self.coef.T + self.intercept
        if self.coef.shape[0] == 1:
            p = 1.0 / (1.0 + np.exp(-logits[:, 0]))
            return np.stack([1.0 - p, p], axis=1)
        return _softmax(logits)


class FactChangeModel:
    def __init__(self, weights: dict, embedder: TextEmbedder) -> None:
        if weights["embedder"] != embedder.name:
            raise BackendUnavailable("fact_changes", f"weights were fitted on {weights['embedder']}, not {embedder.name}",
                                     "run python -m scripts.eval.train_fact_changes --write")
        self.embedder = embedder
        self.op_model = _Linear(weights["op"])
        self.field_model = _Linear(weights["field"])
        self.tagger = _Linear(weights["tagger"])
        self._tag_index = {f: i for i, f in enumerate(weights["tagger"]["features"])}

    @classmethod
    def load(cls, embedder: TextEmbedder, path: Path = WEIGHTS) -> FactChangeModel:
        return cls(json.loads(path.read_text(encoding="utf-8")), embedder)

    def _tag_rows(self, toks: list[tuple[str, int, int]]) -> np.ndarray:
        rows = np.zeros((len(toks), len(self._tag_index)))
        for i in range(len(toks)):
            for feature, value in token_features(toks, i).items():
                if (j := self._tag_index.get(feature)) is not None:
                    rows[i, j] = value
        return rows

    def value_span(self, text: str) -> str | None:
        """The best contiguous run of tokens the tagger calls part of the value."""
        toks = tokens(text)
        if not toks:
            return None
        p = self.tagger.probabilities(self._tag_rows(toks))[:, 1]
        best, run = None, []
        for i, prob in enumerate([*p, 0.0]):
            if prob >= 0.5 and i < len(toks):
                run.append(i)
                continue
            if run and (best is None or np.mean(p[run]) * len(run) ** 0.5 > np.mean(p[best]) * len(best) ** 0.5):
                best = run
            run = []
        if not best:
            return None
        return text[toks[best[0]][1]:toks[best[-1]][2]].strip(" '\"") or None

    def predict(self, text: str) -> Prediction:
        return self.predict_each([text])[0]

    def predict_each(self, texts: list[str]) -> list[Prediction]:
        """predict() of each text, the texts embedded in one model run (the embedder gives every
        text the vector it gives it alone)."""
        if not texts:
            return []
        vectors = self.embedder.embed(texts)
        return [self._predicted(text, vectors[i:i + 1]) for i, text in enumerate(texts)]

    def _predicted(self, text: str, vector: np.ndarray) -> Prediction:
        op_p = self.op_model.probabilities(vector)[0]
        op = self.op_model.classes[int(np.argmax(op_p))]
        field_p = self.field_model.probabilities(vector)[0]
        field = self.field_model.classes[int(np.argmax(field_p))]
        value = self.value_span(text) if op != "none" else None
        return Prediction(op, float(op_p.max()), field, float(field_p.max()), value)


_LOADING = threading.Lock()


@lru_cache(maxsize=1)
def _loaded() -> FactChangeModel:
    from common.embedding.registry import offline_text_embedder

    return FactChangeModel.load(offline_text_embedder())


def default_model() -> FactChangeModel:
    with _LOADING:  # one load per process, even when the warm-up thread is still at it
        return _loaded()


def warm_up() -> threading.Thread:
    """Load the shipped weights and the embedder in the background at process start, and the fact
    grounding the changes are checked with (its notions embedded: 30 ms; WordNet's verbs, which tell a
    pastime said by its doing: 90 ms), so the first turn does not wait for them."""
    from interaction.memory.retrieval.lexicon import load_wordnet
    from interaction.offline.grounding import default_grounding

    def load() -> None:
        default_model()
        default_grounding()
        if (wordnet := load_wordnet()) is not None:
            wordnet.verb_lexical_file("sing")

    thread = threading.Thread(target=load, name="fact-changes-warm-up", daemon=True)
    thread.start()
    return thread


def _matching(value: str | None, text: str, current: list[str]) -> list[str]:
    """The current values a close names (by its value span, else by appearing in the sentence, as
    written or by the lemmas of its own words: "I stopped repairing pianos" names "repair pianos for a
    living")."""
    if value:
        return [c for c in current if fuzz.ratio(value.casefold(), c.casefold()) >= MATCH_SCORE
                or fuzz.token_set_ratio(value.casefold(), c.casefold()) >= 95]
    return [c for c in current if fuzz.partial_ratio(c.casefold(), text.casefold()) >= 95 or _said_by_lemma(c, text)]


def _said_by_lemma(value: str, text: str) -> bool:
    """The content words of the value's own clause (not those of its phrases: "for a living"), two at
    least, are all among the sentence's lemmas; never without the parser."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        nlp = load_parser()
    except ParserUnavailable:
        return False
    root = next(iter(nlp(value).sents)).root
    phrases = {t.i for c in root.children if c.dep_ == "prep" for t in c.subtree}
    own = {t.lemma_.casefold() for t in root.subtree if t.i not in phrases and t.pos_ in ("NOUN", "VERB", "PROPN") and not t.is_stop}
    return len(own) >= 2 and own <= {t.lemma_.casefold() for t in nlp(text)}


def _field_holding(value: str | None, text: str, current: dict[str, list[str]]) -> str | None:
    """The one field whose current values the ended value names, or, when the tagger marked none, the
    sentence does ("I left Spar" ends the employer Spar, whatever field the sentence alone suggests):
    the person's own facts say what the name is."""
    holding = [f for f, values in current.items() if f in FIELDS_BY_NAME and _named(value, text, values)]
    return holding[0] if len(holding) == 1 else None


def _named(value: str | None, text: str, current: list[str]) -> list[str]:
    """The current values a close names: by its value span, else (no span, or one that names none of
    them: the tagger's "the" of "I quit the public library") by appearing in the sentence."""
    return (_matching(value, text, current) if value else []) or _matching(None, text, current)


def _value_in(value: str | None, sentence: str):  # noqa: ANN202 - a spaCy Span or None
    """The tagger's value span as a span of the sentence's parse (the statement's, parsed already);
    None when the sentence does not hold it or spaCy cannot load."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    at = sentence.find(value) if value else -1
    if at < 0:
        return None
    try:
        return load_parser()(sentence).char_span(at, at + len(value), alignment_mode="expand")
    except ParserUnavailable:
        return None


def _whole_phrase(value: str | None, sentence: str) -> str | None:
    """The tagger's value span widened to the noun phrases (spaCy's noun chunks) it cuts into, without
    their article or possessive: "a call" of "I work at a call centre" is "call centre". A span that
    cuts into none stays as it is, and so does every span without the parser."""
    span = _value_in(value, sentence)
    if span is None:
        return value
    start, end = span.start_char, span.end_char
    for chunk in span.doc.noun_chunks:
        if chunk.start_char < end and start < chunk.end_char:
            words = [t for t in chunk if t.dep_ not in ("det", "poss")] or list(chunk)
            start = words[0].idx if chunk.start_char <= start else start
            end = max(end, chunk.end_char)
    return sentence[start:end]


def _names_a_thing(value: str | None, sentence: str) -> bool:
    """The tagger's value span holds a noun or a name in the sentence's parse ("Tesco", "the library"),
    not only a word said of the speaker ("redundant" of "I've been made redundant"); any span does that
    cannot be read so."""
    span = _value_in(value, sentence)
    return bool(value) if span is None else any(t.pos_ in ("NOUN", "PROPN") for t in span)


def _closed_field(pred: Prediction, sentence: str, current: dict[str, list[str]]) -> str:
    """The field a close ends: the one holding the value it names, else the one the sentence suggests."""
    return _field_holding(pred.value, sentence, current) or pred.field


def _as_list(value: object) -> list[str]:
    items = value if isinstance(value, list) else [value]
    return [i.strip() for i in items if isinstance(i, str) and i.strip()]


def states_a_change(text: str, model: FactChangeModel | None = None) -> bool:
    """Some clause of `text` sets, supersedes or closes a profile fact (routes to the profile update):
    the clauses decide() reads, so a change told in one breath ("I left Ikea and started at Volvo")
    reaches it, and one that says something has stopped ("no, not Berlin anymore"), which decide()
    closes when it names a current fact, or one that tells a promotion ("I got promoted to ...")."""
    model = model or default_model()
    said = statement_clauses(text)
    return any(p.op != "none" and p.op_p >= MIN_CONFIDENCE or says_stopped(c)
               for c, p in zip(said, model.predict_each(said), strict=True)) or bool(_ranks(text))


def _ranks(text: str) -> list[str]:
    """The ranks the statements of `text` tell the speaker was raised to (self_description.rank_named),
    read off the sentences' parses, which the turn's read-ahead made (its clauses have none)."""
    return [r for s in cues.sentences(text) if not cues.is_question(s) and (r := rank_named(s))]


def clauses(sentence: str) -> list[str]:
    """The sentence's coordinated (or comma-spliced) predicates as clauses of their own, each with its
    subject: "I left the bank and joined a startup" -> "I left the bank", "I joined a startup" (a change
    told in one breath is two operations); the sentence itself when it has one predicate or spaCy
    cannot load."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        doc = load_parser()(sentence)
    except ParserUnavailable:
        return [sentence]
    out: list[str] = []
    for sent in doc.sents:
        root = sent.root
        predicates = [root, *(t for t in root.children if t.dep_ == "conj" and t.pos_ in {"VERB", "AUX"}
                              or spliced(t, root))]
        if len(predicates) == 1:
            out.append(sent.text)
            continue
        subject = [t for t in root.children if t.dep_ in {"nsubj", "nsubjpass"}]
        for pred in predicates:
            others = {t.i for p in predicates[1:] if p is not pred for t in p.subtree}  # the root's holds them all
            words = [t for t in pred.subtree if t.i not in others and not (t.dep_ == "cc" and t.head in predicates)]
            if pred is not root and not any(t.dep_ in {"nsubj", "nsubjpass"} for t in pred.children):
                words = [t for s in subject for t in s.subtree] + words
            out.append(_as_said(sorted(words, key=lambda t: t.i)).strip(" ,"))
    return [c for c in out if c]


def _as_said(words: list) -> str:  # noqa: ANN001 - spaCy Tokens
    """Tokens in order as they were typed ("I'm", not "I 'm", which the parser reads as no verb), with
    a space where the clause skips words."""
    return "".join(t.text + (t.whitespace_ or (" " if after is not None and after.i != t.i + 1 else ""))
                   for t, after in zip(words, [*words[1:], None], strict=True))


def says_stopped(clause: str) -> bool:
    """The clause, said by the speaker (no subject but "I" / "we", or none: "no, not Berlin anymore"),
    tells that something no longer holds: "any more" / "anymore" / "no longer" with a negation the
    parse finds. Only a clause with those words is parsed (most have none)."""
    from interaction.offline.grounding import first_person
    from interaction.offline.self_description import ParserUnavailable, load_parser

    if not _STOPPED.search(clause):
        return False
    try:
        doc = load_parser()(clause)
    except ParserUnavailable:
        return False
    if any(t.dep_ in {"nsubj", "nsubjpass"} and not first_person(t) for t in doc):
        return False  # "my sister doesn't live in Berlin any more" is her life
    return any(t.dep_ == "neg" for t in doc)


_STOPPED = re.compile(r"\b(?:anymore|any\s+more|no\s+longer)\b", re.IGNORECASE)


def _stopped_facts(sentence: str, current: dict[str, list[str]]) -> list[FactChange]:
    """The current facts a clause the model left alone says have stopped, by naming them ("no, not
    Berlin anymore" after "I live in Berlin"): each closed. Nothing unless a current value is named."""
    if not says_stopped(sentence):
        return []
    return [FactChange(field=f, op="close", value=v, confidence=MIN_CONFIDENCE) for f, values in current.items()
            if f in FIELDS_BY_NAME for v in _matching(None, sentence, values)]


def _left_facts(text: str, current: dict[str, list[str]]) -> tuple[list[FactChange], str]:
    """The current facts an utterance in which the model ended nothing says the speaker has left, by
    naming them as what a verb of parting is done with ("I quit my job at Tesco!" after "I'm a shift
    manager at Tesco": the model reads the exclamation as no change), or, where none is named, the job
    and workplace held when what they left is an occupation ("I quit my job!") or they lost their work
    ("I got laid off"). Nothing else ends. Beside them, the words that said what ended (the phrases of
    what was left, or the whole utterance where only a loss of work is told): a value they name is not
    new, one said elsewhere in the breath may be ("I quit teaching and ... I'm now working as a barista").
    The utterance's parse is the one its read-ahead made."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    named = [(f, v) for f, values in current.items() if f in FIELDS_BY_NAME and f != "relations"
             for v in _matching(None, text, values)]
    work = [f for f in _WORK if current.get(f)]
    if not named and not work:
        return [], ""
    try:
        doc = load_parser()(text)
    except ParserUnavailable:
        return [], ""
    left = personal_facts.things_left(text)
    words, left_at = {t.lower_ for t in left}, {t.i for t in left}

    def phrase_of(nouns: list) -> str:  # noqa: ANN001 - spaCy Tokens
        return " ".join(doc[t.left_edge.i:t.right_edge.i + 1].text for t in nouns).casefold()

    closed = [FactChange(field=f, op="close", value=v, confidence=MIN_CONFIDENCE) for f, v in named
              if any(w.casefold() in words for w in _TOKEN.findall(v))]
    if not closed:
        # ... or by its head alone ("I quit the clinic" after "I work at the Mater clinic"), when that
        # names the one value of a field of one ("the clinic" is not all of its words: it ends the one held)
        heads = {t.lemma_.lower() for t in left if t.pos_ == "NOUN"}
        by_head = [f for f, values in current.items() if f in FIELDS_BY_NAME and not FIELDS_BY_NAME[f].multi
                   for v in values if (found := _TOKEN.findall(v)) and found[-1].casefold() in heads]
        closed = [FactChange(field=f, op="close", confidence=MIN_CONFIDENCE) for f in by_head[:len(by_head) == 1]]
    if closed:
        return closed, phrase_of(left)
    # "I quit my job!": what they left is their occupation (WordNet, its most frequent sense), whatever
    # it was; "I got a new job!": the one they had is over, whether the new one is told or not (what it
    # is told to be takes the old one's place in its field, decide(): "I got a new job! I'm a web designer
    # now" ends the call centre they worked at); "I got laid off", "I lost my job": theirs ended
    occupations = [t for t in doc if (t.i in left_at or _new_to_the_speaker(t)) and t.pos_ == "NOUN"
                   and an_occupation(t.lemma_)]
    if occupations or personal_facts.work_lost(doc):
        ended = [FactChange(field=f, op="close", confidence=MIN_CONFIDENCE) for f in work]
        return ended, phrase_of(occupations) if occupations else text.casefold()
    return [], ""


def _new_to_the_speaker(noun) -> bool:  # noqa: ANN001 - a spaCy Token
    """The noun is a new one the speaker has taken up, as done ("I got a new job", "I've started a new
    career"; not "I want a new job", "I didn't get the new job", "my wife got a new job")."""
    from interaction.offline.parsing import told_as_past

    verb = noun.head
    return noun.dep_ == "dobj" and any(c.dep_ == "amod" and c.lemma_.lower() == "new" for c in noun.children) \
        and told_as_past(verb) and not any(c.dep_ == "neg" for c in verb.children) \
        and any(c.dep_ == "nsubj" and "1" in c.morph.get("Person") and c.morph.get("Number") == ["Sing"] for c in verb.children)


def _said_not_left(text: str) -> bool:
    """The utterance tells that the speaker has not left what a verb of parting names ("I didn't quit
    Halfords", "I haven't broken up with Marco"); its parse is the one its read-ahead made."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        return any(personal_facts.not_left_by_speaker(t) for t in load_parser()(text))
    except ParserUnavailable:
        return False


def _of_something_new(clause: str) -> bool:
    """The clause cannot end a fact of the person's that it names no value of: its object is
    indefinite ("we lost a house", a firefighter's night: something brought in as new, not their
    home), or neither its subject nor a possessive is the speaker ("everyone got out"). English marks
    the first with the article (spaCy's Definite=Ind), the second with the first person; without
    the parser, never."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        doc = load_parser()(clause)
    except ParserUnavailable:
        return False
    new = any(t.dep_ in ("dobj", "pobj") and any("Ind" in c.morph.get("Definite") for c in t.children if c.dep_ == "det")
              for t in doc)
    speaker = any("1" in t.morph.get("Person") and t.dep_ in ("nsubj", "nsubjpass", "poss") for t in doc)
    return new or not speaker


def _home_now(clause: str) -> str | None:
    """The place the clause's parse reads as the speaker's home now (personal_facts.py), if it names one."""
    return next((g.value for g in personal_facts.read(clause) if g.field == "location" and g.home), None)


def statement_clauses(text: str) -> list[str]:
    """The clauses of the statements of `text` (_clauses_in_statements)."""
    return [c for _, c in _clauses_in_statements(text)]


def _clauses_in_statements(text: str) -> list[tuple[str, str]]:
    """(statement, clause) for the clauses of the statements of `text`; the statements are parsed in one
    batch (spaCy's pipe gives the same parse as one call each, and is faster for two or three), and
    what a clause's words are within the statement is read off the statement's parse."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    statements = [s for s in cues.sentences(text) if not cues.is_question(s)]
    with contextlib.suppress(ParserUnavailable):
        load_parser().pipe(statements)  # kept by the parser for clauses()
    return [(s, c) for s in statements for c in clauses(s)]


def decide(text: str, extracted: dict, current: dict[str, list[str]],
           model: FactChangeModel | None = None) -> list[FactChange]:
    """The changes one utterance makes, given the extraction's fields (field -> value or list) and the
    person's current facts (field -> current values)."""
    model = model or default_model()
    extracted = {k: _as_list(v) for k, v in extracted.items() if k in FIELDS_BY_NAME and _as_list(v)}
    changes: list[FactChange] = []
    closing: dict[str, list[str]] = {}  # field -> the clauses that ended one of its values
    in_statements = _clauses_in_statements(text)
    said = [c for _, c in in_statements]
    predicted = model.predict_each(said)

    def stopped(sentence: str) -> None:  # what the clause says has stopped, closed
        for change in _stopped_facts(sentence, current):
            closing.setdefault(change.field, []).append(sentence.casefold())
            changes.append(change)

    # a workplace they hold ended in one breath with the speaker placed at another ("I left the bank, I'm
    # at a bakery now"): the other is the new workplace, whatever its clause alone reads as
    ended_work = next((p for s, p in zip(said, predicted, strict=True) if p.op == "close" and p.op_p >= MIN_CONFIDENCE
                       and current.get("current_company") and _closed_field(p, s, current) == "current_company"), None)
    for (statement, sentence), pred in zip(in_statements, predicted, strict=True):
        if ended_work is not None and pred is not ended_work and (workplace := workplace_named(sentence)):
            changes.append(FactChange(field="current_company", op="supersede", value=workplace,
                                      confidence=round(ended_work.op_p, 3)))
            continue
        if pred.op == "none" or pred.op_p < MIN_CONFIDENCE:
            stopped(sentence)
            continue
        confidence = round(pred.op_p, 3)
        if pred.op == "close" and personal_facts.tells_a_return(sentence):
            # the sentence's embedding is near those of leaving, the parse reads a return: back in a place is
            # the home now ("I'm back in Bergen now"), back from one a trip ended; neither ends a home
            if home := _home_now(sentence):
                changes.append(FactChange(field="location", op="supersede" if current.get("location") else "set",
                                          value=home, confidence=confidence))
            continue
        if pred.op == "close":
            field = _closed_field(pred, sentence, current)
            closing.setdefault(field, []).append(sentence.casefold())
            have = current.get(field, [])
            if have and _said_not_left(text):
                continue  # "I didn't quit Halfords": near leaving in its embedding, told as still there
            named = _named(pred.value, sentence, have)
            if named:
                # a value named by its lemmas alone ("I stopped repairing pianos") is not in the words the
                # grounding looks for: a field of one value ends its current one
                changes += [FactChange(field=field, op="close", value=None if (
                    not FIELDS_BY_NAME[field].multi and fuzz.partial_ratio(v.casefold(), sentence.casefold()) < 95
                    and not pred.value) else v, confidence=confidence) for v in named]
                continue
            # "I quit my job": the one current value ends; one job is told by where and what, so work ended
            # in the half that holds nothing ends the other ("I've been made redundant" read as the end of
            # a workplace, from a lecturer who never named one)
            ended = field if have else next((f for f in _WORK if f != field and current.get(f)), None) if field in _WORK else None
            # ... but a field read unsure names nothing to end ("I'm divorced now" read as a close of the job,
            # at 0.39), nor does a clause that names something else or something new ("I left Tesco")
            if ended is not None and not FIELDS_BY_NAME[field].multi and pred.field_p >= MIN_FIELD_CONFIDENCE \
                    and not _names_a_thing(pred.value, statement) and not _of_something_new(sentence):
                changes.append(FactChange(field=ended, op="close", value=None, confidence=confidence))
            continue
        if pred.field_p < MIN_FIELD_CONFIDENCE and not extracted.get(pred.field):
            # a new value of no field read surely: the clause may still say a fact of theirs stopped
            # ("actually I'm not a carpenter anymore", read as a new pastime at 0.49)
            stopped(sentence)
            continue
        values = extracted.get(pred.field) or _as_list(_whole_phrase(pred.value, statement))
        changes += [FactChange(field=pred.field, op=pred.op, value=v, confidence=confidence) for v in values]
    # the rank they were raised to ("I got promoted to head chef today!") is their job now, read off the
    # parse whatever the model made of the clause (no change, or part of the rank: "analyst")
    ranks = _ranks(text)
    if ranks and "current_position" not in extracted:
        changes = [c for c in changes if c.field != "current_position"]
        changes.append(FactChange(field="current_position", op="supersede" if current.get("current_position") else "set",
                                  value=ranks[0], confidence=MIN_CONFIDENCE))
    if not any(c.op == "close" for c in changes):
        # what the model ended nothing of, or ended in a field that holds nothing ("I quit my job" with
        # only a job title kept): what the parse reads as left
        left, said_left = _left_facts(text, current)
        for change in left:
            closing.setdefault(change.field, []).append(said_left)
            changes.append(change)
    # a close naming no value ends the one held when it is applied: in a field given a new value in the
    # same breath ("I quit the hospital, I'm a school nurse at Greenfield primary now") the new one takes
    # the old one's place already, and the close would end it
    renewed = {c.field for c in changes if c.op in ("set", "supersede") and not FIELDS_BY_NAME[c.field].multi}
    changes = [c for c in changes if not (c.op == "close" and c.value is None and c.field in renewed)]
    for field, values in extracted.items():  # what the extraction found that no clause decided
        if any(c.field == field and c.op != "close" for c in changes):
            continue
        # a value named in the clause that ended it is not new ("I don't play tennis any more")
        changes += [FactChange(field=field, op="set", value=v) for v in values
                    if not any(v.casefold() in c for c in closing.get(field, []))]
    return changes
