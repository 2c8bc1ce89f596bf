"""Forget one by a topic named vaguely or misspelt: Nadine offers the memory that is close by saying
it back, forgets it only after a clear yes (every byte of it gone), keeps everything on a no or a
hedge, and says there is nothing to forget when nothing is close, never offering a greeting, a
question, a request or another person's memory."""

from __future__ import annotations

import pytest

from common.messages import UserDetected, UserInput
from common.store import ProfileStore
from interaction.dialogue import DialogueManager
from interaction.memory.local_services import LocalMemoryServices
from interaction.memory.retrieval.lexicon import load_wordnet
from interaction.memory.retrieval.spelling import mend, words_of
from tests.interaction.memory_fixtures import layout_and_clock, make_settings
from tests.interaction.test_dialogue_inprocess import Outbox

ALLOTMENT = "My grandad's allotment got flooded and he lost all his tomatoes."
SHELTER = "I started volunteering at the animal shelter on Saturdays."
VIENNA = "My sister Ilse is moving to Vienna for her new job."


def meet(dm: DialogueManager, name: str) -> str:
    store = ProfileStore(dm.layout)
    uid = store.mint_user_id(name, dm.clock.now())
    store.update(uid, {"user_name": name}, dm.clock.now())
    dm.on_user_detected(UserDetected(user_name=name, confidence=90.0, user_id=uid))
    return uid


@pytest.fixture
def jonas(tmp_path):
    """Jonas told three things in an earlier conversation (saved: turn documents, a transcript and
    its summary) and is back."""
    layout, clock = layout_and_clock(tmp_path)
    settings = make_settings(tmp_path)
    dm = DialogueManager(settings, layout, clock, Outbox(), services=LocalMemoryServices(settings, layout, clock, bus=None),
                         environ={})
    uid = meet(dm, "Jonas")
    for said in ("Hi Nadine, how are you doing?", ALLOTMENT, SHELTER, VIENNA, "Can you tell me a joke?", "Bye!"):
        dm.process_input(UserInput(text=said))
    dm.close_session("test")
    dm.on_user_detected(UserDetected(user_name="Jonas", confidence=90.0, user_id=uid))
    return dm, uid


def someone_new(tmp_path, name: str) -> DialogueManager:  # noqa: ANN001 - pytest's tmp_path
    """A person met just now, with real memory services and nothing told yet."""
    layout, clock = layout_and_clock(tmp_path)
    settings = make_settings(tmp_path)
    dm = DialogueManager(settings, layout, clock, Outbox(), services=LocalMemoryServices(settings, layout, clock, bus=None),
                         environ={})
    meet(dm, name)
    return dm


def say(dm: DialogueManager, text: str):
    return dm.process_input(UserInput(text=text))


def holding(dm: DialogueManager, needle: bytes) -> list[str]:
    """Every file under the data root whose bytes hold `needle` (Chroma's log, free pages and the HNSW
    index's unused slots too)."""
    return [str(f) for f in dm.layout.root.rglob("*") if f.is_file() and needle in f.read_bytes()]


def test_a_misspelt_topic_is_offered_said_back_and_forgotten_on_yes(jonas):
    dm, _ = jonas
    assert holding(dm, b"tomatoes")
    asked = say(dm, "pls forget what i said about my grandads alotment")
    assert asked.memory_intent == "forget_one"
    assert asked.reply.startswith("Do you want me to forget") and "tomatoes" in asked.reply, asked.reply
    assert "Vienna" not in asked.reply and "shelter" not in asked.reply
    assert holding(dm, b"tomatoes")  # nothing goes before the answer
    done = say(dm, "Yes, go ahead.")
    assert done.intent == "forget_one_confirmed", done.reply
    assert holding(dm, b"tomatoes") == [] and holding(dm, b"allotment") == []
    assert holding(dm, b"Vienna") and holding(dm, b"animal shelter")  # the rest stays


def test_hnsw_length_file_holds_nothing_forgotten(jonas):
    dm, _ = jonas
    say(dm, "pls forget what i said about my grandads alotment")
    say(dm, "Yes, go ahead.")
    assert holding(dm, b"tomatoes") == []


def test_a_vague_topic_is_offered_and_kept_on_no_or_a_hedge(jonas):
    dm, _ = jonas
    before = {needle: holding(dm, needle) for needle in (b"tomatoes", b"Vienna", b"animal shelter")}
    asked = say(dm, "Could you delete the stuff about my volunteer work?")
    assert asked.reply.startswith("Do you want me to forget") and "animal shelter" in asked.reply, asked.reply
    assert say(dm, "hmm, not sure").intent == "forget_one_asked_again"
    assert say(dm, "no, leave it").intent == "forget_one_cancelled"
    assert {needle: holding(dm, needle) for needle in before} == before


@pytest.mark.parametrize("request_", ["Forget the allotment thing too.", "can you forget the shelter stuff"])
def test_a_topic_said_by_what_a_vague_word_is_compounded_with_is_offered(jonas, request_):
    """"Forget the bike thing too." got "I don't think I have a memory of that" while the bike memory was
    recalled the turn before (tester36 r27): the noun a phrase is compounded with names it when the
    whole phrase matches nothing."""
    dm, _ = jonas
    asked = say(dm, request_)
    assert asked.reply.startswith("Do you want me to forget"), asked.reply
    assert say(dm, "no").intent == "forget_one_cancelled"


def test_nothing_close_is_nothing_to_forget_and_nothing_goes(jonas):
    dm, _ = jonas
    before = {needle: holding(dm, needle) for needle in (b"tomatoes", b"Vienna", b"animal shelter")}
    for request in ("forget what I told you about my brother's move", "forget the thing about my horse",
                    "forget the joke", "forget my greeting"):
        asked = say(dm, request)
        assert "nothing to forget" in asked.reply, (request, asked.reply)
        assert say(dm, "Yes.").intent != "forget_one_confirmed"
    assert {needle: holding(dm, needle) for needle in before} == before


def test_another_persons_memory_is_never_offered(jonas):
    dm, _ = jonas
    dm.close_session("test")
    meet(dm, "Paula")
    asked = say(dm, "forget the stuff about the alotment and the tomatos")
    assert "nothing to forget" in asked.reply and "tomatoes" not in asked.reply, asked.reply
    assert say(dm, "Yes.").intent != "forget_one_confirmed"
    assert holding(dm, b"tomatoes")


def test_a_misspelt_word_is_read_as_the_word_the_person_used_and_english_words_stay():
    lexicon = load_wordnet()
    told = words_of([ALLOTMENT, VIENNA])
    assert mend("my grandads alotment", told, lexicon, 0.75) == "my grandads allotment"
    assert mend("forget about Veinna", told, lexicon, 0.75) == "forget about Vienna"
    # English words, and words joined to an apostrophe, are never read as another word
    assert mend("my cat and my sister's car", {"cap", "sisters", "bar"}, lexicon, 0.75) == "my cat and my sister's car"
    assert mend("my parnets", set(), lexicon, 1.01) == "my parnets"  # above 1: never


def test_a_topic_misspelt_past_what_the_parser_reads_is_still_offered(tmp_path):
    layout, clock = layout_and_clock(tmp_path)
    settings = make_settings(tmp_path)
    dm = DialogueManager(settings, layout, clock, Outbox(), services=LocalMemoryServices(settings, layout, clock, bus=None),
                         environ={})
    uid = meet(dm, "Wren")
    for said in ("My parents are getting divorced after twenty-five years.", SHELTER, "We painted the fence blue."):
        say(dm, said)
    dm.close_session("test")
    dm.on_user_detected(UserDetected(user_name="Wren", confidence=90.0, user_id=uid))
    asked = say(dm, "forget what i said about my parnets devorce")
    assert asked.reply.startswith("Do you want me to forget") and "divorced" in asked.reply, asked.reply


def test_a_memory_of_someone_else_of_the_kind_named_is_not_offered(jonas):
    """"my grandma's allotment" when the allotment told was the grandad's: that memory is about
    someone else, so there is nothing to forget, and a yes after it forgets nothing."""
    dm, _ = jonas
    for request in ("please forget what I told you about my grandma's allotment", "forget what I said about my brother's new job"):
        asked = say(dm, request)
        assert asked.memory_intent == "forget_one", request
        assert "nothing to forget" in asked.reply and "tomatoes" not in asked.reply and "Vienna" not in asked.reply, (
            request, asked.reply)
        assert say(dm, "Yes.").intent != "forget_one_confirmed"
    assert holding(dm, b"tomatoes") and holding(dm, b"Vienna")


def test_a_question_instead_of_an_answer_keeps_the_memory_and_is_answered(jonas):
    """Asked "do you want me to forget ...?", the person asks something of their own: that is no yes
    (nothing goes), nothing is asked again, and their question gets its answer; a "yes" after it
    answers nothing any more."""
    dm, _ = jonas
    asked = say(dm, "please forget what I told you about my grandad's allotment")
    assert asked.reply.startswith("Do you want me to forget"), asked.reply
    moved_on = say(dm, "Do you remember where I volunteer on Saturdays?")
    assert "not sure what you mean" not in moved_on.reply and "keep that memory" not in moved_on.reply
    assert moved_on.is_recall and "animal shelter" in moved_on.reply, moved_on.reply
    assert say(dm, "Yes.").intent != "forget_one_confirmed"
    assert holding(dm, b"tomatoes")


def test_a_question_instead_of_an_answer_to_forget_me_keeps_everything(jonas):
    dm, uid = jonas
    asked = say(dm, "Please forget everything about me.")
    assert asked.intent == "forget_request", asked.reply
    moved_on = say(dm, "Do you remember what I told you about my sister?")
    assert moved_on.intent not in ("forget_confirmed", "forget_request", "forget_cancelled"), moved_on.reply
    assert say(dm, "Yes.").intent != "forget_confirmed"
    assert ProfileStore(dm.layout).load(uid) is not None and holding(dm, b"Vienna")


def test_another_forget_request_instead_of_an_answer_keeps_the_first_and_asks_about_the_second(jonas):
    dm, uid = jonas
    say(dm, "Forget the thing about the allotment.")
    say(dm, "Hmm, I'm not sure.")
    moved = say(dm, "Forget what I said about the animal shelter.")
    assert "shelter" in moved.reply and "keep that memory" not in moved.reply, moved.reply
    assert say(dm, "Yes please.").intent == "forget_one_confirmed"
    assert not holding(dm, b"animal shelter") and holding(dm, b"tomatoes")


@pytest.mark.parametrize("asked", [
    "please forget the shelter volunteering, I've stopped going anyway",
    "Forget about the animal shelter. It didn't work out.",
    "forget the shelter, they shut it down last week",
    "forget the shelter, they moved everything to a new building in town",
])
def test_a_forget_request_with_its_reason_beside_it_is_one(jonas, asked):
    """"please forget the wifi password, they changed it anyway" was read whole as news, got "I'm sorry
    to hear that", and the password stayed (tester): a bidding to forget a thing it names, with why
    said after it, asks to forget that thing."""
    dm, _ = jonas
    heard = say(dm, asked)
    assert heard.memory_intent == "forget_one", heard.reply
    assert heard.reply.startswith("Do you want me to forget") and "shelter" in heard.reply, heard.reply
    assert say(dm, "yes").intent == "forget_one_confirmed"
    assert holding(dm, b"Saturdays") == [] and holding(dm, b"tomatoes") and holding(dm, b"Vienna")


@pytest.mark.parametrize("said", ["I forgot my allotment keys again, so annoying.",
                                  "Don't forget the shelter needs blankets, they asked me."])
def test_forgetting_told_of_or_a_reminder_with_its_reason_forgets_nothing(jonas, said):
    heard = say(jonas[0], said)
    assert heard.memory_intent != "forget_one" and not heard.reply.startswith("Do you want me to forget"), heard.reply


def test_a_forget_request_that_says_it_should_not_have_been_told_asks_about_the_thing_named(jonas):
    """"Please forget my pension number, I shouldn't have told you that." got "nothing to forget" (the
    "told you that" of the reason read as forgetting what was just said) and the number was said again
    (tester): the request that opens the turn names what is to go."""
    dm, _ = jonas
    heard = say(dm, "Please forget the animal shelter, I shouldn't have told you that.")
    assert heard.reply.startswith("Do you want me to forget") and "shelter" in heard.reply, heard.reply
    assert say(dm, "yes").intent == "forget_one_confirmed"
    assert holding(dm, b"Saturdays") == [] and holding(dm, b"tomatoes")


@pytest.mark.parametrize("request_", ["Forget the allotment stuff.", "forget my allotment"])
def test_a_topic_a_memory_names_deep_in_a_compound_is_offered(tmp_path, request_):
    """"Forget the allotment stuff." found nothing to forget over "my allotment gate code is 6614"
    (my play): "allotment" says which gate, and the gate which code, so the memory names an allotment
    as much as "my cello exam" names a cello; a thing it does not name is still nothing to forget."""
    dm = someone_new(tmp_path, "Bronwen")
    say(dm, "The padlock code on my allotment shed door is 6614.")
    say(dm, "My niece Ffion started at the bakery in town.")
    assert "nothing to forget" in say(dm, "forget the stuff about my caravan").reply
    asked = say(dm, request_)
    assert asked.reply.startswith("Do you want me to forget") and "6614" in asked.reply, asked.reply
    assert say(dm, "no").intent == "forget_one_cancelled"


@pytest.mark.parametrize("request_", ["Please forget everything about me.", "forget the allotment thing"])
def test_a_yes_that_asks_to_keep_something_is_no_clear_yes_to_erasing(jonas, request_):
    """"yes but keep the tournament date" to "Do you want me to forget everything ...?" ended the
    conversation with a goodbye, and the reader takes it for a yes (tester39 r68; the tester's words): a
    yes that also asks Nadine to keep something is asked about once more, and nothing goes."""
    dm, _ = jonas
    before = {needle: holding(dm, needle) for needle in (b"tomatoes", b"Vienna", b"animal shelter")}
    assert "forget" in say(dm, request_).reply
    again = say(dm, "yes but keep the tournament date")
    assert again.intent in ("forget_request", "forget_one_asked_again") and "yes or no" in again.reply, again
    say(dm, "no")
    assert {needle: holding(dm, needle) for needle in before} == before


def asked_once_more_then_kept(jonas, answer: str) -> None:  # noqa: ANN001 - the fixture
    """"forget everything about me", then `answer`: asked once more; after a no, nothing has gone."""
    dm, _ = jonas
    before = {needle: holding(dm, needle) for needle in (b"tomatoes", b"Vienna", b"animal shelter")}
    assert "forget" in say(dm, "Please forget everything about me.").reply
    again = say(dm, answer)
    assert again.intent == "forget_request" and "yes or no" in again.reply, again
    assert say(dm, "no").intent == "forget_cancelled"
    assert {needle: holding(dm, needle) for needle in before} == before


@pytest.mark.parametrize("answer", ["yes but keep my mum's birthday", "yes but not the birthday one",
                                    "Sure, but don't delete the tournament date.",
                                    "hmm ok, and can you undo it later?"])
def test_a_yes_taken_back_in_the_same_breath_erases_nothing_and_ends_nothing(jonas, answer):
    """"yes but keep my mum's birthday" to "forget everything?" ended the visit with a goodbye ("keep my
    mum's birthday" read as a wish like "enjoy your birthday"), and "yes but not the birthday one" read
    as a clear yes that erased everything: a yes with a no after it is asked about once more, the visit
    goes on, and after a no nothing has gone. So is a yes followed by a question of its own, which wants
    an answer first ("hmm ok, and can you undo it later?" erased everything, tester44)."""
    asked_once_more_then_kept(jonas, answer)


@pytest.mark.parametrize("answer", ["Yes, but only the work stuff.", "Go on, except the holiday plans.",
                                    "Just the last thing I said, yes.", "Fine, as long as you still know who I am."])
def test_a_yes_narrowed_to_a_part_or_a_condition_erases_nothing(jonas, answer):
    """A yes kept to a part ("only the work stuff"), with a part left out ("except the holiday plans")
    or on a condition ("as long as you still know who I am") erased everything: read whole, its yes
    outweighed the part. It is asked about once more, and after a no nothing has gone."""
    asked_once_more_then_kept(jonas, answer)


@pytest.mark.parametrize("answer", ["yes please, delete the lot", "Yes, go ahead."])
def test_a_yes_that_says_the_request_again_erases(jonas, answer):
    """A yes that only says the request again ("delete the lot") holds nothing back."""
    dm, _ = jonas
    assert "forget" in say(dm, "Please forget everything about me.").reply
    assert say(dm, answer).intent == "forget_confirmed"


def test_a_thing_of_someone_of_theirs_named_by_word_and_name_is_offered_by_the_word(tmp_path):
    """"Forget my sister's birthday." found nothing over "Remember that my sister Amira's birthday is on 2
    March." (tester39 r38): the parser reads "my sister, Amira's birthday"; the name owning the thing
    set beside the person word is that person, not the thing."""
    dm = someone_new(tmp_path, "Rashid")
    say(dm, "Please remember that my nephew Idris's graduation is on the 9th of July.")
    asked = say(dm, "Forget my nephew's graduation.")
    assert asked.reply.startswith("Do you want me to forget") and "Idris" in asked.reply, asked.reply
    assert say(dm, "no").intent == "forget_one_cancelled"


@pytest.mark.parametrize("answer", ["haha you'd like that wouldn't you", "you'd like that, wouldn't you", "you wish",
                                    "haha you would love that"])
def test_a_taunt_of_what_nadine_would_like_erases_nothing(jonas, answer):
    """"haha you'd like that wouldn't you" to "forget everything about you?" erased everything (tester46
    s30): a question tagged on a statement asks, and what Nadine would feel is no consent."""
    asked_once_more_then_kept(jonas, answer)


def test_a_forgotten_job_takes_its_employer_and_workplace_told_with_it(tmp_path):
    """After "forget my job" and a yes, "what's my job?" got "You work in Malmö." (tester46 s43): the
    job went, but the paint factory and Malmö, told in the same clause as parts of it, stayed as work
    facts. A fact the turn told apart from the job stays."""
    from common.store import ProfileStore

    dm = someone_new(tmp_path, "Ingrid")
    say(dm, "i'm a chemist at a paint factory in Malmö")
    say(dm, "I live in Lund with my partner.")
    assert say(dm, "forget my job").reply.startswith("Do you want me to forget")
    assert say(dm, "yes").intent == "forget_one_confirmed"
    reply = say(dm, "what's my job?").reply
    assert "Malmö" not in reply and "chemist" not in reply and "factory" not in reply, reply
    profile = ProfileStore(dm.layout).load(dm.session.identity.user_id)
    assert "Malmö" not in str(profile.facts) and "paint factory" not in str(profile.facts) and "Lund" in str(profile.facts)


def test_what_she_knows_asked_instead_of_an_answer_is_answered_and_erases_nothing(jonas):
    """"what do you know about me?" asked while "forget everything about you?" waited was taken as a
    second unclear answer: "All right, I will keep our memories.", and the question went unanswered
    (tester46 s74, s75; replay47 s30, s60). A question of their own is answered as any turn, and
    nothing goes."""
    dm, _ = jonas
    before = {needle: holding(dm, needle) for needle in (b"tomatoes", b"Vienna", b"animal shelter")}
    assert "forget" in say(dm, "Please forget everything about me.").reply
    answered = say(dm, "what do you know about me?")
    assert answered.intent not in ("forget_confirmed", "forget_request", "forget_cancelled"), answered
    assert "Jonas" in answered.reply, answered.reply
    assert say(dm, "yes").intent != "forget_confirmed"
    assert {needle: holding(dm, needle) for needle in before} == before
