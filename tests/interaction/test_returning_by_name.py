"""Someone who comes back by name in a chat without a camera (in process, offline, real memory services):
a first name for a known full name, or a name others call them by, is asked about; an answer that is no
answer never makes a new person; a question asked instead of a yes waits for who they are and is
answered once they say yes; and someone new who asks whether Nadine remembers them is told honestly."""

from __future__ import annotations

from datetime import datetime

import pytest

from common.messages import UserInput
from common.store import ProfileStore
from interaction.dialogue import DialogueManager
from interaction.memory.contracts import TranscriptTurn
from interaction.memory.local_services import LocalMemoryServices
from interaction.person_pronoun import with_person_named
from tests.interaction.memory_fixtures import layout_and_clock, make_settings
from tests.interaction.test_dialogue_inprocess import Outbox


@pytest.fixture
def dm(tmp_path) -> DialogueManager:
    layout, clock = layout_and_clock(tmp_path)
    settings = make_settings(tmp_path)
    services = LocalMemoryServices(settings, layout, clock, bus=None)
    return DialogueManager(settings, layout, clock, Outbox(), services=services, environ={})


def say(dm: DialogueManager, text: str):
    return dm.process_input(UserInput(text=text))


def people(dm: DialogueManager) -> dict[str, str]:
    return ProfileStore(dm.layout).user_ids()


def first_visit(dm: DialogueManager, *turns: str) -> str:
    for text in turns:
        say(dm, text)
    say(dm, "Bye for now!")  # without a camera, whoever types next is nobody until they say who they are
    (uid,) = people(dm)
    return uid


def test_questions_instead_of_a_yes_wait_for_who_is_asking_and_make_no_one_new(dm):
    priya = first_visit(dm, "Hello, my name is Priya Raman.",
                        "Please remember that my sister's wedding is on the 9th of August.")
    asked = say(dm, "Good morning, it's Priya again.")
    assert asked.extra["pending_confirmation"] and "Priya Raman" in asked.reply
    waiting = say(dm, "Hang on, when is my sister's wedding?")
    assert waiting.extra["pending_confirmation"], waiting.reply  # asked once more, nobody made or linked
    assert "Priya Raman" in waiting.reply and "Nice to meet you" not in waiting.reply
    assert list(people(dm)) == [priya] and waiting.user_id is None
    yes = say(dm, "Yes, that's me.")
    assert yes.user_id == priya and not yes.extra["pending_confirmation"]
    assert "9th of August" in yes.reply  # the question that waited is answered now


def test_an_answer_that_is_no_answer_twice_makes_no_new_person(dm):
    ola = first_visit(dm, "Hi! I'm Ola Nordmann.", "I work as a carpenter in Bergen.")
    assert say(dm, "hey, Ola here").extra["pending_confirmation"]
    say(dm, "hmm")
    unsure = say(dm, "well, it depends")
    assert list(people(dm)) == [ola] and unsure.user_id is None
    assert "Nice to meet you" not in unsure.reply
    no = say(dm, "Where do I work?")
    assert list(people(dm)) == [ola] and "carpenter" not in no.reply


def test_a_plain_no_still_makes_a_new_person(dm):
    ola = first_visit(dm, "Hi! I'm Ola Nordmann.")
    say(dm, "hey, Ola here")
    no = say(dm, "No, I'm someone else.")
    assert no.user_id not in (None, ola) and len(people(dm)) == 2


def test_a_name_others_call_the_speaker_is_another_name_of_theirs(dm):
    kath = first_visit(dm, "Hi, I'm Katherine, but my friends all call me Kit.", "I work as a pharmacist in Leeds.")
    assert ProfileStore(dm.layout).load(kath).other_names == ["Kit"]
    asked = say(dm, "Evening Nadine, it's Kit again.")
    assert asked.extra["pending_confirmation"] and "Katherine" in asked.reply and "Nice to meet you" not in asked.reply
    assert list(people(dm)) == [kath]
    yes = say(dm, "yes")
    assert yes.user_id == kath
    assert "pharmacist" in say(dm, "What's my job?").reply


# "Hi, I'm Katherine, but please call me Kat." was met as Katherine and "Hey, it's Kat." the next day as a
# stranger (tester36 r31): "Kat" read as the start of "Katherine", and "please call me Kat" misparsed
@pytest.mark.parametrize(("said", "called", "given"), [("Evening! I'm Rosalind, but call me Roz.", "Roz", "Rosalind"),
                                                       ("Hi, I'm Josephine, but please call me Jo.", "Jo", "Josephine")])
def test_the_name_given_beside_the_one_asked_for_is_kept_as_theirs(dm, said, called, given):
    """"I'm Rosalind, but call me Roz": called Roz, with Rosalind kept as another name of hers, so a later
    "Rosalind here" is asked about her rather than met as someone new."""
    roz = first_visit(dm, said)
    profile = ProfileStore(dm.layout).load(roz)
    assert (profile.user_name, profile.other_names) == (called, [given])
    asked = say(dm, f"Hello again, {given} here.")
    assert asked.extra["pending_confirmation"] and "Nice to meet you" not in asked.reply, asked.reply
    assert say(dm, "yes").user_id == roz and list(people(dm)) == [roz]


def test_asking_to_be_called_by_a_short_name_not_the_stored_one_is_asked_about_once_and_renames_on_a_yes(dm):
    """A known Benedikt comes back with "call me Ben, not Benedikt": asked whether he is Benedikt (one
    question), and on a yes he is Benedikt's profile called Ben, Benedikt kept as another name."""
    ben = first_visit(dm, "Hi, I'm Benedikt. I work as a glazier in Graz.")
    asked = say(dm, "Morning! Call me Ben, not Benedikt.")
    assert asked.extra["pending_confirmation"] and "Benedikt" in asked.reply, asked.reply
    yes = say(dm, "Yes.")
    assert yes.user_id == ben and yes.user_name == "Ben" and not yes.extra["pending_confirmation"], yes.reply
    profile = ProfileStore(dm.layout).load(ben)
    assert profile.other_names == ["Benedikt"] and profile.current_position == "glazier"
    assert list(people(dm)) == [ben]


@pytest.mark.parametrize(("text", "names"), [
    ("I'm Cornelius, but please call me Neil.", ["Cornelius"]),
    ("Just call me Dot, not Dorothea.", ["Dorothea"]),
    ("Call me Ned.", []),
    ("I'm Henrietta, and everyone calls me Etta.", []),  # what others call her: not a request
])
def test_own_names_said_beside_a_request_to_be_called_by_another(text, names):
    from interaction.offline.name_claims import names_beside_a_request

    assert names_beside_a_request(text) == names


def test_someone_new_asking_to_be_remembered_is_told_they_have_not_met(dm):
    say(dm, "Hello, I'm Bruno.")
    met = say(dm, "Do you know who I am?")
    assert "good question" not in met.reply.lower() and "met" in met.reply, met.reply
    say(dm, "Goodbye!")
    nameless = say(dm, "Do you remember me?")
    assert "good question" not in nameless.reply.lower() and "name" in nameless.reply, nameless.reply


@pytest.mark.parametrize(("text", "others"), [
    ("I'm Margaret, but everyone calls me Maggie.", ["Maggie"]),
    ("My nickname at the club is Ziggy.", ["Ziggy"]),
    ("My grandkids call me Nana Jo.", ["Nana Jo"]),
    ("My name's Robert but please call me Bob.", []),  # asked of Nadine: how to address him
    ("I call my dog Rex.", []),
    ("My middle name is Ann.", []),
])
def test_names_others_use_are_read_off_the_parse(text, others):
    from interaction.offline.name_claims import names_others_use

    assert names_others_use(text) == others


@pytest.mark.parametrize(("text", "asks"), [
    ("Do you remember me?", True), ("do u know who i am", True), ("You know me, right?", True),
    ("Can you tell me who I am?", True), ("Do you remember my dog?", False),
    ("Do you know what I do for a living?", False), ("Can you remind me about the dentist?", False),
    # the tagger files the "what" as the clause's attribute: what they felt, not who they are (tester29
    # aiko: "Of course I remember you, Aiko!")
    ("do you know what I was scared of last time?", False),
    # "Hi Nadine, remember me? I'm Victor." was taken for a request to keep something ("Of course. What
    # would you like me to remember?", tester39 r63): asked with "you" left out, her name set off before it
    ("Morning Nadine, remember me?", True), ("know me?", True), ("Remember my locker code?", False),
    ("remember me to your sister", False),
    # a verb with no subject of its own inside the question is no question to her ("Is the General
    # coming to pick me up?" got "Of course I remember you, Colonel!": tester62 s51)
    ("Is my neighbour coming to pick me up tomorrow?", False), ("Who is going to drive me home?", False),
    # a clause of what they told ("Of course I remember you, Harold!": tester64 s12)
    ("Could you remind me when I see Dr. Patel?", False),
])
def test_asking_whether_nadine_knows_the_speaker(text, asks):
    from interaction.offline.question_form import asks_if_known

    assert asks_if_known(text) is asks


@pytest.mark.parametrize("greeting", [
    # the turn-act reader takes this French greeting for a goodbye ('Bonjour' sits near 'Bonne nuit'),
    # but the first words of a conversation take leave of nothing
    "Bonjour! Je suis Giulia.",
    "Hallo, ich bin Giulia"])
def test_a_known_name_in_a_greeting_in_another_language_is_asked_about(dm, greeting):
    """Back after a goodbye, Giulia greets in words the introduction readers do not parse: her stored
    name in the greeting is asked about, and a yes opens her memory; a no makes nobody of the name."""
    giulia = first_visit(dm, "Hi, I'm Giulia and I sing in a choir in Verona.")
    asked = say(dm, greeting)
    assert asked.extra["pending_confirmation"] and "Giulia" in asked.reply
    assert say(dm, "Yes, that's me.").user_id == giulia
    assert people(dm) == {giulia: "Giulia"}


def test_a_known_name_in_a_greeting_needs_a_yes(dm):
    giulia = first_visit(dm, "Hi, I'm Giulia and I sing in a choir in Verona.")
    say(dm, "Hello, I bumped into Giulia today.")
    no = say(dm, "No, I'm not her.")
    assert no.user_id != giulia and not no.extra["pending_confirmation"]
    assert people(dm) == {giulia: "Giulia"}


@pytest.mark.parametrize("restated", ["Morwenna", "I said it already, it's Morwenna", "Morwenna, as I told you"])
def test_the_first_name_said_again_is_no_answer_and_makes_no_second_person(dm, restated):
    morwenna = first_visit(dm, "Good afternoon, I'm Morwenna Tregothnan.", "I keep bees on a farm near Truro.")
    asked = say(dm, "Hello there, Morwenna back again!")
    assert asked.extra["pending_confirmation"] and "Morwenna Tregothnan" in asked.reply
    again = say(dm, restated)  # the name they gave, not another: neither a yes nor a no
    assert list(people(dm)) == [morwenna] and again.user_id is None, again.reply
    assert again.extra["pending_confirmation"] and "Nice to meet you" not in again.reply
    still = say(dm, restated)
    assert list(people(dm)) == [morwenna] and still.user_id is None, still.reply


def test_the_name_said_alone_on_return_is_not_something_they_told(dm):
    """"What do you know about me?" after coming back as "Ruairi Delaney." said "you told me Ruairi
    Delaney and ...": the name said alone is who they are, not news of theirs."""
    dagny = first_visit(dm, "Hi, I'm Dagny Solheim.", "My allotment is plot 14 by the railway.")
    assert say(dm, "Dagny Solheim.").extra["pending_confirmation"]
    assert say(dm, "yes").user_id == dagny
    known = say(dm, "What do you know about me?").reply
    assert "plot 14" in known and "told me Dagny" not in known, known


def test_a_yes_with_the_first_name_links_the_known_person(dm):
    morwenna = first_visit(dm, "Good afternoon, I'm Morwenna Tregothnan.")
    say(dm, "It's me, Morwenna.")
    yes = say(dm, "Yes, Morwenna.")
    assert yes.user_id == morwenna and list(people(dm)) == [morwenna], yes.reply


def test_a_relative_sharing_the_surname_is_someone_new_and_a_misheard_name_is_still_asked_about(dm):
    """A full name that matches a known one only through the surname ("Tomas Lindqvist" beside "Greta
    Lindqvist") is a family member: nobody is asked whether they are Greta, and Greta's memories stay
    hers; a name that differs by a letter or two is still asked about."""
    greta = first_visit(dm, "Hello, I'm Greta Lindqvist.", "Please remember my locker code is 5521.")
    brother = say(dm, "Good afternoon, I'm Tomas Lindqvist, Greta's brother.")
    assert not brother.extra["pending_confirmation"] and "Greta" not in brother.reply, brother.reply
    assert brother.user_id not in (None, greta)
    assert "5521" not in say(dm, "What is my locker code?").reply
    say(dm, "Bye for now!")
    misheard = say(dm, "Hi, it's Greta Lindkvist.")
    assert misheard.extra["pending_confirmation"] and "Greta Lindqvist" in misheard.reply, misheard.reply


def test_someone_sharing_only_a_given_name_is_someone_new_and_never_told_the_other_name(dm):
    """"Oskar Falk" beside a known "Oskar Lind": the surnames are nothing alike, so this is someone
    else; asking "is your name Oskar Lind?" would tell a stranger who else talks to Nadine."""
    oskar = first_visit(dm, "Hello, I'm Oskar Lind.", "Please remember my bike lock code is 3308.")
    other = say(dm, "Hi there, I'm Oskar Falk.")
    assert not other.extra["pending_confirmation"] and "Lind" not in other.reply, other.reply
    assert other.user_id not in (None, oskar)
    assert "3308" not in say(dm, "What's my bike lock code?").reply


def test_a_request_about_their_memory_waits_for_who_is_asking_and_makes_no_one_new(dm):
    """"Please forget my locker code" to "is your name ...?" reads as a yes by its words; it is a request
    whose memory is someone's, so it waits for the answer, and is asked about once they say yes."""
    sanna = first_visit(dm, "Hello, I'm Sanna Virtanen.", "Please remember my locker code is 7712.")
    assert say(dm, "Evening, Sanna here.").extra["pending_confirmation"]
    waiting = say(dm, "Please forget my locker code.")
    assert waiting.extra["pending_confirmation"] and waiting.user_id is None, waiting.reply
    assert "Nice to meet you" not in waiting.reply and list(people(dm)) == [sanna]
    asked = say(dm, "Yes.")
    assert asked.user_id == sanna and "7712" in asked.reply and "forget" in asked.reply, asked.reply


def test_a_request_to_forget_everything_waits_for_who_is_asking(dm):
    """"Forget everything you know about me" to "is your name ...?" is no answer either: it was met
    with "I don't know who you are yet ... tell me your name", and the yes that followed linked nothing
    and forgot nothing (tester21 bernadette). It waits for the answer, and the yes asks to forget."""
    tilde = first_visit(dm, "Hello there, I'm Tilde Marsh.", "My grandson Toby is learning the cello.")
    assert say(dm, "It's Tilde.").extra["pending_confirmation"]
    waiting = say(dm, "I'd really rather you forgot everything about me now, if you don't mind.")
    assert waiting.extra["pending_confirmation"] and "Tilde Marsh" in waiting.reply, waiting.reply
    assert "don't know who you are" not in waiting.reply and list(people(dm)) == [tilde]
    asked = say(dm, "Yes, that's me.")
    assert asked.user_id == tilde and "forget everything" in asked.reply, asked.reply


def test_news_with_a_bidding_is_no_answer_and_makes_no_one_new(dm):
    """"Board meeting is cancelled. Don't keep it." to "is your name Ingrid Solheim?" was read as a no,
    and made a new person of the surname she came back by (tester21 ingrid). A bidding asks something
    of Nadine; it answers nothing, so the news waits and the question is put once more."""
    hedda = first_visit(dm, "Hedda Lunde. I have five minutes.", "Please remember the staff room code is 4190.")
    assert say(dm, "Lunde again.").extra["pending_confirmation"]
    waiting = say(dm, "The budget review is off. Don't keep it.")
    assert waiting.extra["pending_confirmation"] and "Hedda Lunde" in waiting.reply, waiting.reply
    assert "Nice to meet you" not in waiting.reply and list(people(dm)) == [hedda]


# the tester's words and one of ours, each of which the reader reads as a yes on its own
@pytest.mark.parametrize("asked", ["Forget the gym locker code please.", "Drop the wifi password please."])
def test_a_polite_request_is_no_yes_to_the_name_question(dm, asked):
    """"Forget the gym locker code please." to "Are you Yusuf Demir?" was read as a yes: he was linked,
    an older question answered and the request dropped (tester23 yusuf). "please" makes a bidding
    polite; it says no yes, so the question is put once more and nothing is linked or forgotten."""
    ragna = first_visit(dm, "Hello, I'm Ragna Holt.", "Please remember the bike shed code is 3381.")
    assert say(dm, "Ragna.").extra["pending_confirmation"]
    waiting = say(dm, asked)
    assert waiting.extra["pending_confirmation"] and "Ragna Holt" in waiting.reply, waiting.reply
    assert waiting.user_id != ragna and list(people(dm)) == [ragna]
    assert say(dm, "Yes.").user_id == ragna


@pytest.mark.parametrize("answer", ["ya", "nope", "yep"])
def test_a_yes_or_no_after_her_name_question_names_no_one(dm, answer):
    """Asked "may I ask your name?", a "ya" made a new person called Ya, greeted, thanked and kept as
    such (tester21 zoe): a yes or a no is no name."""
    say(dm, "hi")
    asked = say(dm, "my cousin Lily is coming to stay with me")
    assert "name" in asked.reply, asked.reply
    turn = say(dm, answer)
    assert answer.capitalize() not in turn.reply and not people(dm), turn.reply
    if answer != "nope":  # she may ask it: the name is still to come, and comes
        assert turn.reply.endswith("What's your name?"), turn.reply
        assert say(dm, "Zoe Park").reply.startswith("Nice to meet you, Zoe!")


@pytest.mark.parametrize("answer", ["tove lind", "Tove Lind.", "yeah do it"])
def test_the_whole_name_or_a_yes_with_a_bidding_answers_the_name_question(dm, answer):
    """"jayden cole" to "Are you Jayden Cole?" (after news told instead of an answer) was read as no
    answer, and the second time left him nobody; "yeah do it" was read as no answer once a bidding
    counted as none (tester21 jayden, replayed)."""
    tove = first_visit(dm, "Hi, I'm Tove Lind.", "My cat Sirius is fourteen.")
    assert say(dm, "its tove").extra["pending_confirmation"]
    assert say(dm, "my cousin moved to Bergen last week").extra["pending_confirmation"]
    yes = say(dm, answer)
    assert yes.user_id == tove and not yes.extra["pending_confirmation"], yes.reply


def test_a_known_given_name_alone_asks_about_the_person_known_by_it(dm):
    sanna = first_visit(dm, "Hello, I'm Sanna Virtanen.", "I teach the cello in Tampere.")
    asked = say(dm, "Sanna.")
    assert asked.extra["pending_confirmation"] and "Sanna Virtanen" in asked.reply, asked.reply
    yes = say(dm, "Yes.")
    assert yes.user_id == sanna and list(people(dm)) == [sanna]



@pytest.mark.parametrize("back", ["Hi it's Sam Reyes", "Sam Reyes here."])
def test_the_name_others_use_with_the_surname_is_asked_about_and_a_yes_opens_her_memory(dm, back):
    """"I'm Samantha Reyes but everyone calls me Sam.", then back as "Sam Reyes": she was made a new
    person with none of her memories. The name others use beside her surname is hers to confirm."""
    sam = first_visit(dm, "I'm Samantha Reyes but everyone calls me Sam.",
                      "Please remember my rent is 950 a month, due on the 1st.")
    asked = say(dm, back)
    assert asked.extra["pending_confirmation"] and "Samantha Reyes" in asked.reply, asked.reply
    assert say(dm, "Yes.").user_id == sam
    assert "950" in say(dm, "How much is my rent?").reply
    assert people(dm) == {sam: "Samantha Reyes"}


@pytest.mark.parametrize(("first", "back"), [("Hi, I'm Lucas.", "Lucas"), ("Hello, my name is Nina Petrova.", "nina")])
def test_a_known_given_name_said_alone_to_open_is_asked_about(dm, first, back):
    """A returning person's first words are their given name alone, a word WordNet knows too ("Lucas",
    "nina"): it was answered "I see. Tell me more!", and the whole conversation went to nobody."""
    known = first_visit(dm, first, "I work at the port as a crane operator.")
    asked = say(dm, back)
    assert asked.extra["pending_confirmation"], asked.reply
    assert say(dm, "Yes.").user_id == known


def test_news_told_after_a_question_instead_of_a_yes_is_no_no_and_is_kept_once_they_say_yes(dm):
    """Asked "is your name ...?", a person who asks something of their own and then tells news has
    answered neither way: the question is put once more, saying the news waits for who they are, and
    a yes then keeps it for them; nobody is made or linked before."""
    uid = first_visit(dm, "Good afternoon, I'm Winifred Achterberg.",
                      "My nephew Casimir is coming for lunch on Sunday.")
    assert say(dm, "Afternoon, it's Winifred.").extra["pending_confirmation"]
    say(dm, "Is Casimir still coming?")
    news = say(dm, "Casimir phoned, he can't make Sunday after all, he'll come on Tuesday instead.")
    assert news.extra["pending_confirmation"] and news.user_id is None, news.reply
    assert "only keep it for you once I know who you are" in news.reply and "Winifred Achterberg" in news.reply, news.reply
    assert list(people(dm)) == [uid]
    assert say(dm, "Yes, that's me.").user_id == uid
    when = say(dm, "When is Casimir coming?")
    assert when.reply.startswith("On Tuesday"), when.reply



def test_he_is_the_person_last_asked_about_never_the_speaker_who_gave_her_name(dm):
    """"Which city is he going to?" after a question about Yusuf asks of him, though the visit's latest
    statement is the speaker's own greeting with her name (the tester's sentences: only they reproduced
    "you told me Fatima here, slept well finally" given as the answer)."""
    first_visit(dm, "Call me Fatima. I'm exhausted, just finished a 12 hour shift.",
                "I'm a paramedic. My son Yusuf starts university on the 25th of September in Manchester.")
    dm.clock.advance(20)
    say(dm, "Fatima here, slept well finally.")
    say(dm, "When does Yusuf start uni?")
    reply = say(dm, "Which city is he going to?").reply
    assert "Manchester" in reply and "slept" not in reply and "exhausted" not in reply, reply


def test_the_speakers_own_name_is_never_whom_they_call_he_or_she():
    said = [TranscriptTurn("user", "My brother Tariq moved to Leeds.", datetime(2026, 11, 4, 10)),
            TranscriptTurn("user", "Farid here, slept well finally.", datetime(2026, 11, 4, 11))]
    assert with_person_named("Where does he live?", said, speaker="Farid") == "Where does my brother Tariq live?"
    assert with_person_named("Where does he live?", said) == "Where does Farid live?"


def test_someone_new_asking_to_be_remembered_in_few_words_is_told_they_have_not_met(dm):
    """tester39 r63: "Hi Nadine, remember me? I'm Victor." got "Of course. What would you like me to remember?"."""
    met = say(dm, "Morning Nadine, remember me? I'm Ludo.")
    assert "met" in met.reply and "What would you like me to remember" not in met.reply, met.reply


@pytest.mark.parametrize(("text", "name", "others"), [
    # "hi! it's Agnieszka, Aga for short" and, the next day, "Aga here" was met as a stranger (tester59 s51, s99)
    ("hi! it's Wiktoria, Wika for short", "Wiktoria", ["Wika"]),
    ("I'm Aleksandra, Ola for short.", "Aleksandra", ["Ola"]),
    ("I'm Lena, a nurse from Graz.", "Lena", []),  # what she is, no name
])
def test_a_name_set_beside_the_one_given_is_another_of_theirs(text, name, others):
    from interaction.offline.name_claims import names_others_use, read_name_claim

    claim = read_name_claim(text)
    assert claim is not None and claim.name == name and names_others_use(text) == others, (claim, text)


@pytest.mark.parametrize(("name", "greeting"), [
    # "hi it's seb" and "hi amir" from Seb and Amir got "Hello! I'm Nadine. What's your name?" (tester60
    # s91, s93): a known name typed in lower case, no verb, adjective or adverb to WordNet, is asked about
    ("Nina", "hi it's nina"),
    ("Amir", "hey amir here again"),
])
def test_a_known_name_typed_in_lower_case_in_a_greeting_is_asked_about(dm, name, greeting):
    uid = first_visit(dm, f"Hello, I'm {name}.", "Please remember that my gym locker is 118.")
    met = say(dm, greeting)
    if met.reply == f"Sorry, just to be sure: is your name {name}?":
        met = say(dm, "yes")
    assert met.reply.startswith(f"Welcome back, {name}") and met.user_id == uid, met.reply
    assert "118" in say(dm, "What's my gym locker?").reply


def test_asked_to_be_called_otherwise_in_a_sentence_of_its_own_is_as_in_one(dm):
    # "hi! I'm Sofia. call me Sofi" got "Nice to meet you, Sofia!" and, the next day, "hey it's Sofi"
    # was asked "is your name Sofia?" (tester60 s06)
    met = say(dm, "hi! I'm Wilhelmina. call me Mina")
    assert met.reply.startswith("Nice to meet you, Mina"), met.reply
    uid = first_visit(dm, "Please remember that my gym locker is 118.")
    back = say(dm, "hey it's Mina")
    assert back.reply.startswith("Welcome back, Mina") and back.user_id == uid, back.reply


@pytest.mark.parametrize("text", ["hey, tomasz here, remember me?", "hi, it's Tomasz, remember me?",
                                  "Tomasz again, do you remember me?"])
def test_a_name_said_before_the_question_whether_she_remembers_them_is_read(dm, text):
    """"hey, tomasz here, remember me?" got "I don't know who you are yet, so I'll keep that for you once
    you tell me. What's your name?" (my play): the name stood in a sentence that ends with a question."""
    from interaction.offline.extract import extract_name

    assert extract_name(text, loose=True) == "Tomasz"
    first_visit(dm, "Hi I'm Tomasz Nowak", "I work as a tram driver in Gdansk.")
    asked = say(dm, text)
    assert asked.extra["pending_confirmation"] and "Tomasz Nowak" in asked.reply, asked.reply
    assert "keep that" not in asked.reply


@pytest.mark.parametrize("text", ["Is it Tomasz?", "Do you know Tomasz, my brother?", "Tomasz, are you there?"])
def test_a_name_asked_about_is_no_name_given(text):
    from interaction.offline.extract import extract_name

    assert extract_name(text, loose=True) is None


def test_someone_known_by_their_one_name_asking_whether_she_remembers_them_is_greeted(dm):
    """"hi, it's Odile, remember me?" from Odile got "I'll remember that it's Odile." (my play): the
    question whether she knows them was read as a request to keep the words before it."""
    first_visit(dm, "hey, im Odile, i teach piano in Lyon")
    asked = say(dm, "hi, it's Odile, remember me?")
    assert "remember that" not in asked.reply and "Odile" in asked.reply, asked.reply
    assert asked.memory_action is None or asked.memory_action.outcome != "kept", asked.memory_action


@pytest.mark.parametrize(("name", "back"), [
    # "hi it's hope" got "What's your name?" and her mum's age was not known (tester66 s14): a known name
    # typed in lower case where an introduction says who is speaking is asked about, though it is a word too
    ("Hope", "hi it's hope"), ("Rob", "hiya, rob here"), ("Sunny", "hi im sunny again"),
])
def test_a_known_name_that_is_also_a_word_typed_in_lower_case_is_asked_about(dm, name, back):
    known = first_visit(dm, f"Hello, my name is {name}.", "My mum Deborah is 51, she's a postwoman.")
    asked = say(dm, back)
    assert asked.extra["pending_confirmation"] and name in asked.reply, asked.reply
    assert say(dm, "yes").user_id == known
    assert "51" in say(dm, "how old is my mum?").reply


def test_a_word_of_the_greeting_that_is_a_known_name_is_not_taken_for_one(dm):
    first_visit(dm, "Hello, my name is Hope.")
    assert not say(dm, "hi, hope you're well").extra["pending_confirmation"]
