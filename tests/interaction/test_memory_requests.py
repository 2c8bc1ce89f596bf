"""Memory intents in the dialogue, in-process with real memory services (Chroma, scenes on disk):
remember requests store an explicit memory whatever the emotion, forget-one asks first and removes only
that memory, "what do you know about me?" is answered from what is stored, a recall question is never
stored as a moment, and an emotional "I forgot ..." statement reaches the memorability policy."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from common import topics as t
from common.embedding.chroma import NadineEmbeddingFunction
from common.embedding.registry import offline_text_embedder
from common.messages import EmotionSignal, UserDetected, UserInput
from common.store import ProfileStore, SceneStore
from interaction.dialogue import DialogueManager
from interaction.memory.chroma_store import collection_name, make_client, open_collection
from interaction.memory.local_services import LocalMemoryServices
from perception.selective_memory.policies import intensity_verdict
from tests.interaction.memory_fixtures import layout_and_clock, make_settings, write_scene
from tests.interaction.test_dialogue_inprocess import Outbox


@pytest.fixture
def maya(tmp_path):
    """A DialogueManager with real memory services talking with Maya, known by face."""
    layout, clock = layout_and_clock(tmp_path)
    settings = make_settings(tmp_path)
    services = LocalMemoryServices(settings, layout, clock, bus=None)
    out = Outbox()
    dm = DialogueManager(settings, layout, clock, out, services=services, environ={})
    store = ProfileStore(layout)
    uid = store.mint_user_id("Maya", clock.now())
    store.update(uid, {"user_name": "Maya"}, clock.now())
    dm.on_user_detected(UserDetected(user_name="Maya", confidence=90.0, user_id=uid))
    return dm, out, services, uid


def say(dm: DialogueManager, text: str, **pins):
    return dm.process_input(UserInput(text=text, **pins))


def affect_of(out: Outbox, turn):
    return next(a for a in out.of(t.AFFECT_STATE) if a.turn_id == turn.turn_id)


def test_a_remember_request_is_stored_said_back_and_recalled_later(maya):
    dm, out, services, uid = maya
    asked = say(dm, "Please remember that my daughter's birthday is on 3 May.",
                user_emotion=EmotionSignal(label="neutral", intensity=0.0))
    assert asked.memory_intent == "remember" and not asked.is_recall
    assert asked.reply == "I'll remember that your daughter's birthday is on 3 May."
    stored = services.explicit.list(uid)
    assert [m.text for m in stored] == ["my daughter's birthday is on 3 May"]
    assert stored[0].source_turn == asked.turn_id
    dm.close_session("test")  # a later conversation
    dm.on_user_detected(UserDetected(user_name="Maya", confidence=90.0, user_id=uid))
    later = say(dm, "When is my daughter's birthday?")
    assert later.memory_intent == "recall" and later.is_recall
    assert "3 May" in later.reply and "your daughter" in later.reply
    assert affect_of(out, later).suppress_storage  # a recall question is never a new moment


def test_explicit_memory_is_a_document_every_kind_query_finds(maya):
    """The retrieval core queries the whole collection: the fact must be there with the contract's
    metadata, and a paraphrased question must find it first."""
    dm, _, services, uid = maya
    say(dm, "Don't forget that I'm allergic to peanuts.")
    say(dm, "My sister lives in Madrid and works as a nurse.")
    dm.close_session("test")  # an episode + conversation document join the collection
    client = make_client(dm.settings.interaction.chroma, dm.layout.chroma_dir)
    collection = open_collection(client, collection_name(uid), NadineEmbeddingFunction(offline_text_embedder()))
    got = collection.query(query_texts=["what food can't I eat?"], n_results=collection.count(),
                           include=["documents", "metadatas"])
    first = got["metadatas"][0][0]
    assert got["documents"][0][0] == "I'm allergic to peanuts"
    assert first["kind"] == "explicit_memory" and first["occurred_at"] and isinstance(first["occurred_ts"], float)
    assert first["source_turn"]


def all_documents(dm, uid) -> list[str]:
    client = make_client(dm.settings.interaction.chroma, dm.layout.chroma_dir)
    collection = open_collection(client, collection_name(uid), NadineEmbeddingFunction(offline_text_embedder()))
    return collection.get(include=["documents"])["documents"]


def test_forget_one_asks_and_removes_only_that_memory(maya):
    dm, out, services, uid = maya
    say(dm, "Please remember that my sister is expecting a baby.")
    say(dm, "Please remember that my dog is called Bruno.")
    dm.close_session("test")  # the transcript and its summary now hold the words too
    dm.on_user_detected(UserDetected(user_name="Maya", confidence=90.0, user_id=uid))
    assert any("expecting a baby" in d for d in all_documents(dm, uid) if not d.startswith("my sister"))
    asked = say(dm, "Forget what I said about my sister.")
    assert asked.memory_intent == "forget_one"
    assert asked.reply.startswith("Do you want me to forget that your sister is expecting a baby?")
    assert affect_of(out, asked).suppress_storage
    assert len(services.explicit.list(uid)) == 2  # nothing happens before the answer
    done = say(dm, "Yes, please.")
    assert "forgotten" in done.reply
    assert [m.text for m in services.explicit.list(uid)] == ["my dog is called Bruno"]
    documents = all_documents(dm, uid)
    assert not [d for d in documents if "expecting a baby" in d]  # transcript and summary scrubbed
    assert any("Bruno" in d for d in documents if d != "my dog is called Bruno")  # the rest stays
    assert not [x for x in dm.session.transcript if "expecting a baby" in x.text]
    on_disk = [f for f in dm.layout.chroma_dir.rglob("*") if f.is_file() and b"expecting a baby" in f.read_bytes()]
    assert on_disk == []  # nor in Chroma's log or free pages
    assert say(dm, "Yes").intent != "forget_one_confirmed"  # the question is gone


def test_forget_one_kept_on_no_and_never_by_someone_else(maya):
    dm, _, services, uid = maya
    say(dm, "Please remember that my sister is expecting a baby.")
    say(dm, "Forget what I said about my sister.")
    assert "keep" in say(dm, "No, keep it.").reply
    say(dm, "Forget what I said about my sister.")
    other = ProfileStore(dm.layout).mint_user_id("Tom", dm.clock.now())
    ProfileStore(dm.layout).update(other, {"user_name": "Tom"}, dm.clock.now())
    dm.on_user_detected(UserDetected(user_name="Tom", confidence=90.0, user_id=other))
    say(dm, "Yes.")
    assert len(services.explicit.list(uid)) == 1


@pytest.mark.parametrize("before", ["What's my wifi password?", "Hello again!"])
def test_a_forget_request_closed_by_please_asks_about_what_it_names(maya, before):
    """"Forget what I told you about the van please." right after a question memory could not answer got
    "I'm sorry to hear that": the tagger read "van please" as one noun, the request named "please" and
    was taken for "forget what I just said", with nothing just said. "please" closes it; the van is
    what it names."""
    dm, _, services, uid = maya
    say(dm, "Please remember that my van's MOT is due on the 2nd of January.")
    say(dm, before)
    asked = say(dm, "Forget what I told you about the van please.")
    assert asked.reply.startswith("Do you want me to forget") and "MOT" in asked.reply, asked.reply
    say(dm, "Yes.")
    assert services.explicit.list(uid) == []


@pytest.mark.parametrize("leaving", ["Bye.", "Gotta dash, see you!"])
def test_a_goodbye_instead_of_an_answer_keeps_the_memory_and_is_said_goodbye_to(maya, leaving):
    """"Bye." to "Do you want me to forget ...?" got "All right, I'll keep that memory." and no goodbye
    (replay24 probes); "gotta go" would read as a yes. Leaving is no answer: nothing is forgotten, and
    the goodbye is answered, for one memory as for everything."""
    dm, _, services, uid = maya
    say(dm, "Please remember that my bike shed code is 7723.")
    say(dm, "Forget my bike shed code.")
    left = say(dm, leaving)
    assert left.reply.startswith("Goodbye") and len(services.explicit.list(uid)) == 1, left.reply
    dm.on_user_detected(UserDetected(user_name="Maya", confidence=90.0, user_id=uid))
    say(dm, "Please forget everything about me.")
    assert say(dm, leaving).reply.startswith("Goodbye") and len(services.explicit.list(uid)) == 1


def test_forget_one_removes_a_moment_scene_from_disk(maya):
    dm, _, _, uid = maya
    when = dm.clock.now() - timedelta(days=2)
    keep = write_scene(dm.layout, uid, "I just defended my PhD thesis today, I'm so happy!", when=when, seed=1)
    gone = write_scene(dm.layout, uid, "My grandmother's apple pie won a prize at the village fair!",
                       when=when + timedelta(hours=1), seed=2)
    asked = say(dm, "Please forget what I told you about my grandmother's pie.")
    assert "apple pie" in asked.reply and asked.reply.startswith("Do you want me to forget")
    say(dm, "Yes.")
    left = [m.scene_id for m in SceneStore(dm.layout).list(uid)]
    assert left == [keep.scene_id]
    assert not (dm.layout.scenes_dir(uid) / "images" / f"{gone.scene_id}.jpg").exists()
    assert not SceneStore(dm.layout).embedding_path(uid, gone.scene_id).exists()


def test_what_do_you_know_about_me(maya, tmp_path):
    dm, out, _, uid = maya
    little = say(dm, "What do you know about me?")
    assert little.memory_intent == "recall" and little.is_recall  # about_me is a recall on the wire
    assert "only know your name" in little.reply and "don't know" not in little.reply
    ProfileStore(dm.layout).update(uid, {"location": "Geneva", "hobbies": ["hiking"]}, dm.clock.now())
    dm.close_session("test")  # a later conversation loads the profile afresh
    dm.on_user_detected(UserDetected(user_name="Maya", confidence=90.0, user_id=uid))
    say(dm, "Please remember that my dog is called Bruno.")
    write_scene(dm.layout, uid, "I just defended my PhD thesis today, I'm so happy!", when=dm.clock.now(), seed=1)
    full = say(dm, "What do you remember about me?")
    for piece in ("Maya", "Geneva", "hiking", "your dog is called Bruno", "PhD"):
        assert piece in full.reply, (piece, full.reply)


def test_a_question_about_this_session_is_answered_from_its_turns(maya):
    dm, _, _, _ = maya
    say(dm, "My brother just bought a sailing boat.")
    say(dm, "The weather was lovely this morning.")
    asked = say(dm, "What did I just say about my brother?")
    assert asked.is_recall and "sailing boat" in asked.reply


def test_an_emotional_forgot_statement_goes_to_the_memorability_policy(maya):
    dm, out, _, _ = maya
    turn = say(dm, "I'm devastated, I forgot my keys and missed my flight.")
    assert turn.memory_intent == "statement" and not turn.is_recall
    affect = affect_of(out, turn)
    assert not affect.suppress_storage and affect.user_label == "sad"
    policy = dm.settings.perception.selective_memory
    assert intensity_verdict(affect, policy.emotion_source, policy.intensity_threshold).store  # a moment
    plain = say(dm, "Remember to call mum.")
    assert plain.memory_intent == "statement"
    assert "I'll remember" not in plain.reply


def test_a_pinned_is_recall_still_pins(maya):
    dm, _, _, _ = maya
    assert not say(dm, "Do you remember my PhD?", is_recall=False).is_recall
    pinned = say(dm, "Nice weather today.", is_recall=True)
    assert pinned.is_recall and pinned.memory_intent == "recall"


@pytest.fixture
def stranger(tmp_path):
    """A DialogueManager with real memory services talking with someone not known yet."""
    layout, clock = layout_and_clock(tmp_path)
    settings = make_settings(tmp_path)
    services = LocalMemoryServices(settings, layout, clock, bus=None)
    dm = DialogueManager(settings, layout, clock, Outbox(), services=services, environ={})
    return dm


def test_a_stranger_is_told_nothing_is_stored(stranger):
    turn = say(stranger, "Please remember that my daughter's birthday is on 3 May.")
    assert "don't know who you are" in turn.reply and "I'll remember" not in turn.reply


def test_a_models_memory_intent_decides_and_the_classifier_only_fills_in(maya, monkeypatch):
    """With an understanding model, its memory intent stands, whatever the classifier would say;
    a model answer without one falls back to the classifier."""
    dm, _, services, uid = maya
    answers = {
        "Do you remember my PhD?": {"memory_intent": "statement"},
        "Tell me something nice.": {"memory_intent": "recall"},
        "Keep this in your head: Lea, my niece, turns six on Friday.":
            {"memory_intent": "remember", "memory_text": "my niece Lea turns six on Friday"},
        "When did we first meet?": {},  # no memory intent: the classifier's fallback decides
    }

    def model(agent, messages, json_mode=None, **_):
        if agent != "turn_understanding":
            return None
        latest = messages[-1]["content"].rsplit("Latest user message: ", 1)[-1]
        return json.dumps({"intent": "continue_conversation", **answers[latest],
                           "plan": [{"agent": "response_agent", "message": latest}]})

    monkeypatch.setattr(dm.deps, "ask", model)
    assert not say(dm, "Do you remember my PhD?").is_recall
    assert say(dm, "Tell me something nice.").memory_intent == "recall"
    kept = say(dm, "Keep this in your head: Lea, my niece, turns six on Friday.")
    # which Friday was taken is said as it is kept
    assert kept.reply.startswith("I'll remember that your niece Lea turns six on Friday the "), kept.reply
    assert [m.text for m in services.explicit.list(uid)] == ["my niece Lea turns six on Friday"]
    assert say(dm, "When did we first meet?").is_recall


def test_about_me_with_a_model_gets_only_what_is_stored(maya, monkeypatch):
    dm, _, _, _ = maya
    say(dm, "Please remember that my dog is called Bruno.")
    asked = []

    class Model:  # the registry's answer for the response agent: a model is configured
        profile = None

    def model(agent, messages, json_mode=None, **_):
        asked.append(messages)
        return "You're Maya, and your dog is called Bruno." if agent == "response_agent" else None

    monkeypatch.setattr(dm.deps, "ask", model)
    monkeypatch.setattr(dm.deps.llm, "for_agent", lambda agent: Model())
    turn = say(dm, "What do you know about me?")
    assert turn.reply == "You're Maya, and your dog is called Bruno."
    prompt = asked[-1][-1]["content"]
    assert "your dog is called Bruno" in prompt and "Maya" in prompt


def test_a_recall_of_something_never_told_stores_nothing(maya):
    dm, out, services, uid = maya
    turn = say(dm, "Do you remember what I told you about my trip to Peru?")
    assert turn.is_recall and "don't remember" in turn.reply
    assert affect_of(out, turn).suppress_storage and services.explicit.list(uid) == []


def test_an_ordinary_turn_never_volunteers_an_explicit_memory_a_recall_finds_it(maya):
    # issue 12: ordinary turns never volunteer a text memory; the question, read as a recall, finds it
    dm, out, _, uid = maya
    say(dm, "Please remember that my cat is called Mimi.")
    dm.close_session("test")  # a later conversation
    dm.on_user_detected(UserDetected(user_name="Maya", confidence=90.0, user_id=uid))
    asked = say(dm, "What's my cat called?", is_recall=False)  # pinned as a statement
    # a question tells nothing to keep as a moment, but is no recall question either
    assert "Mimi" not in asked.reply and affect_of(out, asked).suppress_reason != "a recall question"
    assert "Mimi" not in say(dm, "Do you like animals?").reply
    recalled = say(dm, "What's my cat called?", is_recall=True)
    assert "Mimi" in recalled.reply and recalled.recall is not None
    assert recalled.recall.outcome in ("asserted", "offered")
    assert any(m.kind == "explicit_memory" for m in recalled.recall.memories)


def test_forget_one_takes_back_something_said_in_this_conversation(maya):
    dm, _, _, _ = maya
    say(dm, "My brother lost his job at the bank last week.")
    say(dm, "The weather was lovely this morning.")
    asked = say(dm, "Please forget what I said about my brother.")
    assert asked.reply.startswith("Do you want me to forget that you told me") and "brother" in asked.reply
    assert say(dm, "Yes.").intent == "forget_one_confirmed"
    said = [x.text for x in dm.session.transcript]
    assert not [x for x in said if "lost his job" in x] and "The weather was lovely this morning." in said


def test_a_remember_request_that_names_nothing_asks_what(maya):
    dm, _, services, uid = maya
    turn = say(dm, "Remember this, please!")
    assert turn.memory_intent == "remember" and "What would you like me to remember?" in turn.reply
    assert services.explicit.list(uid) == []


def test_a_request_announcing_what_follows_keeps_that_not_the_news_before_it(maya):
    dm, _, services, uid = maya
    turn = say(dm, "I run a bakery in Galway. Could you remember something for me? "
                   "The freezer alarm code is 3318.")
    assert turn.memory_intent == "remember", turn.reply
    assert [m.text for m in services.explicit.list(uid)] == ["The freezer alarm code is 3318"]
    assert "bakery" not in turn.reply and "3318" in turn.reply


def test_what_to_remember_asked_for_is_kept_from_the_next_turn(maya):
    dm, _, services, uid = maya
    asked = say(dm, "Can you keep a number for me?")
    assert asked.memory_intent == "remember" and asked.reply.endswith("What would you like me to remember?")
    assert "not as a memory of its own" not in asked.reply
    told = say(dm, "The bike shed combination is 4-7-1.")
    assert told.memory_intent == "remember" and "4-7-1" in told.reply, told.reply
    assert [m.text for m in services.explicit.list(uid)] == ["The bike shed combination is 4-7-1"]
    say(dm, "Would you remember a number for me?")
    dropped = say(dm, "oh never mind")
    assert dropped.memory_intent != "remember" and "remember" not in dropped.reply.lower()
    assert len(services.explicit.list(uid)) == 1


def test_a_code_said_in_a_clause_hung_on_its_thing_is_kept_with_it(maya):
    """The parser hangs "it's GM-20931" on "number" as an apposition: still the value of that number."""
    dm, _, services, uid = maya
    say(dm, "Please remember my gym membership number, it's GM-20931.")
    assert [m.text for m in services.explicit.list(uid)] == ["my gym membership number is GM-20931"]


@pytest.mark.parametrize(("asked", "thing"), [("can you remember my bike lock code for me? it's 2290", "bike lock code"),
                                             ("Could you remember my door code for me? It's 2290.", "door code")])
def test_a_code_said_in_the_sentence_after_the_request_is_kept_with_its_thing(maya, asked, thing):
    """"can u remember wifi password for me? its bluefox77" was kept as "wifi password for you. its ..."
    and "whats the wifi password" was answered without it (tester): the value said after the question,
    past its "for me", is that thing's."""
    dm, _, services, uid = maya
    say(dm, asked)
    assert [m.text for m in services.explicit.list(uid)] == [f"my {thing} is 2290"]
    assert say(dm, f"What's my {thing}?").reply.startswith(f"Your {thing} is 2290")


def test_a_forget_request_closed_by_please_names_its_thing(maya):
    dm, _, services, uid = maya
    say(dm, "Please remember that the shed padlock code is 8802.")
    say(dm, "Where do I work?")  # a question memory does not answer: nothing just talked about
    asked = say(dm, "Forget the padlock code please.")
    assert asked.memory_intent == "forget_one" and "8802" in asked.reply, asked.reply
    assert say(dm, "Yes.").intent == "forget_one_confirmed"
    assert services.explicit.list(uid) == []


def test_a_remember_request_whose_content_tells_of_its_own_subject_is_kept(maya):
    """The intent classifier reads some appointments as a request themselves (p 0.51): a clause with
    a subject of its own other than the speakers tells something, so it is kept."""
    dm, _, services, uid = maya
    turn = say(dm, "Please remember my van goes in for its MOT on Thursday.")
    assert "I'll remember that your van goes in for its MOT on Thursday" in turn.reply, turn.reply
    assert [m.text for m in services.explicit.list(uid)] == ["my van goes in for its MOT on Thursday"]


class _ReadsEverythingAsARequest:
    """A classifier double: every text reads as a remember request (the shipped one read the
    playthrough's "my car goes in for its MOT on Monday" so, p 0.51)."""

    classes = ["remember", "forget_one", "forget_me", "statement"]

    def probabilities(self, texts: list[str]):
        import numpy as np

        return np.array([[0.9, 0.0, 0.0, 0.1]] * len(texts))


@pytest.mark.parametrize("content,names", [
    ("the boiler engineer comes on Thursday", True), ("my sister's plane arrives at noon", True),
    ("remember it", False), ("I want you to keep that in mind", False), ("note this down", False),
])
def test_content_that_tells_of_its_own_subject_names_something_however_the_classifier_reads_it(content, names):
    from interaction.memory_intent.phrasing import names_something

    assert names_something(content, _ReadsEverythingAsARequest()) is names


@pytest.mark.parametrize(("said", "kept"), [
    # the request after the fact with no comma between: the fact is a clause of its own
    ("the plumber comes on the 14th so remember that for me", "the plumber comes on the 14th"),
    # a linking adverb opening the fact joined it to the talk before
    ("Also my cousin's flight number is BA 117, remember that please.", "my cousin's flight number is BA 117"),
])
def test_what_a_remember_request_keeps_is_its_fact_alone(said, kept):
    from interaction.memory_intent.phrasing import request_content

    assert request_content(said) == kept


def test_a_question_about_something_not_said_in_this_conversation_gets_no_other_turn(maya):
    dm, _, _, _ = maya
    say(dm, "My brother's wife got a new job at the bank.")
    say(dm, "We adopted a grey cat called Pixel.")
    for question in ("What did I tell you about my mother?", "What did I just say about my boss?"):
        asked = say(dm, question)
        assert asked.is_recall and "don't remember" in asked.reply, asked.reply
        assert "bank" not in asked.reply and "Pixel" not in asked.reply


def test_a_forget_request_for_something_never_told_offers_nothing_else(maya):
    dm, _, services, uid = maya
    say(dm, "Please remember that my sister is expecting a baby.")
    say(dm, "We adopted a grey cat called Pixel.")
    asked = say(dm, "Scratch the part about my debts.")
    assert asked.memory_intent == "forget_one" and "nothing to forget" in asked.reply, asked.reply
    assert say(dm, "Yes.").intent != "forget_one_confirmed"
    assert [m.text for m in services.explicit.list(uid)] == ["my sister is expecting a baby"]


def test_an_unsure_match_in_this_conversation_is_asked_about_not_asserted():
    from datetime import datetime

    from common.messages import RecalledMemory, RecallReport
    from interaction.offline.replies import offline_reply
    from interaction.prompts import background
    from interaction.reply_inputs import ReplyInputs
    from interaction.turn_understanding import Emotion

    def inputs(outcome):
        said = RecalledMemory(kind="turn", memory_id="0", text="My brother's wife got a new job.",
                              occurred_at="2026-11-30T11:58:00")
        return ReplyInputs(text="What did I say about my brother's car?", intent="continue_conversation",
                           is_recall=True, now=datetime(2026, 11, 30, 12), language="en",
                           user_emotion=Emotion(label="neutral", intensity=0.0), profile=None,
                           recall=RecallReport(outcome=outcome, memories=[said]))

    offered = offline_reply(inputs("offered"))
    assert offered.startswith("I'm not sure") and offered.endswith("?") and "new job" in offered
    asserted = offline_reply(inputs("asserted"))
    assert "earlier today you told me" in asserted and "new job" in asserted and "not sure" not in asserted
    assert "Ask whether they mean that" in background(inputs("offered"))
    assert "Ask whether" not in background(inputs("asserted"))


@pytest.mark.parametrize(("content", "names"), [
    ("", False), ("please", False), ("okay", False), ("for me", False), ("this", False),
    ("dentist on Friday", True), ("42", True), ("I hate olives", True), ("my daughter's birthday is on May 3rd", True),
])
def test_what_a_remember_request_names_is_read_by_the_tagger(content, names):
    from interaction.memory_intent.phrasing import names_something

    assert names_something(content) is names


def test_a_question_about_another_time_is_not_answered_from_this_conversation(maya):
    dm, _, _, _ = maya
    say(dm, "My brother bought a sailing boat.")
    asked = say(dm, "What did I tell you about my brother last week?")
    assert asked.is_recall and "sailing boat" not in asked.reply, asked.reply
    assert asked.recall is None or not [m for m in asked.recall.memories if "sailing boat" in m.text]
    today = say(dm, "What did I tell you about my brother today?")
    assert "sailing boat" in today.reply, today.reply


def test_an_answer_to_nadines_own_question_is_never_a_memory(maya):
    """"No, actually, keep it." answers "Do you want me to forget ...?": never kept as something told
    (left out of the transcript, or marked as that answer on the stored turn), never a recall
    candidate nor quoted in the session's summary: no later question gets it back, and a question
    about the moment finds the moment."""
    dm, _, services, uid = maya
    news = "My daughter was accepted into medical school today, I'm so proud of her!"
    say(dm, news)
    say(dm, "Forget what I told you about my daughter.")
    assert "keep" in say(dm, "No, actually, keep it.").reply
    said = [(x.text, x.answers_question) for x in dm.session.transcript if x.role == "user"]
    assert (news, False) in said and not [text for text, answers in said if "keep it" in text and not answers]
    dm.close_session("test")
    pool = services.text_pools.pool(uid)
    assert not [c for c in pool.items if "keep it" in c.quote], [c.quote for c in pool.items]
    dm.clock.advance(22)
    dm.on_user_detected(UserDetected(user_name="Maya", confidence=90.0, user_id=uid))
    for question in ("Do you remember what happened with my kid?", "What did I tell you about my daughter?",
                     "What did I say when you asked me?"):
        later = say(dm, question)
        assert later.recall is not None and "keep it" not in later.reply, later
        assert not [m for m in later.recall.memories if "keep it" in m.text], later.recall
    told = say(dm, "What did I tell you about my daughter?").recall
    assert told.outcome == "asserted" and news in [m.text for m in told.memories], told


def test_the_answer_to_is_your_name_is_kept_as_an_answer(tmp_path):
    layout, clock = layout_and_clock(tmp_path)
    settings = make_settings(tmp_path)
    dm = DialogueManager(settings, layout, clock, Outbox(), services=LocalMemoryServices(settings, layout, clock, bus=None),
                         environ={})
    store = ProfileStore(layout)
    for name in ("Maya", "Maja"):
        store.update(store.mint_user_id(name, clock.now()), {"user_name": name}, clock.now())
    assert say(dm, "Hi, I'm Maia.").extra["pending_confirmation"]
    say(dm, "Yes, that's me.")
    said = [(x.text, x.answers_question) for x in dm.session.transcript if x.role == "user"]
    assert said == [("Hi, I'm Maia.", False), ("Yes, that's me.", True)]


def test_a_request_to_remember_is_kept_once_as_asked_never_also_as_a_moment(maya):
    """Felt or not, what is asked to be kept is the explicit memory: a moment of the same words
    beside it was quoted twice by "what do you know about me?" and outlived a forget of either."""
    dm, out, _, _ = maya
    for said in ("Please remember that my sister's flight lands on Thursday at six.",
                 "Please remember that I got engaged to Sam today, I'm over the moon!"):
        affect = affect_of(out, say(dm, said))
        assert affect.suppress_storage and affect.suppress_reason == "a request to remember", said


def test_a_stranger_asking_what_nadine_knows_is_asked_their_name_not_offered_a_forget(stranger):
    turn = say(stranger, "Tell me what you remember about me.")
    assert "don't know who you are" in turn.reply and "name" in turn.reply
    assert "forget" not in turn.reply


def test_a_stranger_asking_to_forget_one_thing_is_never_offered_to_forget_everything(stranger):
    turn = say(stranger, "Could you forget what I told you about my allotment?")
    assert "which memories are yours" in turn.reply and "name" in turn.reply
    assert "everything" not in turn.reply


def test_after_everything_is_forgotten_what_nadine_knows_is_nothing_and_no_forget_is_offered(maya):
    dm, _, _, _ = maya
    assert "forget everything" in say(dm, "Please erase all my data.").reply
    say(dm, "Yes, do it.")
    dm.forget_session()  # what the process does once the erase comes back (interaction/__main__.py)
    turn = say(dm, "So what do you know about me now?")
    assert "name" in turn.reply and "forget" not in turn.reply


@pytest.mark.parametrize(("said", "kept"), [
    # a request announcing what follows in its own sentence
    ("Would you hold on to a number for me? The alarm code at the allotment is 2906.",
     "the alarm code at the allotment is 2906"),
    ("Can you remember something for me? My library card number is 77120.", "my library card number is 77120"),
    # a request closing the sentence after a comma, pointing back by a pro-form
    ("Oh and my locker at the pool is number 48, hang on to that for me.", "my locker at the pool is number 48"),
    # the request first, set off by a dash
    ("Note this down for me would you — the door code at the studio is 3141.", "the door code at the studio is 3141"),
])
def test_a_request_beside_the_fact_it_keeps_keeps_the_fact(maya, said, kept):
    dm, _, services, uid = maya
    turn = say(dm, said)
    assert turn.memory_intent == "remember", turn.reply
    assert [m.text.lower() for m in services.explicit.list(uid)] == [kept], turn.reply
    assert turn.reply == f"I'll remember that {kept.replace('my ', 'your ')}.", turn.reply


def test_a_request_that_tells_what_it_keeps_keeps_it_with_what_follows(maya):
    """"Please remember my father's medicine is warfarin, and he must not eat too much spinach." was
    kept as "he must not eat too much spinach": the medicine was lost (tester). The request's own
    clause is what it keeps, the clause after it too."""
    dm, _, services, uid = maya
    say(dm, "Please remember my father's medicine is warfarin, and he must not eat too much spinach.")
    (kept,) = [m.text for m in services.explicit.list(uid)]
    assert "warfarin" in kept and "spinach" in kept, kept


def test_what_the_speaker_is_before_a_request_pointing_back_at_it_is_kept(maya):
    """"im allergic to penicilin, please remember this its important" was kept as "its important", and
    "what am i allergic to?" was not answered (tester): a statement of the speaker's is what "this" keeps."""
    dm, _, services, uid = maya
    said = say(dm, "im allergic to penicilin, please remember this its important")
    assert [m.text for m in services.explicit.list(uid)] == ["im allergic to penicilin"], said.reply
    assert "you're allergic to penicilin" in said.reply, said.reply


def test_a_request_naming_its_own_thing_is_not_read_as_keeping_the_news_beside_it(maya):
    dm, _, services, _ = maya
    turn = say(dm, "remember lisbon? we had the best week there")
    assert turn.memory_intent != "remember" and services.explicit.list(maya[3]) == [], turn.reply


def test_a_request_to_keep_a_thing_with_its_value_after_it_is_never_a_forget(maya):
    """"Please keep my apartment number, it is 1207." was asked "nothing to forget" once a turn opening
    with a bidding and a reason could be a forget: its bidding alone reads as one (the replay)."""
    dm, _, services, uid = maya
    turn = say(dm, "Please keep my apartment number, it is 1207.")
    assert turn.memory_intent != "forget_one" and "forget" not in turn.reply, turn.reply


@pytest.mark.parametrize("asked", ["give me my bike lock combination", "could you give me my bike lock combination?"])
def test_asked_to_be_given_what_was_kept_is_a_recall(maya, asked):
    """"give me my locker code" got "I'll remember that you your locker code." (my play): a request
    that Nadine give the speaker a thing of their own asks for it, whatever its words share with a
    request to keep."""
    dm = maya[0]
    say(dm, "Please remember my bike lock combination is 3902.")
    reply = say(dm, asked).reply
    assert "3902" in reply and "I'll remember" not in reply and not reply.startswith("Yes"), reply
