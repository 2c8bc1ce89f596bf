"""What a person's reply to a yes / no question says: yes, no, or unclear.

Every confirmation reads its answer here ("Do you want me to forget ...?", "is your name ...?"). With a
model configured for the confirmation_reader agent, the model is asked for one of the three (a JSON
enum, inside the turn's understanding budget); otherwise, or when it gives nothing usable, the
offline reader decides: a calibrated linear text model (interaction/linear_text.py) trained by
scripts/eval/train_confirmation.py on replies.tsv. Its "yes" needs P(yes) >= yes_above, the threshold
the training script chose on the dev split so that at most 1 % of no / unclear dev replies read as
yes; anything but a confident yes is not a yes. Its "no" needs P(no) >= no_above, chosen the same way
(at most 1 % of yes / unclear dev replies read as no): news told instead of an answer ("my sister just
had a baby") is no "no" to "is your name Sam?", which would make a second person of someone known.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict

from common.embedding.base import TextEmbedder
from common.vision.base import BackendUnavailable
from interaction import cues
from interaction.linear_text import LinearTextModel

if TYPE_CHECKING:
    from spacy.tokens import Span

    from interaction.agents.context import AgentDeps

log = logging.getLogger("nadine.interaction.confirmation")

HERE = Path(__file__).parent
WEIGHTS = HERE / "weights.json"
REPLIES = HERE / "replies.tsv"
Answer = Literal["yes", "no", "unclear"]
ANSWERS: tuple[Answer, ...] = ("yes", "no", "unclear")
AGENT = "confirmation_reader"
# A reply's split follows its paraphrase group, so near-copies of one reply never straddle splits.
SPLIT_SEED = "nadine-confirmation-replies-1"

SYSTEM = (
    "You read a person's reply to a yes/no question a robot asked them. Say whether the reply, taken as "
    "a whole, clearly answers yes, clearly answers no, or is unclear. Negations, refusals and corrections "
    "count: 'absolutely not' and 'yes - no, wait' are no; a hedge ('maybe', 'I guess'), a question back or "
    "an unrelated sentence is unclear. Answer with only a JSON object: {\"answer\": \"yes\" | \"no\" | \"unclear\"}."
)


def split_of(group: str, seed: str = SPLIT_SEED) -> Literal["train", "dev", "test"]:
    """sha256 of "<seed>:<group>" as an integer, mod 10: 0-5 train, 6-7 dev, 8-9 test."""
    bucket = int(hashlib.sha256(f"{seed}:{group}".encode()).hexdigest(), 16) % 10
    return "train" if bucket < 6 else "dev" if bucket < 8 else "test"


class ReplyReading(BaseModel):
    model_config = ConfigDict(extra="ignore")
    answer: Answer


class ConfirmationReader:
    def __init__(self, embedder: TextEmbedder, weights: Path = WEIGHTS) -> None:
        data = json.loads(weights.read_text(encoding="utf-8"))
        self._model = LinearTextModel(embedder, data, "confirmation", "run python -m scripts.eval.train_confirmation")
        if tuple(self._model.classes) != ANSWERS:
            raise ValueError(f"confirmation weights have classes {self._model.classes}, expected {list(ANSWERS)}")
        self.yes_above = float(data["yes_above"])
        self.no_above = float(data["no_above"])

    def probabilities(self, texts: list[str]) -> np.ndarray:
        """(len(texts), 3) calibrated probabilities of yes, no, unclear."""
        return self._model.probabilities(texts)

    def decide(self, probs: np.ndarray) -> Answer:
        if probs[0] >= self.yes_above:
            return "yes"
        return "no" if probs[1] >= self.no_above else "unclear"

    def read(self, text: str) -> Answer:
        if not text.strip():
            return "unclear"
        answer = self.decide(self.probabilities([text])[0])
        if answer != "unclear" and cues.is_question(text):
            # a yes or a no is said, not asked ("you sure?" read as yes, "hang on, when is my sister's
            # wedding?" as no): only words said before the question count ("yes, could you?", "no, who's
            # that?"); a question after a yes that asks something of its own, by a verb or a thing it
            # names, wants an answer before the yes is one ("hmm ok, and can you undo it later?")
            said, _, asked = text.partition(",")
            answer = answer if asked and not cues.is_question(said) and self.read(said) == answer else "unclear"
            if answer == "yes" and _names_something(asked):
                answer = "unclear"
        if answer == "yes" and (self._held_back(text) or _of_the_listeners_feeling(text)):
            # ... but a yes followed by bidding it done holds nothing back ("yes please forget")
            return "yes" if self._yes_then_bidden(text) else "unclear"
        return answer

    def _yes_then_bidden(self, text: str) -> bool:
        """A yes said first, then the one verb bidding what was asked, done to nothing but a pronoun
        ("yes please forget", "yes, delete"): the bidding repeats the yes."""
        doc = _parse(text)
        verbs = [t for t in doc if t.pos_ == "VERB"] if doc is not None else []
        if len(verbs) != 1 or verbs[0].i == 0 or verbs[0].dep_ != "ROOT":
            return False
        verb = verbs[0]
        said = doc[:verb.i].text
        return self.decide(self.probabilities([said])[0]) == "yes" and not any(
            t.dep_ == "neg" or (t.i > verb.i and t.pos_ not in ("PRON", "PUNCT", "INTJ")) for t in doc)

    def _held_back(self, text: str) -> bool:
        """A yes said with a part held back, in one breath: taken back after it ("yes but keep my mum's
        birthday", "yes but not the birthday one": the rest, naming something, reads no on its own), or
        narrowed to a part or a condition ("yes, apart from my son's birthday", "yes, but only the work
        stuff", "just the last thing I said, yes", "fine, as long as you still know who I am": the part,
        read on its own, is no yes). The whole, read at once, can still come out yes: its yes outweighs
        a part the training replies rarely hold. A yes is read where the answer can end: within the
        opening answer (up to the first verb or number, bare_answer's tags) and at a comma or a
        conjunction."""
        doc = _parse(text)
        if doc is None or len(doc) < 2:
            return False
        opening = next((t.i for t in doc if t.pos_ in _TOLD_POS), len(doc))
        # (the yes, the rest, what the rest must read as on its own to hold the yes back)
        splits: list[tuple[Span, Span, set[Answer]]] = []
        for i in range(1, len(doc)):
            head, tail = doc[:i], doc[i:]
            if i <= opening and any(t.pos_ in _NAMING_POS for t in tail):
                # naming something, or a bare "not" after "sure, why" would take back "sure, why not"
                splits.append((head, tail, {"no"}))
            if doc[i - 1].is_punct or doc[i].dep_ == "cc":
                if _narrows(tail):
                    splits.append((head, tail, {"no", "unclear"}))
                if head.root.pos_ in _THING_POS and _narrows(head):
                    # a part named first, the yes after it ("only the things about my ex, yes"); a no
                    # first is a correction ("of course not, sorry, I mean yes")
                    splits.append((tail, head, {"unclear"}))
        if not splits:
            return False
        probs = self.probabilities([span.text.strip(" ,.;:-—!") for pair in splits for span in pair[:2]])
        return any(self.decide(probs[2 * k]) == "yes" and self.decide(probs[2 * k + 1]) in holding
                   for k, (_, _, holding) in enumerate(splits))


@functools.cache
def default_reader() -> ConfirmationReader | None:
    """The shipped reader on the offline embedder, loaded once per process; None (one log line) when it
    cannot load: every reply is then unclear, so nothing is ever deleted or linked on a guess."""
    from common.embedding.registry import offline_text_embedder

    try:
        return ConfirmationReader(offline_text_embedder())
    except (BackendUnavailable, OSError, KeyError, ValueError) as exc:
        log.error("confirmation reader unavailable (%s); every answer to a yes/no question reads as unclear", exc)
        return None


def read_offline(reply: str) -> Answer:
    reader = default_reader()
    return reader.read(reply) if reader is not None else "unclear"


def read_reply(deps: AgentDeps | None, question: str, reply: str) -> Answer:
    """The answer `reply` gives to `question`: the model's reading when one is configured and answers,
    else the offline reader's."""
    if deps is not None and reply.strip():
        reading = deps.ask_json(AGENT, [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": f"Question: {question}\nReply: {reply}"},
        ], ReplyReading)
        if reading is not None:
            return reading.answer
    return read_offline(reply)


# a clause or a number tells something besides the answer: "yes, I went to the shops" is news, "yes
# please" is not. Nouns do not (the small tagger reads "nope" as a name and "thanks" as a noun).
_TOLD_POS = {"VERB", "NUM"}
_NAMING_POS = {"NOUN", "PROPN", "VERB"}
_THING_POS = {"NOUN", "PROPN"}


def _parse(text: str):
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        return load_parser()(text)
    except ParserUnavailable:
        return None


def _narrows(span: Span) -> bool:
    """`span` sets a part or a condition against what it follows or precedes, by its grammar: it opens
    with a conjunction or a preposition before a thing it names ("but leave my son's things", "except
    the travel plans", "apart from my son's birthday"; not "and forget it"), a thing in it has a focusing adverb before it
    ("only the work stuff", "just the bit about my job"), or it holds a clause with a subordinating
    mark ("as long as you remember I play chess"). An imperative that only says the yes again
    ("delete the lot") does none of these."""
    words = [t for t in span if not t.is_punct]
    if not words:
        return False
    first = words[0]
    opens_against = first.dep_ in ("cc", "prep") or any(c.dep_ == "prep" and c.i == first.i + 1 for c in first.children)
    if opens_against and any(t.pos_ in _THING_POS for t in words[1:]):
        return True
    if any(t.pos_ in _THING_POS and span.start <= t.head.i < span.end
           and any(c.dep_ == "advmod" and span.start <= c.i < t.i for c in t.children) for t in span):
        return True
    return any(t.dep_ == "advcl" and any(c.dep_ == "mark" for c in t.children) for t in span)


def _of_the_listeners_feeling(text: str) -> bool:
    """The reply tells what Nadine would feel ("haha you would love that", "you wish"): "you" the
    subject of a verb of feeling (WordNet's verb.emotion), a taunt and no consent; the speaker's own
    ("I'd like that") is one."""
    from interaction.memory.retrieval.lexicon import load_wordnet
    from interaction.offline.question_form import YOU

    doc, wordnet = _parse(text), load_wordnet()
    return doc is not None and wordnet is not None and any(
        t.pos_ == "VERB" and wordnet.verb_lexical_file(t.lemma_.lower()) == "verb.emotion"
        and any(c.dep_ == "nsubj" and c.lower_ in YOU for c in t.children) for t in doc)


def _names_something(text: str) -> bool:
    """A noun or a verb of its own, not a modal or "do" standing for the doing asked about ("could you?",
    "can you do it now?")."""
    doc = _parse(text)
    return doc is not None and any(t.pos_ in _NAMING_POS and t.tag_ != "MD" and t.lemma_.lower() != "do" for t in doc)


def bare_answer(text: str) -> bool:
    """`text` is only a yes or a no ("yes please", "sure", "nope"): the offline reader reads it as one,
    and spaCy's tagger finds no verb or number beside it; without the parser, never. The tags are read
    first: the turn's parse is there already, and a statement with a verb in it needs no model run."""
    doc = _parse(text)
    return doc is not None and not any(t.pos_ in _TOLD_POS for t in doc) and read_offline(text) != "unclear"
