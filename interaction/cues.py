"""Cue lexicons shared by the guards and the offline understanding: one place for each phrase list."""

from __future__ import annotations

import functools
import re

from interaction.turn_act.reader import turn_acts

_I = re.IGNORECASE

# phones and word processors type apostrophes and quotes as curly ones ("I’m Eileen"); every reader
# here (these cues, the parser's contractions, the classifiers' vocabularies) knows the straight ones
_TYPOGRAPHIC = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u201b": "'", "\u2032": "'",
                              "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2026": "..."})


def typed_plainly(text: str) -> str:
    """What a person typed or said, with its whitespace collapsed and typographic apostrophes,
    quotes and ellipses written as plain ones."""
    return " ".join(text.translate(_TYPOGRAPHIC).split())


# a bare "Morning." / "Evening, Nadine" greets; "Evening classes start today" does not
GREETING = re.compile(
    # a chat stretches its letters ("hiii", "heyyy", "helloo")
    r"^\W*(hel+o+|hi+|he+y+|heya|hiya|howdy|greetings|yo|sup|good (?:morning|afternoon|evening)|bonjour|hallo|hola|"
    r"(?:morning|afternoon|evening)(?=\s*(?:[.,!]|$|nadine\b)))\b", _I
)
ABOUT_NADINE = re.compile(
    r"\b(who are you|what are you|tell me (?:\w+ ){0,2}about yourself|about you\b|your name|who (?:made|built|created) you|"
    r"your (?:creator|maker|age|job|purpose|history|past)|are you a robot|how old are you|where (?:are|do) you)",
    _I,
)
# A question about how Nadine and the person first met: the first_meeting scene's canonical anchor
# is what answers it, whatever the text embedder scores (the anchor's words are not the question's).
# "We met" said of the two of them without "last" is their first meeting ("how we met", "the day we met").
FIRST_MEETING_QUESTION = re.compile(
    r"\b(first (?:time )?(?:we|you and i|i) (?:met|meet|talked|spoke)|(?:met|meet|talked|spoke) (?:for )?the first time|"
    r"first (?:time )?you (?:saw|met) me|you first (?:saw|met) me|"
    r"our (?:very )?first (?:meeting|conversation|chat|talk|encounter)|"
    r"(?:how|where) (?:did |do )?(?:we|you and i) (?:first )?(?:met|meet|get to know)|"
    r"when (?:did )?(?:we|you and i) (?:first )?(?:met|meet|got to know|get to know)\b(?! last)|"
    r"(?<!last )(?<!previous )\b(?:day|evening|morning|night|moment) (?:that |when )?(?:we|you and i) (?:first )?met\b|"
    r"(?:day|time) i introduced myself|introduced myself to you)",
    _I,
)
# the view's cue words, read only when spaCy cannot load (is_about_view)
VISUAL = re.compile(
    r"\b(what (?:do|can) you see|can you see|look at|watch (?:me|this)|what am i (?:holding|wearing|doing)|"
    r"what(?:'s| is) (?:this|that) (?:i|in my)|what colou?r|how do i look|in front of you|show you)\b",
    _I,
)
REALTIME = re.compile(
    r"\b(weather|forecast|news|headlines?|stock|price of|score|exchange rate|who won|latest|currently happening|"
    r"today's|this week's)\b",
    _I,
)
# a question's cue words, read only when spaCy cannot load (is_question)
QUESTION = re.compile(r"\?\s*$|^\W*(who|what|when|where|why|how|do|does|did|can|could|is|are|will|would)\b", _I)
# Past-tense statements are memories, not profile fields: a profile holds what is true now.
PAST_MARKERS = re.compile(
    r"\b(used to|was|were|had|did|previously|formerly|back then|years ago|last (?:year|month|week)|"
    r"when i was)\b",
    _I,
)
LANGUAGE_CHANGE = re.compile(
    r"\b(?:speak|talk|answer|reply|switch to|respond)\b.{0,20}?\b(english|french|german|spanish|italian|dutch|"
    r"portuguese|russian|arabic|mandarin|chinese|cantonese|hindi|japanese|korean)\b",
    _I,
)
LOCALES = {
    "english": "en-US", "french": "fr-FR", "german": "de-DE", "spanish": "es-ES", "italian": "it-IT",
    "dutch": "nl-NL", "portuguese": "pt-PT", "russian": "ru-RU", "arabic": "ar-SA", "mandarin": "zh-CN",
    "chinese": "zh-CN", "cantonese": "zh-HK", "hindi": "hi-IN", "japanese": "ja-JP", "korean": "ko-KR",
}


TAG_QUESTION = re.compile(r",\s*(?:isn't|is not|aren't|don't|doesn't|right|no|eh|huh)\s*(?:it|they|you|we)?\s*\?\s*$", _I)


def is_information_question(text: str) -> bool:
    """A question that asks for facts ("what's the weather in Geneva?"), not a tag on small talk."""
    return is_question(text) and not TAG_QUESTION.search(text)


def is_first_meeting_question(text: str) -> bool:
    return bool(FIRST_MEETING_QUESTION.search(text))


# the formula a thanks opens with ("Thanks so much", "Thank you for listening", "Cheers for that")
THANKS = re.compile(r"^\W*(?:(?:oh|well|ok(?:ay)?)\W+)?(?:thank(?:s|\s+you)|many\s+thanks|cheers|ta(?![-\w]))", _I)


# small talk that asks after Nadine herself, answered as a person would, never looked up; whatever
# leads up to it and is set off before it ("Hello!", "never mind that,", "Anyway,") leaves it the question
# asking after her: "how are you?" and its like
ASKING_AFTER_HER = (r"(?:how are you(?: doing| feeling)?(?: today| tonight| this (?:morning|afternoon|evening))?|how(?:'s| is) it going|"
                    r"how have you been|how are things|how's your day(?: going)?)")
HOW_ARE_YOU = re.compile(rf"^\W*(?:[^?]*?[,!.;]\s*)?(?:and\s+|so\s+)?{ASKING_AFTER_HER}(?:,? nadine)?\W*$", _I)
# what day it is or what time it is, asked in any tense or embedded ("what day was it yesterday?", "do you know
# what time it is?"): Nadine's own clock answers
ASKS_DATE = re.compile(r"\b(?:what(?:'s| is| was| will be) (?:the )?date|what (?:the )?date it (?:is|was)|what the date is|"
                       r"what (?:day|date) (?:(?:is|was) (?:it|today)|will it be|it (?:is|was))|what(?:'s| is) today)\b", _I)
ASKS_TIME = re.compile(r"\b(?:what time (?:is it|it is)|what(?:'s| is) the time|what the time is|"
                       r"(?:do you have|have you got|you got) the time(?=(?:,?\s*(?:please|nadine))*\W*$))", _I)


def is_farewell(text: str) -> bool:
    """The turn takes leave, in whatever words or language ("right, I'm away", "hasta luego"), by the
    turn-act reader (turn_act/reader.py) of the whole turn or of its last sentence, where a goodbye
    closes what came before it ("Nice to catch up. Laters!"), not words of parting told of something
    else ("we said goodbye at the station"); or, by its parse (offline/wishes.py), it is a parting wish
    ("enjoy your holiday") or says when the two will next meet ("see you Thursday then!"). A turn
    ending with a request to remember something takes no leave."""
    from interaction.linear_text import clauses
    from interaction.memory_intent.classifier import classify
    from interaction.offline.wishes import parting_until, parting_wish  # spaCy loads on the first wish

    said = sentences(text)
    # a turn that ends asking Nadine to keep something asks for what comes next, whatever its words read
    # as ("please remember my shift rota code: F7-NIGHT", "yes but keep the tournament date": no wish)
    last = said[-1] if said else text
    if "farewell" not in turn_acts([text, *said[-1:]]):
        return (parting_wish(text) or parting_until(last)) and classify(last).intent != "remember"
    if classify(last).intent == "remember":  # the classifier keeps its reading of a text: read once
        return False
    # a clause that names a thing it tells of is news, whatever the reader makes of it; a goodbye
    # beside it is read on its own ("Bye for now, my cat Tom says hi")
    told = [c for c in clauses(last) if _names_a_thing_of_theirs(c)]
    return not told or "farewell" in turn_acts([c for c in clauses(text) if c not in told]) or parting_wish(text)


def _names_a_thing_of_theirs(clause: str) -> bool:
    """The clause names something it tells of, a name set beside a noun the verb is done with or by
    ("I have a parrot called Rico", "my dog Pip is a border collie"); "Bye, Nadine" names whom it is
    said to, on no verb."""
    from interaction.offline.parsing import ParserUnavailable, load_parser, noun_named

    try:
        doc = load_parser()(clause)
    except ParserUnavailable:
        return False
    return any(t.pos_ == "PROPN" and (noun := noun_named(t)) is not None
               and noun.dep_ in ("dobj", "nsubj", "nsubjpass", "pobj") and noun.pos_ == "NOUN" for t in doc)


def is_unambiguous_farewell(text: str) -> bool:
    """A farewell that is not a question ("bye!", "I have to go now") ends the conversation whatever
    the model said; "can you say goodbye in French?" does not."""
    return is_farewell(text) and not text.rstrip().endswith("?")


def is_greeting(text: str) -> bool:
    return bool(GREETING.search(text))


def after_greeting(text: str) -> str:
    """`text` without the greeting it opens with and the name of whom it greets ("Hi Nadine, my dog
    died" -> "my dog died"); unchanged without one."""
    from interaction.speaker_labels import NADINE_LABEL

    rest = GREETING.sub("", text).lstrip()
    return text if rest == text else re.sub(rf"^(?:{NADINE_LABEL}\b)?\W*", "", rest, flags=re.I)


def is_about_nadine(text: str) -> bool:
    """A question about Nadine herself: one of ABOUT_NADINE's, or one whose subject is "you" ("what
    can you do?", "where were you built?"), which her knowledge answers when it holds the answer.
    Asking after her ("how are you?") is small talk, answered as such."""
    if ABOUT_NADINE.search(text):
        return True
    if HOW_ARE_YOU.search(text) or not is_question(text) or is_about_view(text):  # "what do you see?" is the camera's
        return False
    from interaction.offline.question_form import addresses_nadine  # spaCy loads on the first question

    return addresses_nadine(text)


def is_question(text: str) -> bool:
    """A question by its form, with or without its question mark (offline/question_form.py reads the
    parse); QUESTION's cue words only when spaCy cannot load."""
    from interaction.offline.question_form import asks_question  # spaCy loads on the first question

    text = text.strip()
    if not text:
        return False
    read = asks_question(text)
    return bool(QUESTION.search(text)) if read is None else read


@functools.lru_cache(maxsize=256)
def told_part(text: str) -> str:
    """The sentences of `text` that tell, its questions left out: what a question asks tells nothing
    of the speaker ("Am I retired?" ends no marriage, "Did I quit my job?" no job); but a question
    that leads in to a clause of its own after a comma tells that clause ("Well, where do I start, I
    have been working as an electrician ..."). Cached: a turn's fact readers each ask it of the same
    text."""
    from interaction.memory_intent.phrasing import a_clause_of_its_own, stretches

    told = []
    for sentence in sentences(text):
        if not is_question(sentence):
            told.append(sentence)
            continue
        told += [p for p in stretches(sentence)[1:] if not is_question(p)
                 and (a_clause_of_its_own(p) or a_clause_of_its_own(p, speaker=True))]
    return " ".join(told)


def is_about_view(text: str) -> bool:
    """A question or request about what Nadine sees now (offline/question_form.py), not any question
    that opens with who or what: "who came with me to the concert?" asks memory."""
    from interaction.offline.question_form import asks_about_view

    return asks_about_view(text)


def language_request(text: str) -> str | None:
    """The locale a "please speak French" turn asks for, or None."""
    found = LANGUAGE_CHANGE.search(text)
    return LOCALES[found.group(1).lower()] if found else None


def as_locale(language: str | None) -> str | None:
    """"French" or "fr-FR" -> "fr-FR"; anything else -> None."""
    text = (language or "").strip()
    if re.fullmatch(r"[a-z]{2}-[A-Z]{2}", text):
        return text
    return LOCALES.get(text.lower())


def sentences(text: str) -> list[str]:
    """The sentences of `text` by spaCy's rule-based sentencizer, whose tokenizer keeps a title's stop
    inside its sentence ("I'm Dr. Priya Raman" was split after "Dr." and named the speaker "Dr"), and
    the clauses a semicolon or a new line sets apart."""
    return list(_sentences(text))


@functools.lru_cache(maxsize=512)
def _sentences(text: str) -> tuple[str, ...]:
    """Cached: a turn's text is split by a score of readers (name, told, feeling, requests) in one turn."""
    from interaction.llm.sentences import splitter  # the streamed reply's splitter, loaded once

    nlp = splitter()
    return tuple(s.text.strip() for piece in re.split(r"(?<=;)\s+|\n+", text) if piece.strip()
                 for s in nlp(piece).sents if s.text.strip())
