"""Pure logic: offline understanding (intent cues, recall, emotion label and intensity), the §4.5 guards,
profile extraction (present-tense facts only), affect and the offline replies' honesty."""

from __future__ import annotations

from datetime import datetime

import pytest

from common.messages import RecalledMemory, RecallReport
from common.store import UserProfile
from interaction.affect import EMOTION_TO_PAD, AffectState
from interaction.guards import GuardContext, apply_guards
from interaction.offline.extract import answer_name, extract_profile
from interaction.offline.replies import offline_reply
from interaction.offline.understand_rules import understand, user_emotion
from interaction.prompts import background
from interaction.reply_inputs import ReplyInputs
from interaction.turn_understanding import Emotion, PlanStep, TurnUnderstanding
from tests.interaction.parse_counting import count_parses

NO_USER = GuardContext(user_id=None, greeted_user_id=None, confirmation_pending=False)


@pytest.mark.parametrize("text,intent", [
    ("Hello there!", "first_greeting"),
    ("Hello! My name is Maya.", "update_user_info"),
    ("I work at Trafigura.", "update_user_info"),
    ("Goodbye, see you soon!", "end_conversation"),
    ("I have to go now.", "end_conversation"),
    ("Hi Nadine, good to see you again!", "first_greeting"),
    ("Nice to see you. See you later!", "end_conversation"),
    ("Cheers, later!", "end_conversation"),
    ("Later!", "end_conversation"),
    ("Nice weather today, isn't it?", "continue_conversation"),
    ("Can you say goodbye in French?", "continue_conversation"),
    ("What's the weather like in Geneva?", "continue_conversation"),
    ("Could you speak French please?", "language_change"),
])
def test_offline_intents(text, intent):
    assert understand(text).intent == intent


def test_recall_cues_and_plan():
    assert understand("Do you remember what I told you last time?").is_recall
    assert not understand("I just defended my PhD thesis today, I'm so happy!").is_recall
    for asked in ("When did we meet for the first time?", "Tell me again what I told you about my sister.",
                  "Remind me what I said about the trip.", "Can you recall the day I introduced myself?"):
        assert understand(asked).is_recall, asked
    recall = understand("What was that happy thing I mentioned this morning?")
    assert recall.is_recall and recall.user_emotion.label == "neutral"
    news = apply_guards(understand("Do you remember my big news from earlier?"),
                        "Do you remember my big news from earlier?", NO_USER)
    assert news.is_recall and [s.agent for s in news.plan] == ["response_agent"]  # never web search
    assert [s.agent for s in understand("Nice weather today, isn't it?").plan] == ["response_agent"]
    engaged = understand("I just got engaged yesterday, I can't stop smiling!").user_emotion
    assert engaged.label == "happy" and engaged.intensity >= 0.5
    for said in ("I met my sister for lunch.", "My first conversation in French went well!",
                 "The first meeting of our club was great fun!"):
        assert not understand(said).is_recall, said
    agents = [s.agent for s in understand("What's the weather like in Geneva?").plan]
    assert agents == ["search_agent", "response_agent"]
    assert [s.agent for s in understand("Who created you?").plan][0] == "knowledge_rag_agent"
    # a question with "you" as its subject is about her; one that asks her something for the speaker is not
    for about_her in ("What can you do?", "Where were you built?", "Do you speak Spanish?"):
        assert [s.agent for s in understand(about_her).plan][0] == "knowledge_rag_agent", about_her
    for for_them in ("Can you help me with my homework?", "Do you remember my dog?", "How are you today?"):
        assert "knowledge_rag_agent" not in [s.agent for s in understand(for_them).plan], for_them
    assert [s.agent for s in understand("What do you see?").plan][0] == "vision_agent"


def test_user_emotion_labels_and_intensity():
    joy = user_emotion("I just defended my PhD thesis today, I'm so happy!")
    assert joy.label == "happy" and joy.intensity >= 0.5  # worth keeping
    assert user_emotion("I'm happy.").intensity < joy.intensity  # the news, "so" and "!" raise it
    assert user_emotion("My dog died yesterday, I'm really sad.").label == "sad"
    assert user_emotion("I'm so angry at my landlord").label == "angry"
    assert user_emotion("I'm terrified of the exam tomorrow").label == "fearful"
    assert user_emotion("That food was disgusting").label == "disgusted"
    assert user_emotion("Wow, I can't believe it!").label == "surprised"
    calm = user_emotion("Hello! My name is Maya.")
    assert calm.label == "neutral" and calm.intensity < 0.3
    assert user_emotion("I'm not happy about this").label != "happy"  # negated emotion word


def test_guards_reference_rules():
    def guarded(intent, text, ctx=NO_USER, plan=None):
        u = TurnUnderstanding(intent=intent, plan=plan or [PlanStep(agent="search_agent", message=text)])
        return apply_guards(u, text, ctx)

    assert guarded("made_up_label", "hm").intent == "continue_conversation"
    assert guarded("first_greeting", "Hi, I'm Tom").intent == "update_user_info"
    assert guarded("update_user_info", "Who are you? Tell me about yourself").intent == "continue_conversation"
    assert guarded("end_conversation", "that was fun").intent == "continue_conversation"
    assert guarded("continue_conversation", "Bye, see you tomorrow").intent == "end_conversation"
    farewell = guarded("end_conversation", "Bye!")
    assert [s.agent for s in farewell.plan] == ["response_agent"]
    greeted = GuardContext(user_id="261129_0001", greeted_user_id="261129_0001", confirmation_pending=False)
    assert guarded("first_greeting", "Hello!", greeted).intent == "continue_conversation"
    assert guarded("first_greeting", "Hello!").intent == "first_greeting"  # never suppressed without an id
    pending = GuardContext(user_id=None, greeted_user_id=None, confirmation_pending=True)
    assert guarded("continue_conversation", "hm, maybe", pending).intent == "update_user_info"
    lang = guarded("language_change", "Please speak German")
    assert lang.intent == "continue_conversation" and lang.language == "de-DE"
    named = apply_guards(TurnUnderstanding(intent="language_change", language="Italian"), "in Italian now", NO_USER)
    assert named.language == "it-IT"
    stray = apply_guards(TurnUnderstanding(intent="continue_conversation", language="fr-FR"), "ok", NO_USER)
    assert stray.language is None
    # issue 13: no rule overrides the model's memory intent (the recall regex ORed over it is gone)
    assert not guarded("continue_conversation", "you forgot what I said?").is_recall
    told = apply_guards(TurnUnderstanding(memory_intent="statement"), "Do you remember my PhD?", NO_USER)
    assert not told.is_recall and told.memory_intent == "statement"
    asked = apply_guards(TurnUnderstanding(memory_intent="about_me"), "so?", NO_USER)
    assert asked.is_recall and asked.memory_intent == "about_me"
    unknown_agent = guarded("continue_conversation", "x", plan=[PlanStep(agent="rm_rf_agent")])
    assert [s.agent for s in unknown_agent.plan] == ["response_agent"]


def test_profile_extraction_present_tense_only():
    got = extract_profile("I'm Maya Rossi, I work at Trafigura and I live in Geneva. I like hiking and jazz.")
    assert (got.user_name, got.current_company, got.location) == ("Maya Rossi", "Trafigura", "Geneva")
    assert got.hobbies == ["hiking"] and got.interests == ["jazz"]
    past = extract_profile("I used to work at Google. I lived in Paris when I was young.")
    assert past.facts() == {} and past.user_name is None
    assert extract_profile("I just defended my PhD thesis today, I'm so happy!").facts() == {}
    assert extract_profile("Do you know where I live?").facts() == {}
    assert extract_profile("call me bob").user_name == "Bob"
    bob = extract_profile("My name is Bob and I live in Lyon.")
    assert (bob.user_name, bob.location) == ("Bob", "Lyon")
    assert extract_profile("my name is anna maria").user_name == "Anna Maria"
    assert extract_profile("I'm a software engineer at Logitech").current_position == "software engineer"
    engineer = extract_profile("Hey there, I'm Priya, I work as a data engineer at Siemens and I live in Zurich.")
    assert (engineer.user_name, engineer.current_position, engineer.current_company, engineer.location) == (
        "Priya", "data engineer", "Siemens", "Zurich")
    assert answer_name("No, it's Mia.") == "Mia" and answer_name("Mia") == "Mia" and answer_name("no") is None


def test_affect_pad_update_and_decay():
    affect = AffectState()
    affect.update(Emotion(label="happy", intensity=1.0))
    assert affect.emotion == EMOTION_TO_PAD["happy"] and affect.arousal > 0
    first = affect.emotion[0]
    affect.update(Emotion(label="neutral", intensity=0.0))
    assert affect.emotion[0] == pytest.approx(first * 0.5)  # half survives one turn
    assert affect.mood[0] > 0.2  # the mood moved towards joy


def test_serper_results_condense_to_the_answer():
    from interaction.search import UNAVAILABLE, WebSearch, condense

    assert WebSearch(environ={}).search("weather in Geneva") == UNAVAILABLE
    assert condense({"answerBox": {"answer": "12°C"}, "organic": [{"snippet": "x"}]}) == "12°C"
    assert condense({"organic": [{"snippet": "a"}, {"snippet": "b"}]}) == "a b"


def _inputs(**kw) -> ReplyInputs:
    base = dict(text="Do you remember what I told you last time?", intent="continue_conversation", is_recall=True,
                now=datetime(2026, 12, 1, 10, 0), language="en-US", user_emotion=Emotion(),
                profile=UserProfile(user_id="261129_0001", user_name="Maya"))
    return ReplyInputs(**{**base, **kw})


def test_offline_recall_reply_says_the_scene_back_and_never_invents():
    scene = RecalledMemory(kind="moment", memory_id="scene_20261129_101500_abcdef", occurred_at="2026-11-29T10:15:00",
                           text="I just defended my PhD thesis today, I'm so happy!")
    reply = offline_reply(_inputs(recall=RecallReport(outcome="asserted", memories=[scene])))
    # the scene's words as reported speech, not a first-person quote; told two days ago, so "today" is "that day"
    assert "you told me you just defended your PhD thesis that day" in reply and reply.startswith("Of course")
    honest = offline_reply(_inputs())
    assert "don't remember" in honest
    episode = RecalledMemory(kind="episode", memory_id="s_episode", occurred_at="2026-11-30T09:00:00",
                             text="Observation: Maya said she adopted a cat called Pixel.\nThought: x")
    notes = offline_reply(_inputs(recall=RecallReport(outcome="asserted", memories=[episode])))
    assert "my notes of it say: Maya said she adopted a cat called Pixel" in notes and "you told me:" not in notes


@pytest.mark.parametrize("question,expected", [
    ("Any idea which company I'm with?", "Siemens"),
    ("Where do I work again?", "Siemens"),
    ("What city do I call home?", "Zurich"),
    ("What's my job?", "data engineer"),
])
def test_offline_reply_answers_profile_questions_worded_freely(question, expected):
    profile = UserProfile(user_id="261129_0001", user_name="Priya", current_company="Siemens",
                          current_position="data engineer", location="Zurich")
    reply = offline_reply(_inputs(text=question, is_recall=False, profile=profile))
    assert expected in reply


def test_a_greeting_with_a_name_is_greeted_not_congratulated():
    # "good morning" reads as mildly happy; a returning person saying hello is greeted, not told "that's wonderful"
    reply = offline_reply(_inputs(text="Good morning Nadine, it's Dmitri.", intent="update_user_info", is_recall=False,
                                  user_emotion=Emotion(label="happy", intensity=0.35)))
    assert reply.startswith("Hello Maya") and "wonderful" not in reply


def test_news_told_while_introducing_oneself_gets_an_answer():
    text = "Hi, I'm Lena and I just got engaged, I'm so happy!"
    u = understand(text)
    reply = offline_reply(_inputs(text=text, intent=u.intent, is_recall=False, user_emotion=u.user_emotion,
                                  identity_event="new", profile=UserProfile(user_id="261129_0002", user_name="Lena")))
    assert reply.startswith("Nice to meet you, Lena!") and "happy for you" in reply


def test_an_offered_conversation_is_asked_about_without_reading_its_summary_out():
    episode = RecalledMemory(kind="episode", memory_id="s_episode", occurred_at="2026-11-30T09:00:00",
                             text='Observation: On Monday 30 November 2026, Maya talked with Nadine and said: "Hi." '
                                  '"My daughter got into medical school."\nThought: x')
    reply = offline_reply(_inputs(recall=RecallReport(outcome="offered", memories=[episode])))
    assert reply.startswith("I'm not sure") and reply.endswith("Tell me a little more.")
    assert "Observation" not in reply and "talked with Nadine" not in reply


def test_the_warm_up_loads_the_emotion_reader_and_the_memory_intent_classifier(monkeypatch):
    from interaction.agents import understand_agent

    read = []
    monkeypatch.setattr(understand_agent.offline, "user_emotion", lambda text: read.append(("emotion", text)))
    monkeypatch.setattr(understand_agent, "classify", lambda text: read.append(("intent", text)))
    understand_agent.warm_up().join()
    assert [kind for kind, _ in read] == ["emotion", "intent"]


def test_a_recalled_conversation_is_said_as_its_gist_never_quoted_as_the_persons_words():
    summary = ('Observation: On Monday 30 November 2026, Maya talked with Nadine and said: "Hi." '
               '"My daughter got into medical school." "Bye, Nadine."\nThought: x')
    episode = RecalledMemory(kind="episode", memory_id="s_episode", occurred_at="2026-11-30T09:00:00", text=summary)
    reply = offline_reply(_inputs(recall=RecallReport(outcome="asserted", memories=[episode])))
    assert "we talked, and you told me your daughter got into medical school" in reply
    assert "Observation" not in reply and "talked with Nadine" not in reply and "Hi" not in reply
    assert "Bye" not in reply and "'" not in reply
    packet = background(_inputs(recall=RecallReport(outcome="asserted", memories=[episode])))
    assert "you told me your daughter got into medical school" in packet and "talked with Nadine" not in packet
    greetings = episode.model_copy(update={"text": 'Observation: On Monday, Maya talked with Nadine and said: "Hi." "Bye."'})
    said = offline_reply(_inputs(recall=RecallReport(outcome="asserted", memories=[greetings])))
    assert "you didn't tell me anything in particular" in said and "Bye" not in said


@pytest.mark.parametrize("occurred_at,said", [
    ("2026-11-27T09:00:00", "the first time we met was on Friday 27 November, when you introduced yourself"),
    ("2026-11-30T09:00:00", "the first time we met was yesterday, when you introduced yourself"),
])
def test_the_first_meeting_is_said_as_the_days_own_event(occurred_at, said):
    first = RecalledMemory(kind="first_meeting", memory_id="scene_first", occurred_at=occurred_at,
                           text="The first time we met — Maya introduced themselves to me.")
    reply = offline_reply(_inputs(text="How did we meet?", recall=RecallReport(outcome="asserted", memories=[first])))
    assert said in reply and "when we met on" not in reply, reply


def test_a_turns_readers_find_its_parses_and_vectors_made_in_one_batch_each(monkeypatch):
    """The read-ahead parses the utterance and its sentences in one spaCy batch and embeds what the
    readers embed in one model run; each text gets the parse and the vector it gets alone."""
    from common.embedding.registry import offline_text_embedder
    from interaction import cues
    from interaction.agents import understand_agent
    from interaction.offline import fact_changes
    from interaction.offline.self_description import load_parser
    from interaction.offline.understand_rules import felt_parts

    text = "I left the bank and joined a startup. I drive a tram in Zurich. It rained all day, so I stayed in. Are you ok?"
    nlp, embedder = load_parser(), offline_text_embedder()
    extract_profile("I fix bikes.")  # the readers loaded (their own prompts embedded) before counting
    alone = {s: [(t.tag_, t.dep_, t.head.i, t.ent_type_) for t in nlp.nlp(s)] for s in [text, *cues.sentences(text)]}
    embedded: list[list[str]] = []
    run = embedder._embed_batch
    calls = count_parses(monkeypatch, nlp)
    monkeypatch.setattr(embedder, "_recent", type(embedder._recent)(embedder._recent.maxsize))
    monkeypatch.setattr(embedder, "_embed_batch", lambda texts: embedded.append(list(texts)) or run(texts))
    understand_agent._read_ahead(text)
    assert len(calls) == 1 and len(embedded) == 1
    clauses = fact_changes.statement_clauses(text)
    assert "I joined a startup" in clauses and set(clauses) <= set(embedded[0])
    assert set(felt_parts(text)) <= set(embedded[0])
    assert extract_profile(text).current_position == "drive a tram"  # its verb-job reading found its vectors
    assert fact_changes.decide(text, {}, {}) is not None
    assert {s: [(t.tag_, t.dep_, t.head.i, t.ent_type_) for t in nlp(s)] for s in alone} == alone
    assert (embedder.embed(clauses[:1]) == run(clauses[:1])).all()
    assert len(calls) == 1 and len(embedded) == 1  # the readers found everything (the check ran the model itself)


@pytest.mark.parametrize("text", [
    "The weather was lovely this morning, we walked by the lake. It was 2 degrees.",
    "Oh Nadine, I finally got my driving licence after four attempts!",
    "Tell me, where were you built?",
])
def test_whether_a_turn_tells_something_is_read_off_the_read_aheads_one_parse_batch(monkeypatch, text):
    """The stretches between a sentence's commas as written (a wish for the listener? a question?) and
    a question tagged on after the last comma are parsed in the read-ahead's one spaCy batch, each
    as it is parsed alone; reading whether the turn tells something parses nothing more."""
    from interaction.agents import understand_agent
    from interaction.memory import told
    from interaction.offline.self_description import load_parser

    nlp = load_parser()
    told.is_told.cache_clear()
    read = told.texts_parsed(text)
    alone = {s: [(t.tag_, t.dep_, t.head.i, t.ent_type_) for t in nlp.nlp(s)] for s in read}
    calls = count_parses(monkeypatch, nlp)
    understand_agent._read_ahead(text)
    assert len(calls) == 1 and set(read) <= set(calls[0])
    told.is_told(text)
    assert {s: [(t.tag_, t.dep_, t.head.i, t.ent_type_) for t in nlp(s)] for s in read} == alone
    assert len(calls) == 1  # every parse the reading asked for was made ahead


def test_a_position_said_without_a_verb_is_embedded_with_the_turns_other_texts(monkeypatch):
    """"I'm a pastry chef": the profile reader's occupation score of "a pastry chef" finds its vector
    made in the read-ahead's one embedder call, not in a run of its own."""
    from common.embedding.registry import offline_text_embedder
    from interaction.agents import understand_agent

    embedder = offline_text_embedder()
    extract_profile("I fix bikes.")  # the readers loaded (their own prompts embedded) before counting
    text = "Honestly, I'm a pastry chef these days, and I'm exhausted."
    embedded: list[list[str]] = []
    run = embedder._embed_batch
    monkeypatch.setattr(embedder, "_recent", type(embedder._recent)(embedder._recent.maxsize))
    monkeypatch.setattr(embedder, "_embed_batch", lambda texts: embedded.append(list(texts)) or run(texts))
    understand_agent._read_ahead(text)
    assert len(embedded) == 1
    assert extract_profile(text).current_position == "pastry chef"
    assert len(embedded) == 1  # the occupation score found its vector


def test_a_turn_read_again_as_meant_is_embedded_with_the_turns_other_texts(monkeypatch):
    """A word no dictionary knows ("finaly") has the memory-intent classifier read the turn again with
    the word as meant: that text's vector is made in the read-ahead's one embedder call, and the
    classifier's guess is the one it makes without the read-ahead."""
    from common.embedding.registry import offline_text_embedder
    from interaction.agents import understand_agent
    from interaction.memory_intent.classifier import classify, default_classifier
    from interaction.memory_intent.misspelt import as_meant

    embedder = offline_text_embedder()
    text = "Hi! I finaly ran the whole marathon yesterday."
    expected = classify(text)
    assert as_meant(text) != text
    default_classifier()._recent.clear()  # as a guess not made yet
    embedded: list[list[str]] = []
    run = embedder._embed_batch
    monkeypatch.setattr(embedder, "_recent", type(embedder._recent)(embedder._recent.maxsize))
    monkeypatch.setattr(embedder, "_embed_batch", lambda texts: embedded.append(list(texts)) or run(texts))
    understand_agent._read_ahead(text)
    assert len(embedded) == 1 and as_meant(text) in embedded[0]
    assert classify(text) == expected
    assert len(embedded) == 1  # the classifier found both its vectors


def test_the_warm_up_reads_wordnets_verbs_and_lemmas_by_length_off_the_reply_path():
    from interaction.agents import understand_agent
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    for loaded in ("_verb_files", "words_by_length"):
        wordnet.__dict__.pop(loaded, None)
    understand_agent.as_meant.cache_clear()  # as a fresh process starts
    understand_agent.warm_up().join()
    assert {"_verb_files", "words_by_length"} <= set(wordnet.__dict__)


def test_the_warm_up_reads_every_verb_synset_and_its_senses_off_the_reply_path():
    """Whether a statement's verb ends a relation is read of every statement that tells a fact."""
    from interaction.agents import understand_agent
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    for loaded in ("_verb_senses", "_verb_lines", "_parting"):
        wordnet.__dict__.pop(loaded, None)
    understand_agent.warm_up().join()
    assert {"_verb_senses", "_verb_lines", "_parting"} <= set(wordnet.__dict__)


def test_the_warm_up_reads_the_chat_words_that_a_casual_name_is_looked_up_in_off_the_reply_path():
    from interaction.agents import understand_agent
    from interaction.offline import name_reading

    name_reading.chat_words.cache_clear()  # as a fresh process starts: every statement's clauses read them
    understand_agent.warm_up().join()
    assert name_reading.chat_words.cache_info().currsize == 1


def test_the_warm_up_reads_every_adjective_synset_and_its_similar_ones_off_the_reply_path():
    """Whether a person word's adjective makes them no one of the speaker's now ("my late husband", "my
    old dog") is read of every statement that names one with an adjective."""
    from interaction.agents import understand_agent
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    for loaded in ("_adjective_senses", "_adjective_fields", "_similar_adjectives"):
        wordnet.__dict__.pop(loaded, None)
    understand_agent.warm_up().join()
    assert {"_adjective_senses", "_adjective_fields", "_similar_adjectives"} <= set(wordnet.__dict__)
