"""Is a turn something the person told, that a recall may bring back as a memory?

Not a question ("how are you?"), not a greeting or a farewell with nothing else in it ("Bye,
Nadine."), not a request to recall or to forget (the memory-intent classifier's reading: what
such a request names is stored as an explicit memory, or is what is asked about), nor a request not to
keep what it says ("don't write that down"), nor a request that Nadine do something for the speaker
("tell me a joke": question_form.request_of_nadine). A turn is told when
the classifier reads it as none of those requests and one of its sentences is neither a question nor,
once its greeting or its clauses of farewell are taken out (the turn-act reader reads each clause),
empty of content words (spaCy's tagger, as for a
remember request that names nothing).
"""

from __future__ import annotations

import functools
import re

from interaction import cues
from interaction.linear_text import clauses
from interaction.memory_intent.not_keep import memory_intent
from interaction.memory_intent.phrasing import names_something
from interaction.offline.extract import extract_name
from interaction.offline.name_reading import CLAUSE_BREAK, read_opening_name
from interaction.offline.question_form import request_of_nadine, statement_tagged
from interaction.offline.wishes import wishes_the_listener
from interaction.speaker_labels import NADINE_LABEL
from interaction.turn_act.reader import turn_acts

# a remember request tells what it asks to keep (stored as an explicit memory in its place); what a
# not_keep turn says ("I failed again, don't write that down") was told on condition it is not kept
ASKS_OF_MEMORY = {"recall", "about_me", "forget_one", "forget_me", "not_keep"}
# the words an introduction is made of besides the name ("my name is", "call me", "Bob speaking")
_INTRODUCING = re.compile(r"(?i)\b(?:name|call|called|speaking)\b")


def only_thanks(text: str) -> bool:
    """The turn opens with a thanks, and no sentence has a subject of its own, only ones pointing back
    at Nadine's kindness or at the talk ("Cheers for listening, really.", "thanks, that's really kind",
    "Thank you, dear. That's all for today."; not "Thanks, I got the job!"); a sentence without a
    thanks of its own has such a subject ("Thanks. Got the job!" tells): gratitude for the
    conversation, which tells nothing about the person."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    sentences = cues.sentences(text)
    if not sentences or not cues.THANKS.search(sentences[0]):
        return False
    try:
        nlp = load_parser()
    except ParserUnavailable:
        return False
    for sentence, doc in zip(sentences, nlp.pipe(sentences), strict=True):
        thanks = cues.THANKS.search(sentence)
        # the thanks itself may be parsed as the subject of a clause that names nothing ("Thanks, got
        # to run!"); of one that names a thing, it stands for the speaker ("Thanks, got the job!")
        subjects = [t for t in doc if t.dep_ in ("nsubj", "nsubjpass", "expl")
                    and not (thanks and thanks.start() <= t.idx < thanks.end() and not _names_a_thing(t.head, thanks))]
        if not all(map(_about_the_kindness, subjects)) or not (subjects or thanks):
            return False
        root = next(iter(doc.sents)).root
        if not subjects and thanks and not thanks.start() <= root.idx < thanks.end() and _names_a_thing(root, thanks):
            return False  # a clause beside the thanks whose subject went unsaid: "Thanks, got the job!"
    return True


def _about_the_kindness(subject) -> bool:  # noqa: ANN001 - a spaCy Token
    """A subject that points back at what Nadine did or said ("that's really kind", "it helped",
    "you're a star"): a demonstrative or "it" / "you" in a clause that says nothing of the person's
    own (no first person in it)."""
    pointing = subject.morph.get("PronType") == ["Dem"] or subject.lower_ in ("it", "you")
    # "this is my last week at work" says something of theirs
    return pointing and not any("1" in t.morph.get("Person") for t in subject.head.subtree)


def _names_a_thing(verb, thanks: re.Match) -> bool:  # noqa: ANN001 - a spaCy Token
    """The clause names a thing, or the speaker, besides its verb and the thanks: a noun, a name, a
    number or a first person word in it."""
    return any(t.pos_ in ("NOUN", "PROPN", "NUM") or "1" in t.morph.get("Person")
               for t in verb.subtree if t.dep_ not in ("nsubj", "nsubjpass") and not thanks.start() <= t.idx < thanks.end())


def _has_a_subject(sentence: str) -> bool:
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        return any(t.dep_ in ("nsubj", "nsubjpass", "expl") for t in load_parser()(sentence))
    except ParserUnavailable:
        return True


def _sentence_tells(sentence: str) -> bool:
    # a statement with a question tagged on after its last comma tells the statement ("I have allergy to
    # shellfish, it is strange for a chef no?")
    if cues.is_question(sentence) and (statement := statement_tagged(sentence)) is not None:
        sentence = statement
    # a request of Nadine ("tell me a joke") asks her for something and tells nothing of the person
    if cues.is_question(sentence) or only_thanks(sentence) or request_of_nadine(sentence):
        return False
    rest = _without_farewell(cues.GREETING.sub(" ", sentence))
    # ... or a name said alone beside a pleasantry ("Ruaridh Campbell, nice to meet you."), as an opening
    # turn says it
    name = extract_name(rest, loose=True) or (read_opening_name(rest) if any(
        wishes_the_listener(c) for c in CLAUSE_BREAK.split(rest)) else None)
    if rest == sentence and name is None:
        # a sentence of neither a content word nor a clause tells nothing ("Yes.", "No.", "Okay."): an
        # answer to a question asked before it, whose memory would match any request ("forget the thing
        # about my son"); "We won't go back there." tells
        return names_something(rest, asks=False) or _has_a_subject(rest)
    # what a greeting, a farewell or an introduction leaves: the robot's name, the person's own name
    # (kept as their name, never a memory: "hello, I'm Maria" is no answer to "what did I tell you
    # about my family?"), the introduction's own words and punctuation name nothing
    rest = re.sub(rf"(?i)\b{NADINE_LABEL}\b", " ", rest)  # typed in a chat as often as not "nadine"
    # and a pleasantry for the listener beside them ("My name's Linda, nice to meet you :)")
    rest = ", ".join(c for c in CLAUSE_BREAK.split(rest) if not wishes_the_listener(c))
    if name is not None:
        rest = re.sub(r"(?i)\b(?:" + "|".join(map(re.escape, name.split())) + r")\b", " ", rest)
        rest = _INTRODUCING.sub(" ", rest)
    return names_something(rest)


def _without_farewell(sentence: str) -> str:
    """`sentence` without what takes leave, as the turn-act reader reads it and each of its clauses: its
    clauses that read as a farewell, and when the whole reads as one, every clause but those with a
    subject of their own ("Brilliant catching up, ciao for now!" leaves nothing, "gotta scoot, my cast
    comes off tomorrow" its news); the sentence itself when nothing is left out."""
    parts = clauses(sentence)
    whole, *acts = turn_acts([sentence, *parts])
    kept = [c for c, act in zip(parts, acts, strict=True)
            if act != "farewell" and (whole != "farewell" or _has_a_subject(c))]
    return sentence if len(kept) == len(parts) else ", ".join(kept)


def texts_parsed(text: str) -> list[str]:
    """What reading whether `text` tells something parses besides its sentences and their stretches
    without stops (to parse it in the turn's one batch, ahead): each stretch of a sentence as written,
    with its stop and capitalised, once a greeting is taken out (is it a wish for the listener, a
    question?), and what a question says after its last comma as it follows the comma (a tag with no
    verb, statement_tagged)."""
    out: list[str] = []
    for sentence in cues.sentences(text):
        for piece in CLAUSE_BREAK.split(cues.GREETING.sub(" ", sentence)):
            out += [written for s in cues.sentences(piece) for written in (s, s[:1].upper() + s[1:])]
        if "," in sentence and sentence.rstrip().endswith("?"):
            out.append(sentence.rpartition(",")[2])
    return list(dict.fromkeys(out))


# every turn reads each earlier statement of its conversation again (memory_requests.said_earlier), and
# the reading is of the words alone
@functools.lru_cache(maxsize=512)
def is_told(text: str) -> bool:
    if not text.strip() or memory_intent(text) in ASKS_OF_MEMORY:
        return False
    return any(_sentence_tells(s) for s in cues.sentences(text))


def what_it_tells(text: str) -> str:
    """`text` without what tells nothing of the person, as a memory of it is said back: a sentence that
    is only a greeting, a farewell or a thanks, the greeting that opens a sentence ("Hi Nadine, my dog
    died" -> "my dog died"), and an introduction joined to news ("I'm Lena and I just got engaged" ->
    "I just got engaged": the name is kept as their name). The whole text when nothing would be left."""
    kept = []
    for sentence in cues.sentences(text):
        if not _sentence_tells(sentence):
            continue
        kept.append(_without_introduction(cues.after_greeting(sentence)) or sentence)
    return " ".join(kept) or text


def _without_introduction(sentence: str) -> str:
    """The sentence without the clause that introduces the speaker by name, when another clause is
    joined to it ("I'm Hyacinth and I just became a grandmother", "my name is Bo, my dog died"):
    spaCy's parse gives the clause (the name's "be" or "call" whose subject is "I" or "my name") and the
    clauses joined to it, which stay."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    name = extract_name(sentence, loose=True)
    if name is None:
        return sentence
    try:
        doc = load_parser()(sentence)
    except ParserUnavailable:
        return sentence
    first = name.split()[0].casefold()
    for token in doc:
        verb = token.head
        if token.lower_ != first or verb.lemma_ not in ("be", "call") or not any(
                c.dep_ in ("nsubj", "nsubjpass", "dobj") and c.lower_ in ("i", "name", "me") for c in verb.children):
            continue
        clauses = [c for c in verb.children if c.dep_ in ("conj", "parataxis", "ccomp", "advcl")]
        if not all(any(d.dep_ in ("nsubj", "nsubjpass", "expl") for d in c.children) for c in clauses):
            return sentence  # "my name is Priya and my sister just had twins" parsed with the sister as a name
        joined = {t.i for c in clauses for t in c.subtree}
        drop = {t.i for t in verb.subtree} - joined
        # the "and" that joined the dropped clause goes with it, wherever the parse hung it
        drop |= {t.i for t in doc if t.dep_ == "cc" and t.i + 1 in drop}
        rest = "".join(t.text_with_ws for t in doc if t.i not in drop)
        rest = re.sub(r"^\W*(?:(?:and|but|so)\b\W*)?|[\s,]*\b(?:and|but|so)\W*$", "", rest.strip(), flags=re.I)
        return rest if names_something(rest) else sentence
    return sentence
