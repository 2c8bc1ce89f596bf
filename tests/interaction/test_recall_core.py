"""The retrieval core (issue 12) on a real data root: ChromaDB, the offline MiniLM, the int8
cross-encoder, the calibrated decision, windows on the shared (simulated) clock, top-k, forget."""

from __future__ import annotations

from datetime import datetime, timedelta

import numpy as np
import pytest

from common.config.interaction_settings import RecallCalibration
from common.messages import RecalledMemory, RecallReport, UserInput
from common.store import UserProfile
from interaction.dialogue import DialogueManager
from interaction.memory.contracts import EpisodicSave, TranscriptTurn
from interaction.memory.local_services import LocalMemoryServices
from interaction.memory.retrieval import windows
from interaction.memory.retrieval.candidates import Candidate, CandidatePool
from interaction.memory.retrieval.core import RetrievalCore
from interaction.memory.retrieval.entities import EntityReader, Thresholds
from interaction.offline.replies import offline_reply
from interaction.offline.self_description import load_parser
from interaction.prompts import background
from interaction.reply_inputs import ReplyInputs
from interaction.reported_speech import told_back
from interaction.turn_understanding import Emotion
from tests.interaction.memory_fixtures import layout_and_clock, make_settings, write_scene
from tests.interaction.test_dialogue_inprocess import Outbox

MAYA = "251008_0001"
SUMMARY = EpisodicSave(observation="Maya talked with Nadine.", thought="-", action="-", result="-")


def _services(tmp_path, *overrides):
    layout, clock = layout_and_clock(tmp_path)
    return LocalMemoryServices(make_settings(tmp_path, *overrides), layout, clock, bus=None), layout, clock


def _say(services, clock, *said: str) -> None:
    """One saved conversation in which Maya said these things, at the shared clock's time."""
    now = clock.now()
    turns = []
    for i, text in enumerate(said):
        turns += [TranscriptTurn("user", text, now + timedelta(seconds=2 * i)),
                  TranscriptTurn("nadine", "Tell me more!", now + timedelta(seconds=2 * i + 1))]
    assert services.save_episode(MAYA, "Maya", turns, SUMMARY)


HOUSE = "We signed the papers for our first house, a small cottage by the sea."
KITTEN = "We adopted a little grey kitten from the shelter, we called her Miso."
GIG = "Our band finally played its first gig at the Blue Lantern, the crowd sang along!"


@pytest.fixture
def maya(tmp_path):
    services, layout, clock = _services(tmp_path)
    _say(services, clock, HOUSE)
    clock.advance(24 * 7)
    _say(services, clock, KITTEN)
    clock.advance(24 * 6)
    _say(services, clock, GIG)
    clock.advance(24)  # the gig was yesterday, the kitten a week ago, the house two weeks ago
    return services, clock


def _reply(services, question: str) -> tuple[RecallReport, str]:
    result = services.retrieve(MAYA, question, is_recall=True)
    inputs = ReplyInputs(text=question, intent="continue_conversation", is_recall=True, now=services.clock.now(),
                         language="en-US", user_emotion=Emotion(), recall=result.recall,
                         profile=UserProfile(user_id=MAYA, user_name="Maya"))
    return result.recall, offline_reply(inputs)


@pytest.mark.parametrize("question", [
    "Do you remember my first boat?", "What did I tell you about my new bike?",
    "Remember when I told you about my first novel?", "What was the name of my dog?",
])
def test_untold_things_that_share_words_with_told_ones_are_not_asserted(maya, question):
    services, _ = maya
    report, reply = _reply(services, question)
    assert report.outcome != "asserted", report
    if report.outcome == "abstained":
        assert report.memories == [] and "don't remember you telling me" in reply
    else:  # offered: Nadine asks, she does not state it; or, when only closeness offered it and it names
        # nothing of a thing of their own asked after ("my dog"), she says it was not told
        assert ("do you mean" in reply or "I don't think you told me" in reply) and "you told me:" not in reply


@pytest.mark.parametrize("question,said", [
    ("What did I call the cat we got?", KITTEN),
    ("Where is the home we bought?", HOUSE),
    ("What was the name of the venue where we performed?", GIG),
])
def test_told_things_asked_in_other_words_are_recalled_and_quoted_with_their_date(maya, question, said):
    services, _ = maya
    report, reply = _reply(services, question)
    assert report.outcome == "asserted" and report.memories[0].text == said
    assert report.memories[0].occurred_at and report.memories[0].kind == "turn"
    assert told_back("turn", said)[:40] in reply  # the turn itself said back, not a transcript
    best = report.memories[0]
    assert {"dense", "lexical", "p_told"} <= set(best.channels) and best.verifier_score is not None


def test_windows_on_the_simulated_clock(maya):
    services, clock = maya
    yesterday = services.retrieve(MAYA, "What did I tell you yesterday?", is_recall=True).recall
    assert yesterday.outcome == "asserted" and yesterday.window_expression
    assert [m.text for m in yesterday.memories if m.kind == "turn"] in ([GIG], [])
    assert all(yesterday.window_start <= m.occurred_at <= yesterday.window_end for m in yesterday.memories)
    last = services.retrieve(MAYA, "What did we talk about last time?", is_recall=True).recall
    assert last.window_expression == "last time"
    assert datetime.fromisoformat(last.window_start) > clock.now() - timedelta(days=2)
    first = services.retrieve(MAYA, "Do you remember the first time we met?", is_recall=True).recall
    assert datetime.fromisoformat(first.window_end) < clock.now() - timedelta(days=13)
    # a told thing outside the window it is asked about is not chosen
    outside = services.retrieve(MAYA, "Did I tell you about my kitten yesterday?", is_recall=True).recall
    assert KITTEN not in [m.text for m in outside.memories]
    two_weeks = services.retrieve(MAYA, "What did I tell you two weeks ago?", is_recall=True).recall
    assert two_weeks.outcome == "asserted" and GIG not in [m.text for m in two_weeks.memories]


class _Refuses:
    """A verifier double that reads every memory as irrelevant."""

    name = "refuses"

    def score(self, query: str, texts: list[str]) -> np.ndarray:
        return np.full(len(texts), -12.0, np.float32)


def _pool(texts: list[str], embedder) -> CandidatePool:
    items = [Candidate("turn", f"t{i}", t, t, 1.7e9 + i, f"s{i}") for i, t in enumerate(texts)]
    return CandidatePool(items, embedder.embed(texts), embedder.name)


def test_the_verifier_can_keep_the_decision_from_asserting(tmp_path):
    services, _, clock = _services(tmp_path)
    settings = services.settings.interaction.retrieval.recall
    calibration: RecallCalibration = settings.decision_for("minilm_onnx")
    embedder = services.scene_index._fallback
    pool = _pool([KITTEN, HOUSE, GIG], embedder)
    query = "What did I call the cat we got?"
    vector = embedder.embed([query])[0]
    real = RetrievalCore(settings, services.core.verifier, calibration).decide(query, clock.now(), [(pool, vector)])
    assert real.outcome == "asserted" and real.chosen[0].candidate.text == KITTEN
    refused = RetrievalCore(settings, _Refuses(), calibration).decide(query, clock.now(), [(pool, vector)])
    # nothing is asserted; the closest memory may still be asked about when it stands out by cosine
    assert refused.outcome != "asserted"
    assert refused.decided_by == "margin" if refused.outcome == "offered" else refused.chosen == []
    assert refused.report().verifier_score == -12.0


def test_a_recall_turn_hands_up_to_k_memories_and_an_ordinary_turn_none(tmp_path):
    said = ["My sister Anna got married in Lisbon in June.", "My sister Anna just had a baby boy called Tiago.",
            "My sister Anna moved to Berlin for a new job.", "I repaired my old bicycle this weekend."]
    for k in (3, 2):
        services, _, clock = _services(tmp_path / str(k), f"interaction.retrieval.recall.top_k={k}")
        _say(services, clock, *said)
        clock.advance(24)
        report = services.retrieve(MAYA, "What did I tell you about my sister Anna?", is_recall=True).recall
        anna = [m.text for m in report.memories]
        assert report.outcome == "asserted" and 2 <= len(anna) <= k
        assert all("Anna" in text for text in anna) and all(m.occurred_at for m in report.memories)
        ordinary = services.retrieve(MAYA, "My sister Anna is visiting next week.", is_recall=False)
        assert ordinary.recall is None and not ordinary.text_injected


def test_the_prompt_and_the_template_say_back_the_matching_turns_with_dates():
    now = datetime(2026, 12, 1, 10, 0)
    memories = [RecalledMemory(kind="turn", memory_id="a", text="My sister Anna got married in Lisbon.",
                               occurred_at="2026-11-30T09:00:00"),
                RecalledMemory(kind="turn", memory_id="b", text="Anna moved to Berlin.", occurred_at="2026-11-20T09:00:00")]
    base = dict(text="What about Anna?", intent="continue_conversation", is_recall=True, now=now, language="en-US",
                user_emotion=Emotion(), profile=UserProfile(user_id=MAYA, user_name="Maya"))
    asserted = ReplyInputs(**base, recall=RecallReport(outcome="asserted", memories=memories))
    packet, reply = background(asserted), offline_reply(asserted)
    for m in memories:  # said back as reported speech, the same words in both (interaction/reported_speech.py)
        assert told_back(m.kind, m.text) in packet and told_back(m.kind, m.text) in reply
    assert "your sister Anna got married in Lisbon" in reply and "yesterday" in reply
    offered = ReplyInputs(**base, recall=RecallReport(outcome="offered", memories=memories[:1]))
    assert "do you mean" in offline_reply(offered) and "Ask whether they mean" in background(offered)
    abstained = ReplyInputs(**base, recall=RecallReport(outcome="abstained"))
    assert "don't remember you telling me" in offline_reply(abstained)
    assert "do not remember them telling you" in background(abstained)


def test_forget_removes_the_turn_documents(tmp_path):
    services, layout, clock = _services(tmp_path)
    _say(services, clock, KITTEN, HOUSE)
    ids, _, metas, _ = services.episodic.documents(MAYA)
    assert sorted(m["kind"] for m in metas) == ["conversation", "episode", "turn", "turn"]
    assert all("occurred_at" in m and isinstance(m["occurred_ts"], float) for m in metas)
    assert services.retrieve(MAYA, "What did I call the cat we got?", is_recall=True).recall.outcome == "asserted"
    assert services.forget_user(MAYA)["text_memories"] == 4
    assert services.episodic.documents(MAYA) is None and len(services.text_pools.pool(MAYA)) == 0
    after = services.retrieve(MAYA, "What did I call the cat we got?", is_recall=True).recall
    assert after.outcome == "abstained" and after.memories == []


def test_a_scene_and_an_explicit_memory_are_candidates_like_turns(tmp_path):
    services, layout, clock = _services(tmp_path)
    write_scene(layout, MAYA, GIG, when=clock.now() - timedelta(hours=1))
    services.on_scene_stored(MAYA)
    collection = services.episodic._collection(MAYA, create=True)
    when = clock.now() - timedelta(days=2)
    collection.add(ids=["explicit_1"], documents=["My locker code at the gym is 4471."], metadatas=[{
        "user_id": MAYA, "kind": "explicit_memory", "occurred_at": when.isoformat(),
        "occurred_ts": when.timestamp(), "source_turn": "t1"}])
    gig = services.retrieve(MAYA, "What was the name of the venue where we performed?", is_recall=True)
    assert gig.recall.outcome == "asserted" and gig.scene is not None and gig.scene.injected
    assert gig.recall.memories[0].kind == "moment"
    code = services.retrieve(MAYA, "What is my locker code?", is_recall=True).recall
    assert code.outcome == "asserted" and code.memories[0].kind == "explicit_memory"


def test_last_time_means_what_was_said_then_not_the_first_meeting_anchor(tmp_path):
    """One first conversation holds both the first-meeting scene and a moment: "last time" is the moment."""
    services, layout, clock = _services(tmp_path)
    write_scene(layout, MAYA, None, when=clock.now(), scene_type="first_meeting", memorability=1.0)
    moment = write_scene(layout, MAYA, GIG, when=clock.now() + timedelta(minutes=1), memorability=1.0)
    _say(services, clock, "Hello! My name is Maya.", GIG, "I have to go now. Goodbye!")
    services.on_scene_stored(MAYA)
    clock.advance(24)
    result = services.retrieve(MAYA, "Do you remember what I told you last time?", is_recall=True)
    assert result.recall.outcome == "asserted" and result.scene.scene_id == moment.scene_id
    first = services.retrieve(MAYA, "Do you remember the first time we met?", is_recall=True)
    assert first.scene.scene_type == "first_meeting"


def test_the_verifier_reads_a_shortlist_again_only_when_a_quote_reads_otherwise(tmp_path):
    services, _, clock = _services(tmp_path)
    settings = services.settings.interaction.retrieval.recall
    embedder = services.scene_index._fallback
    query = "What did I call the cat we got?"
    vector = embedder.embed([query])[0]
    batches = []

    class Counted(_Refuses):
        def score(self, query: str, texts: list[str]) -> np.ndarray:
            batches.append(list(texts))
            return super().score(query, texts)

    def decide(texts: list[str], reading) -> None:
        batches.clear()
        core = RetrievalCore(settings, Counted(), settings.decision_for("minilm_onnx"), reading=reading)
        core.decide(query, clock.now(), [(_pool(texts, embedder), vector)])

    decide([KITTEN, HOUSE, GIG], lambda quote: quote)
    assert len(batches) == 1  # the same batch twice gives the same logits
    request = "Remind me to buy cat food."
    decide([KITTEN, request], lambda quote: "I have to buy cat food." if quote == request else quote)
    assert len(batches) == 2 and "I have to buy cat food." in batches[1]


def test_the_warm_up_loads_what_a_first_recall_would_wait_for(tmp_path, monkeypatch):
    services, _, clock = _services(tmp_path)
    settings = services.settings.interaction.retrieval.recall
    parsed, scored = [], []
    monkeypatch.setattr(windows, "_calendar", lambda query, now: parsed.append(query))

    class Counted(_Refuses):
        def score(self, query: str, texts: list[str]) -> np.ndarray:
            scored.append(query)
            return super().score(query, texts)

    RetrievalCore(settings, Counted(), settings.decision_for("minilm_onnx")).warm_up(clock.now())
    assert len(parsed) == 1 and len(scored) == 1


def test_a_recall_embeds_what_its_question_and_memories_name_in_one_model_run(tmp_path):
    services, _, _ = _services(tmp_path)
    runs = []

    def embed(texts):
        runs.append(list(texts))
        return services.offline.embed(texts)

    thresholds = Thresholds.of(services.settings.interaction.retrieval.recall.decision_for("minilm_onnx"))
    counted = EntityReader(load_parser(), embed, thresholds)
    question = "What did I tell you about my neighbour's grey kitten?"
    memories = [KITTEN, HOUSE, GIG, "My neighbour's dog Rex barked all night."]
    counted.prepare([question, *memories])
    compared = [counted.compare(question, m) for m in memories]
    assert len(runs) == 1
    assert compared == [EntityReader(load_parser(), services.offline.embed, thresholds).compare(question, m)
                        for m in memories]


def test_a_saved_conversation_is_read_for_recall_when_it_is_saved(tmp_path, monkeypatch):
    services, _, clock = _services(tmp_path)
    _say(services, clock, HOUSE, KITTEN)
    fetched = []
    documents = services.episodic.documents
    monkeypatch.setattr(services.episodic, "documents", lambda user_id: fetched.append(user_id) or documents(user_id))
    report = services.retrieve(MAYA, "What did I tell you about the house we bought?", is_recall=True).recall
    assert report.outcome == "asserted" and report.memories[0].text == HOUSE
    assert fetched == []  # the recall read the candidates the save had read


def test_a_recall_in_the_conversation_embeds_only_what_its_question_names(tmp_path):
    services, layout, clock = _services(tmp_path)
    dm = DialogueManager(services.settings, layout, clock, Outbox(), services=services, environ={})
    for text in ("Hello, my name is Maya.", KITTEN, HOUSE):
        dm.process_input(UserInput(text=text))
    reader = services.core.entities
    embedded = []
    embed = reader._embed
    reader._embed = lambda texts: embedded.append(list(texts)) or embed(texts)
    question = "What did I tell you about the grey kitten we adopted?"
    turn = dm.process_input(UserInput(text=question))
    assert turn.is_recall and turn.recall.memories[0].text == KITTEN
    # what the earlier turns name was embedded after their replies
    assert embedded and all(word in question for phrases in embedded for phrase in phrases for word in phrase.split())


def test_a_summary_is_never_the_answer_to_a_topic_and_what_we_talked_about_is_what_was_told(tmp_path):
    """The offline summary quotes every turn; a topic question is answered by the turn, and "what did
    we talk about last time?" by the things told one by one (not the greeting, not the summary)."""
    from interaction.agents.episode import offline_summary

    services, _, clock = _services(tmp_path)
    now = clock.now()
    said = ["Hello Nadine!", KITTEN, HOUSE, "Bye for now."]
    turns = [TranscriptTurn(role, text if role == "user" else "Tell me more!", now + timedelta(seconds=2 * i + (role == "nadine")))
             for i, text in enumerate(said) for role in ("user", "nadine")]
    assert services.save_episode(MAYA, "Maya", turns, offline_summary(turns, "Maya"))
    clock.advance(24 * 3)
    for question in ("What did we call the kitten we adopted?", "Where is the home we bought?"):
        report, reply = _reply(services, question)
        assert report.memories and all(m.kind == "turn" for m in report.memories), report
        assert "talked with Nadine" not in reply
    report, reply = _reply(services, "What did we talk about last time?")
    assert report.outcome == "asserted" and report.decided_by == "memorable"
    assert [m.text for m in report.memories] == [KITTEN, HOUSE]
    assert reply.startswith("Of course") and "Hello" not in reply and "talked with Nadine" not in reply
    assert told_back("turn", KITTEN)[:40] in reply


def test_what_we_talked_about_last_time_is_the_moment_kept_not_the_introduction(tmp_path):
    """Beside a moment kept as memorable, the other turns of the visit (an introduction) are no news."""
    from interaction.agents.episode import offline_summary

    services, layout, clock = _services(tmp_path)
    now = clock.now()
    said = ["Hi, my name is Maya.", KITTEN, "We had soup for lunch."]
    turns = [TranscriptTurn(role, text if role == "user" else "Tell me more!", now + timedelta(seconds=2 * i + (role == "nadine")))
             for i, text in enumerate(said) for role in ("user", "nadine")]
    write_scene(layout, MAYA, KITTEN, when=now + timedelta(seconds=2))
    assert services.save_episode(MAYA, "Maya", turns, offline_summary(turns, "Maya"))
    clock.advance(24 * 3)
    report, _ = _reply(services, "What did I tell you last time?")
    assert report.outcome == "asserted" and [m.text for m in report.memories] == [KITTEN], report


def test_the_one_memory_of_the_time_named_that_agrees_is_asked_about(tmp_path):
    """'What happened with my boy last week?' when the only thing told then that agrees is about a
    son: asked about (the probability alone abstained), and said with its time words moved."""
    services, layout, clock = _services(tmp_path)
    told = "My son passed his swimming exam today!"
    write_scene(layout, MAYA, told, when=clock.now())
    _say(services, clock, "Please remember that the plumber comes on Friday.")
    clock.advance(24 * 6)
    report, reply = _reply(services, "What happened with my boy last week?")
    assert report.outcome in ("offered", "asserted") and report.memories[0].text == told, report
    assert "today" not in reply, reply
    if report.decided_by == "window":
        from common.turn_notes import recall_note

        assert recall_note(report)[0].startswith("[recall] asked about in 'last week': the one memory of that time")
    cousin, _ = _reply(services, "What happened with my cousin last week?")
    assert cousin.outcome != "asserted" and all(m.text != told for m in cousin.memories)


def test_what_we_talked_about_the_other_day_is_what_was_told_a_few_days_ago(tmp_path):
    """"the other day" names a window (a few days back), not a topic: with it left out the question
    names nothing, so it is answered by what was told then."""
    services, _, clock = _services(tmp_path)
    _say(services, clock, GIG)
    clock.advance(60)
    report, _ = _reply(services, "What did we chat about the other day?")
    assert report.outcome == "asserted" and [m.text for m in report.memories] == [GIG], report
