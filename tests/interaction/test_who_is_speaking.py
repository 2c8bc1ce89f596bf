"""Who is speaking in a chat without a camera, where the name typed is the identity: news told instead
of an answer to "is your name ...?" makes nobody new; a new person who greets and gives their name while
that question waits for the one before starts their own part; a memory asked for before the name is
kept for the person once the name is settled in the same conversation, and for nobody otherwise."""

from __future__ import annotations

import pytest

from common.messages import TurnResult, UserInput
from common.store import ProfileStore
from interaction.dialogue import DialogueManager
from interaction.memory.local_services import LocalMemoryServices
from tests.interaction.memory_fixtures import layout_and_clock, make_settings


class _Outbox:
    def publish(self, spec, message) -> None:
        pass


@pytest.fixture
def dm(tmp_path) -> DialogueManager:
    layout, clock = layout_and_clock(tmp_path)
    settings = make_settings(tmp_path)
    return DialogueManager(settings, layout, clock, _Outbox(),
                           services=LocalMemoryServices(settings, layout, clock, bus=None), environ={})


def say(dm: DialogueManager, text: str) -> TurnResult:
    return dm.process_input(UserInput(text=text))


def people(dm: DialogueManager) -> list[str]:
    return sorted(ProfileStore(dm.layout).user_ids().values())


@pytest.mark.parametrize("news", ["My brother just got engaged.", "My daughter just had a baby boy."])
def test_news_told_instead_of_an_answer_makes_no_second_person(dm, news):
    """Asked "is your name Frederik?", the speaker tells news: no answer, so they are asked again, and
    a second turn that answers nothing leaves them nobody, never a new "Fred" beside Frederik."""
    say(dm, "Hi, I'm Frederik. I repair harpsichords.")
    say(dm, "Goodbye!")
    assert "Frederik" in say(dm, "Hi, I'm Fred.").reply
    again = say(dm, news)
    assert again.user_id is None and again.extra["pending_confirmation"], again.reply
    say(dm, "We are all thrilled about it.")
    assert people(dm) == ["Frederik"]


def test_news_told_instead_of_an_answer_waits_with_the_question_and_goes_to_them_on_a_yes(dm):
    """Asked "is your name Bartholomew Quist?", the speaker tells what they do now: it is no answer, so
    nobody is linked and they are asked once more, and what they told is kept for them once they say yes."""
    bart = say(dm, "Hello, my name is Bartholomew Quist. I restore pianos.")
    say(dm, "Cheerio!")
    assert say(dm, "Morning! Bartholomew here.").extra["pending_confirmation"]
    told = say(dm, "These days I work as a lifeguard in Brighton.")
    assert told.user_id is None and told.extra["pending_confirmation"] and "keep it" in told.reply, told.reply
    yes = say(dm, "Yes, that's me.")
    assert yes.user_id == bart.user_id
    assert ProfileStore(dm.layout).load(bart.user_id).current_position == "lifeguard"


@pytest.mark.parametrize("news", ["I never got that promotion in the end.", "We never found the cat in the end."])
def test_news_the_reader_leans_on_is_no_answer(dm, news):
    """News with a negation leans the reply reader either way; it names things of its own and answers
    nothing, so it links nobody and makes nobody new."""
    say(dm, "Hello, my name is Bartholomew Quist. I restore pianos.")
    say(dm, "Cheerio!")
    say(dm, "Morning! Bartholomew here.")
    told = say(dm, news)
    assert told.user_id is None and told.extra["pending_confirmation"], told.reply
    assert people(dm) == ["Bartholomew Quist"]


def test_a_name_question_is_asked_once_more_at_most_and_what_was_told_waits_for_the_name(dm):
    """Two turns that answer nothing, news and a question: the second is not met with the question again;
    nobody is linked, and the news goes to the person once they give their full name."""
    bart = say(dm, "Hello, my name is Bartholomew Quist. I restore pianos.")
    say(dm, "Cheerio!")
    say(dm, "Morning! Bartholomew here.")
    say(dm, "I live in Hove now, near the pier.")
    moved_on = say(dm, "Did you see the storm last night?")
    assert not moved_on.extra["pending_confirmation"] and moved_on.user_id is None, moved_on.reply
    later = say(dm, "The sea was wild this morning.")
    assert "Bartholomew" not in later.reply and not later.extra["pending_confirmation"], later.reply
    named = say(dm, "I'm Bartholomew Quist, by the way.")
    assert named.user_id == bart.user_id
    assert ProfileStore(dm.layout).load(bart.user_id).location == "Hove"


@pytest.mark.parametrize("settle", [["Yes, that's me."],
                                    ["Oh, and my grandson starts school next week.", "I'm Ingrid Solberg, by the way."]])
def test_a_change_told_while_the_name_question_waits_is_theirs_once_they_are_known(dm, settle):
    """Asked "is your name Ingrid Solberg?", she tells that a kept thing has moved: it is news, not an
    answer, so once a yes (or her full name after the question was let go) says who she is, asking
    for it gets the new value, not the old one."""
    say(dm, "Hello, my name is Ingrid Solberg.")
    say(dm, "Please remember that my ferry to Bergen leaves at 7:40.")
    say(dm, "Cheerio!")
    assert say(dm, "Morning! Ingrid here.").extra["pending_confirmation"]
    say(dm, "They've moved my ferry to 9:15, so I get a lie-in.")
    for turn in settle:
        say(dm, turn)
    asked = say(dm, "When does my ferry leave?")
    assert "9:15" in asked.reply and "7:40" not in asked.reply.split("—")[0], asked.reply


@pytest.mark.parametrize("news", ["One of my sons is getting divorced, it's Tomas, the older one.",
                                  "Our new lodger moved in yesterday. It's Greta, from Malmö.",
                                  # the one spoken of as a possessor: the "it" gives that one's name
                                  "I can never keep my godson's name in my head. It's Barnaby.",
                                  "Do you know my landlady's name? It's Mrs Okafor."])
def test_it_is_a_name_said_of_someone_just_spoken_of_is_not_the_speaker(dm, news):
    """"it's Tomas" after "one of my sons" names the son: Petra stays who she is, nobody new is made,
    and what she told is hers."""
    petra = say(dm, "Hi, I'm Petra Novak.")
    told = say(dm, news)
    assert told.user_id == petra.user_id and "Nice to meet you" not in told.reply, told.reply
    assert people(dm) == ["Petra Novak"]


@pytest.mark.parametrize("weighing", [
    # the tester's words, then ours
    "What's the tallest mountain in Europe, by the way? I always forget whether it's Mont Blanc or Elbrus.",
    "I can't remember if it's Lake Garda or Lake Como where we stayed.",
    "The new puppy, I think it's Biscuit or Pudding we'll call him.",
])
def test_a_name_weighed_in_a_clause_or_among_alternatives_is_not_the_speaker(dm, weighing):
    """"... whether it's Mont Blanc or Elbrus" made a new person called Mont, and what Anna told next
    was filed under the mountain (tester23 anna). A name under "whether" / "if", or one of
    alternatives, is weighed, not given: she stays who she is and what she tells next is hers."""
    petra = say(dm, "Hi, I'm Petra Novak.")
    told = say(dm, weighing)
    assert told.user_id == petra.user_id and "Nice to meet you" not in told.reply, told.reply
    kept = say(dm, "Please remember that my spare key is with Mrs Patel next door.")
    assert kept.user_id == petra.user_id and people(dm) == ["Petra Novak"]


@pytest.mark.parametrize("state", ["I'm HIV positive and I haven't told my parents.",
                                   "I'm Rh negative, the midwife says it matters."])
def test_the_kind_of_a_state_said_after_im_is_no_name(dm, state):
    """"I'm HIV positive and I've not told my family yet" got "Nice to meet you, HIV!" and a person
    named HIV (tester29): a word the parse hangs on the adjective right after it says what kind of
    state that is."""
    say(dm, "Hello")
    told = say(dm, state)
    assert "Nice to meet you" not in told.reply and people(dm) == [], told.reply


def test_questions_about_their_own_life_keep_the_name_question_open_until_it_is_answered(dm):
    """"When do I fly?" cannot be answered before who they are is settled: however many such questions
    come instead of an answer, none is taken for a no; a yes then links and answers the latest."""
    ingrid = say(dm, "Hello, my name is Ingrid Solberg.")
    say(dm, "Please remember that my ferry to Bergen leaves at 7:40.")
    say(dm, "Cheerio!")
    say(dm, "Morning! Ingrid here.")
    for question in ("When does my ferry leave?", "Where am I going again?", "What did I ask you to keep for me?"):
        asked = say(dm, question)
        assert asked.extra["pending_confirmation"] and asked.user_id is None, asked.reply
    yes = say(dm, "Yes, that's me.")
    assert yes.user_id == ingrid.user_id and "7:40" in yes.reply, yes.reply


def test_a_first_name_two_people_share_opens_neither_ones_memories_without_a_clear_yes(dm):
    """Oona and Oona Lind are two people: "it's Oona" is asked about each, the fuller name first, and
    opens Oona's gate code only on a clear yes about her; a no to Oona Lind never makes them her."""
    oona = say(dm, "Hi, I'm Oona.")
    say(dm, "Please remember that my gate code is 5521.")
    say(dm, "Bye bye!")
    assert say(dm, "Hello, I'm Oona Lind.").extra["pending_confirmation"]
    lind = say(dm, "No.")
    assert lind.user_id not in (None, oona.user_id) and lind.user_name == "Oona Lind"
    say(dm, "Bye bye!")
    asked = say(dm, "Hi, it's Oona.")
    assert asked.user_id is None and "Oona Lind" in asked.reply, asked.reply
    assert "5521" not in say(dm, "What's my gate code?").reply
    say(dm, "Bye bye!")
    say(dm, "Hi, it's Oona.")
    assert say(dm, "Yes, that's me.").user_id == lind.user_id
    say(dm, "Bye bye!")
    say(dm, "Hi, it's Oona.")
    assert say(dm, "No.").user_id is None  # then asked about Oona herself
    assert say(dm, "Yes.").user_id == oona.user_id
    assert people(dm) == ["Oona", "Oona Lind"]


def test_someone_greeting_with_another_name_while_a_name_question_waits_starts_afresh(dm):
    """"is your name Margit?" waits on the one who said Margot; someone else greets and gives their own
    name: they are met as themselves, with nothing of what Margot said (her hobby, her words)."""
    say(dm, "Hello, I'm Margit. I sing in a choir.")
    say(dm, "Bye for now!")
    asked = say(dm, "Hi, I'm Margot. I collect stamps.")
    assert asked.extra["pending_confirmation"], asked.reply
    tobias = say(dm, "Good morning, my name is Tobias Wren, I've just sat down.")
    assert tobias.user_name == "Tobias Wren" and not tobias.extra["pending_confirmation"]
    profile = ProfileStore(dm.layout).load(tobias.user_id)
    assert not profile.hobbies and not profile.interests, profile
    assert all("stamps" not in t.text for t in dm.session.transcript)
    assert people(dm) == ["Margit", "Tobias Wren"]


def test_the_speaker_answering_with_their_own_name_is_no_one_else(dm):
    """A speaker who answers "is your name Margit?" with the name they gave is answering, not arriving."""
    say(dm, "Hello, I'm Margit. I sing in a choir.")
    say(dm, "Bye for now!")
    say(dm, "Hi, I'm Margot. I collect stamps.")
    said = say(dm, "No, it's Margot.")
    assert said.user_name == "Margot"
    assert "stamps" in " ".join(ProfileStore(dm.layout).load(said.user_id).hobbies)


def kept_for(dm: DialogueManager, user_id: str) -> list[str]:
    return [m.text for m in dm.deps.services.explicit.list(user_id)]


def test_a_memory_asked_for_before_the_name_is_kept_once_the_name_is_given(dm):
    """"Please remember ..." from someone Nadine does not know yet waits in the conversation, and is
    kept for them when they say who they are, as if asked then."""
    say(dm, "Good afternoon")
    held = say(dm, "Please remember that my bike is in rack 31.")
    assert held.user_id is None and "name" in held.reply
    named = say(dm, "I'm Wilhelmina.")
    assert named.memory_action is not None and named.memory_action.outcome == "kept"
    assert kept_for(dm, named.user_id) == ["my bike is in rack 31"]
    assert "31" in say(dm, "Which rack is my bike in?").reply


def test_a_memory_asked_for_by_someone_who_left_unnamed_is_kept_for_nobody(dm):
    """The one who asked left without a name: whoever names themselves next gets none of it, nor does
    someone else who greets and names themselves while a name question waits on the one who asked."""
    say(dm, "Hey there")
    say(dm, "Remember that my spare key is under the blue pot.")
    say(dm, "Gotta go, bye!")
    later = say(dm, "Hi, I'm Ottilie.")
    assert kept_for(dm, later.user_id) == []
    say(dm, "See you!")
    say(dm, "Hey")
    say(dm, "Please remember my parking spot is 12B.")
    assert say(dm, "Hi, I'm Otti.").extra["pending_confirmation"]  # close to Ottilie: asked about
    other = say(dm, "Good evening, I'm Casimir Blunt.")
    assert other.user_name == "Casimir Blunt" and kept_for(dm, other.user_id) == []
    assert kept_for(dm, later.user_id) == []


def test_what_someone_told_of_themselves_before_leaving_unnamed_is_kept_for_nobody(dm):
    """After "I'm a welder in Gdansk and my wife is Ewa", "I go to AA meetings every Thursday" and
    "bye" from someone who never said who they were, "Hi, I'm Tariq, first time here" got "I'll remember
    that you're a welder in Gdansk, your wife is Ewa and you go to AA meetings ..." (tester29, four runs)."""
    say(dm, "Hello there")
    say(dm, "I'm a glazier in Tartu and my husband is Priit.")
    say(dm, "Right, bye!")
    later = say(dm, "Hi, I'm Maarja, first time here.")
    assert "glazier" not in later.reply and "Priit" not in later.reply, later.reply
    profile = ProfileStore(dm.layout).load(later.user_id)
    assert not profile.current_position and not profile.relations, profile


def test_a_memory_asked_for_before_a_name_goes_to_the_person_only_on_a_clear_yes(dm):
    ottilie = say(dm, "Hi, I'm Ottilie.")
    say(dm, "See you!")
    say(dm, "Hey")
    say(dm, "Please remember my parking spot is 12B.")
    say(dm, "Hi, I'm Otti.")
    assert say(dm, "Hmm, not sure.").user_id is None and kept_for(dm, ottilie.user_id) == []
    linked = say(dm, "Yes, that's me.")
    assert linked.user_id == ottilie.user_id and kept_for(dm, ottilie.user_id) == ["my parking spot is 12B"]


def test_someone_who_says_they_never_met_nadine_is_not_the_person_of_that_name(dm):
    """Without a camera the name is the identity, but a speaker who says they have never met Nadine is
    not the Noor she knows: a second Noor with her own facts; the name alone then tells them apart from
    no one, so a later "it's Noor" opens neither one's memories."""
    first = say(dm, "Hi, I'm Noor. I drive a tram.")
    say(dm, "Bye now.")
    second = say(dm, "Hello, I'm Noor. I don't think we have met before.")
    assert second.user_id not in (None, first.user_id), second.reply
    say(dm, "I bake wedding cakes.")
    say(dm, "Bye now.")
    store = ProfileStore(dm.layout)
    theirs = {uid: str(store.load(uid).model_dump()) for uid in (first.user_id, second.user_id)}
    assert "tram" in theirs[first.user_id] and "cake" not in theirs[first.user_id]
    assert "cake" in theirs[second.user_id] and "tram" not in theirs[second.user_id]
    later = say(dm, "Hey, it's Noor.")
    assert later.user_id is None, later.reply
    assert "tram" not in say(dm, "What do I do for a living?").reply


def test_a_returning_person_who_greets_with_no_denial_is_linked(dm):
    first = say(dm, "Hi, I'm Noor. I drive a tram.")
    say(dm, "Bye now.")
    assert say(dm, "Hi, I'm Noor, long time no see!").user_id == first.user_id


# "Goodnight." and "Night night" were read as the name they answered with: "Goodbye, Goodnight!" and a new
# person "Night Night" (tester36 r37, r71)
@pytest.mark.parametrize("leaving", ["Right, I have to dash, see you later!", "Gotta run. Bye!", "Goodnight.", "Cheerio"])
def test_leaving_instead_of_answering_is_no_answer(dm, leaving):
    """A goodbye instead of an answer to "is your name Frederik?" links nobody (a hurried goodbye read
    as a yes would open Frederik's memories) and makes nobody new: the conversation ends."""
    frederik = say(dm, "Hi, I'm Frederik. I repair harpsichords.")
    say(dm, "Goodbye!")
    say(dm, "Hi, I'm Fred.")
    left = say(dm, leaving)
    assert left.user_id is None and left.intent == "end_conversation", left.reply
    assert people(dm) == ["Frederik"] and not ProfileStore(dm.layout).load(frederik.user_id).other_names


@pytest.mark.parametrize("question", ["is my son alright?", "How is my son doing?"])
def test_a_person_asked_after_by_how_they_are_theirs_is_the_one_their_news_named(dm, question):
    """"my son Peter phones me every Sunday", then days later "Peter is in hospital": asked after "my
    son", the news of Peter answers, not "Your son is Peter" (nor "you didn't tell me about your son")."""
    say(dm, "hello dear, I am Dorothy Brown")
    say(dm, "my son Peter phones me every Sunday at 6 o'clock")
    say(dm, "goodbye dear")
    dm.clock.advance(120)
    assert say(dm, "Dorothy Brown here dear").user_id is not None
    say(dm, "Peter is in hospital, he fell off a ladder on Saturday")
    asked = say(dm, question)
    assert "hospital" in asked.reply and not asked.reply.startswith("Your son is Peter"), asked.reply



def test_the_answer_to_the_name_question_is_no_moment_of_theirs(tmp_path):
    """"yes it is" to "is your name Priya Sharma?" was kept as a moment and said back the next turn
    ("That reminds me — ... you told me it is"): an answer to Nadine's own question tells nothing, so
    its affect state keeps nothing."""
    from common import topics as t
    from tests.interaction.test_dialogue_inprocess import Outbox

    layout, clock = layout_and_clock(tmp_path)
    settings = make_settings(tmp_path)
    out = Outbox()
    dm = DialogueManager(settings, layout, clock, out, services=LocalMemoryServices(settings, layout, clock, bus=None),
                         environ={})
    say(dm, "Hi! I'm Priya Sharma, I work as a nurse on night shifts at St Mary's.")
    say(dm, "Goodbye!")
    assert say(dm, "Hey Nadine it's Priya").extra["pending_confirmation"]
    yes = say(dm, "yes it is")
    affect = next(a for a in out.of(t.AFFECT_STATE) if a.turn_id == yes.turn_id)
    assert yes.user_id is not None and affect.suppress_storage, affect


@pytest.mark.parametrize(("greeting", "someone_else"), [
    # the contraction of a clear denial was read as unclear: the second Sam was linked to the first and
    # heard her key safe code (tester27 sam)
    ("Hello, I'm Noor. I don't think we've met before.", True),
    ("Hi, I'm Noor. We've never met, I'm new in town.", True),
    ("Hi, it's Noor. I don't think we've met before, have we?", True),  # a question tagged on (my play)
    # a negated clause about "we" that is not about meeting denies nothing of having met
    ("Hi, I'm Noor. We haven't had any snow yet.", False),
    ("Hi, I'm Noor. I don't think you've met my brother.", False),
    # "Hi, I'm Lucy, first time here" was linked to the Lucy known, and heard her memories (my play):
    # the speaker's first occasion here says the same
    ("Hey, I'm Noor, first time here!", True),
    ("Hello, I'm Noor and this is my first visit.", True),
    ("Hi, I'm Noor. It's my first time in Vienna.", False),  # the town's first time, not hers
    ("Hi, I'm Noor, it's not my first time here.", False),
])
def test_whether_a_greeting_says_they_never_met_is_read_off_meeting(dm, greeting, someone_else):
    first = say(dm, "Hi, I'm Noor. I drive a tram.")
    say(dm, "Bye now.")
    again = say(dm, greeting)
    assert (again.user_id not in (None, first.user_id)) if someone_else else again.user_id == first.user_id, again.reply


def test_a_first_name_of_someone_known_said_with_never_having_met_is_someone_new(dm):
    """"Hi, I'm Sam. I don't think we've met before." with Sam Patel known got "is your name Sam
    Patel?" and every question after it waited on the answer (tester29 sam_b): part of a name known is
    asked about only when the speaker does not say they are new to her."""
    first = say(dm, "Hi, I'm Noor Haddad. I drive a tram.")
    say(dm, "Bye now.")
    again = say(dm, "Hello, I'm Noor. I don't think we've met before.")
    assert again.user_id not in (None, first.user_id), again.reply
    assert "Noor Haddad" not in again.reply, again.reply


@pytest.mark.parametrize(("name", "other_says", "other"), [
    # "Actually I'm a different Sofia, Sofia Rossi, we've never met" after "Hi, it's Sofia" was ignored:
    # the first Sofia's locker number was hers and the two became one profile (tester29). The
    # introduction hung on "met" made the denial unclear to the reply reader; and a speaker known only
    # by a typed name who says they never met her is someone new
    ("Ilse", "Oh sorry, I'm Ilse Brandt, we've never met.", "Ilse Brandt"),
    # "sorry, that was my brother's account earlier, I'm actually Jordan, his brother" after "Alex here"
    # renamed Alex's profile: Jordan heard Alex's MOT date and the real Alex was a stranger next time
    # (tester29). Typed in an earlier conversation, a name is put right only by asking to be called
    # otherwise; a correction says someone else is speaking
    ("Bram", "oh sorry, that was my cousin earlier, I'm actually Joost", "Joost"),
    # someone else of the name, said as such (tester29's Sofia, again in new words)
    ("Ilse", "No, I'm a different Ilse, Ilse Vermeer.", "Ilse Vermeer"),
    ("Bram", "Sorry, I'm the other Bram, Bram de Wit.", "Bram de Wit"),
])
def test_someone_taken_for_a_person_known_by_a_typed_name_who_says_otherwise_is_someone_new(dm, name, other_says, other):
    first = say(dm, f"Hi, I'm {name}.")
    say(dm, "Please remember that my bike lock code is 3390.")
    say(dm, "Bye now.")
    say(dm, f"Hello, it's {name}.")
    speaking = say(dm, other_says)
    assert speaking.user_id not in (None, first.user_id), speaking.reply
    asked = say(dm, "What's my bike lock code?")
    assert "3390" not in asked.reply, asked.reply
    assert people(dm) == sorted([name, other])


def test_a_name_given_with_a_request_to_remember_makes_the_request_theirs(dm):
    """"Hi, I'm Lucy, I'm a nurse in Derby, please remember my locker is 12" got "I don't know who you
    are yet, so I'll keep that for you once you tell me. What's your name?" (tester29): the request was
    served before the name was read."""
    said = say(dm, "Hello, I'm Wilhelmina, I'm a vet in Ghent, please remember my gym locker is 31")
    assert said.user_name == "Wilhelmina" and "What's your name" not in said.reply, said.reply
    assert kept_for(dm, said.user_id) == ["my gym locker is 31"]


def test_her_question_for_the_name_is_not_asked_again_once_asked_twice(dm):
    """Someone who does not give their name was asked for it on every turn that told her something
    ("May I ask your name?": my play): asked twice without an answer, it is not asked on a telling again."""
    replies = [say(dm, said).reply for said in (
        "hello there", "I'm a potter, I make bowls and mugs", "I teach pottery at the college in Stroud",
        "My husband Ravi is a carpenter")]
    asking = [r.rstrip().endswith("your name?") for r in replies]
    assert asking == [True, True, False, False], replies
    # a question that needs the name still asks for it ("what's my locker number?": replay32)
    assert say(dm, "What's my bike lock code?").reply.endswith("What's your name?")


@pytest.mark.parametrize("thanks", ["thanks!", "Cheers."])
def test_a_thanks_for_keeping_something_is_no_name(dm, thanks):
    """"thanks!" after "I don't know who you are yet, so I'll keep that for you once you tell me.
    What's your name?" got "Nice to meet you, Thanks!" and the held memory was kept for "Thanks"
    (tester31, twice)."""
    say(dm, "Please remember my bike lock code is 5150.")
    said = say(dm, thanks)
    assert said.user_id is None and "Nice to meet you" not in said.reply, said.reply
    assert people(dm) == []


def test_someone_of_a_shared_name_who_says_what_they_told_is_asked_about_that_one(dm):
    """"Hola, Lucía here, the engineer from Bilbao." with two Lucías known got "I know more than one
    person by that name, so I won't guess ..." and she never reached her memories again (tester31,
    three such): what she says of herself tells the two apart, and she is asked whether she is that one."""
    first = say(dm, "Hi, I'm Zofia. I'm a civil engineer in Gdynia.")
    say(dm, "Please remember that my site inspection is on Friday.")
    say(dm, "Bye now.")
    other = say(dm, "Hi, I'm Zofia, we've never met. I'm a florist in Lublin.")
    assert other.user_id not in (None, first.user_id), other.reply
    say(dm, "Bye now.")
    asked = say(dm, "Zofia here, the engineer from Gdynia.")
    assert asked.user_id is None and "the Zofia who told me" in asked.reply and "engineer" in asked.reply, asked.reply
    yes = say(dm, "yes, that's me")
    assert yes.user_id == first.user_id, yes.reply
    assert "Friday" in say(dm, "When is my site inspection?").reply


def test_someone_of_a_shared_name_who_says_nothing_that_tells_them_apart_is_not_guessed(dm):
    say(dm, "Hi, I'm Zofia. I'm a civil engineer in Gdynia.")
    say(dm, "Bye now.")
    say(dm, "Hi, I'm Zofia, we've never met. I'm a florist in Lublin.")
    say(dm, "Bye now.")
    asked = say(dm, "Zofia here, I'm a teacher in Krakow.")
    assert asked.user_id is None and "who told me" not in asked.reply, asked.reply


@pytest.mark.parametrize("own", ["actually my real name is Rebekah, Bex is just a nickname",
                                 "my full name is Rebekah, by the way"])
def test_their_own_name_said_as_such_in_a_later_conversation_renames_them(dm, own):
    """"actually my real name is Rebecca, bex is just a nickname" and "my full name is Michael, by the
    way" from someone met by a short name the day before made a stranger of them, cut off from what
    they had told (tester31, twice): a name said as their own is theirs, unlike a correction that says
    someone else is speaking ("I'm actually Joost")."""
    first = say(dm, "Hi, I'm Bex.")
    say(dm, "Please remember my locker is number 27.")
    say(dm, "Bye now.")
    say(dm, "hey it's Bex")
    renamed = say(dm, own)
    assert renamed.user_id == first.user_id and renamed.user_name == "Rebekah", renamed.reply
    assert "27" in say(dm, "What's my locker number?").reply
    assert people(dm) == ["Rebekah"]


def test_someone_of_a_shared_name_is_told_apart_by_the_words_of_the_turn(dm):
    """"Hola, Lucía here, the engineer from Bilbao." keeps no job ("the engineer" is one in a setting),
    so the first Lucía was still locked out (replay of tester31 r63/r64 on the fix before; the tester's
    words, which alone reproduce it): the turn's own words tell the two apart too."""
    first = say(dm, "Hola! I'm Lucía.")
    say(dm, "I'm a civil engineer in Bilbao and I have a parrot called Kiwi.")
    say(dm, "Bye now.")
    say(dm, "Hi, I'm Lucía, but a different Lucía, we've never met.")
    say(dm, "I'm a chemistry teacher in Granada.")
    say(dm, "Bye now.")
    asked = say(dm, "Hola, Lucía here, the engineer from Bilbao.")
    assert "the Lucía who told me" in asked.reply, asked.reply
    assert say(dm, "yes").user_id == first.user_id


def test_no_said_with_who_they_are_instead_makes_someone_new(dm):
    """"no, the student" to "is your name Sam Okafor?" was read as unclear and asked again (tester31 r22):
    a no with who they are instead is a no; the one known keeps what they told."""
    known = say(dm, "Hi, I'm Tomasz Wrona. I drive a tram in Krakow.")
    say(dm, "See you!")
    assert say(dm, "hello, Tomasz here, the pharmacist").extra["pending_confirmation"]
    other = say(dm, "no, the pharmacist")
    assert other.user_id is not None and other.user_id != known.user_id and not other.extra["pending_confirmation"], other.reply
    assert people(dm) == ["Tomasz", "Tomasz Wrona"]


def test_a_name_that_is_part_of_another_known_one_is_told_apart_by_what_they_told(dm):
    """With "Sofia Rossi" (a teacher in Milan) and "Sofia" (a vet in Lisbon) known, "hi, sofia again, the
    vet from lisbon" was asked "is your name Sofia Rossi?", and "yes, the vet" handed her the teacher's
    memories (tester33 r04): what she says of herself tells the two apart here too."""
    rossi = say(dm, "Hello, I'm Zofia Nowak. I'm a florist in Lublin.")
    say(dm, "Bye now.")
    other = say(dm, "Hi, I'm Zofia, we've never met. I'm a civil engineer in Gdynia.")
    say(dm, "Bye now.")
    asked = say(dm, "hi, zofia again, the engineer from gdynia")
    assert asked.user_id is None and "I know more than one Zofia." in asked.reply and "engineer" in asked.reply, asked.reply
    assert "Nowak" not in asked.reply, asked.reply
    assert say(dm, "yes").user_id == other.user_id != rossi.user_id


def test_the_full_name_of_someone_who_asked_to_be_called_otherwise_is_still_theirs(dm):
    """"hi I'm Mateo Silva", "just call me Teo", and a day later "hello, Mateo Silva again" made an empty
    new person (tester33 r47): the name held when they asked to be called otherwise stays one of theirs."""
    first = say(dm, "Hello, I'm Bartholomew Quist.")
    say(dm, "just call me Bart")
    say(dm, "I restore pianos in Delft.")
    say(dm, "Bye now.")
    back = say(dm, "hello, Bartholomew Quist again")
    if back.extra["pending_confirmation"]:
        back = say(dm, "yes")
    assert back.user_id == first.user_id, back.reply
    assert people(dm) == ["Bart"]


def test_the_keyboard_handed_back_is_the_first_speaker_again(dm):
    """"Mei handed it back, it's Hiro again" got "I see, Mei. Tell me more!" and Hiro was given Mei's
    locker (tester36 r63; its names: "Aiko handed it back, it's Kenji again" was read right before):
    someone said by their name before an "it's <name>" is not whom it names."""
    say(dm, "Hi, I'm Hiro. I fix bicycles in Osaka.")
    say(dm, "Hiro passed me the laptop, I'm Mei.")
    say(dm, "Please remember my gym locker is 212.")
    back = say(dm, "Mei handed it back, it's Hiro again.")
    if back.user_name != "Hiro":
        assert "Hiro" in back.reply, back.reply
        back = say(dm, "yes")
    assert back.user_name == "Hiro", back.reply
    assert "212" not in say(dm, "What's my gym locker?").reply
    assert people(dm) == ["Hiro", "Mei"]


@pytest.mark.parametrize("other_says", [
    # "hi, I'm Steve too, different Steve" got "Welcome back, Steve!" and the first Steve's divorce
    # (tester60 x02, H): the name said again as someone else of it makes the one given someone else's
    "hi, I'm Ilse too, different Ilse",
    "Hello, I'm Ilse as well, another Ilse",
])
def test_a_name_given_then_said_again_as_someone_else_of_it_is_someone_new(dm, other_says):
    first = say(dm, "Hi, I'm Ilse.")
    say(dm, "Please remember that my bike lock code is 3390.")
    say(dm, "Bye now.")
    speaking = say(dm, other_says)
    assert speaking.user_id not in (None, first.user_id), speaking.reply
    asked = say(dm, "What's my bike lock code?")
    assert "3390" not in asked.reply, asked.reply
