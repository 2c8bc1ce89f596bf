"""Wording around memory requests: what a request is about, and saying it back to the person.

`request_content` finds the fact of "please remember that X" (or the topic of "forget what I said
about X") with the intent classifier itself: the content is the first tail of the utterance, cut at a
clause boundary if one works, that the classifier no longer reads as a request, or, when the request
comes last ("X, please remember that", "X, don't let me forget"), the longest head that no longer
reads as one; a sentence of its own that is only the request ("Please remember that.") is dropped. `second_person` turns the speaker's words into Nadine's ("my" -> "your").
"""

from __future__ import annotations

import re

import numpy as np

from interaction import cues
from interaction.memory_intent.classifier import MemoryIntentClassifier, default_classifier
from interaction.offline.parsing import leans_on_the_turn_before, without_politeness

MAX_PREAMBLE_WORDS = 10  # requests open with a few words ("could you please remember that")
REQUESTS = ("remember", "forget_one", "forget_me")
CONTENT_POS = {"NOUN", "PROPN", "NUM", "VERB", "ADJ"}  # Universal Dependencies' open classes, less adverbs
_COLON = re.compile(r"(?<=\w):\s+(?=\w)")  # not a clock's ("at 7:30")
_LEADING = re.compile(r"^(?:that|this)\b[\s:,-]*|^[\s:,;.!-]+", re.IGNORECASE)  # "... remember that: X" -> "X"


def request_content(
    text: str, classifier: MemoryIntentClassifier | None = None, asking: tuple[str, ...] = REQUESTS
) -> str:
    """The part of `text` that is not the memory request itself (the intents `asking`: by default
    remember / forget; ("recall",) gives a recall question's topic); the whole text when the
    classifier is unavailable or every tail still asks."""
    from interaction.offline.name_reading import CLAUSE_BREAK

    classifier = classifier or default_classifier()
    text = " ".join(text.split())
    if classifier is None or not text:
        return text
    asks = [classifier.classes.index(i) for i in asking]
    # what a colon opens is said apart from a request that only announces it ("remember something: my
    # PIN is 2244"), never from one that names what it keeps ("remember my nephews' birthdays: May 2")
    parts: list[str] = []
    announcing: set[int] = set()  # the parts that end in what a colon opens: no content of their own
    for sentence in cues.sentences(text):
        pieces = [part for part in _announced(sentence) if part.strip()]
        announcing |= {len(parts)} if len(pieces) > 1 else set()
        parts += pieces
    if len(parts) == 1:
        told = _told_beside_request(text, classifier, asks)
        return _without_tag_question(_tidy(told or _content_of(text, classifier, asks) or text), text)
    # the sentence that asks most is the request; what it leaves, and the other sentences, are the
    # content ("For the record, my name is Ada. Please remember that." -> "For the record, my name is Ada")
    asked = classifier.probabilities(parts)[:, asks].sum(axis=1)
    # a sentence telling of a subject of its own is what is kept, never the request, however its words
    # read ("Could you remember something for me? The code for my locker is 3390.")
    telling = np.array([a_clause_of_its_own(p) for p in parts])
    main = int(np.argmax(np.where(telling, -1.0, asked))) if not telling.all() else int(np.argmax(asked))
    own = _tidy(_content_of(parts[main], classifier, asks) or "")
    # a request put as a question may leave itself cut short, the listener its subject, which reads as
    # a recall ("you remember my bike lock code?" of "Can you remember my bike lock code? It's 8462."):
    # no content of its own
    cut_short = bool(own) and asking == REQUESTS and _of_the_listener(own) \
        and classifier.probabilities([own])[0, [*asks, classifier.classes.index("recall")]].sum() >= 0.5
    # what the request sentence leaves is no content when it only announces what follows ("could you
    # keep a number for me?", "remember something for me"): something not yet said, an indefinite thing,
    # which is what the sentences after it say, not the news told before it ("I teach yoga in Cork.
    # Could you hold on to something for me? The alarm code is 6620.")
    # (or ends so, what it says before the announcement being its own: "I'm Nadia, and I need you to
    # remember something: my PIN is 2244")
    announces = len(own.split()) > 2 and (only_announces(own) or (
        main < len(parts) - 1 and only_announces(CLAUSE_BREAK.split(own)[-1])))
    # ... nor when it names nothing but what was said beside it ("... is 4471. Please keep that safe for
    # me.": "safe for me" is how it is to be kept, not what)
    points_back = len(own.split()) > 2 and keeps_what_is_said_beside(parts[main])
    first = main + 1 if announces and main < len(parts) - 1 else 0
    # ... nor is a part that announces what its colon opens ("I'm Henrik and this is important: remember
    # that ...")
    # ... nor what is said before a request that says what it keeps: it keeps that and what follows to
    # complete it ("Hi, I'm Keiko. Remember that my client meeting is on Monday at 10." kept "... Hi,
    # I'm Keiko"), and the statement just before it only when it speaks of that one by a pronoun ("My
    # son's name is Kai. Remember that his birthday is on the 5th.")
    leans = leans_on_the_turn_before(own)
    others = [p for i, p in enumerate(parts) if i != main and i >= first and i not in announcing
              and (len(own.split()) <= 2 or points_back or (asked[i] < 0.5 and (i > main or (leans and i == main - 1))))]
    content = [own] if len(own.split()) > 2 and not announces and not cut_short and not points_back else []
    content += [_tidy(p) for p in others]
    return " ".join(c if c.endswith(".") else c + "." for c in content).rstrip(".") if content else own


def _announced(sentence: str) -> list[str]:
    """The sentence in two at its colon when the last thing named before the colon is a pro-form or an
    indefinite thing still to be said ("remember something for me:", "keep this:", "Remember:"); else
    whole."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    pieces = _COLON.split(sentence, maxsplit=1)
    if len(pieces) < 2:
        return [sentence]
    try:
        chunks = list(load_parser()(pieces[0]).noun_chunks)
    except ParserUnavailable:
        return [sentence]
    return pieces if not chunks or _pro_form_or_indefinite(chunks[-1].root) else [sentence]


def _of_the_listener(text: str) -> bool:
    """The main verb's subject is "you"."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        root = next(iter(load_parser()(text).sents)).root
    except ParserUnavailable:
        return False
    return any(c.dep_ == "nsubj" and c.lower_ == "you" for c in root.children)


def _told_beside_request(sentence: str, classifier: MemoryIntentClassifier, asks: list[int]) -> str | None:
    """The clauses beside a request that closes or opens the sentence, set off by a comma or a dash,
    when they tell of a subject of their own ("my PIN is 6021, keep it for me", "keep this for me would
    you — the wifi password is purple-otter-42"): what the request points at. None otherwise."""
    from interaction.offline.name_reading import CLAUSE_BREAK
    from interaction.offline.parsing import without_opening

    clauses = [c for c in CLAUSE_BREAK.split(sentence.rstrip(" .!?")) if c.strip()]
    if len(clauses) > 1 and keeps_what_is_said_beside(clauses[-1]):
        # a request again, naming nothing, after one that says what it keeps ("remember that the cake
        # tasting is on Friday, don't let me forget!"): what that one keeps
        before = ", ".join(clauses[:-1])
        if classifier.probabilities([clauses[-1], before])[:, asks].sum(axis=1).min() >= 0.5:
            return _content_of(before, classifier, asks)
    for request, rest in ((clauses[-1], clauses[:-1]), (clauses[0], clauses[1:])):
        # a request that tells what it keeps ("please remember my father's medicine is warfarin, and he
        # must not eat spinach") keeps it with what follows, not instead of it
        if not rest or a_clause_of_its_own(request) or _keeps_a_clause(request) \
                or classifier.probabilities([request])[0, asks].sum() < 0.5:
            continue
        told = without_opening(", ".join(rest))  # "also my PIN is 6021, ...": what it says, not how it opens
        # of the speaker too: "im allergic to penicilin, please remember this"; not one naming only what the
        # request names ("remember the deposit is due on the 1st, I can't miss that")
        if (a_clause_of_its_own(told) or a_clause_of_its_own(told, speaker=True)) and not keeps_what_is_said_beside(told):
            return told
    return None


def keeps_what_is_said_beside(request: str) -> bool:
    """The request names nothing of its own to keep, only pro-forms or a thing still to be said ("keep
    it for me", "hang on to that for me", "could you keep a number for me?"): it keeps what the words
    beside it tell, not a thing it names ("remember crete?")."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        doc = load_parser()(request)
    except ParserUnavailable:
        return False
    return all(_pro_form_or_indefinite(c.root) for c in doc.noun_chunks)


def _pro_form_or_indefinite(noun) -> bool:  # noqa: ANN001 - a spaCy Token
    return noun.pos_ == "PRON" or noun.morph.get("PronType") == ["Ind"] or any(
        d.dep_ == "det" and d.morph.get("Definite") == ["Ind"] for d in noun.children)


def only_announces(content: str) -> bool:
    """`content` tells no clause of its own and names its thing only as an indefinite one ("a number
    for me", "something for me"), which the words after it are to say."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        doc = load_parser()(content)
    except ParserUnavailable:
        return False
    if _tells_of_its_own(doc):
        return False
    things = [c.root for c in doc.noun_chunks if c.root.pos_ != "PRON" or c.root.morph.get("PronType") == ["Ind"]]
    return bool(things) and all(_pro_form_or_indefinite(t) for t in things)


def stretches(text: str) -> list[str]:
    """The turn's sentences cut at the breaks between the stretches of a sentence (name_reading.CLAUSE_BREAK:
    commas, semicolons, dashes), without the stops that close them."""
    from interaction.offline.name_reading import CLAUSE_BREAK

    return [c.strip(" .!") for s in cues.sentences(text) for c in CLAUSE_BREAK.split(s) if c.strip(" .!")]


def opening_bidding(text: str) -> str | None:
    """The stretch a turn opens with when it bids something (question_form.bids: "please forget the
    wifi password") and another stretch after it tells with a subject of its own (why: "they changed it
    anyway", "I shouldn't have told you"); None for any other turn or without the parser."""
    from interaction.offline.parsing import ParserUnavailable, load_parser
    from interaction.offline.question_form import bids

    parts = stretches(text)
    if len(parts) < 2:
        return None
    try:
        docs = list(load_parser().pipe(parts))
    except ParserUnavailable:
        return None
    # ... after words that say nothing with a verb ("thanks. can you forget that now, I found the car")
    first = next((i for i, d in enumerate(docs) if any(t.pos_ in ("VERB", "AUX") for t in d)), None)
    if first is None or first == len(parts) - 1:
        return None
    root = next(iter(docs[first].sents)).root
    return parts[first] if (bids(root) or _asked_of_you(root)) and any(
        (a_clause_of_its_own(p) or a_clause_of_its_own(p, speaker=True)) and not cues.is_question(p)
        for p in parts[first + 1:]) else None


def _asked_of_you(verb) -> bool:  # noqa: ANN001 - a spaCy Token
    """A bid put as a question of what the listener can do ("can you forget that now", "could you
    delete it"): "you" the verb's subject, a modal before it, no negation."""
    return verb.tag_ == "VB" and any(c.dep_ == "nsubj" and c.lower_ == "you" for c in verb.children) and any(
        c.dep_ == "aux" and c.tag_ == "MD" and c.i < verb.i for c in verb.children) and not any(
        c.dep_ == "neg" for c in verb.children)


def request_topics(text: str) -> list[str]:
    """What a forget request names, as the retrieval core is asked about it: the noun phrases of the
    request that are not pronouns ("Forget what I told you about my dog" -> "my dog"; the framing
    words "what I told you about" would only dilute the match), and, when some are the objects of a
    preposition ("the thing about my dog"), those alone as a second phrasing; and the request's
    content (request_content), which keeps a topic the parser did not read as a noun ("my parents
    divorced"), unless it names no thing of its own beside those phrases: a reason given with the
    request ("forget about Pepper, it makes me sad") would match whatever else made them sad. Without
    the parser, or when the request names no noun phrase, the content alone. A turn that opens with
    the request and then says why ("forget the shelter, they moved everything to a new building") is
    the request alone: what the reason names is not what is to go."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    text = opening_bidding(text) or text
    content = request_content(text)
    try:
        nlp = load_parser()
        doc = nlp(" ".join(text.split()))
    except ParserUnavailable:
        return [content]
    chunks = [c for c in doc.noun_chunks if c.root.pos_ != "PRON"]
    if not chunks:
        # a doing the request's preposition governs is its topic ("what I told you about coming out")
        doings = [" ".join(t.text for t in c.subtree) for c in doc if c.dep_ == "pcomp" and c.pos_ == "VERB"]
        return list(dict.fromkeys([*doings, content]))
    topics = [" ".join(c.text for c in chunks)]
    inner = " ".join(c.text for c in chunks if c.root.dep_ == "pobj")
    if inner and inner != topics[0]:
        topics.append(inner)
    if any(c.root.pos_ != "PRON" for c in nlp(content).noun_chunks):
        topics.append(content)
    return list(dict.fromkeys(topics))


def names_their_own_name(text: str) -> bool:
    """The request names the speaker's own name ("forget my name"), the name of their profile, by the
    parse: the noun "name" owned by the first person. False without the parser."""
    from interaction.offline.grounding import first_person
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        doc = load_parser()(" ".join((opening_bidding(text) or text).split()))
    except ParserUnavailable:
        return False
    return any(t.lemma_.lower() == "name" and t.pos_ == "NOUN" and any(
        c.dep_ == "poss" and first_person(c) for c in t.children) for t in doc)


def topics_by_their_modifiers(text: str) -> list[str]:
    """The nouns a forget request's noun phrases are compounded with, said alone ("forget the bike
    thing" -> "bike"): what the request names when the phrase's own head says little ("thing", "stuff")
    and the whole phrase matches nothing. Empty without the parser."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        doc = load_parser()(" ".join((opening_bidding(text) or text).split()))
    except ParserUnavailable:
        return []
    said = (" ".join(w.text for w in c.root.lefts if w.dep_ == "compound" and w.pos_ in ("NOUN", "PROPN"))
            for c in doc.noun_chunks)
    return list(dict.fromkeys(m for m in said if m))


def names_something(content: str, classifier: MemoryIntentClassifier | None = None, *, asks: bool = True) -> bool:
    """Does what is left of a remember request name anything to keep? Not when it is itself still a
    request ("remember it"; not asked when `asks` is False: a to-do's action may be one, "ask me
    about my exam"), nor when spaCy's tagger finds no content word in it ("this", "please",
    "okay"): a noun, name, number, verb or adjective that is not a stop word. Without the parser any
    words left count."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    classifier = classifier or default_classifier()
    if not content.strip():
        return False
    try:
        parsed = load_parser()(content)
    except ParserUnavailable:
        parsed = None
    # a clause with a subject of its own other than the two speakers tells something: no request
    # however the classifier reads it ("my car goes in for its MOT on Monday" read as one); nor is
    # one that gives a number ("my bike lock code for me. it's 2290")
    if classifier is not None and asks and not (parsed is not None and (
            _tells_of_its_own(parsed) or any(t.like_num for t in parsed))):
        asks = [classifier.classes.index(i) for i in REQUESTS]
        if classifier.probabilities([content])[0, asks].sum() >= 0.5:
            return False
    if parsed is None:
        return any(ch.isalnum() for ch in content)
    return any(t.pos_ in CONTENT_POS and not t.is_stop for t in parsed)


_SPEAKERS = {"i", "you", "we", "u"}  # who asks and who is asked: a request's own subjects ("I want you to ...")


def _tells_of_its_own(parsed, speaker: bool = False) -> bool:  # noqa: ANN001 - a spaCy Doc
    """A sentence whose main verb has a subject that is neither speaker: it tells of that subject;
    with `speaker`, one whose subject is the speaker ("im allergic to penicilin")."""
    root = next(iter(parsed.sents)).root
    return root.pos_ in ("VERB", "AUX") and any(
        c.dep_ in ("nsubj", "nsubjpass") and (c.lower_ in ("i", "we") if speaker else c.lower_ not in _SPEAKERS)
        for c in root.children)


def _keeps_a_clause(request: str) -> bool:
    """The request's verb takes a clause that tells of a subject of its own ("remember [my father's
    medicine is warfarin]"), not only a thing ("remember my gym membership number")."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        doc = load_parser()(request)
    except ParserUnavailable:
        return False
    return any(t.dep_ == "ccomp" and any(c.dep_ in ("nsubj", "nsubjpass") and c.lower_ not in _SPEAKERS
                                         for c in t.children) for t in doc)


def a_clause_of_its_own(text: str, speaker: bool = False) -> bool:
    """`text` tells of something with a subject of its own, neither speaker, or with `speaker` the
    speaker (_tells_of_its_own)."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        return _tells_of_its_own(load_parser()(text), speaker)
    except ParserUnavailable:
        return False


def _content_of(sentence: str, classifier: MemoryIntentClassifier, asks: list[int]) -> str | None:
    """What one sentence holds besides its request: the tail after it, or the head before it when
    the tail names nothing ("..., remember that for me" leaves "for me")."""
    tail = _tail(sentence, classifier, asks)
    told = tail is not None and names_something(_tidy(tail), classifier)
    if told and not _set_off(sentence, tail):
        return _whole_phrase(sentence, tail)
    head = _head(sentence, classifier, asks) or _head_before_aside(sentence, classifier, asks)
    # a request between two clauses points back at the one told before it ("the plumber comes at
    # nine, can you remember that, I always miss him"); what follows it is an aside
    if told and not (head is not None and _tells_in_a_main_clause(head)):
        return _whole_phrase(sentence, tail)
    return head or tail


def _set_off(sentence: str, tail: str) -> bool:
    """The tail, without the demonstrative that may open it ("that, I always forget him"), is set off
    from the request before it by a boundary: the request stands whole."""
    told = _tidy(tail)
    return bool(told) and sentence[:sentence.rfind(told)].rstrip()[-1:] in tuple(",:;-")


def _tells_in_a_main_clause(text: str) -> bool:
    """A clause that tells something: its main verb has a subject and no subordinating word ("I've a
    dentist appointment on Friday"; not "before I forget")."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        root = next(iter(load_parser()(text).sents)).root
    except ParserUnavailable:
        return False
    children = list(root.children)
    return root.pos_ in ("VERB", "AUX") and any(c.dep_ in ("nsubj", "nsubjpass") for c in children) \
        and not any(c.dep_ == "mark" for c in children)


def _head_before_aside(sentence: str, classifier: MemoryIntentClassifier, asks: list[int]) -> str | None:
    """The head before a request that an aside of the person's own follows, set off by a boundary
    ("my MOT is on the 3rd, can you remember that, I always miss it"): the head is read in the
    sentence up to the end of the request, as if the request came last; the aside, asking nothing,
    is no part of what to keep."""
    words = sentence.split()
    for i in range(len(words) - 1, 0, -1):
        if words[i - 1][-1] not in ",:;-":
            continue
        if classifier.probabilities([" ".join(words[i:])])[0, asks].sum() >= 0.5:
            return None  # what follows asks itself: the request is not before it
        if (head := _head(" ".join(words[:i]).rstrip(",:;-"), classifier, asks)) is not None:
            return head
    return None


def _whole_phrase(sentence: str, tail: str) -> str:
    """The tail from where the parse starts the noun phrase it opens in: the classifier may stop
    asking a few words into it ("please remember my gym locker code is 3318" left "locker code is
    3318")."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        doc = load_parser()(sentence)
    except ParserUnavailable:
        return tail
    start = len(sentence) - len(tail)
    first = next((t for t in doc if t.idx >= start), None)
    phrase = first
    while phrase is not None and phrase.dep_ in ("compound", "amod", "nmod") and phrase.head.pos_ in ("NOUN", "PROPN"):
        phrase = phrase.head
    if first is None or phrase is first:
        return tail
    edge = phrase.left_edge
    return sentence[edge.idx:] if edge.idx < start else tail


def _tail(sentence: str, classifier: MemoryIntentClassifier, asks: list[int]) -> str | None:
    """The longest tail of one sentence that no longer asks, cut at a clause boundary when one works
    (after a comma or colon, after "that"); None when every tail still asks (the sentence is only
    the request). A boundary is passed over when the words before it that the shortest cut would
    keep name something themselves: in "remember my bike lock code is 0417, I keep forgetting it"
    the fact comes before the comma. The words that only close the sentence ("... please") are no
    tail: alone after a thing named ("the alarm code please") they read as a request of their own."""
    from interaction.offline.parsing import without_closing

    words = sentence.split()
    closed = len(without_closing(sentence).split())  # the words up to the last that is not a closing one
    cuts = list(range(1, min(closed, MAX_PREAMBLE_WORDS + 1)))
    if not cuts:
        return None
    asking = classifier.probabilities([" ".join(words[i:closed]) for i in cuts])[:, asks].sum(axis=1) >= 0.5
    # a tail opening with the verb that bids is the request still, however its words read ("please
    # remember my sister Amélie's flight lands ..." kept "remember my sister ...")
    bidding = _bidding_word(sentence)
    plain = [i for i, still in zip(cuts, asking, strict=True) if not still and i != bidding]
    if not plain:
        return None
    boundary = next((i for i in plain if words[i - 1][-1] in ",:;-" or words[i - 1].lower() == "that"), None)
    # ... nor part of one ("my locker code is 2291 please")
    if boundary is None or boundary == plain[0] or names_something(" ".join(words[plain[0]:boundary]), classifier):
        return " ".join(words[plain[0]:closed])
    return " ".join(words[boundary:closed])


def _bidding_word(sentence: str) -> int | None:
    """Which word of the sentence (split at spaces) is its main verb when that bids (question_form.bids:
    "please remember ..."); None for any other sentence or without the parser."""
    from interaction.offline.parsing import ParserUnavailable, load_parser
    from interaction.offline.question_form import bids

    try:
        root = next(iter(load_parser()(sentence).sents)).root
    except (ParserUnavailable, StopIteration):
        return None
    return len(sentence[:root.idx].split()) if bids(root) else None


def _head(sentence: str, classifier: MemoryIntentClassifier, asks: list[int]) -> str | None:
    """The longest head of one sentence that no longer asks, set off from the request after it by a
    comma, colon, semicolon or dash ("my gate code is 4471, please remember that"); None when every
    such head still asks or names nothing. A head without that boundary is a fragment of the request
    ("you sure you'll remember that?" is no "you sure you'll" to keep)."""
    words = sentence.split()
    ends = range(len(words) - 1, max(len(words) - MAX_PREAMBLE_WORDS, 0) - 1, -1)
    cuts = [i for i in ends if i > 0 and words[i - 1][-1] in ",:;-"]
    # without a boundary, a head that is a clause of its own about someone else tells the fact ("my
    # bike lock combo is 0923 pls remember that too"), and so does one that names neither speaker
    # ("dentist wed 3pm dont let me forget"); one of the speakers' is a fragment of the request
    # ("you sure you'll remember that?")
    told = not cuts
    cuts = cuts or [i for i in ends if i > 1]
    if not cuts:
        return None
    asking = classifier.probabilities([" ".join(words[:i]) for i in cuts])[:, asks].sum(axis=1) >= 0.5
    head = next((" ".join(words[:i]) for i, still in zip(cuts, asking, strict=True) if not still
                 and (not told or a_clause_of_its_own(" ".join(words[:i]))
                      or not _SPEAKERS.intersection(w.lower().strip(".,!?") for w in words[:i]))), None)
    if head is None or not names_something(_tidy(head), classifier):
        return None
    from interaction.offline.parsing import without_closing, without_opening

    return without_closing(without_opening(head))


def _without_tag_question(content: str, said: str) -> str:
    """The content without a question tagged on after its last comma when the request was asked as
    one ("remember my sister's birthday is on the 9th of June, ok?"): the tag is not part of the fact."""
    from interaction.offline.question_form import tagged_question

    head, comma, tail = content.rpartition(",")
    asked = said.rstrip().endswith("?")  # the content lost the request's question mark
    return head.strip() if comma and asked and tagged_question(head, tail.strip() + "?") else content


def _tidy(text: str) -> str:
    previous = None
    while previous != text:
        previous, text = text, _LEADING.sub("", text).strip()
    # the politeness closing a request is no part of it, though the tagger may read it into the thing
    # named ("... is 5519 please": "please" its attribute)
    return without_politeness(text).rstrip(" .!?,;:") if text else text


# first person -> second person, and back: each word is swapped once, in one pass
_SWAP = {
    "i": "you", "me": "you", "my": "your", "mine": "yours", "myself": "yourself", "i'm": "you're",
    "i've": "you've", "i'd": "you'd", "i'll": "you'll", "am": "are", "was": "were",
    "your": "my", "yours": "mine", "yourself": "myself", "you're": "I'm", "you've": "I've", "you'll": "I'll",
    # the speaker's "we" is the speaker and their own people, never Nadine: "we're moving in June" is
    # said back "you're moving in June"
    "we": "you", "us": "you", "our": "your", "ours": "yours", "ourselves": "yourselves", "we're": "you're",
    "we've": "you've", "we'd": "you'd", "we'll": "you'll",
    # typed without the apostrophe, as chat types them ("im allergic to penicilin")
    "im": "you're", "ive": "you've",
}
_SUBJECT_BEFORE = {"", "that", "and", "but", "so", "because", "when", "if", "as", ",", "."}
_WORD = re.compile(r"[A-Za-z']+|[^A-Za-z']+")


def second_person(text: str) -> str:
    """The speaker's words as Nadine says them back: "my daughter's birthday" -> "your daughter's
    birthday", "I am" -> "you are", "you promised me" -> "I promised you". "am" / "was" only change
    after "I"; "you" is "I" where it starts a clause and "me" elsewhere."""
    out: list[str] = []
    previous = ""
    for token in _WORD.findall(text.replace("\u2019", "'")):
        word = token.lower()
        if not word.strip() or not word[0].isalpha():
            out.append(token)
            if token.strip():
                previous = token.strip()[-1]
            continue
        if word in ("am", "was") and previous != "i":
            swapped = token
        elif word == "you":
            swapped = "I" if previous in _SUBJECT_BEFORE else "me"
        elif word.endswith("'s") and word[:-2] in ("my", "your", "our"):
            swapped = _SWAP[word[:-2]] + "'s"
        else:
            swapped = _SWAP.get(word, token)
        out.append(swapped if swapped == "I" or swapped.startswith("I'") else _case_like(token, swapped))
        previous = word
    return "".join(out)


def _case_like(original: str, new: str) -> str:
    """Keep a capital only where the original had one for a reason other than being "I"."""
    if original == new:
        return new
    capital = original[:1].isupper() and not (original.lower() == "i" or original.lower().startswith("i'"))
    return new[:1].upper() + new[1:] if capital else new.lower()
