"""Offline turn understanding: cue lexicons for intent and plan, the memory-intent classifier for
recall / remember / forget, the fitted emotion-intensity model for how strongly the user feels, the
calibrated polarity model for whether the feeling is pleasant, unpleasant or unsure (the emotion words
only choose among the feelings of the sign it found). Used when no model endpoint is configured or it failed."""

from __future__ import annotations

import re
from collections import Counter

from common.emotions import EmotionLabel
from interaction import cues
from interaction.linear_text import clauses
from interaction.memory_intent.classifier import classify
from interaction.offline import fact_changes, personal_facts
from interaction.offline.emotion_intensity import EmotionIntensityModel, shipped_model
from interaction.offline.extract import extract_profile
from interaction.offline.feeling_polarity import CLASSES, PolarityModel, shipped_polarity
from interaction.offline.name_reading import introduces_only
from interaction.offline.question_form import asks_after_nobody, asks_if_known, asks_what_she_does_with_it
from interaction.offline.wishes import parting_wish, wishes_a_season
from interaction.turn_act.reader import turn_acts
from interaction.turn_understanding import RECALL_INTENTS, Emotion, PlanStep, TurnUnderstanding

EMOTION_WORDS: dict[EmotionLabel, tuple[str, ...]] = {
    "happy": ("happy", "glad", "delighted", "thrilled", "excited", "overjoyed", "joy", "joyful", "wonderful",
              "fantastic", "amazing", "awesome", "proud", "celebrate", "celebrating", "yay", "ecstatic",
              "cheerful", "pleased", "grateful", "great day", "best day", "over the moon", "smiling", "laughing",
              "got engaged", "got married", "got promoted", "got the job", "passed my", "won", "elated",
              "relieved", "blessed", "so much fun", "dream come true"),
    "sad": ("sad", "unhappy", "depressed", "miserable", "heartbroken", "lonely", "crying", "cried", "grief",
            "grieving", "upset", "disappointed", "devastated", "died", "passed away", "miss him", "miss her",
            "miss them", "feel down", "feeling down"),
    "angry": ("angry", "furious", "mad at", "annoyed", "irritated", "hate", "frustrated", "outraged", "livid"),
    "fearful": ("afraid", "scared", "frightened", "terrified", "worried", "anxious", "nervous", "panic",
                "fear", "dread"),
    "disgusted": ("disgusting", "disgusted", "gross", "revolting", "nasty", "sick of", "yuck", "repulsive"),
    "surprised": ("surprised", "wow", "unbelievable", "shocked", "astonished", "unexpected", "can't believe",
                  "cannot believe", "no way", "omg"),
}
# "can't stop smiling" / "couldn't be happier" intensify rather than negate
_NEGATION_BEFORE = re.compile(r"\b(not|never|no|n't|hardly)\W+(?:\w+\W+)?$", re.IGNORECASE)
_NOT_A_NEGATION = re.compile(r"\b(?:can't|cannot|couldn't) (?:stop|help|be)\W+(?:\w+\W+)?$", re.IGNORECASE)
# a question names a feeling it asks about ("what was that happy thing?"); only "I'm / I feel ..." is felt now
FELT_NOW = re.compile(r"\b(?:i(?:'m| am)|i feel|i'm feeling|i am feeling|i(?:'ve| have) been feeling|makes me|made me)\b",
                      re.IGNORECASE)
EMOTION_PATTERNS = {
    label: re.compile(r"\b(" + "|".join(re.escape(w) for w in words) + r")\b", re.IGNORECASE)
    for label, words in EMOTION_WORDS.items()
}
PLEASANT: frozenset[EmotionLabel] = frozenset({"happy", "surprised"})

# Nadine's reaction to what the user feels: she shares joy and surprise, meets distress with concern
REACTION: dict[EmotionLabel, EmotionLabel] = {
    "happy": "happy", "sad": "sad", "angry": "sad", "fearful": "sad", "disgusted": "disgusted",
    "surprised": "surprised", "neutral": "neutral",
}


def negated(before: str) -> bool:
    """Whether the words just before an emotion word negate it ("not happy", but "can't stop smiling")."""
    return bool(_NEGATION_BEFORE.search(before)) and not _NOT_A_NEGATION.search(before)


def _said_feelings(sentence: str) -> Counter[EmotionLabel]:
    """The feelings the sentence's emotion words name, not negated ("not happy" names none)."""
    return Counter(label for label, pattern in EMOTION_PATTERNS.items() for found in pattern.finditer(sentence)
                   if not negated(sentence[: found.start()]))


def feeling_of_sign(sentence: str, sign: str) -> EmotionLabel:
    """The feeling of a sign: among the emotion words of that sign the sentence says, the commonest
    ("terrified" -> fearful, "furious" -> angry); without one, happy or sad. With no sign (the
    polarity unsure), the feeling the words say when those of one sign outnumber the other's ("our
    dog was put down, I can't stop crying": the model reads little in "can't stop"), else none."""
    said = _said_feelings(sentence)
    if sign != "none" and feeling_is_the_news(sentence) and not any(
            (label in PLEASANT) == (sign == "positive") for label in said if label != "surprised"):
        sign = "none"  # "I'm so anxious about Friday's interview" read as pleasant: its words decide
    if sign == "none":
        pleasant = sum(n for label, n in said.items() if label in PLEASANT)
        if pleasant == sum(said.values()) - pleasant:
            return "neutral"
        sign = "positive" if pleasant > sum(said.values()) - pleasant else "negative"
    named = Counter({label: n for label, n in said.items() if (label in PLEASANT) == (sign == "positive")})
    return named.most_common(1)[0][0] if named else "happy" if sign == "positive" else "sad"


def feeling_is_the_news(sentence: str) -> bool:
    """The sentence tells only how the speaker feels now ("I'm really nervous about the exam on
    Friday"): a feeling said in the present and no event told in the past by spaCy's tags, which
    would be what the feeling answers ("I was so nervous, and they hired me on the spot": the outcome
    decides the sign, not the nerves)."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    if not FELT_NOW.search(sentence):
        return False
    try:
        doc = load_parser()(sentence)
    except ParserUnavailable:
        return False
    # "I've been feeling anxious": the perfect's "been" carries on a feeling into now, no event past
    return not any(t.tag_ in ("VBD", "VBN") and not (t.lemma_ == "be" and t.dep_ == "aux") for t in doc)


def feeling_text(parts: dict[str, str], best: str, read: str) -> str:
    """What the feeling's sign is read from: the sentence of the most strongly felt part ("part"), or
    every sentence that may say a feeling ("turn")."""
    return parts[best] if read == "part" else " ".join(dict.fromkeys(parts.values()))


def felt_parts(text: str) -> dict[str, str]:
    """The sentences that may say a feeling and their clauses of two words or more, each with the
    sentence it belongs to: a feeling said in a clause of its own ("..., I'm furious.") is read as
    strongly as when it stands alone. A question names a feeling it asks about ("what was that happy
    thing?"), so only one saying "I'm / I feel ..." is read; a greeting or a goodbye is politeness,
    so a part that is one ("Hello!", "Hi, I'm Oskar.") is not read, while the rest of its sentence is;
    nor is a parting wish or one for a day or season ("Merry Christmas!"): its warmth is for the
    listener, not a feeling about the speaker's own life."""
    parts = candidate_parts(text)
    # by the sentence's parse: the turn's batch holds it
    wishes = {s for s in parts.values() if parting_wish(s) or wishes_a_season(s)}
    acts = dict(zip(parts, turn_acts(list(parts)), strict=True))
    polite = {part for part, s in parts.items()
              if cues.is_greeting(part) or acts[part] == "farewell" or s in wishes or introduces_only(part)}
    # a sentence all of whose clauses are politeness is politeness too ("Linda here, hello love!")
    clauses_of: dict[str, list[str]] = {}
    for part, s in parts.items():
        if part != s:
            clauses_of.setdefault(s, []).append(part)
    polite |= {s for s, clauses in clauses_of.items() if all(c in polite for c in clauses)}
    return {part: s for part, s in parts.items() if part not in polite}


def candidate_parts(text: str) -> dict[str, str]:
    """The sentences that may say a feeling and their clauses of two words or more, before the
    greetings, goodbyes and wishes among them are left out (felt_parts)."""
    felt = [s for s in cues.sentences(text) if not cues.is_question(s) or FELT_NOW.search(s)]
    parts = {part: s for s in felt for part in (s, *(c for c in clauses(s) if len(c.split()) >= 2))}
    # a greeting run on into news with no comma ("hi nadine im Ellie and i just found out im pregnant!!")
    # is politeness only in its opening words: what follows them is read as a clause of its own
    after_greeting = {cues.after_greeting(part): s for part, s in parts.items()
                      if cues.is_greeting(part) and len(clauses(part)) == 1}
    parts |= {rest: s for rest, s in after_greeting.items() if len(rest.split()) >= 2 and rest not in parts}
    # a chat word between two stretches parts them as a comma would ("failed my driving test again lol
    # great day": the news, and what is said of it)
    return parts | {piece: s for s in felt for piece in _parted_by_chat_words(s) if piece not in parts}


def _parted_by_chat_words(sentence: str) -> list[str]:
    """The stretches of two words or more that a chat word ("lol", "haha") stands between; none
    without one."""
    from interaction.offline.name_reading import chat_words

    words = sentence.split()
    cuts = [i for i, w in enumerate(words) if 0 < i < len(words) - 1 and w.casefold().strip(".!,?") in chat_words()]
    if not cuts:
        return []
    stretches = [words[a + 1:b] for a, b in zip([-1, *cuts], [*cuts, len(words)], strict=True)]
    return [" ".join(w) for w in stretches if len(w) >= 2]


def read_emotion(text: str, model: EmotionIntensityModel | None, polarity: PolarityModel | None = None) -> Emotion:
    """The most strongly felt part decides the intensity; the feeling is named from the calibrated
    polarity once that part is felt at least `polarity.felt` on the raters' scale, and left neutral
    when the polarity is unsure (or not given)."""
    parts = felt_parts(text)
    if model is None or not parts:
        return Emotion()
    texts = list(dict.fromkeys([*parts, *parts.values()]))  # a greeting's sentence still has a sign
    readings = dict(zip(texts, model.read(texts), strict=True))
    best = max(parts, key=lambda p: readings[p].intensity)
    label: EmotionLabel = "neutral"
    if polarity is not None and readings[best].rated >= polarity.felt:
        said = feeling_text(parts, best, polarity.read)
        sign = polarity.named(polarity.probabilities([said])[0])
        label = feeling_of_sign(said, sign)
        bad = _bad_news_before(parts, readings, parts[best], polarity) if label in PLEASANT else None
        if bad is not None:
            # "My wife passed away in March. The service was beautiful.": the good thing is said of the
            # loss told before it, which is what the reply answers; a joy would answer the wrong news
            label = feeling_of_sign(bad, "negative")
        elif label in PLEASANT and (praised := praise_of_unwelcome_news(parts, readings, polarity)) is not None:
            label = feeling_of_sign(praised, "negative") if praised else "neutral"
        elif label in PLEASANT and _surer_bad_news_beside(parts, readings, said, polarity):
            # "My startup just ran out of money. We're shutting down next month.": the pleasant reading is
            # less sure than the unpleasant news told beside it, so no feeling is named
            label = "neutral"
    return Emotion(label=label, intensity=readings[best].intensity)


def _surer_bad_news_beside(parts: dict[str, str], readings: dict, said: str, polarity: PolarityModel) -> bool:
    """Another felt sentence of the turn reads unpleasant above its line and more surely than `said`
    reads pleasant."""
    others = [s for s in dict.fromkeys(parts.values()) if s != said and readings[s].rated >= polarity.felt]
    return surer_bad_news(others, polarity.probabilities([said])[0][CLASSES.index("positive")], polarity)


def surer_bad_news(sentences: list[str], pleasant: float, polarity: PolarityModel) -> bool:
    """Some sentence reads unpleasant above its line and more surely than `pleasant`, the probability
    the good reading has: the news holds bad news no good reading outweighs."""
    if not sentences:
        return False
    return any(polarity.named(p) == "negative" and p[CLASSES.index("negative")] > pleasant
               for p in polarity.probabilities(sentences))


def praise_of_unwelcome_news(parts: dict[str, str], readings: dict, polarity: PolarityModel) -> str | None:
    """Whether the turn's pleasant words only praise news that is not pleasant ("oh great, my car broke
    down again. just fantastic.", "my landlord is raising the rent. love that for me"): every felt
    clause read as pleasant is an evaluation that tells nothing of its own (an_evaluation_only), and
    the most felt clause that tells something leans unpleasant. Then the praise is irony, said of that
    news: the clause when its polarity is surely unpleasant, "" when it only leans so (no feeling to
    name); None when the turn's pleasure is its own ("I passed! amazing")."""
    # a sentence is read by its clauses, which hold the praise and the news apart
    leaves = [p for p in parts if not any(q != p and q in p for q in parts) and readings[p].rated >= polarity.felt]
    if not leaves:
        return None
    signs = dict(zip(leaves, polarity.probabilities(leaves), strict=True))
    praise = [p for p in leaves if polarity.named(signs[p]) == "positive"]
    judging = {p: an_evaluation_only(p) for p in leaves}
    told = [p for p in leaves if not judging[p]]
    if not praise or not told or not all(judging[p] for p in praise):
        return None
    news = max(told, key=lambda p: readings[p].intensity)
    negative, positive = signs[news][CLASSES.index("negative")], signs[news][CLASSES.index("positive")]
    if negative <= positive:
        return None
    return news if polarity.named(signs[news]) == "negative" else ""


def praise_of_unwelcome_news_in(parts: dict[str, str], polarity: PolarityModel) -> str | None:
    """praise_of_unwelcome_news for a turn's felt parts (felt_parts), read by the shipped intensity
    model (None without it)."""
    model = shipped_model()
    if model is None or not parts:
        return None
    return praise_of_unwelcome_news(parts, dict(zip(parts, model.read(list(parts)), strict=True)), polarity)


def an_evaluation_only(clause: str) -> bool:
    """The clause judges without telling anything: no thing named in it but a time ("best day ever",
    "just fantastic", "oh great") and no subject of its own, or only that of a free relative ("just
    what I wanted"), or an object that points back ("love that for me"), by spaCy's parse; False
    without the parser."""
    from interaction.memory.retrieval.lexicon import load_wordnet
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        doc = load_parser()(clause)
    except ParserUnavailable:
        return False
    wordnet = load_wordnet()
    if any(t.pos_ in ("NOUN", "PROPN") and not (wordnet is not None and wordnet.names_a_time(t.lemma_.lower()))
           for t in doc):
        return False
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    return root is not None and (not any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in root.children)
                                 or any(c.tag_ in ("WP", "WDT") for c in root.children))


def _bad_news_before(parts: dict[str, str], readings: dict, sentence: str, polarity: PolarityModel) -> str | None:
    """The first sentence the turn tells before `sentence` that is felt and whose calibrated polarity
    is surely unpleasant, or None (after it, a worry is one the good news ends: "I passed!! honestly
    thought I'd failed it")."""
    told = list(dict.fromkeys(parts.values()))
    others = [s for s in told[:told.index(sentence)] if readings[s].rated >= polarity.felt]
    signs = polarity.probabilities(others) if others else []
    return next((s for s, p in zip(others, signs, strict=True) if polarity.named(p) == "negative"), None)


def user_emotion(text: str) -> Emotion:
    return read_emotion(text, shipped_model(), shipped_polarity())


def plan_for(text: str, asks_memory: bool = False) -> list[PlanStep]:
    """The agents a turn needs; `asks_memory`: it asks what the person told ("do you remember anything
    about Rory?"), which her memory of them answers, never her knowledge of herself."""
    steps = []
    # only a real information question needs the web: "nice weather today, isn't it?" is small talk
    if cues.REALTIME.search(text) and cues.is_information_question(text):
        steps.append(PlanStep(agent="search_agent", message=text))
    if cues.is_about_nadine(text) and not asks_memory:
        steps.append(PlanStep(agent="knowledge_rag_agent", message=text))
    if cues.is_about_view(text):
        steps.append(PlanStep(agent="vision_agent", message=text))
    return [*steps, PlanStep(agent="response_agent", message=text)]


def _nadine_is_the_topic(text: str) -> bool:
    """Nadine is what the question is about ("who built you?", "how does your memory work?"), not the
    one asked to remember ("do you remember the pub quiz?"): "you" stands in it as no subject."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        doc = load_parser()(text)
    except ParserUnavailable:
        return False
    return any(t.lower_ in ("you", "your", "yourself") and t.dep_ not in ("nsubj", "nsubjpass") for t in doc)


def understand(text: str) -> TurnUnderstanding:
    felt = user_emotion(text)
    language = cues.language_request(text)
    profile = extract_profile(text)
    if language:
        intent = "language_change"
    elif cues.is_unambiguous_farewell(text):
        intent = "end_conversation"
    elif (profile.user_name or profile.facts() or fact_changes.states_a_change(text) or personal_facts.read(text)
          or personal_facts.tells_leaving(text)):
        intent = "update_user_info"
    elif cues.is_greeting(text):
        intent = "first_greeting"
    else:
        intent = "continue_conversation"
    own = Emotion(label=REACTION[felt.label], intensity=round(felt.intensity * 0.8, 3))
    if intent in ("first_greeting", "end_conversation") and felt.label == "neutral":
        own = Emotion(label="happy", intensity=0.3)
    memory_intent = classify(text).intent
    if memory_intent in RECALL_INTENTS and (
            (cues.is_about_nadine(text) and (_nadine_is_the_topic(text) or asks_what_she_does_with_it(text)))
            or asks_if_known(text)
            or asks_after_nobody(text)) or memory_intent == "remember" and asks_if_known(text):
        # "which lab built you?" asks her knowledge of herself, "do you remember me?" whether they have
        # met ("remember me?" is no request to keep anything): neither asks what the person told; "who
        # painted the Mona Lisa?" names nothing of theirs, so whether they told it is the retrieval
        # core's to find (own_life.py), and when it finds nothing the question is answered as any
        # other, never as a memory they lack
        memory_intent = "statement"
    return TurnUnderstanding(
        intent=intent, emotion=own, user_emotion=felt, memory_intent=memory_intent,
        is_recall=memory_intent in RECALL_INTENTS, plan=plan_for(text, memory_intent in RECALL_INTENTS),
        language=language,
    )
