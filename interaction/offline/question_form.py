"""Whether a sentence asks, and whether it asks about what Nadine sees now, read from spaCy's parse.

A question: typed speech often drops the question mark ("whats my pin", "where do i work"), so a
sentence also asks when, after a lead-in (an interjection, a conjunction, an adverb, a name called
out), its clause opens with
- an interrogative word (the tagger's WDT / WP / WP$ / WRB) whose clause goes on with an auxiliary or
  a form of "be" ("where do i work", "whats my pin", "how many kids do I have"), an adposition ("what
  about my pin"), or with the main verb when the interrogative phrase is its subject ("who came with
  me"); nothing else: "where I grew up it snowed", "what a week", "what I want is a rest" state;
- an auxiliary before its subject ("do you know ...", "can u remember ...").

About the view: a question or request about the present scene, which only the camera can answer,
says so in its form: a verb of seeing or looking heading the present clause, whose subject is Nadine
or that is an imperative, not a negated one ("what do you see", "look at this", or "how do I look"), the speaker's present progressive
of something a body does ("what am I holding"; not of the mind or of talk, by the domain of the
verb's most frequent sense in WordNet: "what instrument am I learning"), or a demonstrative pointing
at something in a question ("what is this", "who is that") or at what a request asks Nadine to look
at ("look at this"; "keep this to yourself" asks no look), never a past or perfect clause ("who came with me to the concert?", "did you see my photos?"), and a
demonstrative that names a time ("this morning") or that a relative clause ties to something said
("that song you mentioned") does not point.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterator
from typing import Any

from interaction import cues
from interaction.offline.parsing import of_having

log = logging.getLogger("nadine.interaction.question_form")

WH_TAGS = {"WDT", "WP", "WP$", "WRB"}
_WH_OBJECTS = {"dobj", "attr", "oprd"}  # "what am I holding", "which hat am I wearing"
_LEAD_IN_POS = {"INTJ", "CCONJ", "ADV", "PROPN", "X"}
_MAX_LEAD_IN = 3
_WH_PHRASE_POS = {"ADJ", "ADV", "NOUN", "PROPN", "NUM"}
_SUBJECTS = {"nsubj", "nsubjpass", "expl", "csubj"}
_PERCEIVE = {"see", "look", "watch", "notice", "spot", "show"}  # the verbs of the camera's answer
_PAST = {"VBD", "VBN"}
_TIME_ENTS = {"DATE", "TIME"}
_PLACE_ENTS = {"GPE", "LOC", "FAC"}
_NOT_SEEN_WH = {"when", "where", "why"}
# learning, planning, saying, feeling; and working, dating, helping: a bond or a role, no posture
_UNSEEN_DOINGS = {"verb.cognition", "verb.communication", "verb.emotion", "verb.social"}
_ANY_DOING = "do"  # the verb that stands for any other ("what am I doing?"), whatever WordNet files it under
_KNOWING_OR_TELLING = {"verb.cognition", "verb.communication"}  # what Nadine may be asked to remember or tell


def _parser() -> Any | None:
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        return load_parser()
    except ParserUnavailable as exc:
        log.debug("question form from the cue words: %s", exc)
        return None


def _words(sentence: Any) -> list[Any]:
    return [t for t in sentence if not (t.is_punct or t.is_space)]


def _clause_start(tokens: list[Any]) -> int:
    """The index of the first word after the lead-in (at most three words: "oh and nadine ...")."""
    i = 0
    while i < min(len(tokens), _MAX_LEAD_IN) and tokens[i].tag_ not in WH_TAGS and _leads_in(tokens[i]):
        i += 1
    return i if i < len(tokens) else 0


def _leads_in(token: Any) -> bool:
    """An interjection, conjunction, adverb or name before the clause, or any word called out before a
    comma ("Nadine, what's my name")."""
    called_out = token.i + 1 < len(token.doc) and token.nbor().text == ","
    return token.pos_ in _LEAD_IN_POS or (token.pos_ == "NOUN" and called_out)


def _is_be_or_aux(token: Any) -> bool:
    return token.pos_ == "AUX" or token.tag_ == "MD" or token.lemma_ in ("be", "do", "have") or token.lower_ in ("s", "'s")


def _wh_asks(tokens: list[Any], i: int) -> bool:
    wh = tokens[i]
    k = i + 1
    while k < len(tokens) and tokens[k].pos_ in _WH_PHRASE_POS and tokens[k].tag_ not in WH_TAGS:
        k += 1  # the interrogative phrase: "how many kids", "which level", "what time"
    if k == len(tokens):
        return k == i + 1  # "why" alone asks; "how nice" exclaims
    nxt = tokens[k]
    if _is_be_or_aux(nxt) or nxt.pos_ == "ADP":
        return True
    if nxt.pos_ == "VERB" and nxt.dep_ in ("ROOT", "conj"):
        subjects = [c for c in nxt.children if c.dep_ in _SUBJECTS]
        return all(i <= c.i < k for c in subjects) and (bool(subjects) or wh.dep_ in _SUBJECTS)
    return False


def _inverted(tokens: list[Any], i: int) -> bool:
    aux = tokens[i]
    if not (aux.pos_ == "AUX" or aux.tag_ == "MD"):
        return False
    head = aux.head if aux.dep_ in ("aux", "auxpass", "neg") else aux
    if head.pos_ in ("NOUN", "PROPN", "PRON"):
        # an auxiliary only of a verb: "did" hung on a noun is the verb of a statement without its
        # subject ("did some shopping after", "some" taken for the subject)
        return False
    # ... or of its complement, which the parser may give the subject of a participle ("Am I
    # divorced?": "I" the passive subject of "divorced")
    subjects = [c for t in (head, *(c for c in head.children if c.dep_ == "acomp")) for c in t.children
                if c.dep_ in _SUBJECTS]
    if any(c.i > aux.i for c in subjects):
        return True
    # "Is my fitting on Saturday?": the noun after an opening copula may be parsed as its attribute,
    # leaving it no subject; a statement never opens with its finite copula ("Be a dear" bids)
    return head is aux and aux.lemma_ == "be" and aux.tag_ in ("VBZ", "VBP", "VBD") and not subjects \
        and any(c.dep_ == "attr" for c in head.children)


def sentence_asks(sentence: Any) -> bool:
    """One parsed sentence (a spaCy Span) is a question: by its form, or by its question mark unless
    that only closes an appeal to the listener after a statement ("..., it's one thing after another,
    you know?")."""
    if sentence.text.rstrip().endswith("?"):
        return not _appeals_after_a_statement(sentence)
    return _asks_by_form(sentence)


def _asks_by_form(span: Any) -> bool:
    tokens = _words(span)
    if not tokens:
        return False
    i = _clause_start(tokens)
    # a wh-word in "-ever" opens no question, only a free relative or a shrug ("whatever.", "whatever
    # happens, ..."): with no question mark it asks nothing
    asking_word = tokens[i].tag_ in WH_TAGS and not tokens[i].lower_.endswith("ever")
    return (_wh_asks(tokens, i) if asking_word else _inverted(tokens, i)) or _tag_asks(tokens)


def _tag_asks(tokens: list[Any]) -> bool:
    """A statement with a question tagged on its end: an auxiliary and a pronoun after the main verb,
    the auxiliary negated or set off by a comma ("you'd like that wouldn't you", "you went, did you"),
    which asks to be confirmed; "so do I" agrees and asks nothing."""
    if len(tokens) < 3 or tokens[-1].pos_ != "PRON":
        return False
    k = len(tokens) - 2
    negated = tokens[k].dep_ == "neg"
    k -= negated
    aux = tokens[k]
    if k < 1 or not (aux.pos_ in ("AUX", "VERB") or aux.tag_ == "MD") or any(c.i > aux.i and c.i != tokens[-1].i
                                                                              and c.dep_ != "neg" for c in aux.children):
        return False
    told = any(t.pos_ in ("VERB", "AUX") and any(c.dep_ in ("nsubj", "nsubjpass") for c in t.children)
               for t in tokens[:k])
    return told and (negated or aux.nbor(-1).text == ",")


# knowing or perceiving: what "you know?", "you see?", "you understand?" appeal to
_OF_GRASPING = {"verb.cognition", "verb.perception"}


def _appeals_after_a_statement(sentence: Any) -> bool:
    """After its last comma the sentence ends in "you" and a verb of knowing or perceiving by WordNet,
    and nothing else ("you know?", "you see?"): the speaker asks to be followed, not for an answer,
    when what comes before the comma is a statement. A tag that asks back ("..., isn't it?", "...,
    do you?") opens with its auxiliary and stays a question."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    commas = [t for t in sentence if t.text == ","]
    if not commas:
        return False
    tail = [t for t in sentence if t.i > commas[-1].i and not t.is_punct]
    wordnet = load_wordnet()
    if wordnet is None or len(tail) != 2 or tail[0].lower_ not in YOU or tail[1].pos_ != "VERB":
        return False
    head = sentence.doc[sentence.start:commas[-1].i]
    return wordnet.verb_lexical_file(tail[1].lemma_.lower()) in _OF_GRASPING and not _asks_by_form(head)


# A turn's readers (the understanding, its guards, the memory intent, retrieval, the reply) ask some
# thirty times whether one of its few texts asks: the answer is read once per text
RECENT_ANSWERS = 1024


@functools.lru_cache(maxsize=RECENT_ANSWERS)
def asks_question(text: str) -> bool | None:
    """Some sentence of `text` is a question; None when the parser cannot load."""
    nlp = _parser()
    if nlp is None:
        return None
    # a sentence typed in lower case is read as it would be written too: an opening auxiliary is then
    # tagged the root of a statement ("is my mum having an operation" read as told news)
    return any(sentence_asks(sent) for s in cues.sentences(text)
               for written in dict.fromkeys((s, s[:1].upper() + s[1:])) for sent in nlp(written).sents)


def _written_sentences(text: str) -> Iterator[Any]:
    """The parsed sentences of `text`, each opened with a capital as it would be written; none without
    the parser."""
    nlp = _parser()
    if nlp is None:
        return
    for s in cues.sentences(text):
        yield from nlp(s[:1].upper() + s[1:]).sents


def asks_by_a_wh_word(text: str) -> bool:
    """Some sentence of `text` is a question its clause opens with a wh-word ("which subject?", "where
    does she live?"); without the parser, none."""
    return any((tokens := _words(sent)) and sentence_asks(sent) and tokens[_clause_start(tokens)].tag_ in WH_TAGS
               for sent in _written_sentences(text))


def asks_why(text: str) -> bool:
    """Some sentence of `text` asks for a reason: a question whose interrogative word is "why" ("why
    do you ask?", "why do you want to know?"), or "why" said alone; without the parser, no."""
    for sent in _written_sentences(text):
        words = _words(sent)
        if any(t.lower_ == "why" and t.tag_ == "WRB" for t in words) and (len(words) == 1 or sentence_asks(sent)):
            return True
    return False


@functools.lru_cache(maxsize=RECENT_ANSWERS)
def asks_whether(text: str) -> bool:
    """Every question of `text` asks whether ("did I tell you my sister is moving?", "is my sister
    moving?"): its clause opens with an auxiliary before its subject, not with a question word, so a
    yes or a no answers it; without the parser, no."""
    nlp = _parser()
    if nlp is None:
        return False
    # typed in lower case, an opening auxiliary is tagged the root of a statement and its subject an
    # attribute ("is the christening on the 6th?"): each sentence is parsed as it would be written
    asked = [sent for s in cues.sentences(text) for sent in nlp(s[:1].upper() + s[1:]).sents if sentence_asks(sent)]
    for sent in asked:
        tokens = _words(sent)
        i = _clause_start(tokens) if tokens else 0
        if not tokens or tokens[i].tag_ in WH_TAGS or not _inverted(tokens, i) or _offers_a_choice(sent):
            return False
    return bool(asked)


def statement_asked(text: str) -> str | None:
    """What a question whether about the speaker asks holds, said as they would tell it ("am I a
    teacher?" -> "I am a teacher", "do I live in Lisbon?" -> "I live in Lisbon"): its "I" first, the
    inverted "be" after it or the "do" dropped; None for any other question (one about the past or
    someone else, or with a modal: "did I ...?", "can I ...?")."""
    nlp = _parser()
    if nlp is None or not asks_whether(text):
        return None
    sentences = [s for s in cues.sentences(text) if s.strip()]
    if len(sentences) != 1:
        return None
    doc = nlp(sentences[0][:1].upper() + sentences[0][1:])
    subject = next((t for t in doc if t.dep_ in _SUBJECTS), None)
    if subject is None or subject.lower_ != "i" or subject.i == 0:
        return None
    inverted = doc[subject.i - 1]
    rest = doc[subject.i + 1:].text.rstrip(" ?")
    if inverted.lemma_ == "be" and inverted.tag_ == "VBP":
        return f"I am {rest}"
    if inverted.lemma_ == "do" and inverted.tag_ == "VBP":
        return f"I {rest}"
    return None


def _offers_a_choice(sent: Any) -> bool:
    """The question puts alternatives joined by "or" ("is he going to Toronto or Vancouver?"): it asks
    which, and neither a yes nor a no answers it; "... or not?" still asks whether."""
    return any(t.lower_ == "or" and t.dep_ == "cc" and any(c.dep_ == "conj" and c.lower_ != "not"
                                                          for c in t.head.children) for t in sent)


def asks_her_memory(text: str) -> bool:
    """Some question of `text` puts a thing to Nadine's memory: "you" the subject of its main verb, a
    verb of knowing or telling ("do you remember my big news?", "do you know where I parked?")."""
    nlp = _parser()
    if nlp is None:
        return False
    return any(any(c.dep_ == "nsubj" and c.lower_ in YOU for c in sent.root.children) and _of_mind_or_talk(sent.root)
               for s in cues.sentences(text) if cues.is_question(s) for sent in nlp(s).sents)


def asks_what_was_told(text: str) -> bool:
    """No question of `text` asks of the life told by a verb of its own ("how long was I there?"): each
    asks of the telling or of her memory, whoever its subject, by a main verb of knowing or telling
    ("what did I tell you about space?", "do you remember my news?"), or by none ("what about Anna?")."""
    nlp = _parser()
    if nlp is None:
        return True

    def of_their_life(root: Any) -> bool:
        # ... or of what she shared with them ("how did we meet?"), which she remembers as they do
        shared = any(c.dep_ in ("nsubj", "nsubjpass") and c.lower_ in ("we", *YOU) for c in root.children)
        return root.pos_ in ("VERB", "AUX") and not shared and (root.lemma_ == "be" or not _of_mind_or_talk(root))

    return not any(of_their_life(sent.root) for s in cues.sentences(text) if cues.is_question(s) for sent in nlp(s).sents)


def tagged_question(statement: str, tag: str) -> bool:
    """`tag`, said after the last comma of a statement, is a question tagged onto it ("we bought a
    house, can you believe it?", "... on the 9th of June, ok?"), so what was told is the statement.
    A phrase without a verb that names a thing or a number is the statement's own last part, not a
    tag ("I parked on level 3, spot 42?")."""
    return bool(statement.strip() and tag.strip() and asks_question(tag) and not asks_question(statement)
                and not _names_without_verb(tag))


def statement_tagged(sentence: str) -> str | None:
    """The statement of a sentence that tags a question on after its last comma ("I have allergy to
    shellfish, it is strange for a chef no?"): what it tells; None for any other sentence."""
    head, comma, tag = sentence.rpartition(",")
    if not comma or not tagged_question(head, tag):
        return None
    # a thing alone before the tag asks to confirm it ("Dentist appointment on the 9th, right?")
    nlp = _parser()
    return head if nlp is not None and any(t.pos_ in ("VERB", "AUX") for t in nlp(head)) else None


def _names_without_verb(text: str) -> bool:
    nlp = _parser()
    if nlp is None:
        return False
    tokens = list(nlp(text))
    return not any(t.pos_ in ("VERB", "AUX") for t in tokens) and any(t.pos_ in ("NOUN", "PROPN", "NUM") for t in tokens)


def _past(token: Any) -> bool:
    """The clause of `token` is in the past or the perfect: its verb's tag, or an auxiliary's."""
    verb = token if token.pos_ in ("VERB", "AUX") else token.head
    return verb.tag_ in _PAST or any(c.dep_ in ("aux", "auxpass") and c.tag_ in _PAST for c in verb.children)


def _points(token: Any) -> bool:
    """A demonstrative that points at something in view: not a time ("this morning"), not a
    complementiser ("so that"), not tied by a relative clause to something said ("that song you
    mentioned")."""
    if token.lower_ not in ("this", "that", "these", "those") or token.tag_ != "DT" or token.ent_type_ in _TIME_ENTS:
        return False
    noun = token.head if token.dep_ == "det" else token
    return not any(c.dep_ in ("relcl", "acl") for c in noun.children)


def bids(verb: Any) -> bool:
    """The verb bids the listener do something: its base form with no subject and no negation ("look
    at this", "please forget the wifi password")."""
    return verb.tag_ == "VB" and not any(c.dep_ in _SUBJECTS or c.dep_ == "neg" for c in verb.children)


def _sentence_about_view(sentence: Any) -> bool:
    tokens = _words(sentence)
    if not tokens:
        return False
    root = sentence.root
    # "look at this"; a negated imperative asks the camera for nothing ("please don't remember that one")
    request = bids(root)
    if not (sentence_asks(sentence) or request) or _past(root):
        return False
    # when, where or why a thing is ("when's that exam?"), and a place named ("am I still going to
    # Orlando?"): the view shows neither
    if any(t.tag_ == "WRB" and t.lower_ in _NOT_SEEN_WH for t in tokens) or any(t.ent_type_ in _PLACE_ENTS for t in tokens):
        return False
    for token in tokens:
        if token.lemma_ in _PERCEIVE and token.pos_ == "VERB" and token.dep_ in ("ROOT", "conj") and not _past(token):
            subjects = {c.lower_ for c in token.children if c.dep_ in _SUBJECTS}
            # Nadine seeing ("do you see"), an imperative ("look at me"), how the speaker looks ("how do I look");
            # "remember I see the physio" is no question about the view, nor is seeing Nadine herself
            # ("see you Thursday then!": a goodbye)
            if any(c.dep_ == "dobj" and c.lower_ in YOU for c in token.children):
                continue
            if not subjects or subjects & {"you", "u"} or (token.lemma_ == "look" and subjects & {"i"}):
                return True
        if _points(token) and not _past(token.head) and (sentence_asks(sentence) or _looked_at(token)):
            return True
    # the speaker's present progressive: "what am I holding", "what am I wearing", "am I smiling?";
    # asked where, when, how or why it is their life, not the view ("where am I living now?")
    wh = [t for t in tokens if t.tag_ in WH_TAGS]
    return root.tag_ == "VBG" and any(c.dep_ == "aux" and c.lower_ in ("am", "'m", "m") for c in root.children) \
        and not _going_to(root) \
        and not any(t.ent_type_ in _TIME_ENTS for t in tokens) \
        and all((w.head if w.dep_ == "det" else w).dep_ in _WH_OBJECTS for w in wh) and _seen_doing(root)


def _going_to(verb: Any) -> bool:
    """"Am I going to ...?": where they are going or what they will do, which no view shows ("am I still
    going to Reykjavik?", the small tagger making the name a verb after "to")."""
    return verb.lemma_ == "go" and any(c.dep_ == "xcomp" or (c.dep_ == "prep" and c.lower_ == "to") for c in verb.children)


def _looked_at(token: Any) -> bool:
    """The demonstrative is what a verb of seeing or looking is about ("look at this", "show me that"),
    or what a question the request holds asks about ("tell me what this is")."""
    head = token.head if token.dep_ == "det" else token
    verb = head.head.head if head.dep_ == "pobj" else head.head
    return verb.lemma_ in _PERCEIVE or any(c.tag_ in WH_TAGS for c in verb.children)


def _seen_doing(verb: Any) -> bool:
    """A doing the camera can see: not one of the mind or of talk ("learning", "planning", "saying"), nor
    a bond or role ("am I still working?"); every verb when WordNet is not installed."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return wordnet is None or verb.lemma_ == _ANY_DOING or wordnet.verb_lexical_file(verb.lemma_) not in _UNSEEN_DOINGS


def asks_about_view(text: str) -> bool:
    """Some sentence of `text` asks about what Nadine sees now; without the parser, the cue words."""
    nlp = _parser()
    if nlp is None:
        return bool(cues.VISUAL.search(text))
    return any(_sentence_about_view(sent) for s in cues.sentences(text) for sent in nlp(s).sents)


# Nadine as the one spoken to, typed in full or as a chat types it ("r u a robot", "whats ur name")
YOU = ("you", "u", "ya", "yourself")
YOUR = ("your", "ur", "yer")
_ROLES = {"nsubj", "nsubjpass", "attr"}  # who or what the question is about


def _first_person(sentence: Any) -> bool:
    return any("1" in t.morph.get("Person") for t in sentence)


def asked_about(sentence: Any) -> Any:
    """What a question is about: when Nadine, its main verb's subject, is asked to remember, know, tell
    or think a clause ("do you remember what's going on with work?", "can you tell me how your memory
    works?"), that clause; else the whole sentence. She is only the one asked: the clause says whose
    life or what thing the question is about. The parser reads an embedded question opened by a
    question word as an adverbial clause at times ("do you recall when the launch is?")."""
    root = sentence.root
    if any(c.dep_ == "nsubj" and c.lower_ in YOU for c in root.children) and _of_mind_or_talk(root):
        for clause in root.children:
            if clause.dep_ == "ccomp" or (clause.dep_ == "advcl" and clause.left_edge.tag_ in WH_TAGS):
                return sentence.doc[clause.left_edge.i:clause.right_edge.i + 1]
    return sentence


def _asks_after_nobody(sentence: Any) -> bool:
    """A question that names neither the speaker nor Nadine's memory of something: no first person in
    what it asks about ("who painted the Mona Lisa?", "do you know who wrote Hamlet?"), and Nadine is
    not asked to remember, know, tell or still have a thing itself ("do you remember the gate code?",
    "do you have the vet's number still?")."""
    topic = asked_about(sentence)
    root = sentence.root
    if _first_person(topic) or _holds_a_thing_told(root):
        return False
    return topic is not sentence or not (
        any(c.dep_ == "nsubj" and c.lower_ in YOU for c in root.children) and _of_mind_or_talk(root))


def asks_after_nobody(text: str) -> bool:
    """Every question of `text` asks after something of nobody's in particular (_asks_after_nobody):
    whether the person told it is for memory to find, not for the question's words to claim; without
    the parser, or without a question, no."""
    nlp = _parser()
    if nlp is None:
        return False
    asked = [sent for s in cues.sentences(text) if cues.is_question(s) for sent in nlp(s).sents]
    return bool(asked) and all(_asks_after_nobody(sent) for sent in asked)


def _of_mind_or_talk(verb: Any) -> bool:
    """A verb of knowing or telling by its most frequent sense in WordNet ("remember", "know", "tell");
    every verb when WordNet is not installed."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return wordnet is None or wordnet.verb_lexical_file(verb.lemma_) in _KNOWING_OR_TELLING


def _addressed(sentence: Any) -> bool:
    """A question about Nadine: "you" is its main verb's subject, or "your" owns its subject or
    attribute ("what's your favourite film"); a chat's broken parse that finds no subject at all
    ("r u a robot", "any plans of your own?") is about her when a second-person pronoun is in it. Nothing of the speaker's.
    A clause she is asked to remember or tell is about her when it speaks of her ("do you know who
    built you?"), not when it speaks of something else ("do you remember what's going on with work?")."""
    if not sentence_asks(sentence):
        return False
    if _what_she_does_with_what_they_say(sentence) or on_their_condition(sentence):
        return True
    topic = asked_about(sentence)
    if topic is not sentence:
        return not _first_person(topic) and any(t.lower_ in YOU + YOUR for t in topic)
    if _first_person(sentence):
        return False
    root = sentence.root
    if _holds_a_thing_told(root):
        return False
    roles = [c for c in root.children if c.dep_ in _ROLES]
    # a chat's "ur" is read as the subject itself ("what is ur name": "ur" nsubj)
    if any(c.dep_ in ("nsubj", "nsubjpass") and c.lower_ in YOU + YOUR for c in roles):
        return True
    # she is what the question's verb is done to: "who designed you?", "what do people call you?"
    if any(c.dep_ == "dobj" and c.lower_ in YOU for c in root.children):
        return True
    if any(g.lower_ in YOUR for c in roles for g in c.children if g.dep_ in ("poss", "nmod")):
        return True
    # so is a question left without its subject ("got any hobbies of your own?"), its "you" said only
    # as the owner of what it asks after
    return not any(c.dep_ in _SUBJECTS for c in root.children) and any(
        (t.lower_ in YOU and t.pos_ == "PRON") or (t.lower_ in YOUR and t.dep_ == "poss") for t in sentence)


def _what_she_does_with_what_they_say(sentence: Any) -> bool:
    """A question of what Nadine does with what the speaker says ("do you record what I say?", "what do
    you do with what I tell you?", "do you share what I tell you with anyone?"): "you" the subject of a
    verb of no knowing or seeing (WordNet's verb.cognition and verb.perception: "do you remember what I
    said?" asks her memory of it, "did you see what I did?" her eyes), the speaker only inside the
    clause it is done with, never the one it is done for ("can you tell me what I said?")."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    root = sentence.root
    wordnet = load_wordnet()
    if wordnet is None or root.pos_ != "VERB" or wordnet.verb_lexical_file(root.lemma_) in ("verb.cognition", "verb.perception") \
            or not any(c.dep_ == "nsubj" and c.lower_ in YOU for c in root.children):
        return False
    said = [t for c in root.children if c.dep_ in ("ccomp", "prep") for t in c.subtree if c.dep_ == "ccomp" or t.dep_ == "pcomp"
            # ... or a thing described by their saying it ("what do you do with the stuff I tell you?")
            or t.dep_ == "pobj" and any(r.dep_ == "relcl" for r in t.children)]
    if any(c.dep_ == "aux" and c.lemma_ == "do" for c in root.children) and not of_having(root):
        # what she is asked to do habitually with a thing of theirs ("do you record my voice?", "do you
        # save photos of me?"); "can you call my mum?" asks her to do it
        said += [c for c in root.children if c.dep_ == "dobj"]
    inside = {w.i for t in said for w in t.subtree}
    speaker = [t for t in sentence if "1" in t.morph.get("Person")]
    return bool(speaker) and all(t.i in inside for t in speaker)


def on_their_condition(sentence: Any) -> bool:
    """What Nadine would do if the speaker did something: "you" the subject of the main verb, and under
    it a clause with a subordinating mark whose subject is the speaker ("can you delete it all if I
    ask?", "would you forget it if I wanted you to?"): a question about her, not a request."""
    root = sentence.root
    return any(c.dep_ == "nsubj" and c.lower_ in YOU for c in root.children) and any(
        c.dep_ == "advcl" and any(m.dep_ == "mark" for m in c.children)
        and any(s.dep_ == "nsubj" and "1" in s.morph.get("Person") for s in c.children) for c in root.children)


def asks_what_she_does_with_it(text: str) -> bool:
    """Some question of `text` asks what Nadine does with what the speaker says
    (_what_she_does_with_what_they_say); without the parser, none."""
    nlp = _parser()
    return nlp is not None and any(sentence_asks(sent) and _what_she_does_with_what_they_say(sent)
                                   for s in cues.sentences(text) for sent in nlp(s).sents)


def _holds_a_thing_told(verb: Any) -> bool:
    """"Do you have the vet's number still?": her having a particular thing, one set by its article or
    someone's, not hers, asks whether she keeps what she was told; "do you have a favourite film?" and
    "do you have your own room?" ask about her."""
    if not of_having(verb):
        return False
    things = [c for c in verb.children if c.dep_ == "dobj" and c.pos_ in ("NOUN", "PROPN")]
    return any(any((d.dep_ == "det" and d.lower_ == "the") or (d.dep_ == "poss" and d.lower_ not in YOUR)
                   for d in thing.children) for thing in things)


def addresses_nadine(text: str) -> bool:
    """Some question of `text` is about Nadine herself (_addressed: "what can you do?", "where were
    you built?", "what's your favourite film?"; not "can you help me?", "do you remember my dog?":
    those ask something of her for the speaker); without the parser, none."""
    nlp = _parser()
    if nlp is None:
        return False
    return any(_addressed(sent) for s in cues.sentences(text) for sent in nlp(s).sents)


def request_of_nadine(text: str) -> str | None:
    """What a bid asks Nadine to do for the speaker, in her words ("tell me a joke", "can you tell me a
    joke?" -> "tell you a joke"): a verb with no subject, or asked of "you" with a modal, not negated,
    whose objects are the speaker ("me", "us") and a thing to be given, sung or told; None for anything
    else ("tell me about Paris", "excuse me", "have a nice day")."""
    from interaction.memory_intent.phrasing import second_person

    for sent, (speaker, _) in _bids_to_the_speaker(text):
        # the speaker, one or several, is "you" to Nadine
        words = ["me" if t in speaker else t.text for t in sent
                 if not t.is_punct and t.dep_ != "intj" and t.i >= sent.root.i]
        words[0] = words[0].lower()  # mid-sentence in her reply: "I'm afraid I can't tell you ..."
        return second_person(" ".join(words))
    return None


def asks_back_their_own(text: str) -> bool:
    """A request that Nadine give or tell the speaker a thing of their own ("give me my locker code",
    "can you give me my gym PIN?"): it asks for what was kept, never to keep it. False without the
    parser."""
    return any(c.dep_ == "poss" and "1" in c.morph.get("Person")
               for _, (_, things) in _bids_to_the_speaker(text) for t in things for c in t.children)


def _bids_to_the_speaker(text: str) -> Iterator[tuple[Any, tuple[list[Any], list[Any]]]]:
    """Each parsed sentence of `text` that bids Nadine give, sing or tell the speaker a thing, bare or
    asked of "you" with a modal, with (the speaker's words, the things); none without the parser."""
    nlp = _parser()
    if nlp is None:
        return
    for s in cues.sentences(text):
        for sent in nlp(s).sents:
            if (asked := _given_to_the_speaker(sent)) is not None:
                yield sent, asked


def _given_to_the_speaker(sent: Any) -> tuple[list[Any], list[Any]] | None:
    """A sentence bidding Nadine give, sing or tell the speaker a thing: a verb not negated, with the
    speaker ("me", "us") and a thing as its objects, said with no subject, or asked of "you" with a
    modal ("can you give me ...?"); (the speaker's words, the things), else None."""
    root = sent.root
    subjects = [c for c in root.children if c.dep_ in _SUBJECTS]
    auxes = [c for c in root.children if c.dep_ == "aux"]
    bid = not subjects and not auxes or [s.lower_ for s in subjects] in (["you"], ["u"]) \
        and all(a.tag_ == "MD" for a in auxes)
    if root.tag_ != "VB" or root.pos_ != "VERB" or not bid or any(c.dep_ == "neg" for c in root.children):
        return None
    kids = list(root.children)
    speaker = [c for c in kids if c.dep_ in ("dative", "dobj") and c.lower_ in ("me", "us")]
    thing = [c for c in kids if c.dep_ == "dobj" and c.pos_ in ("NOUN", "PROPN")]
    return (speaker, thing) if speaker and thing else None


# what a verb's arguments are: the things and clauses it asks about or for
_ARGUMENTS = {"dobj", "dative", "attr", "oprd", "prep", "ccomp", "xcomp", "advcl", "pobj"}
_MAIN_CLAUSES = {"ROOT", "ccomp", "conj", "parataxis"}


def bare_wh(token: Any) -> bool:
    """A wh-word with no clause of its own: nothing but punctuation follows it in its sentence
    ("guess what, my granddaughter was born", "guess what!"); it asks about nothing."""
    nxt = token.i + 1
    return token.tag_ in WH_TAGS and (nxt >= token.sent.end or token.doc[nxt].is_punct)


def _exclaims(token: Any) -> bool:
    """A wh-word that exclaims: the determiner of a noun with an indefinite article right after it
    ("what a surprise!", "what a day"); it asks nothing."""
    head = token.head
    return token.tag_ in WH_TAGS and token.dep_ in ("det", "predet") and head.pos_ == "NOUN" and any(
        c.dep_ == "det" and c.i == token.i + 1 and "Ind" in c.morph.get("Definite") for c in head.children)


def asks_nothing(token: Any) -> bool:
    """A wh-word that asks about nothing: bare ("guess what!") or exclaiming ("what a day!")."""
    return bare_wh(token) or _exclaims(token)


def _verb_asks(verb: Any) -> bool:
    """The verb's own clause is a question: a wh-word on it (or on one of its arguments: "which day
    is it") that has a clause of its own, or an auxiliary before its subject."""
    children = list(verb.children)
    if any(c.tag_ == "TO" for c in children):
        return False  # an infinitive's wh-word asks nothing of the listener ("I don't know what to say")
    subject = next((c for c in children if c.dep_ in _SUBJECTS), None)
    if subject is not None and any(c.dep_ in ("aux", "auxpass") and c.i < subject.i for c in children):
        return True
    wh = [c for c in children if c.tag_ in WH_TAGS] + [g for c in children for g in c.children
                                                      if g.dep_ == "det" and g.tag_ in WH_TAGS]
    return any(not asks_nothing(w) for w in wh)


def _verbs(sentence: Any) -> list[Any]:
    return [t for t in sentence if t.pos_ == "VERB" or (t.dep_ == "ROOT" and t.pos_ == "AUX")]


def _tells(verb: Any) -> bool:
    """A main clause that tells something of its own: a verb with a subject, not asking ("my
    granddaughter was born"); a relative clause only says which thing is meant ("the trip I mentioned")."""
    return verb.dep_ in _MAIN_CLAUSES and any(c.dep_ in _SUBJECTS - {"expl"} for c in verb.children) \
        and not _verb_asks(verb)


def forbids(verb: Any) -> bool:
    """A negated imperative ("don't tell anyone"): a verb in its base form with a negation and no
    subject of its own; it asks the listener not to act, never for anything to be told."""
    children = list(verb.children)
    return verb.tag_ == "VB" and any(c.dep_ == "neg" for c in children) and not any(c.dep_ in _SUBJECTS for c in children)


_TOLD_OR_TOLD_TO = ("dobj", "dative", "iobj", "prep", "ccomp")  # what is told, or whom it is told to
_THE_SPEAKER = {"me", "us"}


def told_in_confidence(text: str) -> bool:
    """News told after a plea not to pass it on ("don't mention it to my sister, but we're expecting"):
    a negated imperative of a verb of telling (WordNet's verb.communication), and a clause with a
    subject of its own besides it, not what the plea is about ("don't tell me you forgot my
    birthday"). "Don't worry, the dog is fine" pleads nothing of the kind, nor does a verb of telling
    that tells nothing and nobody ("never mind, it's gone out of my head")."""
    doc, plea = _pleas(text)
    return bool(plea) and any(t.dep_ in _SUBJECTS - {"expl"} and t.head.pos_ in ("VERB", "AUX") and t.head not in plea
                              and not (t.head.dep_ in ("ccomp", "xcomp") and t.head.head in plea) for t in doc)


def pleads_not_to_tell(text: str) -> bool:
    """A plea not to pass on to others what was told, with news beside it or without ("please don't
    tell anyone about my therapy", "don't mention my divorce to anyone"): it asks to keep it between
    them, not to forget it. "Don't tell me you forgot" is told to the listener, and pleads nothing."""
    return any(not any(t.lower_ in _THE_SPEAKER for t in plea.subtree if t.dep_ in ("dative", "dobj", "pobj"))
               for plea in _pleas(text)[1])


def _pleas(text: str) -> tuple[Any, list[Any]]:
    """`text` parsed, and its negated imperatives of a verb of telling (WordNet's verb.communication)
    that tell something or tell someone; ([], []) without the parser or WordNet."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    nlp, wordnet = _parser(), load_wordnet()
    if nlp is None or wordnet is None:
        return [], []
    doc = nlp(" ".join(text.split()))
    return doc, [t for t in doc if forbids(t) and wordnet.verb_lexical_file(t.lemma_) == "verb.communication"
                 and any(c.dep_ in _TOLD_OR_TOLD_TO for c in t.children)]


def _requests_something(verb: Any) -> bool:
    """An imperative (no subject of its own) with an argument that names what it asks for: a thing
    ("tell me the gate code"), a place or topic ("remind me about my trip") or a question ("tell me
    what I said"); not a bare wh-word ("guess what!") nor a clause that tells ("guess what, my son
    got engaged": the speaker is telling, not asking), nor one forbidding the act ("don't tell my
    sister, but ..." asks for nothing to be done or told)."""
    if any(c.dep_ in _SUBJECTS for c in verb.children) or verb.tag_ not in ("VB", "VBP") or forbids(verb):
        return False
    if verb.dep_ == "xcomp" or any(c.dep_ == "aux" and c.tag_ == "TO" for c in verb.children):
        return False  # an infinitive ("promoted to head the team") asks nothing of anyone
    return any(c.dep_ in _ARGUMENTS and not asks_nothing(c) and not (c.pos_ in ("VERB", "AUX") and _tells(c))
               for c in verb.children)


def _verb_taken_for_a_noun(root: Any) -> bool:
    """The small tagger's noun is the sentence's verb: it has a subject ("my car insurance renews on
    March 3rd"), or it is a plural after the noun it would tell of and WordNet has its lemma as a verb
    and as no noun ("my lease renews in May": "renew" is no noun)."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    if any(c.dep_ in _SUBJECTS - {"expl"} for c in root.children):
        return True
    wordnet = load_wordnet()
    return root.tag_ == "NNS" and any(c.i < root.i and c.pos_ in ("NOUN", "PROPN") for c in root.children) \
        and wordnet is not None and not wordnet.senses(root.lemma_.casefold()) \
        and wordnet.verb_lexical_file(root.lemma_) is not None


def _sentence_asks_of_memory(sentence: Any) -> bool:
    from interaction.offline.name_reading import read_casual_name  # it parses with this module

    verbs = _verbs(sentence)
    wh = [t for t in sentence if t.tag_ in WH_TAGS]
    # a question whose wh-words are all bare asks about nothing: "guess what?", "do you know what?" open news
    asks = sentence_asks(sentence) and not (wh and all(asks_nothing(w) for w in wh))
    # words without a verb ask for a thing they name ("gate code pls", which the small tagger reads as
    # names); a greeting with a name in it ("hi Nikolai again") names none
    greets = any(t.pos_ == "INTJ" for t in sentence)
    names = [t.lower_ for t in sentence if t.pos_ == "PROPN" and not greets]
    # ... nor does the name the speaker gives as their own ("Gunnar again", "Magda here"), read only where
    # it could decide: words without a verb that name nothing else
    names_a_thing = any(t.pos_ in ("NOUN", "NUM") for t in sentence) or bool(names) and not verbs and not set(names) <= set(
        (read_casual_name(sentence.text, loose=True) or "").casefold().split())
    return asks or (not verbs and names_a_thing and not _verb_taken_for_a_noun(sentence.root)) or any(_verb_asks(v) or _requests_something(v) for v in verbs)


def asks_or_requests(text: str) -> bool | None:
    """Some sentence of `text` has the form of something asked of the listener: a question (by its
    form, or a verb whose own clause asks: "my blood type, what was it again"), an imperative that
    names what it asks for, or a phrase without a verb ("gate code pls"). Not a turn that only tells,
    whatever it opens with: "guess what, my granddaughter was born!" bids a guess at news it then
    tells. None when the parser cannot load."""
    nlp = _parser()
    if nlp is None:
        return None
    return any(_sentence_asks_of_memory(sent) for s in cues.sentences(text) for sent in nlp(s).sents)


def _who_i_am(clause: Any) -> bool:
    """The clause asks who the speaker is ("who I am"), "be" with nothing said of them but the
    question's word ("what I was worried about" asks what they told)."""
    return clause.lemma_ == "be" and any(c.dep_ == "nsubj" and c.lower_ == "i" for c in clause.children) and any(
        c.dep_ == "attr" and c.tag_ in WH_TAGS for c in clause.children) and not any(
        c.dep_ in ("acomp", "prep", "dobj", "xcomp", "ccomp") for c in clause.children)


def _knows_the_speaker(verb: Any) -> bool:
    """Nadine, the verb's subject, is asked whether she knows the speaker: a verb of knowing with "me" as
    its object and nothing else known of them ("do you remember me?", "do you know me?"), or one of
    knowing or telling over "who I am" ("can you tell me who I am?")."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    # ... or asked with "you" left out ("remember me?", "Hi Nadine, remember me?": the parser may take the
    # name she is called by, set off by a comma, for the subject)
    subjects = [c for c in verb.children if c.dep_ == "nsubj"]
    # (the question's own verb: "to pick me up" of "Is the General coming to pick me up?" has no subject either)
    asked_of_her = any(c.lower_ in YOU for c in subjects) or verb.tag_ == "VB" and verb.dep_ == "ROOT" and all(
        c.pos_ == "PROPN" and c.i + 1 < len(c.doc) and c.doc[c.i + 1].text == "," for c in subjects)
    if not asked_of_her or not _of_mind_or_talk(verb):
        return False
    if any(c.dep_ == "ccomp" and _who_i_am(c) for c in verb.children):
        return True
    wordnet = load_wordnet()
    knowing = wordnet is None or wordnet.verb_lexical_file(verb.lemma_) == "verb.cognition"
    # ... and nothing else: "could you remind me when I see Dr. Patel?" asks for what they told
    return knowing and any(c.dep_ == "dobj" and c.lower_ in ("me", "myself") for c in verb.children) \
        and not any(c.dep_ in ("ccomp", "xcomp", "prep", "advcl") for c in verb.children)


def asks_if_known(text: str) -> bool:
    """A question whether Nadine knows who the speaker is, alone or after what the sentence tells first
    ("hi, it's Odile, remember me?"): answered from whether they have met, never looked up; without the
    parser, never."""
    from interaction.offline.name_reading import told_then_asked

    nlp = _parser()
    if nlp is None:
        return False
    questions = [s for s in cues.sentences(text) if cues.is_question(s)]
    asked = [parts[1] for s in questions if (parts := told_then_asked(s)) is not None]
    return any(_knows_the_speaker(t) for s in [*questions, *asked] for t in nlp(s))
