"""A turn asking Nadine not to keep what it says ("please don't write that down"), in-process with
the real memory services over two sessions: said back plainly, never a view question, and nothing
of it kept (no moment, explicit memory, profile fact, nor the words as something told), while the
turns around it are kept as usual."""

from __future__ import annotations

import pytest

from common.messages import UserDetected
from common.store import ProfileStore
from interaction.memory.told import is_told
from interaction.memory_intent.not_keep import memory_intent
from interaction.memory_requests import NOT_KEPT
from tests.interaction.test_memory_requests import affect_of, all_documents, maya, say  # noqa: F401

SECRET = "Between you and me, I'm planning to leave my job at Ernst and Young. Please don't write that down."


@pytest.mark.parametrize(("text", "intent"), [
    ("Please don't write that down.", "not_keep"),
    ("I lost my wallet on the bus again. Don't remember that one, ok?", "not_keep"),
    ("You don't need to remember this.", "not_keep"),
    ("Please don't remember this: my landlord still hasn't fixed the heating.", "not_keep"),  # parsed as a complement
    ("Don't forget that the plumber comes on Thursday.", "remember"),  # without its "don't" it asks to forget
    ("I don't remember that film at all.", "statement"),  # not addressed to Nadine
    ("You didn't remember my birthday last year.", "statement"),  # tells what she did
])
def test_a_negated_request_to_remember_asks_not_to_keep(text, intent):
    assert memory_intent(text) == intent
    assert (intent == "not_keep") <= (not is_told(text))


def test_what_she_is_asked_not_to_keep_is_kept_nowhere(maya):  # noqa: F811
    dm, out, services, uid = maya
    before = say(dm, "I took up rock climbing at the indoor wall last month.")
    assert not affect_of(out, before).suppress_storage
    asked = say(dm, SECRET)
    assert asked.reply == NOT_KEPT and asked.memory_intent == "not_keep"
    assert "see" not in asked.reply
    assert asked.memory_action is not None and asked.memory_action.outcome == "not_kept"
    affect = affect_of(out, asked)
    assert affect.suppress_storage and affect.suppress_reason == "asked not to keep it"
    after = say(dm, "My niece is visiting from Lisbon next week.")
    assert not affect_of(out, after).suppress_storage  # the conversation goes on as before
    assert services.explicit.list(uid) == []
    profile = ProfileStore(dm.layout).load(uid)
    assert "Ernst" not in str(profile.facts)
    assert not [x for x in dm.session.transcript if "Ernst" in x.text]
    assert "Ernst" not in say(dm, "What do you know about me?").reply

    dm.close_session("test")  # the next conversation
    dm.on_user_detected(UserDetected(user_name="Maya", confidence=90.0, user_id=uid))
    documents = all_documents(dm, uid)
    assert not [d for d in documents if "Ernst" in d]
    assert any("rock climbing" in d for d in documents) and any("Lisbon" in d for d in documents)
    recall = say(dm, "What did I tell you about my job?")
    assert "Ernst" not in recall.reply and "leave" not in recall.reply
    assert "Ernst" not in say(dm, "What do you know about me?").reply
    assert "Lisbon" in say(dm, "Who is visiting me from Lisbon?").reply


@pytest.mark.parametrize("text", ["don't remember my blood type anymore", "Please don't remember my locker number any more."])
def test_a_request_not_to_remember_a_thing_named_asks_to_forget_it(text):
    """"don't remember my blood type anymore" got "All right — I won't keep that." and the blood type
    stayed (tester25 olu): it names a thing she may hold, so it asks to forget it."""
    assert memory_intent(text) == "forget_one"


def test_a_thing_asked_not_to_be_remembered_is_asked_about_and_forgotten(maya):  # noqa: F811
    dm, _, services, uid = maya
    say(dm, "Please remember my locker number is 58.")
    asked = say(dm, "Please don't remember my locker number any more.").reply
    assert "58" in asked and asked != NOT_KEPT, asked
    say(dm, "yes")
    assert not services.explicit.list(uid)


@pytest.mark.parametrize("text", ["don't remember this but I cried at a film last night",
                                  "please don't remember this but I snapped at my mum today"])
def test_a_negated_request_with_its_news_joined_to_it_asks_not_to_keep(text):
    """"don't remember this but I cried at a film last night" was kept as a moment, and its turn,
    transcript and summary quoted it (tester46 s50): the request was read with the news joined to it,
    which the classifier reads as news; its own clause asks to remember once its negation is gone."""
    assert memory_intent(text) == "not_keep"


@pytest.mark.parametrize("text", [
    "this is just between us, don't keep it: I've got a job interview with a rival firm",
    "dont log it, but the bank turned down our mortgage",
    "the bank turned down our mortgage. not one for your memory",
    # the plea's own clause read by the reader, where the whole turn's news outweighs it (my play)
    "nobody needs to know this, dont save it: I've been turning down work because my hands shake",
])
def test_a_plea_too_short_for_the_intent_classifier_is_read_whole(text):
    """"this is just between us, don't keep it: ..." was kept and recalled the next day (tester46 s123):
    "keep it" without its negation is too few words for the intent classifier to read as a request, and
    "not one for your memory" negates no verb. The reader of such pleas takes the whole turn."""
    assert memory_intent(text) == "not_keep"


@pytest.mark.parametrize(("text", "intent"), [
    ("Don't forget to ring the garage about the van.", "remember"),  # remembering's opposite, negated
    ("Don't tell my wife, but I bought a boat.", "statement"),  # a secret told, not a plea to keep nothing
    ("Don't make a note of this, I'm applying to Google.", "not_keep"),  # "a note" is no thing she holds
])
def test_a_negated_verb_beside_news_is_read_by_what_it_negates(text, intent):
    assert memory_intent(text) == intent


def test_news_told_with_a_plea_the_parse_misses_is_kept_nowhere(maya):  # noqa: F811
    dm, out, services, uid = maya
    asked = say(dm, "this is just between us, don't keep it: I've got a job interview with a rival firm")
    assert asked.reply == NOT_KEPT and affect_of(out, asked).suppress_storage
    assert "interview" not in say(dm, "What do you know about me?").reply
    dm.close_session("test")
    dm.on_user_detected(UserDetected(user_name="Maya", confidence=90.0, user_id=uid))
    assert not [d for d in all_documents(dm, uid) if "interview" in d]
    assert "rival" not in say(dm, "do I have an interview?").reply


def test_a_plea_for_what_is_still_to_come_keeps_nothing_more_of_the_conversation(maya):  # noqa: F811
    """"please don't save anything I say today, ok?" got "All right — I won't keep that." and the fight
    told next was kept and recalled the next day (replay59 s66); "I can't leave out what you haven't told
    me yet" kept the job told next (tester64a s50): a plea that tells nothing and points back at nothing
    is about the turns to come, and none of them is kept until the conversation ends."""
    from interaction.memory_requests import KEEPING_NOTHING

    dm, out, services, uid = maya
    say(dm, "I took up rock climbing at the indoor wall last month.")
    assert say(dm, "please don't save anything I say today, ok?").reply == KEEPING_NOTHING
    told = say(dm, "I had a huge fight with my brother Tobias about the inheritance.")
    assert "remember" not in told.reply
    assert affect_of(out, told).suppress_storage
    work = say(dm, "I work at the warehouse on night shifts.")
    assert "remember" not in work.reply and affect_of(out, work).suppress_storage
    about = say(dm, "What do you know about me?").reply
    assert "warehouse" not in about and "Tobias" not in about
    profile = ProfileStore(dm.layout).load(uid)
    assert "warehouse" not in str(profile.facts) and "Tobias" not in str(profile.facts)
    asked = say(dm, "Please remember that my dentist appointment is on the 3rd of May.")  # asked plainly
    assert asked.memory_action is not None and asked.memory_action.outcome == "kept", asked.reply

    dm.close_session("test")  # the next conversation keeps as before
    dm.on_user_detected(UserDetected(user_name="Maya", confidence=90.0, user_id=uid))
    documents = all_documents(dm, uid)
    assert not [d for d in documents if "Tobias" in d or "warehouse" in d]
    assert any("rock climbing" in d for d in documents) and any("dentist" in d for d in documents)
    later = say(dm, "My niece is visiting from Lisbon next week.")
    assert not affect_of(out, later).suppress_storage
    assert say(dm, "Please don't write that down.").reply == NOT_KEPT


def test_after_being_forgotten_nothing_more_of_the_conversation_is_kept(maya):  # noqa: F811
    """"I don't want you saving anything about me." / "Do you want me to forget everything ...?" / "yes",
    then "I work at the warehouse on night shifts" got "I'd like to remember that ... May I ask your
    name?" (my play of tester64a s50)."""
    dm, out, _, _ = maya
    say(dm, "Please erase all my data.")
    say(dm, "Yes, do it.")
    dm.forget_session()  # what the process does once the erase comes back (interaction/__main__.py)
    told = say(dm, "I work at the warehouse on night shifts.")
    assert "remember" not in told.reply and affect_of(out, told).suppress_storage
    assert not dm.session.transcript and not dm.session.pending_facts


@pytest.mark.parametrize("text", [
    # "don't laugh, but I've started taking ballet classes at 45" got "All right — I won't keep that."
    "don't laugh, but I've joined a roller derby team at 52",
    pytest.param("don't panic, but I crashed the car this morning", marks=pytest.mark.xfail(
        strict=True, reason="the reader of whole pleas takes the turn for one (P(not_keep) above its line)")),
])
def test_a_negated_aside_done_to_nothing_is_no_plea_not_to_keep(text):
    assert memory_intent(text) != "not_keep", text


@pytest.mark.parametrize(("text", "intent", "back"), [
    # "from now on please don't remember anything I tell you" got "All right — I won't keep that." and the
    # news told after it was recited the next day (tester65 s40): what is still to be told is no turn before
    ("from now on please don't remember anything I tell you", "not_keep", False),
    ("please don't keep what I told you", "forget_one", True),
    # "please don't remember anything about Kevin" got "I won't keep anything more of this conversation" and
    # Kevin was kept (tester65 s46): it names what not to keep, which may be held already
    ("please don't remember anything about Kevin", "forget_one", False),
])
def test_a_plea_says_by_its_tense_and_its_topic_what_it_is_about(text, intent, back):
    from interaction.memory_intent.refers_back import refers_back

    assert memory_intent(text) == intent
    assert refers_back(text) is back


@pytest.mark.parametrize("plea", [
    pytest.param("off the record from now on", marks=pytest.mark.xfail(  # tester65 s02, s30: the arrest told next was recited
        strict=True, reason="the plea reader gives it P 0.38 and no verb of it is negated: read as chat")),
    "I'd rather you didn't remember any of this.",  # tester65 s03, s27: "we don't have to talk about it"
    "Please don't remember anything else I tell you today.",  # tester65 s43
    "Can we keep everything from now on between us? Don't save it.",  # tester65 s51: this turn only
    # in words none of the plea reader's labelled rows hold
    "From here on, none of this goes into your memory, okay?",
    pytest.param("whatever comes next, leave it out of your records pls", marks=pytest.mark.xfail(
        strict=True, reason="read as a request to forget one thing, by the memory-intent classifier")),
])
def test_a_plea_for_the_rest_of_the_conversation_keeps_nothing_told_after_it(maya, plea):  # noqa: F811
    """The plea opens the conversation: with nothing said before it to take back, what it is about is
    what comes after it."""
    from interaction.memory_requests import KEEPING_NOTHING

    dm, out, _, uid = maya
    assert say(dm, plea).reply == KEEPING_NOTHING
    told = say(dm, "My brother Sami was sent to prison last month.")
    assert "remember" not in told.reply and affect_of(out, told).suppress_storage
    dm.close_session("test")
    assert not [d for d in all_documents(dm, uid) if "Sami" in d or "record" in d]
    assert "Sami" not in str(ProfileStore(dm.layout).load(uid).facts)


@pytest.mark.parametrize(("text", "intent"), [
    # "No need for you to remember this." got "I'll remember that no need for." and was recited as something
    # asked to be remembered (my play): the need a "no" denies is the hearer's, as in "you don't need to"
    ("No need for you to remember this.", "not_keep"),
    ("Got a parking fine in town. no need to save that one", "not_keep"),
    ("There's no need to write any of this down.", "not_keep"),
    ("I have no time to read that book.", "statement"),  # the person has no time: no plea
])
def test_a_need_denied_by_no_is_a_plea_not_to_keep(text, intent):
    assert memory_intent(text) == intent


def test_no_need_to_remember_what_was_just_said_takes_it_back(maya):  # noqa: F811
    dm, out, _, uid = maya
    say(dm, "My blood test came back bad, the doctor wants to see me on Friday.")
    asked = say(dm, "No need for you to remember this.")
    assert asked.reply == NOT_KEPT and asked.memory_action.outcome == "not_kept"
    assert "blood" not in say(dm, "What do you know about me?").reply
    dm.close_session("test")
    assert not [d for d in all_documents(dm, uid) if "blood" in d or "need" in d]


@pytest.mark.parametrize("leaves", ["bye", None])  # a goodbye, or a day of silence
def test_the_conversation_after_being_forgotten_is_kept_as_usual(maya, leaves):  # noqa: F811
    """After "forget everything about me" / "yes", "bye" got "All right." (the first words of a new
    session take leave of nothing) and, the conversation never closed, the rabbit told the next day was
    kept nowhere and not known the day after (tester66 s43)."""
    dm, out, _, _ = maya
    say(dm, "Please erase all my data.")
    say(dm, "Yes, do it.")
    dm.forget_session()
    if leaves is not None:
        assert "Goodbye" in say(dm, leaves).reply
    dm.clock.advance(24)
    say(dm, "Hi, it's Yasmin.")
    told = say(dm, "I've just adopted a rabbit called Pudding.")
    assert not affect_of(out, told).suppress_storage
    assert "Pudding" in say(dm, "What's my rabbit called?").reply


def test_a_plea_with_a_reason_beside_it_takes_back_what_was_just_said(maya):  # noqa: F811
    """"Oh, don't write that down, she hasn't told anyone." got "Tell me more!" and the sister's
    pregnancy was recited the next day (tester66 s45): the plea's own clause was read as "Ohdon't write
    that down", the comma after "Oh" dropped with the words around it."""
    dm, _, _, uid = maya
    say(dm, "My sister Jane is pregnant with her third.")
    asked = say(dm, "Oh, don't write that down, she hasn't told anyone.")
    assert asked.memory_intent == "not_keep", asked.reply
    dm.close_session("test")
    assert not [d for d in all_documents(dm, uid) if "pregnant" in d]


@pytest.mark.parametrize(("text", "intent"), [
    # "for the rest of this chat please don't store anything" got "nothing to forget" and the news told
    # next was recited the next day (tester66 s38): the classifier's forget_one is checked for a plea too
    ("for the rest of this chat please don't store anything", "not_keep"),
    ("please don't remember my blood type anymore", "forget_one"),
    ("forget what I said about my old address", "forget_one"),
])
def test_a_negated_plea_the_classifier_reads_as_forgetting_is_a_plea(text, intent):
    assert memory_intent(text) == intent
