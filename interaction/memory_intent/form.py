"""Whether a turn has the form of the memory request the classifier reads in its words, from spaCy's
parse: the classifier weighs words and phrases ("guess what" is near "what did I ..."), the form says
what the sentence does.

- Any request of memory names something: a verb (an act: "forget it", "remember this!") or a thing
  (a noun, a name, a number, an adjective: "gate code pls"). "yes please" or "okay" alone, said
  when nothing was asked, is no request to remember, forget or recall.
- A recall (or "what do you know about me") is asked: a question or an imperative that names what
  it wants (question_form.asks_or_requests). "Guess what, my granddaughter was born!" only tells.
- A request to remember is addressed to Nadine: a question, a verb in its base form with no subject
  of its own (a bidding: "keep it for me", "remember that ..."), one whose subject is "you", or words
  with no verb at all ("gate code 4471 pls"). News every verb of which has a subject of its own ("my
  father is having heart surgery on Monday in Cairo"), or a copula its subject ("vet is tmrw at 11"),
  tells, however near a request its words are.
- A plea not to pass something on ("please don't tell anyone about my therapy") asks to keep it
  between them, never to forget it.
- "What do you know about me" asks what Nadine knows of the speaker; "who supervises me?" (the
  wh-word the subject, the speaker its object) asks who someone of theirs is.

Without the parser the classifier's reading stands.
"""

from __future__ import annotations

from interaction.memory_intent.phrasing import CONTENT_POS

ASKED = ("recall", "about_me")
FORGETS = ("forget_one", "forget_me")


def _names_something(text: str) -> bool | None:
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        parsed = load_parser()(text)
    except ParserUnavailable:
        return None
    return any(t.pos_ in CONTENT_POS or (t.dep_ == "ROOT" and t.pos_ == "AUX") for t in parsed)


def _addressed(text: str) -> bool:
    """Some clause of `text` is put to the listener, or it has no verb (see above), as typed, as it
    would be written (a capital to open it: "jot down ..." tags "jot" a name; names in capitals) or
    with its words as meant ("remembr ..."); True without the parser."""
    from interaction import cues
    from interaction.memory_intent.misspelt import as_meant
    from interaction.offline.parsing import as_capitalised
    from interaction.offline.question_form import YOU
    from interaction.offline.self_description import ParserUnavailable, load_parser

    if cues.is_question(text):
        return True
    try:
        nlp = load_parser()
    except ParserUnavailable:
        return True
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    for doc in nlp.pipe(dict.fromkeys([text, text[:1].upper() + text[1:], as_capitalised(text), as_meant(text)])):
        # a gerund under a preposition bids nothing ("cheers for having me"), nor does a verb of feeling
        # ("love that for me", said of bad news): neither puts anything to the listener to keep
        verbs = [t for t in doc if t.pos_ == "VERB"]
        # nor does an infinitive of someone else's wish or need ("my doctor wants me to come back on the
        # 9th"), unless "you" is the one it asks of ("I need you to remember that ...")
        bids = [t for t in verbs if not (t.tag_ == "VBG" and t.dep_ == "pcomp")
                and not (wordnet is not None and wordnet.verb_lexical_file(t.lemma_.lower()) == "verb.emotion")
                and not _anothers_infinitive(t)]
        # words with no verb ("gate code 4471 pls") ask, unless a copula tells of a subject ("vet is tmrw
        # at 11"); the small tagger misreads typed requests ("remember pls" a present tense with "neg"
        # for its subject; "Nadine, don't forget" with Nadine the subject), so any base or present form counts
        told = any(t.dep_ in ("nsubj", "nsubjpass") and t.head.pos_ == "AUX" and t.lower_ not in YOU
                   and t.left_edge.i == t.sent.start for t in doc)  # the subject opens the sentence
        if (not verbs and not told) or any(t.tag_ in ("VB", "VBP") or not any(c.dep_ in ("nsubj", "nsubjpass") for c in t.children)
                            or any(c.dep_ == "nsubj" and c.lower_ in YOU for c in t.children) for t in bids):
            return True
    return False


def _anothers_infinitive(verb) -> bool:  # noqa: ANN001 - a spaCy Token
    from interaction.offline.question_form import YOU

    return any(c.tag_ == "TO" and c.dep_ == "aux" for c in verb.children) and not any(
        c.lower_ in YOU for c in [*verb.children, *verb.head.children] if c.dep_ in ("nsubj", "dobj"))


def has_form(intent: str, text: str) -> bool:
    """`text` has the form a request of `intent` needs; a statement always has."""
    from interaction.offline.question_form import asks_or_requests, pleads_not_to_tell

    if intent == "statement" or _names_something(text) is False:
        return intent == "statement"
    if intent == "remember":
        return _addressed(text)
    if intent in FORGETS and pleads_not_to_tell(text):
        return False  # "please don't tell anyone about my therapy": kept between them, not forgotten
    if intent in FORGETS and _on_their_asking(text):
        return False  # "can you delete it all if I ask?" asks whether she would, not that she does
    if intent == "about_me" and _someone_does_to_them(text):
        return False  # "who supervises me?" asks who someone of theirs is, not what she knows of them
    return intent not in ASKED or asks_or_requests(text) is not False


def _on_their_asking(text: str) -> bool:
    """The request is what Nadine would do on a condition the speaker would meet
    (question_form.on_their_condition: "can you delete it all if I ask?"); a condition of hers or of
    the moment ("forget it if you can", "forget everything about me if that's ok") still asks."""
    from interaction.offline.question_form import on_their_condition
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        return any(on_their_condition(sent) for sent in load_parser()(text).sents)
    except ParserUnavailable:
        return False


def _someone_does_to_them(text: str) -> bool:
    """A question whose wh-word is the subject of a verb (no copula) the speaker is the object of,
    directly or after a preposition ("who supervises me?", "who looks after me?")."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        doc = load_parser()(text)
    except ParserUnavailable:
        return False
    # ... a verb of its own: "what's in your memory about me?" is a copula's, asking what she holds
    return any(t.dep_ == "nsubj" and t.tag_ == "WP" and t.head.lemma_ != "be" and any(
        w.lower_ == "me" and w.dep_ in ("dobj", "pobj") for w in t.head.subtree) for t in doc)
