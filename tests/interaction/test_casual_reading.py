"""Casual, terse and misspelt speech read as a person means it (offline): names said without a
camera in fragments or in lower case, never a job, a mood or a greeting; questions without a question
mark; a question about the past is no question about the camera's view; and a person known only by
the name they typed is not taken for whoever types after their goodbye."""

from __future__ import annotations

import pytest

from common.config import load_settings
from common.messages import UserInput
from common.store import ProfileStore
from interaction import cues
from interaction.dialogue import DialogueManager
from interaction.guards import GuardContext, apply_guards
from interaction.memory_intent.classifier import UTTERANCES, default_classifier
from interaction.offline.extract import extract_name
from interaction.offline.understand_rules import understand
from interaction.turn_understanding import PlanStep, TurnUnderstanding
from scripts.eval import name_reading
from tests.interaction.memory_fixtures import layout_and_clock

INTRODUCTIONS = [
    ("Hello. Wiktor. Welder, Katowice.", "Wiktor"), ("Evening. Hedda here.", "Hedda"),
    ("hey its marisol", "Marisol"), ("sup, im jun", "Jun"), ("Morning. Oyelaran. I mend clocks.", "Oyelaran"),
    ("hiya, tereza again", "Tereza"), ("Benedek here.", "Benedek"), ("hello im stanko, i sell tyres", "Stanko"),
    # names MiniLM puts near an occupation: no English noun, so no job
    ("Evening. Marta here.", "Marta"), ("hey its rafa", "Rafa"),
    # a returning typist's reintroduction, a greeting and a name, a hyphenated name
    ("Ottilie again.", "Ottilie"), ("Hi, Bashir.", "Bashir"), ("Hello, Seo-yeon again.", "Seo-yeon"),
    ("Ola, Dagny again.", "Dagny"), ("hey its anne-marie", "Anne-Marie"),
    # a surname in the slot, a stretched greeting, a name answering the phone's way
    ("Wanjiru Kamau here.", "Wanjiru Kamau"), ("heyyy im Solveig", "Solveig"), ("Hi, Teodor speaking.", "Teodor"),
    # a lower-case name the tagger alone reads as a verb form though the lexicon
    # knows it as a noun ("drew", past of "draw"), and a people's name that is a surname too (Greg Norman)
    ("im drew", "Drew"), ("I'm Norman, nice to meet you.", "Norman"), ("hello im norman", "Norman"),
    # chat words closing the introduction
    ("hiya im kofi haha", "Kofi"), ("Evening, Ingrid here lmao", "Ingrid"),
    # a word of address after "here" or "again" (a person by WordNet's senses)
    ("Dorothy Brown here dear", "Dorothy Brown"), ("morning, Shirley again love", "Shirley"),
    # the name said before "the name"
    ("Kasia's the name, I fix bikes.", "Kasia"),
    # a surname WordNet knows only as people of that name is no occupation (Andrew Carnegie)
    ("Good evening, Priya Carnegie here.", "Priya Carnegie"), ("Tom Orwell here.", "Tom Orwell"),
    # a returning typist's full name before "again", and the speaker pointing at themselves first
    ("Oskar Lindqvist again.", "Oskar Lindqvist"), ("Hi there, Farida Haddad again", "Farida Haddad"),
    ("Hey, it's me, Teodora Ilic, again.", "Teodora Ilic"), ("hi its me, bruno costa", "Bruno Costa"),
    ("me again, ravi", "Ravi"), ("Is me, Rosa", "Rosa"), ("Hello, Fatima Al-Sayed.", "Fatima Al-Sayed"),
    # exclamations before the greeting, the reflexive pronoun with no verb, and the name the turn opens
    # with before the speaker goes on about themselves (a title before it is no part of it)
    ("yay heyyy im noor!!", "Noor"), ("wow hiya, its bartek lol", "Bartek"),
    ("Good morning. Myself Ravi Iyer, I run a bakery in Mysore.", "Ravi Iyer"), ("myself deepa, from Kochi", "Deepa"),
    ("Prof. Anneliese Brandt, I lecture in geology, from Kiel originally.", "Anneliese Brandt"),
    ("Hello. Oluwaseun Adeyemi. I'm a nurse in Ibadan.", "Oluwaseun Adeyemi"),
    # ... and their age said alone between
    ("Hey there! Mike Donovan, 45, I coach little league baseball in the spring.", "Mike Donovan"),
]
NO_NAME = [
    "Hi. Plumber.", "Evening. Electrician here.", "Morning. Shattered today.", "hey its pouring out there",
    "hi its me again", "Hello again. Foggy in Hamburg.", "hey im starving", "Hi. Good evening.", "hey its tuesday",
    "Drizzly again.", "Hi, again.", "Hi, there.", "hi, check-in here", "Evening. Self-employed.",
    "Night nurse speaking.", "Lisbon office here.",
    # a feeling said as a participle, tagged a verb: its stem doubles a consonant, or it is an adjective
    # an adjective the lexicon knows as no noun, a faith with no one named by it
    "hey its gloomy out", "hi its muggy", "Hello, I'm Lutheran.",
    "Our cat ran off last night, I'm gutted.", "Long shift today, I'm knackered.", "hi, im chuffed",
    "im so bored lol",
    # what something was, and a possessive taken back, are no names
    "wait it was Jordan, not me", "no it was my flatmates bike not mine",
    # a question without its mark asks about the speaker, it names no one
    "how heavy am i", "how late am i",
    "That's the name.", "Pickles is the name of our hamster",
    # two words before "again" that describe the day, and "it's me" followed by no name
    "Leftover curry again.", "Hey, it's me, again.", "hey its me, soaked again",
    # exclamations and a greeting before a mood; a word that opens a turn before "I ..." that is a place,
    # a thing, a time or an aside; the reflexive pronoun before a mood
    "ugh hiii im so wiped", "wow hey im freezing", "Mum, I'm back.", "Kitchen, I painted it blue.",
    "Vienna, I adore that city.", "Friday, I fly out.", "Frankly, I'm fed up.", "Myself exhausted, honestly.",
]


@pytest.mark.parametrize(("said", "name"), INTRODUCTIONS)
def test_a_terse_or_lower_case_introduction_names_the_speaker(said, name):
    assert extract_name(said, loose=True) == name


@pytest.mark.parametrize("said", NO_NAME)
def test_a_job_a_mood_the_weather_or_a_greeting_is_no_name(said):
    assert extract_name(said, loose=True) is None


@pytest.mark.parametrize(("said", "name"), [
    ("im zofia btw", "Zofia"), ("heya its Lukas fyi", "Lukas"), ("I'm Imogen btw, hi", "Imogen"),
    # the word after is one the lexicon knows: a mood or the weather, never an afterthought to a name
    ("its sunny today", None), ("im freezing tbh", None), ("hey its windy already", None),
])
def test_a_chat_word_after_a_given_name_is_no_surname(said, name):
    assert extract_name(said, loose=True) == name


@pytest.mark.parametrize(("said", "name"), [
    ("Hiya, Wiktor here, Wiktor Nowak.", "Wiktor Nowak"), ("I'm Agnes, Agnes Byrne.", "Agnes Byrne"),
    ("Evening! Lars Eriksen.", "Lars Eriksen"), ("Bronwen Price's the name, I run the post office.", "Bronwen Price"),
    ("Hello. Lovely morning.", None),
    # a casual "im" / "its" with the surname too
    ("hey im Greta Holm", "Greta Holm"), ("hiya its lars eriksen", "Lars Eriksen"), ("im so knackered", None),
    # a surname that is a kind of person too, typed with its capital after the given name
    ("Winifred Shepherd here.", "Winifred Shepherd"), ("Hi, I'm Colin Mason.", "Colin Mason"),
    ("I'm Anna, a baker from Leeds.", "Anna"),
])
def test_a_full_name_given_after_the_first_name_or_alone_after_a_greeting_is_the_full_name(said, name):
    assert extract_name(said, loose=True) == name


def test_a_word_alone_after_a_greeting_is_a_name_only_while_nadine_knows_none():
    assert extract_name("Hi. Wiktor.", loose=True) == "Wiktor"
    assert extract_name("Hi. Wiktor.") is None  # someone with a name already is not renamed by it
    assert extract_name("Wiktor here.") == "Wiktor"  # an explicit form counts whoever says it


def test_the_name_reader_on_its_held_out_openings():
    """The test split of scripts/eval/name_reading/intros.tsv with the shipped margins: no made-up
    name (every doubt reads as none) and most names read (shipped: precision 1.0, recall 0.962)."""
    from interaction.offline.name_reading import default_reader

    reader = default_reader()
    rows = name_reading.load()["test"]
    read = [reader.read(text, loose=True) or "" for text, _ in rows]
    scored = name_reading.score(read, [name for _, name in rows])
    assert scored["false_names"] == 0, scored
    assert scored["recall"] >= 0.9, scored


@pytest.mark.parametrize("said", [
    "whats my locker code", "when is my nephews party", "where do i park on sundays", "which gate is my flight",
    "hey nadine hows my mum doing", "how many pills do i take", "who came with me to the match",
    "do you know my sisters address", "Nadine, what's my dog called",
    # an opening auxiliary typed in lower case ("is my dad having his knee done" was kept as news)
    "is my dad having his knee done", "was the vet open on saturday",
])
def test_a_question_without_its_mark_is_a_question(said):
    assert cues.is_question(said)


@pytest.mark.parametrize("said", ["did some shopping after", "did a lot of walking today", "Did some gardening."])
def test_a_statement_without_its_subject_that_opens_with_did_is_a_statement(said):
    """"did some shopping after" got "That's a good question. I'm afraid I don't know the answer."
    (tester46 s24): the parser took "some" for the subject of an auxiliary hung on "shopping"."""
    assert not cues.is_question(said)


@pytest.mark.parametrize("said", [
    "where I grew up the winters were long", "what a day", "when I'm bored I bake bread",
    "what I need is a holiday", "what makes me laugh is my cat", "I forgot my keys again", "Then I went home.",
])
def test_a_statement_that_opens_like_a_question_is_a_statement(said):
    assert not cues.is_question(said)


@pytest.mark.parametrize(("said", "about_view"), [
    ("What do you see right now?", True), ("look at this", True), ("what am I holding", True),
    ("how do I look today?", True), ("what colour is this", True), ("can you see me", True),
    ("Who came with me to the concert?", False), ("What colour was my first car?", False),
    ("did you see the photos I sent", False), ("What am I doing this weekend?", False),
    ("And remember I see the physio on Tuesdays.", False), ("what was that song you mentioned", False),
    # the speaker's present progressive asked where or which place is their life, not the view
    ("Where am I working at the moment?", False), ("In which town I am staying?", False),
    ("which scarf am I wearing?", True), ("am I blinking?", True),
    # a doing of the mind or of talk is no sight; a request that is no look points at nothing in view
    ("what language am I studying", False), ("am I planning to move?", False), ("what am I saying", False),
    ("what am I carrying?", True), ("show me this", True), ("what's this thing?", True), ("tell me what this is", True),
    ("keep this to yourself but I'm changing jobs", False), ("don't tell that to anyone", False),
    # asked when or where a thing pointed at is, or whether they still go to a place: nothing in view says it
    ("when's that exam", False), ("where is that party again?", False), ("Am I still going to Orlando?", False),
    ("what is that?", True), ("am I sitting up straight?", True),
    # ... nor is a bond or a role ("Am I still working?" got "Sorry, I cannot see anything right now.":
    # tester36 r03), while "doing" stands for any doing
    ("Am I still working?", False), ("am I still dating Ruth?", False), ("what am I doing?", True),
])
def test_only_a_question_about_the_present_view_is_for_the_camera(said, about_view):
    assert cues.is_about_view(said) is about_view


@pytest.mark.parametrize(("said", "kept"), [("Who came with me to the concert?", False), ("What do you see?", True)])
def test_a_models_camera_step_stands_only_for_the_present_view(said, kept):
    planned = TurnUnderstanding(memory_intent="statement", plan=[PlanStep(agent="vision_agent", message=said),
                                                                 PlanStep(agent="response_agent", message=said)])
    guarded = apply_guards(planned, said, GuardContext(None, None, False))
    assert any(s.agent == "vision_agent" for s in guarded.plan) is kept


@pytest.mark.parametrize(("said", "intent"), [
    ("can u remember my pin its 4471", "remember"), ("also remmeber my aunt's bday is 9 may", "remember"),
    ("And remember I see the physio on Tuesdays.", "remember"),
    ("I sold the bike, so please forget the bike lock code.", "forget_one"),
    ("I keep forgetting my pin, so I wrote it on a card.", "statement"),
])
def test_casual_and_misspelt_memory_requests(said, intent):
    assert said not in UTTERANCES.read_text(encoding="utf-8")
    assert default_classifier().classify(said).intent == intent


def _chat(tmp_path) -> tuple[DialogueManager, ProfileStore]:
    layout, clock = layout_and_clock(tmp_path)
    settings = load_settings(environ={"NADINE_DATA_DIR": str(tmp_path)})
    return DialogueManager(settings, layout, clock, _Outbox(), environ={}), ProfileStore(layout)


class _Outbox:
    def publish(self, spec, message) -> None:
        pass


def test_a_terse_introduction_without_a_camera_is_linked_next_time(tmp_path):
    dm, store = _chat(tmp_path)
    first = dm.process_input(UserInput(text="Hi. Wiktor. Welder, Katowice."))
    assert first.user_name == "Wiktor" and first.user_id in store.user_ids()
    assert "Welder!" not in first.reply and "Katowice!" not in first.reply
    dm.process_input(UserInput(text="Bye!"))
    back = dm.process_input(UserInput(text="wiktor here"))
    assert back.user_id == first.user_id


def test_after_a_goodbye_the_next_typist_is_nobody_until_they_say_who_they_are(tmp_path):
    dm, _ = _chat(tmp_path)
    hedda = dm.process_input(UserInput(text="Evening. Hedda here."))
    assert hedda.user_name == "Hedda"
    assert dm.process_input(UserInput(text="Night!")).intent == "end_conversation"
    someone = dm.process_input(UserInput(text="hi its me again"))
    assert someone.user_id is None and someone.user_name is None
    assert dm.process_input(UserInput(text="hedda here")).user_id == hedda.user_id


def test_a_goodbye_with_an_unrecognised_face_in_view_keeps_who_they_said_they_are(tmp_path):
    """The face in view is the person who gave the name (perception files it under them): the
    conversation may go on after the goodbye."""
    from common.messages import UserDetected

    dm, _ = _chat(tmp_path)
    dm.on_user_detected(UserDetected(user_name="Unknown", confidence=40.0, user_id=None))
    named = dm.process_input(UserInput(text="Hello, I'm Hedda."))
    dm.process_input(UserInput(text="Bye!"))
    assert dm.process_input(UserInput(text="Oh, one more thing.")).user_id == named.user_id


@pytest.mark.parametrize(("said", "farewell"), [
    ("Night!", True), ("ok cya", True), ("see ya!", True), ("Ta-ra.", True), ("night shift again", False),
    ("Cyan suits you", False), ("I'm Tara.", False), ("ok I have to run, talk later", True), ("that's all, adios", True),
    ("cheerio then", True), ("tschuss", True), ("I run a café and talk a lot", False),
])
def test_casual_goodbyes(said, farewell):
    assert cues.is_farewell(said) is farewell


@pytest.mark.parametrize(("said", "thanks"), [("Ta, that helps.", True), ("Ta-ra.", False), ("Tamsin here.", False)])
def test_a_thanks_is_its_own_word(said, thanks):
    assert bool(cues.THANKS.search(said)) is thanks


@pytest.mark.parametrize(("said", "intent"), [
    ("Ciao, I'm Loredana.", "update_user_info"), ("Cheers, Dermot here.", "update_user_info"), ("Ciao!", "end_conversation"),
])
def test_who_introduces_themselves_with_a_word_of_parting_is_arriving(said, intent):
    assert apply_guards(understand(said), said, GuardContext(None, None, False)).intent == intent


@pytest.mark.parametrize("said", ["How are you today?", "how's it going", "Hi Nadine! How are you doing?",
                                  "oh forget that, how are you today?", "Right then, how have you been?",
                                  "How are you doing today?", "how are you feeling this morning?"])
def test_how_are_you_is_answered_as_a_person_would(tmp_path, said):
    dm, _ = _chat(tmp_path)
    dm.process_input(UserInput(text="Hi, I'm Oskar."))
    reply = dm.process_input(UserInput(text=said)).reply
    assert "I'm very well, thank you" in reply and "don't know" not in reply, reply


def test_the_date_and_the_time_come_from_the_clock_the_turn_runs_on(tmp_path):
    dm, _ = _chat(tmp_path)
    dm.process_input(UserInput(text="Hi, I'm Oskar."))
    dm.clock.advance(24 * 40)  # the shared clock moved, as in scripts: never the wall clock's day
    now = dm.clock.now()
    day = dm.process_input(UserInput(text="what day is it today?")).reply
    assert day == f"Today is {now:%A} {now.day} {now:%B %Y}.", day
    assert dm.process_input(UserInput(text="What time is it?")).reply.startswith("It's ")


@pytest.mark.parametrize(("answer", "name"), [("Pierre", "Pierre"), ("ines moreau", "Ines Moreau"), ("Tired.", None),
                                              ("no idea", None), ("peanut butter", None)])
def test_a_name_said_alone_answers_nadines_question_for_it(tmp_path, answer, name):
    """"Hello" gets "What's your name?"; the answer alone is the name (when it reads as one), and
    the news that follows is kept for that person."""
    dm, store = _chat(tmp_path)
    assert dm.process_input(UserInput(text="hello")).reply.endswith("What's your name?")
    said = dm.process_input(UserInput(text=answer))
    assert said.user_name == name, said.reply
    assert sorted(store.user_ids().values()) == ([name] if name else [])


@pytest.mark.parametrize(("answer", "name", "kept"), [
    ("Bill. I drive a taxi in Hull.", "Bill", "Hull"), ("Mark, 52, I fix boilers in Derby.", "Mark", "Derby"),
    ("Sorry. I live in Hull.", None, None), ("Long story. I moved to Derby.", None, None)])
def test_a_name_opening_the_answer_to_nadines_question_is_the_name_and_the_rest_is_kept(tmp_path, answer, name, kept):
    """The answer to "What's your name?" may say the name first and go on ("Bill. I drive a taxi."):
    a name that is an English word too ("bill", "mark") still answers; an opening that reads as no name
    ("Sorry.") names no one."""
    dm, store = _chat(tmp_path)
    dm.process_input(UserInput(text="hi there"))
    said = dm.process_input(UserInput(text=answer))
    assert said.user_name == name, said.reply
    assert sorted(store.user_ids().values()) == ([name] if name else [])
    if kept:
        assert kept in said.reply, said.reply


@pytest.mark.parametrize(("answer", "yes", "name"), [("Earl", "yes", "Earl"), ("Clement", "yeah thats me", "Clement"),
                                             ("Rocky", "no", None), ("Tired.", "no", None)])
def test_an_english_word_answering_nadines_question_for_a_name_is_asked_about(tmp_path, answer, yes, name):
    """"Earl", "Clement" or "Rocky" to "What's your name?" got "I see. Tell me more!": the reader takes a
    word English knows for no name. Typed with its capital as the whole answer, it is asked about: a yes
    makes the person of that name, a no makes nobody and asks for the name again."""
    dm, store = _chat(tmp_path)
    dm.process_input(UserInput(text="hi"))
    asked = dm.process_input(UserInput(text=answer))
    assert asked.reply == f"Sorry, just to be sure: is your name {answer.strip('.')}?", asked.reply
    assert store.user_ids() == {}
    said = dm.process_input(UserInput(text=yes))
    assert said.user_name == name and sorted(store.user_ids().values()) == ([name] if name else []), said.reply
    assert said.reply == (f"Nice to meet you, {name}!" if name else "Sorry, I got that wrong. What's your name?")


@pytest.mark.parametrize("answer", ["busy", "Nope", "Thanks!"])
def test_a_word_typed_without_a_capital_or_a_no_answering_the_question_for_a_name_is_not_asked_about(tmp_path, answer):
    dm, store = _chat(tmp_path)
    dm.process_input(UserInput(text="hi"))
    said = dm.process_input(UserInput(text=answer))
    assert "is your name" not in said.reply and store.user_ids() == {}, said.reply


def test_a_stranger_asking_to_be_remembered_in_a_greeting_is_asked_the_name_once(tmp_path):
    """"Hey, remember me? The one with the road trip." got "Hello! I'm Nadine. What's your name? I don't
    think we've met yet. What's your name?" (tester64 s3)."""
    dm, _ = _chat(tmp_path)
    reply = dm.process_input(UserInput(text="Hey, remember me? The one with the road trip.")).reply
    assert reply.count("What's your name?") == 1 and "met" in reply, reply


def test_the_speakers_own_name_typed_in_lower_case_is_greeted(tmp_path):
    """"becca again" got "I see, Becca. Tell me more!": the tagger takes "becca" for a verb (tester64 s27)."""
    dm, _ = _chat(tmp_path)
    dm.process_input(UserInput(text="hey its Becca"))
    assert dm.process_input(UserInput(text="becca again")).reply == "Hello again, Becca!"


@pytest.mark.parametrize("why", ["Why do you want to know?", "Hmm, why?"])
def test_asked_why_she_wants_the_name_she_says_why_and_asks_again(tmp_path, why):
    dm, store = _chat(tmp_path)
    dm.process_input(UserInput(text="good evening"))
    said = dm.process_input(UserInput(text=why))
    assert "remember" in said.reply and said.reply.endswith("What's your name?"), said.reply
    assert store.user_ids() == {}


@pytest.mark.parametrize(("answer", "name"), [("Umar", "Umar"), ("Mhm.", None), ("Pssh", None)])
def test_a_sound_answering_nadines_question_for_a_name_is_no_name(tmp_path, answer, name):
    """A sound written down ("Mhm.") is no name, whatever the question: nobody is made of it."""
    dm, store = _chat(tmp_path)
    dm.process_input(UserInput(text="good afternoon"))
    said = dm.process_input(UserInput(text=answer))
    assert said.user_name == name, said.reply
    assert sorted(store.user_ids().values()) == ([name] if name else [])


@pytest.mark.parametrize(("first", "name"), [("Kwame.", "Kwame"), ("Ingeborg", "Ingeborg"), ("Coffee.", None),
                                             ("Yep.", None), ("Shh", None),
                                             # a word whose first sense WordNet writes with a capital
                                             ("Nina Patel", "Nina Patel"), ("tom", "Tom"), ("Grace.", None),
                                             # a given name and a surname that is also a word, each with its capital
                                             ("Walter Sparrow.", "Walter Sparrow"), ("Good Morning.", None)])
def test_a_name_said_alone_as_the_first_turn_is_asked_about(tmp_path, first, name):
    """The first words of a conversation with nobody known, a word alone that is no English word, may
    be a name said unasked: Nadine asks, and only a clear yes makes it the speaker's; an English word
    alone ("Coffee.") or a sound is no name to ask about."""
    dm, store = _chat(tmp_path)
    said = dm.process_input(UserInput(text=first))
    assert said.user_id is None and (f"is your name {name}?" in said.reply) == bool(name), said.reply
    if name:
        confirmed = dm.process_input(UserInput(text="Yes, that's right."))
        assert confirmed.user_name == name, confirmed.reply
        # after a goodbye the next typist opens a conversation of their own, and is asked again
        dm.process_input(UserInput(text="Bye now!"))
        assert f"is your name {name}?" in dm.process_input(UserInput(text=f"{name}.")).reply
        assert dm.process_input(UserInput(text="yes")).user_id == confirmed.user_id
    assert sorted(store.user_ids().values()) == ([name] if name else [])


def test_a_name_said_alone_beside_a_pleasantry_is_no_news_to_be_happy_about(tmp_path):
    """"Good morning! Ruaridh Campbell, nice to meet you." got "Nice to meet you, Ruaridh! That's
    wonderful! I'm really happy for you." (my play): the name and the pleasantry tell nothing."""
    dm, _ = _chat(tmp_path)
    said = dm.process_input(UserInput(text="Good evening! Agnes Thornbury, nice to meet you."))
    assert said.reply == "Nice to meet you, Agnes!", said.reply


def test_a_full_name_said_with_a_greeting_by_someone_new_is_taken_as_said(tmp_path):
    """"Good afternoon. Harold Finch, pleased to make your acquaintance." on an empty data folder got
    "is your name Harold Finch?", and the news told instead of a yes was lost with the name (tester29)."""
    dm, store = _chat(tmp_path)
    said = dm.process_input(UserInput(text="Good evening. Agnes Thornbury, delighted to meet you."))
    assert said.user_name == "Agnes Thornbury" and "is your name" not in said.reply, said.reply
    told = dm.process_input(UserInput(text="I'm a retired midwife."))
    assert told.user_id == said.user_id and "midwife" in told.reply, told.reply
    assert sorted(store.user_ids().values()) == ["Agnes Thornbury"]


@pytest.mark.parametrize("answer", ["No.", "Hmm, not sure.", "What do you mean?"])
def test_a_word_alone_opening_a_conversation_is_nobodys_name_without_a_yes(tmp_path, answer):
    dm, store = _chat(tmp_path)
    assert "is your name Oops?" in dm.process_input(UserInput(text="Oops")).reply
    dm.process_input(UserInput(text=answer))
    dm.process_input(UserInput(text="I don't know."))
    assert store.user_ids() == {}


def test_a_date_asked_with_a_word_of_current_affairs_still_comes_from_the_clock(tmp_path):
    """"today's" marks a real-time question for the web, but the date is the clock's: never looked up."""
    dm, _ = _chat(tmp_path)
    dm.process_input(UserInput(text="Hello, I'm Ines."))
    dm.clock.advance(24 * 3)
    now = dm.clock.now()
    reply = dm.process_input(UserInput(text="Quick question, Nadine: what's today's date?")).reply
    assert f"{now:%A} {now.day} {now:%B %Y}" in reply and "look that up" not in reply, reply


@pytest.mark.parametrize("asked", ["What's the date today?", "what's today's date?", "What day is it?"])
def test_todays_date_asked_after_midnight_is_the_calendars(tmp_path, asked):
    """Up at two in the morning, "what's the date today?" is the date on the calendar, though what was
    told an hour before midnight is still "tonight" as people speak of it."""
    dm, _ = _chat(tmp_path)
    dm.process_input(UserInput(text="Hello, I'm Ines."))
    dm.clock.advance(11)  # Wednesday 15:00 -> Thursday 02:00
    reply = dm.process_input(UserInput(text=asked)).reply
    assert "Thursday 5 November 2026" in reply, reply


@pytest.mark.parametrize(("said", "name"), [
    # a greeting asked after another ("whats up"), or sounds with no greeting before "im" / "its": the
    # name that follows was read as none (tester21 jayden)
    ("yo whats up im Marcus Webb", "Marcus Webb"), ("hey how are you, I'm Tessa", "Tessa"),
    ("ayyy its priya", "Priya"), ("omg im Noor 💛", "Noor"),
    # sounds before a mood or a state name no one
    ("lol im dead", None), ("ugh im exhausted", None), ("yo whats up", None),
    # words of a sentence before a possessive "its" are no sounds: they tell something
    ("had lost its window ornamentation", None),
])
def test_sounds_and_a_greeting_asked_before_who_they_are(said, name):
    assert extract_name(said, loose=True) == name


@pytest.mark.parametrize("said", [
    "Am I still going to Reykjavik?",  # the small tagger makes the name a verb after "to" (tester25)
    "am I going to the gym tonight?",
])
def test_where_they_are_going_is_for_no_camera(said):
    assert not cues.is_about_view(said)


@pytest.mark.parametrize(("said", "name"), [
    # "also i'm a vet nurse lol" named the speaker "Lol" (tester65 s48): a chat word alone is no name
    ("also i'm a vet nurse lol", None), ("I'm Mo lol", "Mo"), ("im a chef lmao", None),
    # "Hi, I'm Mo." kept "Mo." (tester65 s53): the tokenizer reads it as the state's abbreviation
    ("Hi, I'm Mo.", "Mo"), ("I'm Ga.", "Ga"),
])
def test_a_chat_word_is_no_name_and_a_name_ends_before_its_full_stop(said, name):
    assert extract_name(said, loose=True) == name
