"""Questions about the person's own life ("when does my passport expire?", "what's the gate code at my
building?"), answered from memory when memory holds the answer, whether or not they are phrased as a
recall ("what did I tell you about ...").

Such a question is one whose subject or possessor is the speaker in spaCy's parse ("my X", "I ..."),
or one that names something without asking Nadine about herself ("when is the wedding?", "when is
yoga now?": a thing told before need not be said to be theirs); whether it is something they told is
the retrieval core's call, not the question's words. A question how a thing is done ("how do I reset
my password?", "how can I renew my passport?": "how" on a verb after a present "do" or a modal) asks
for a way, not for something told, and is not one ("how did I meet Ana?" still is). It goes to the core before the search and
knowledge steps, over the person's explicit memories, remembered moments and this conversation's
statements (LocalMemoryServices.about, the same decision as a recall and a forget request). When the
core names one, the turn becomes a recall of it, answered as an answer (the reply names the value
first: answer_span.py); when memory has nothing close ("what's the capital of Canada?"), the question
is answered as any other, unless it asks after a thing of the speaker's own ("do I have a son?", "when
is my eye test?"): that is said to be untold (_not_told)."""

from __future__ import annotations

import logging
import re
from dataclasses import replace

from common.messages import RecallReport
from common.store.facts import says
from common.store.profile_fields import FIELDS_BY_NAME
from interaction import cues
from interaction.agents.context import AgentDeps
from interaction.answer_span import ANSWER_FIRST, holds_no_answer
from interaction.asked_value import said_of_someone_else
from interaction.clock_question import asks_the_clock
from interaction.dated_it import last_asked_after, with_frame_asked, with_it_named
from interaction.memory.retrieval.core import Judged, RecallDecision
from interaction.memory_requests import answered_from_memory, fact_statements, said_earlier
from interaction.offline.articles import with_article
from interaction.offline.grounding import FIELD_NOTIONS, first_person
from interaction.offline.name_reading import CLAUSE_BREAK, greets_or_introduces_only
from interaction.offline.parsing import of_having, with_appositions
from interaction.offline.personal_facts import asked_field
from interaction.offline.question_form import (
    WH_TAGS,
    asked_about,
    asks_after_nobody,
    statement_asked,
    statement_tagged,
)
from interaction.person_pronoun import with_person_named, with_relations_named
from interaction.profile_wording import Told, current, left_named_in, named_in
from interaction.profiles import Identity
from interaction.reported_speech import reported

_WORK_AND_PLACE = ("current_position", "current_company", "location")  # what a whether-question may ask of the profile
log = logging.getLogger("nadine.interaction.own_life")

# besides what was said in this conversation: what they asked to be kept, their moments, and what they
# said in earlier conversations ("my wife Rosa is a nurse" a week ago answers "what does my wife do?")
REMEMBERED = frozenset({"explicit_memory", "moment", "turn"})
_SPEAKER_DEPS = {"nsubj", "nsubjpass", "poss"}
_OBJECT_DEPS = {"dobj", "dative", "pobj"}
_NAMING = {"NOUN", "PROPN"}
_PRESENT_OR_MODAL = {"VBP", "VBZ", "MD"}


def _questions(text: str) -> list[str]:
    """The sentences of `text` that ask something of the speaker's life: not of Nadine, not the clock,
    and no statement with a question tagged on ("..., it is strange for a chef no?")."""
    return [s for s in cues.sentences(text) if cues.is_question(s) and not cues.is_about_nadine(s)
            and not asks_the_clock(s) and statement_tagged(s) is None]


def asks_about_own_life(text: str) -> bool:
    """A question sentence whose subject or a possessor in it is the speaker, or that names something
    and is not about Nadine (no second-person subject or possessor: "do you like music?", "how was your
    day?"); without the parser, no question is read as one."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    questions = _questions(text)
    if not questions:
        return False
    try:
        nlp = load_parser()
    except ParserUnavailable:
        return False
    # Nadine asked to remember or tell a clause is only the one asked: the clause is the question
    # ("do you remember what's going on with work?" names work, and no "you" of its own)
    for topic in (asked_about(sent) for doc in nlp.pipe(questions) for sent in doc.sents):
        if _asks_how_to(topic):
            continue
        if any(tok.dep_ in _SPEAKER_DEPS and first_person(tok) for tok in topic):
            return True
        to_nadine = any(tok.dep_ in _SPEAKER_DEPS and "2" in tok.morph.get("Person") for tok in topic)
        if not to_nadine and any(tok.dep_ in _OBJECT_DEPS and first_person(tok) for tok in topic):
            return True  # something done to or for the speaker, not asked of Nadine ("who is coming to see me?")
        # a thing named, or a subject that is no pronoun whatever its tag ("When is Pavel back?": an adjective)
        if not to_nadine and any(tok.pos_ in _NAMING or (tok.dep_ in ("nsubj", "nsubjpass") and tok.pos_ not in ("PRON", "DET"))
                                 for tok in topic):
            return True
        # someone or something asked after as what does or undergoes something ("who's getting married?",
        # "what got stolen?"): a person or a thing they told of
        if not to_nadine and any(tok.tag_ == "WP" and tok.dep_ in ("nsubj", "nsubjpass") and tok.head.pos_ == "VERB"
                                 for tok in topic):
            return True
    return False


def asks_after_their_past(text: str) -> bool:
    """A question that memory answers, if anything does: after their own life ("when am I flying
    home?") or what they told ("do you remember what I said about Pickle?")."""
    from interaction.memory_intent.not_keep import memory_intent

    return cues.is_question(text) and (memory_intent(text) in ("recall", "about_me") or asks_about_own_life(text))


def _asks_how_to(topic) -> bool:
    """"how" on a verb in its base form after a present "do" or a modal: a way to do something."""
    for how in (t for t in topic if t.tag_ == "WRB" and t.lower_ == "how" and t.dep_ == "advmod"):
        verb = how.head
        if verb.tag_ == "VB" and any(c.dep_ == "aux" and c.tag_ in _PRESENT_OR_MODAL for c in verb.children):
            return True
    return False


def recall_own_life(deps: AgentDeps, state: dict) -> RecallReport | None:
    """The retrieval core's decision about a question on the person's own life, when it names a memory
    (asserted, or offered to be asked about); for a question after a thing of the speaker's own that
    it names none of, or only one conflicting with what is asked, an abstention (_not_told); None
    otherwise, and when the turn's input pinned whether it is a recall (scripts test memory apart
    from understanding)."""
    identity: Identity = state["identity"]
    if (deps.services is None or not deps.settings.interaction.enable_memory_agents
            or state.get("is_recall") or (state.get("pins") or {}).get("is_recall") is not None):
        return None
    if not any(cues.is_question(s) for s in cues.sentences(state["text"])):
        return None  # no pro-form said as its thing makes a statement a question
    said = said_earlier(state.get("transcript") or [])
    asked = question_meant(state)
    if not asks_about_own_life(asked) or (not identity.known and not said):
        return None
    try:
        # someone not known yet has only what they said in this conversation
        decided = deps.services.about(identity.user_id or "", asked, said,
                                      REMEMBERED if identity.known else frozenset())
    except Exception:  # memory trouble must not cost the reply
        log.exception("own-life lookup failed for %s; answering without memories", identity.user_id)
        return None
    if decided is None:
        return None
    named = decided.named
    # offered, but holding nothing of what is asked ("what's Ada's wifi password?" over "I'm staying
    # at Ada's flat"): a neighbour, named no more than a long-term recall names one
    report = decided.report() if named is not None else None
    if report is not None and holds_no_answer(asked, report):
        report = None
    if report is not None and asks_after_nobody(asked) and holds_no_answer(asked, report, "asserted") \
            and not _someone_told_of(asked, report):
        # a question after a value of nobody's in particular whose answer no memory holds ("how many
        # people live in Vietnam?" over "I come from Vietnam") is answered as any other question; one
        # after someone they told of ("how many babies is Orla expecting?") is theirs
        return None
    if (report is None or named.conflict or _only_near(decided)) and asks_after_own(asked):
        return _not_told(named or (decided.considered[0] if decided.considered else None))
    return report


def _someone_told_of(question: str, report: RecallReport) -> bool:
    """The question names a person (the recogniser's, or a name it files as no place, people or
    organisation) whom a memory of the report names too; or says a word the memory writes as such a
    name, however the question writes it ("what does clara do?", where the tagger reads a lowercase
    name as a noun or an adjective, over "My best friend clara just got a job as a vet")."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        nlp = load_parser()
        doc = nlp(question)
        memories = [nlp(m.text) for m in report.memories]
    except ParserUnavailable:
        return False
    told = set(re.findall(r"\w+", " ".join(m.text for m in report.memories).casefold()))
    names_told = {t.lower_ for memory in memories for t in memory if _a_persons_name(t) or _said_to_be_someone(t)}
    return any((_a_persons_name(t) and t.lower_ in told)
               or (t.pos_ in ("NOUN", "PROPN", "ADJ") and t.lower_ in names_told) for t in doc)


def _a_persons_name(token) -> bool:  # noqa: ANN001 - a spaCy Token
    return token.ent_type_ == "PERSON" or (token.pos_ == "PROPN" and token.ent_type_ not in ("GPE", "LOC", "NORP", "ORG", "FAC"))


def _said_to_be_someone(token) -> bool:  # noqa: ANN001 - a spaCy Token
    """A proper noun the memory says is a person of theirs, whatever kind the recogniser gave it: the
    name a person word is ("my best friend is Anouk": a town to the recogniser), or set beside one
    ("my friend Anouk")."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    if token.pos_ != "PROPN" or wordnet is None:
        return False
    said_of = [c for c in token.head.children if c.dep_ == "nsubj"] if token.dep_ == "attr" and token.head.lemma_ == "be" \
        else [token.head] if token.dep_ == "appos" else []
    return any(wordnet.kind_of_person(w.lemma_.lower(), senses=2) for w in said_of)


def question_meant(state: dict) -> str:
    """The turn's question with what its pro-forms stand for in this conversation: "it" as the thing
    last told with a date ("how many days until it?"), "she" or "he" as the person last told of
    ("where is she going to study?"); what memory is asked, and what the answer is read for."""
    transcript = state.get("transcript") or []
    said = said_earlier(transcript)
    # a person is named by a question as well ("where is my brother moving to?" then "when is he moving?")
    spoken = [t for t in transcript[:-1] if t.role == "user"]
    identity: Identity | None = state.get("identity")
    relations = [t.value for t in current(identity.profile if identity else None, ["relations"])]
    asked = with_frame_asked(with_it_named(up_to_the_question(state["text"]), said, spoken), spoken)
    asked = with_question_before(asked, state)
    return with_relations_named(with_person_named(asked, spoken, identity.name if identity else None), relations)


def with_question_before(question: str, state: dict) -> str:
    """A question of a wh-word alone ("When?", "where exactly?") right after a question Nadine answered
    from memory asks that memory for another thing: it is read with the question before it after it
    ("When? Who's visiting me?"), which finds the same memory while its own wh-word says what is asked
    for. One that names what it asks of only by a pronoun ("How old is he?", "what breed is she?") is
    read with the pronoun as what that question asked after, or whom its answer named. Unchanged
    otherwise."""
    from interaction.offline.parsing import ParserUnavailable, load_parser, third_person

    before = answered_from_memory(state)
    # "what time is it?" asks the clock, whatever was asked before it
    if before is None or not cues.is_question(question) or asks_the_clock(question):
        return question
    try:
        nlp = load_parser()
    except ParserUnavailable:
        return question

    def wh_alone(text: str) -> bool:
        words = [t for t in nlp(text) if not t.is_punct]
        return any(t.tag_.startswith("W") for t in words) and all(t.tag_.startswith("W") or t.pos_ == "ADV" for t in words)

    def of_one_before(text: str) -> bool:
        # a noun the wh-word asks which of is what is asked for, not what it is asked of ("what breed")
        words = list(nlp(text))
        return any(t.tag_.startswith("W") for t in words) and not any(
            t.pos_ in ("NOUN", "PROPN") and not any(c.tag_.startswith("W") for c in t.children) for t in words) \
            and any(third_person(t) for t in words)

    if not wh_alone(question) and not of_one_before(question):
        return question
    # a run of them ("When?" then "where?") goes back to the question that named its thing
    transcript = (state.get("transcript") or [])[:-1]
    asked = [i for i, t in enumerate(transcript) if t.role == "user" and cues.is_question(t.text)]
    while asked and transcript[asked[-1]] is not before:
        asked.pop()
    while asked and (wh_alone(transcript[asked[-1]].text) or of_one_before(transcript[asked[-1]].text)):
        asked.pop()
    if not asked:
        return question
    named = transcript[asked[-1]]
    if not wh_alone(question):
        # "What breed is she?" after "what's my dog called?": the pronoun is the thing that asked after,
        # or the one its answer named ("Bence — ..." to "who is coming for the summer?")
        pronoun = next(t for t in nlp(question) if third_person(t))
        reply = transcript[asked[-1] + 1].text if asked[-1] + 1 < len(transcript) else ""
        phrase = last_asked_after(nlp, [named]) or _whom_it_answered(nlp, named.text, reply)
        if phrase is not None and pronoun.morph.get("Gender"):
            phrase = _possessor(nlp, phrase)
        if phrase is not None:
            said_as = phrase[:1].upper() + phrase[1:] if pronoun.is_sent_start else phrase[:1].lower() + phrase[1:]
            said_as += "'s" if pronoun.morph.get("Poss") == ["Yes"] else ""
            return question[:pronoun.idx] + said_as + question[pronoun.idx + len(pronoun.text):]
        return question  # whom it means is for the readers of pronouns (person_pronoun.py)
    return f"{question.strip()} {named.text.strip()}"


def _possessor(nlp, phrase: str) -> str:  # noqa: ANN001 - a spaCy pipeline
    """Who or what a phrase's head belongs to, when a noun says so ("my dog" of "my dog's name"): what
    "she" or "he" stands for, the head being a thing of theirs; the phrase itself otherwise."""
    doc = nlp(phrase)
    head = next((t for t in doc if t.dep_ == "ROOT"), None)
    owner = next((c for c in head.children if c.dep_ == "poss" and c.pos_ in ("NOUN", "PROPN")), None) if head else None
    return phrase if owner is None else doc[owner.left_edge.i:owner.i + 1].text


def _whom_it_answered(nlp, question: str, reply: str) -> str | None:  # noqa: ANN001 - a spaCy pipeline
    """Whom a reply said first as the answer to a question asking who ("who is coming for the summer?"
    / "Bence — yesterday you told me ..."); None for any other question or reply."""
    first, dash, _ = reply.partition(ANSWER_FIRST)
    if not dash or not first.strip() or not any(t.tag_ == "WP" and t.lower_ in ("who", "whom") for t in nlp(question)):
        return None
    return first.strip()


def up_to_the_question(text: str) -> str:
    """The turn up to its last question: what is said after it ("When is the funeral again? My head is
    all over the place.") is an aside of the asking, never what is asked about; what comes before may
    name it ("I told you about Ana's wedding. When is it?")."""
    sentences = cues.sentences(text)
    last = max((i for i, s in enumerate(sentences) if cues.is_question(s)), default=None)
    if last is None:
        return text
    # ... but a greeting or an introduction before it names nothing asked ("wren here. do you remember
    # what i told you about juno?": Wren is who asks, and no memory of Juno names her)
    first = next((i for i, s in enumerate(sentences[:last]) if not greets_or_introduces_only(s)), last)
    asked = sentences[first:last + 1]
    # ... or a clause of it ("hi its hope, do you remember what my ex did?")
    opening, *rest = CLAUSE_BREAK.split(asked[0], maxsplit=1)
    if rest and rest[0] and greets_or_introduces_only(opening) and cues.is_question(rest[0]):
        asked[0] = rest[0]
    return " ".join(asked) if asked != sentences else text


def _only_near(decided: RecallDecision) -> bool:
    """Offered only for standing out by its dense cosine, with nothing the question names in it: a
    vague recall ("do you remember my big news?") is asked so, but a plain question after a thing of
    their own names the thing, and a memory close to it naming none of it ("my dentist appointment
    is on Tuesday" for "when is my eye test?") is a neighbour, not it."""
    named = decided.named
    return decided.decided_by == "margin" and named is not None and named.absent >= 1.0


def _not_told(closest: Judged | None) -> RecallReport:
    """The core named nothing, or only a memory naming something conflicting, for a question about
    the speaker's own things: an abstention said as such ("I don't think you told me about a
    granddaughter"), with that memory when it conflicts with what is asked (a sister word of the same
    owner: "my grandson Pim" for "a granddaughter"), so the reply says what was told instead of
    asking "do you mean ...?" of another thing."""
    return RecallReport(outcome="abstained", memories=[closest.memory()] if closest is not None and closest.conflict else [])


def asks_after_own(text: str) -> bool:
    """A question after a thing of the speaker's: one they own ("when is my eye test?") or have, the
    speaker the subject of "have" ("do I have a granddaughter?"), never a modal's ("should I ...?":
    advice) nor a how-to. What they do or feel is not a thing kept in memory to be missing from it."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    questions = _questions(text)
    try:
        nlp = load_parser()
    except ParserUnavailable:
        return False
    for topic in (asked_about(sent) for doc in nlp.pipe(questions) for sent in doc.sents):
        if _asks_how_to(topic) or any(t.tag_ == "MD" for t in topic):
            continue
        if any(t.dep_ == "poss" and first_person(t) and t.head.pos_ in _NAMING for t in topic):
            return True
        if any(t.dep_ == "nsubj" and first_person(t) and t.head.pos_ == "VERB" and of_having(t.head)
               and any(c.dep_ == "dobj" and c.pos_ in _NAMING for c in t.head.children) for t in topic):
            return True
    return False


def profile_field_asked(deps: AgentDeps, state: dict) -> str | None:
    """The profile field a question about the person's own life asks after ("do you know where I
    work?", "do you remember what I do?"): the retrieval core asserts one of their current facts,
    said in their own words ("I work as a vet in Utrecht"), as what the question is about (the
    decision a forget request naming a fact gets); None otherwise."""
    identity: Identity = state["identity"]
    # a question of nobody's in particular ("what is the deepest point of the ocean?") asks no field of theirs
    if (deps.services is None or not identity.known or identity.profile is None
            or not asks_about_own_life(state["text"]) or asks_after_nobody(state["text"])):
        return None
    facts = fact_statements(identity.profile, deps.clock.now())
    if not facts:
        return None
    # each fact with the notion of its field ("I'm a plumber (my job, my profession)"): a question names
    # the field ("what did I tell you about my job?") more often than the value
    said = [replace(turn, text=f"{turn.text} ({FIELD_NOTIONS[_asked_as(told)]})") for turn, told in facts]
    try:
        decided = deps.services.about(identity.user_id or "", state["text"], said)
    except Exception:  # memory trouble must not cost the reply
        log.exception("profile lookup failed for %s; answering without it", identity.user_id)
        return None
    if decided is None or decided.outcome != "asserted" or decided.named is None:
        return None
    turn, told = facts[int(decided.named.candidate.memory_id)]
    if said_of_someone_else(state["text"], turn.text) is not None:
        return None  # "is my husband a paramedic?" over "I work as a paramedic": the recall says whose it was
    if told.field == "relations" and asked_field(state["text"]) != "relations":
        # "where does Amara work?" names the fiancée, but asks what they told of her, not who she is
        return None
    return _asked_as(told) if named_in([told], state["text"]) else None


def held_field_asked(identity: Identity, text: str, recalled: bool = False) -> str | None:
    """The field a question asks after by its parse ("where am I from?", "how old am I?", "who is
    Idris?": personal_facts.asked_field), when the profile holds an answer to it (for a person, the
    one it names): the profile answers it, ahead of any turn the fact was told in. A person asked
    after by how they are theirs ("what's my husband's name?") is answered by the turn `recalled`
    when there is one: it says the name first; asked after by name, the turn cannot answer who."""
    if not identity.known or identity.profile is None:
        return None
    # ... or, unless a memory answers it, what a question whether holds would tell if they said it ("am I
    # a teacher?" asks their job, as "I am a teacher" tells it)
    field = asked_field(text) or (None if recalled else _field_asked_whether(text))
    if field is None:
        return None
    held = named_in(current(identity.profile, [field]), text)
    if field == "relations" and recalled:
        held = [t for t in held if _said_by_name(t.value, text)]
    return field if held or (field == "relations" and left_named_in(identity.profile, text)) else None


def _field_asked_whether(text: str) -> str | None:
    """The work or place field the statement a question whether asks about would give, read by the
    reader that reads them when told ("do I live in Lisbon?": "I live in Lisbon", the home)."""
    from interaction.offline.extract import extract_profile

    statement = statement_asked(text)
    read = extract_profile(statement) if statement is not None else None
    return next((f for f in _WORK_AND_PLACE if read is not None and getattr(read, f)), None)


def _said_by_name(value: str, text: str) -> bool:
    """The question holds the name of a relations value ("Idris (nephew)")."""
    name = value.rsplit(" (", 1)[0].casefold().split()
    return bool(name) and set(name) <= {w.casefold() for w in re.findall(r"\w+", text)}


def tells_a_fact(identity: Identity, report: RecallReport) -> bool:
    """Whether a memory the recall asserts is where a fact the profile holds now was told ("I work as
    a piano tuner and I live in Haarlem"): the question then asks after that fact, which the profile
    says as it holds now and in its field's words, not as the turn it was once said in."""
    # the clause as told, also where the fact is said otherwise now (an age a year on)
    profile = identity.profile
    told = [r.clause for f in FIELDS_BY_NAME for r in (profile.history(f) if profile else []) if r.current and r.clause]
    return report.outcome == "asserted" and any(says(m.text, clause) for m in report.memories for clause in told)


def _asked_as(told: Told) -> str:
    """The field a fact answers a question about: a job's town is where they work, not their home."""
    return "current_position" if told.works_here else told.field


def thing_told(text: str) -> str | None:
    """The thing of the speaker's own a plain statement tells of, as Nadine says it back: its subject
    when that is theirs ("My dog Pip is a border collie." -> "your dog Pip"), or what they say they have
    ("I have two guinea pigs, Salt and Pepper." -> "your two guinea pigs"); None for anything else, or
    a statement of several sentences (which one would be the thing?)."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        nlp = load_parser()
    except ParserUnavailable:
        return None
    sentences = list(nlp(text).sents)
    if len(sentences) != 1:
        return None
    root = sentences[0].root
    for t in root.children:
        if any(c.dep_ == "conj" for c in t.children):
            return None  # "my husband and I love walking" tells of the two of them
        if t.dep_ == "nsubj" and t.pos_ in _NAMING and any(c.dep_ == "poss" and first_person(c) for c in t.children):
            return reported(with_appositions(t))
        if t.dep_ == "nsubj" and first_person(t) and root.pos_ == "VERB" and of_having(root):
            thing = next((c for c in root.children if c.dep_ == "dobj" and c.pos_ in _NAMING), None)
            return f"your {with_appositions(thing)}" if thing is not None and not any(
                c.dep_ in ("det", "poss") for c in thing.children) else None
    return None


def thing_asked(text: str) -> str | None:
    """The one thing a question about the speaker's own life names, as Nadine says it back ("my eye
    test" -> "your eye test", "a granddaughter"); None when it names none or several."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        nlp = load_parser()
    except ParserUnavailable:
        return None
    chunks = [c for c in nlp(text).noun_chunks if c.root.pos_ in _NAMING]
    if len(chunks) != 1:
        return None
    # the question's own words are no part of the thing ("how many grandchildren", "which car"): said
    # back as any such thing ("any grandchildren", "a car")
    asked = [t for t in chunks[0] if t.tag_ not in WH_TAGS
             and not any(c.tag_ in WH_TAGS and c.dep_ == "advmod" for c in t.children)]
    if len(asked) == len(chunks[0]):
        return reported(chunks[0].text)
    thing = "".join(t.text_with_ws for t in asked).strip()
    # a plural, or a mass asked "how much" of, is any of it
    mass = chunks[0].root.tag_ in ("NNS", "NNPS") or any(t.lower_ == "much" for t in chunks[0])
    return f"any {thing}" if mass else with_article(thing)
