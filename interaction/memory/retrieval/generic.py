"""Does a recall question name a topic, or only a time ("what did I tell you last week?")?

A nearest-neighbour classifier: the question, its time expression removed, is generic when its
MiniLM cosine to the nearest labelled generic question (generic_questions.txt, the dev half) reaches
interaction.retrieval.recall.generic_threshold, fitted by scripts.eval.calibrate_recall against the
specific dev questions and reported on held-out ones, and when it names no noun that nearest question
lacks (spaCy's tagger; nouns of telling and thinking such as "talk" or "idea", by WordNet's
lexicographer file, are no topic). It replaces the hand-written word lists that decided this before
(they were written after seeing the benchmark's misses)."""

from __future__ import annotations

from pathlib import Path

from common.embedding.base import TextEmbedder

QUESTIONS = Path(__file__).with_name("generic_questions.txt")


def load_questions(path: Path = QUESTIONS) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


class GenericQuestions:
    def __init__(self, embedder: TextEmbedder, threshold: float, questions: list[str] | None = None) -> None:
        self._embedder = embedder
        self.threshold = threshold
        self._questions = questions or load_questions()
        self._prototypes = embedder.embed(self._questions)

    def nearest(self, question: str) -> tuple[float, str]:
        """Cosine to the nearest labelled generic question, and that question."""
        sims = self._prototypes @ self._embedder.embed([question])[0]
        best = int(sims.argmax())
        return float(sims[best]), self._questions[best]

    def closeness(self, question: str) -> float:
        return self.nearest(question)[0]

    def is_generic(self, question: str) -> bool:
        """Near a generic question, and naming no noun that question lacks: MiniLM puts "do you
        remember what I told you about my father?" near "do you remember what I told you?", but
        "father" is a topic."""
        from interaction.offline.parsing import without_opening

        # an opening "And" or "Oh," asks nothing but moves the embedding away from the labelled questions
        closeness, prototype = self.nearest(without_opening(question))
        if closeness >= self.threshold and not topic_nouns(question) - topic_nouns(prototype):
            return True
        # "what did I tell you to keep in mind?" says by its form that it asks for every request to keep,
        # and "do you remember my big news?" names nothing but a telling of theirs
        return not topic_nouns(question) and (asks_what_was_kept(question) or _names_a_telling(question))


# nouns of telling and thinking ("our talk", "the conversation", "any idea"): what every recall question
# is about, so they name no topic (WordNet's lexicographer files of their most frequent sense)
_ABOUT_TELLING = {"noun.communication", "noun.cognition"}
_WH_TAGS = {"WDT", "WP", "WP$", "WRB"}
_INFORMATION = frozenset({"information"})  # WordNet's kind news and updates are of


def topic_nouns(text: str) -> set[str]:
    """The lemmas of the nouns and names a question says that could be a topic (spaCy's tagger;
    none without it)."""
    from interaction.memory.retrieval.lexicon import load_wordnet
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        doc = load_parser()(text)
    except ParserUnavailable:
        return set()
    wordnet = load_wordnet()

    def telling(t) -> bool:  # noqa: ANN001 - a spaCy Token
        return wordnet is not None and wordnet.lexical_file(t.lemma_) in _ABOUT_TELLING

    # a noun that says when ("last time", "the other day": an adverbial or a date) is no topic either
    return {t.lemma_.casefold() for t in doc if t.pos_ in ("NOUN", "PROPN") and t.dep_ != "npadvmod"
            and t.ent_type_ not in ("DATE", "TIME") and not telling(t)}


def _names_a_telling(question: str) -> bool:
    """The question names a telling of theirs by how it was, and by nothing else ("my big news", "the
    sad news"): a noun whose most frequent WordNet sense is information told (not a work: "my favourite
    film" is one), with adjectives but no
    ordinal ("my first novel" is one work), no noun before it ("my music news") and nothing after it
    ("the speech I gave", "my news about the job") to say what it was about."""
    from interaction.memory.retrieval.lexicon import load_wordnet
    from interaction.offline.self_description import ParserUnavailable, load_parser

    wordnet = load_wordnet()
    try:
        doc = load_parser()(question)
    except ParserUnavailable:
        return False
    return wordnet is not None and any(
        t.pos_ == "NOUN" and wordnet.lexical_file(t.lemma_) == "noun.communication"
        and wordnet.kind_of(t.lemma_.lower(), _INFORMATION, senses=1)
        and any(c.dep_ == "amod" for c in t.children)
        and all(c.dep_ in ("det", "poss") or (c.dep_ == "amod" and c.pos_ == "ADJ" and c.ent_type_ != "ORDINAL")
                for c in t.children) for t in doc)


def names_a_thing(question: str) -> bool:
    """The question names something besides its time ("is my viewing on Tuesday?", "is it still on
    Friday?", "is Kofi coming on Saturday?"), not only a day ("what are my plans for Friday?",
    "anything on tomorrow?"): a topic noun, a word said as someone's that is no noun of telling (a
    gerund too: "my viewing", which the tagger may call a verb), or a pronoun of the third person
    standing for one."""
    from interaction.memory.retrieval.lexicon import load_wordnet
    from interaction.offline.self_description import ParserUnavailable, load_parser

    if topic_nouns(question):
        return True
    try:
        doc = load_parser()(question)
    except ParserUnavailable:
        return False
    wordnet = load_wordnet()
    owned = [t for t in doc if any(c.dep_ == "poss" for c in t.children)]
    return any(t.tag_ == "PRP" and "3" in t.morph.get("Person") for t in doc) \
        or any(t.pos_ != "NOUN" or wordnet is None or wordnet.lexical_file(t.lemma_) not in _ABOUT_TELLING
               for t in owned)


def kind_of_telling(question: str) -> str | None:
    """The kind of telling a question that names no topic asks for, as it says it ("good" in "what
    good news did I share?"), else None: the adjectives of a noun of telling."""
    from interaction.memory.retrieval.lexicon import load_wordnet
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        doc = load_parser()(question)
    except ParserUnavailable:
        return None
    wordnet = load_wordnet()
    for t in doc:
        kinds = [c for c in t.children if c.dep_ == "amod"]
        if kinds and t.pos_ == "NOUN" and wordnet is not None and wordnet.lexical_file(t.lemma_) in _ABOUT_TELLING:
            return " ".join(w.text for w in kinds)
    return None


def asks_what_was_kept(question: str) -> bool:
    """The question asks what the speaker asked Nadine to keep ("what did I ask you to remember?",
    "which things did I want you to keep in mind?"): its wh-word stands in a clause the speaker bid her
    do ("I" the subject of the verb it complements, "you" its subject or that verb's object), and that
    clause, said as a request about "this", is one the memory-intent classifier reads as a request to
    remember ("remember this"; "do this" is none)."""
    from interaction.memory_intent.classifier import classify
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        doc = load_parser()(question)
    except ParserUnavailable:
        return False
    for bid in (t for t in doc if t.dep_ in ("xcomp", "ccomp") and t.pos_ == "VERB"):
        asker = bid.head
        if not any(c.dep_ == "nsubj" and c.lower_ == "i" for c in asker.children):
            continue
        if not any(c.lower_ == "you" and c.dep_ in ("nsubj", "dobj") for c in [*bid.children, *asker.children]):
            continue
        if not any(w.tag_ in _WH_TAGS for w in bid.subtree):
            continue
        said = [bid.text, *(c.text for c in bid.children if c.dep_ == "prt"), "this",
                *(w.text for c in bid.children if c.dep_ == "prep" and not any(g.tag_ in _WH_TAGS or g.lower_ == "me"
                                                                                 for g in c.subtree)
                  for w in c.subtree)]
        if classify(" ".join(said)).intent == "remember":
            return True
    return False


def without(question: str, expression: str | None) -> str:
    """The question with the words that named its time window taken out."""
    if not expression:
        return question
    at = question.casefold().find(expression.casefold())
    return question if at < 0 else (question[:at] + question[at + len(expression):]).strip()
