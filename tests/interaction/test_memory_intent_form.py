"""A memory request needs the form of one, read from the parse, whatever its words are near: news
opened with "guess what" is told, not asked; "yes, please" with nothing asked names nothing to keep
or forget; and a take-back in a turn of its own ("strike that", "scratch that") means the statement
right before it, as "forget that" does, and nothing when nothing was said before it."""

from __future__ import annotations

import pytest

from interaction.memory_intent.classifier import classify
from interaction.memory_intent.refers_back import refers_back
from interaction.offline.question_form import asks_or_requests
from tests.interaction import test_forget_said_just_now
from tests.interaction.test_forget_said_just_now import back, holding, kept_as_moment, say
from tests.interaction.test_memory_requests import maya  # noqa: F401 - a fixture

ines = test_forget_said_just_now.ines  # the fixture: Ines, met by name, with the real memory services

NEWS = ("Guess what, my grandson took his first steps!", "You'll never guess — my son got engaged!",
        "guess who got promoted today", "Guess what! We're moving to Cornwall.", "Guess what?")


@pytest.mark.parametrize("text", NEWS)
def test_news_opened_with_guess_what_is_told_not_a_recall(text):
    assert classify(text).intent == "statement"


@pytest.mark.parametrize(("text", "asks"), [
    ("Guess what, our kitchen flooded!", False), ("guess what!", False), ("I moved to Leeds last year.", False),
    ("you'll never guess, we won the raffle", False),
    ("what did I say about the raffle?", True), ("tell me the boiler code", True), ("remind me where I left my bike", True),
    ("my library card number, what was it again", True), ("boiler code pls", True),
    ("Tell me again what I said about the plumber.", True),
    # a wh-word that exclaims asks nothing, nor does an infinitive
    ("They made me captain of the squad today, what a surprise!", False), ("What a relief, the biopsy was clear!", False),
    ("I was asked to lead the choir at Easter.", False),
])
def test_asked_or_requested_is_read_from_the_parse(text, asks):
    assert asks_or_requests(text) is asks


@pytest.mark.parametrize("text", ["tell me the boiler code again", "remind me where I left my bike",
                                  "What did I tell you about the plumber?"])
def test_a_recall_asked_or_requested_stays_a_recall(text):
    assert classify(text).intent == "recall"


@pytest.mark.parametrize("text", ["yes, please", "yes please", "sure thing", "okay then", "Sure!"])
def test_an_answer_to_nothing_asks_nothing_of_memory(text):
    assert classify(text).intent == "statement"


def test_news_gets_no_recall_and_a_yes_to_nothing_no_remember_prompt(ines):
    dm, _ = ines
    news = say(dm, "Guess what, my grandson took his first steps!")
    assert not news.is_recall and news.memory_intent == "statement", news.reply
    assert "remember" not in news.reply.lower(), news.reply
    yes = say(dm, "yes, please")
    assert yes.memory_intent == "statement" and "remember" not in yes.reply.lower(), yes.reply


@pytest.mark.parametrize("request_", ["strike that", "scratch that", "ignore what I just said"])
def test_a_take_back_of_its_own_offers_the_statement_before_it(ines, request_):
    dm, uid = ines
    say(dm, "We keep bees at the bottom of the orchard.")
    told = say(dm, "I moved to Harrogate two summers ago.")
    kept_as_moment(dm, uid, told)
    asked = say(dm, request_)
    assert asked.memory_intent == "forget_one", asked.reply
    assert asked.reply.startswith("Do you want me to forget that you told me") and "Harrogate" in asked.reply, asked.reply
    assert "bees" not in asked.reply
    assert say(dm, "yes").intent == "forget_one_confirmed"
    back(dm, uid)  # the conversation is saved: the statement before it is kept, the one taken back is not
    assert holding(dm, b"Harrogate") == [] and holding(dm, b"bees")


def test_a_take_back_with_nothing_said_before_asks_nothing(ines):
    dm, _ = ines
    turn = say(dm, "scratch that")
    assert turn.memory_intent == "statement", turn.reply
    assert "forget" not in turn.reply.lower() and "remember" not in turn.reply.lower(), turn.reply


@pytest.mark.parametrize(("said", "back"), [
    ("scratch that", True), ("Scratch that.", True), ("forget that last bit", True), ("ignore that last sentence", True),
    ("delete that remark", True),
    # a thing of the world, or a portion of talk that names its topic, is no pointing back
    ("forget that dog", False), ("forget my number", False), ("forget that bit about my dog", False),
])
def test_what_was_just_said_is_pointed_at_whatever_the_tagger_makes_of_the_words(said, back):
    assert refers_back(said) is back


@pytest.mark.parametrize("text", ["Which company made you?", "Who designed you?"])
def test_a_question_about_nadine_herself_is_no_recall(text):
    from interaction.offline.understand_rules import understand

    assert understand(text).memory_intent != "recall"


@pytest.mark.parametrize("text", ["Do you remember the pub quiz?", "Do you recall the chess tournament?"])
def test_nadine_asked_to_remember_something_is_still_a_recall(text):
    from interaction.offline.understand_rules import understand

    assert understand(text).memory_intent == "recall"


SECRETS = ("Don't tell anyone yet, but the wedding date is the 5th of October.",
           "Do not tell anyone yet, but the hand-in date is the 2nd of June.")


@pytest.mark.parametrize("text", SECRETS)
def test_news_told_after_a_plea_for_secrecy_is_told_not_a_recall(text):
    """A negated imperative forbids an act and asks for nothing to be told: the news after it is a
    statement however near "what's the date" its words are."""
    assert asks_or_requests(text) is False
    assert classify(text).intent == "statement"


def test_a_date_told_after_a_plea_for_secrecy_is_kept_and_answers_later(ines):
    dm, _ = ines
    told = say(dm, SECRETS[0])
    assert not told.is_recall and "don't remember" not in told.reply, told.reply
    assert told.reply.startswith("Your secret is safe with me"), told.reply
    asked = say(dm, "When is the wedding?")
    assert "5th of October" in asked.reply, asked.reply
    # said back, the plea tells nothing of its own
    told_back = say(dm, "What did I tell you about the wedding?")
    assert "the wedding date is the 5th of October" in told_back.reply and "anyone" not in told_back.reply, told_back.reply


@pytest.mark.parametrize(("text", "confided"), [
    ("Don't mention it to my sister, but we're expecting twins.", True),
    ("Please don't tell me you forgot my birthday.", False), ("Don't worry, the dog is fine.", False),
    # "never mind" tells nothing to nobody, whatever the lexicon files "mind" under
    ("ah never mind, it's gone out of my head", False), ("Never mind, the bus turned up in the end.", False),
    ("Don't say a word to Tomas, but his party is on Friday.", True),
])
def test_news_told_in_confidence_is_read_from_the_plea_before_it(text, confided):
    from interaction.offline.question_form import told_in_confidence

    assert told_in_confidence(text) is confided


@pytest.mark.parametrize(("text", "put_to_her"), [
    ("My aunt is having her hip replaced on Thursday in Galway.", False),
    ("our boiler got serviced on the 3rd", False),
    ("Her flight was moved to the 19th.", False),
    ("my aunt's hip operation is on thursday, remember that", True),
    ("Can you keep in mind that my aunt's operation is on Thursday?", True),
    ("jot down that the piano tuner comes on Friday", True),
    ("aunt hip op thurs galway", True),
    ("I need you to remember that my aunt is in Galway.", True),
    # no verb but a copula, whose subject opens the sentence: news ("tmrw" reads near a request)
    ("vet is tmrw at 11 for my cat", False),
    # an infinitive of someone else's wish asks nothing of her ("I'll remember that back on Thursday the 9th
    # at 2:30 for your blood pressure": tester64 s12); one asked of "you" does
    ("My doctor, Dr. Patel, wants me to come back on Thursday the 9th at half past two for my blood pressure.", False),
    ("I want you to keep this: my code is 1234", True),
    ("Memorise this please: my neighbour's number is 0791 223 448.", True),
])
def test_a_request_to_remember_is_put_to_the_listener(text, put_to_her):
    from interaction.memory_intent.form import has_form

    assert has_form("remember", text) is put_to_her


def test_news_whose_every_verb_has_its_own_subject_is_told_not_asked_to_be_kept(ines):
    """"my aunt is having her hip replaced on Thursday in Galway" reads near a remember request by its
    words; nothing in it is put to Nadine, so it is news: no explicit memory cut from it, and the place
    and the day are answered from what was told."""
    dm, uid = ines
    told = say(dm, "My aunt is having her hip replaced on Thursday in Galway.")
    assert told.memory_intent == "statement" and not told.reply.startswith("I'll remember"), told.reply
    assert dm.deps.services.explicit.list(uid) == []
    back(dm, uid)
    assert "Galway" in say(dm, "Where is my aunt's operation?").reply


@pytest.mark.parametrize("plea", ["please dont tell anyone about my therapy ok",
                                  "Please don't mention my divorce to anyone."])
def test_a_plea_not_to_pass_on_what_was_told_forgets_nothing(ines, plea):
    """"please dont tell anyone about my therapy" read as a request to forget (the classifier's words,
    0.96): asked "Do you want me to forget ...?", the next news was taken for an unclear answer and
    lost. A plea not to tell asks to keep it between them: said so, and nothing is forgotten; "don't
    tell me you forgot" pleads nothing."""
    from interaction.offline.question_form import pleads_not_to_tell

    assert not pleads_not_to_tell("Please don't tell me you forgot my birthday.")
    dm, uid = ines
    say(dm, "I have anxiety, my therapist is called Dr. Moreau.")
    say(dm, "My divorce came through last month.")
    asked = say(dm, plea)
    assert asked.memory_intent == "statement" and "forget" not in asked.reply, asked.reply
    assert "I won't tell anyone" in asked.reply, asked.reply
    told = say(dm, "I also have a rabbit called Mochi.")
    assert "forget" not in told.reply, told.reply


@pytest.mark.parametrize("text", ["cheers for having me", "my girlfriend dumped me by text. great. fantastic. love that for me."])
def test_thanks_or_a_feeling_said_to_no_one_is_no_request_to_remember(text):
    """"cheers for having me" got "I'll remember that for having you" and was kept as an explicit memory,
    and so was bad news ended with "love that for me" (tester44 D10): a gerund under a preposition bids
    nothing, nor does a verb of feeling."""
    from interaction.memory_intent.not_keep import memory_intent

    assert memory_intent(text) == "statement"
    assert memory_intent("keep that for me") == "remember"


@pytest.mark.parametrize("text", ["we lost the baby. I don't know what to say",
                                  "I didn't get the promotion. I don't know what to do now"])
def test_not_knowing_what_to_do_asks_nothing_of_memory(text):
    """"we lost the baby. I don't know what to say" was read as a recall and answered "Of course —
    yesterday you told me you're expecting a baby girl in april" (tester46 s138, s140): an
    infinitive's wh-word ("what to say") asks nothing of the listener."""
    assert asks_or_requests(text) is False
    assert classify(text).intent == "statement"


@pytest.mark.parametrize("text", ["hi Nikolai again", "Hello again, Marguerite!"])
def test_a_greeting_with_a_name_in_it_asks_nothing_of_memory(text):
    """"hi Nikolai again" was read as a recall, and answered "I'm not sure — do you mean that ... you
    live in Tromsø ...?" (tester46 s99): words without a verb ask for a thing they name ("gate code
    pls"), and a greeting names none."""
    assert asks_or_requests(text) is False
    assert classify(text).intent == "statement"


@pytest.mark.parametrize(("text", "asks"), [("Gunnar again", False), ("Paolo again!", False), ("Magda here", False),
                                            ("gate code pls", True), ("bike lock code", True)])
def test_the_speakers_own_name_said_again_asks_nothing_of_memory(text, asks):
    """"Gunnar again" got "I'm sorry Gunnar, I don't remember you telling me about that." (tester59 s09,
    s11, s15, s31, s48): the name the speaker gives as their own is no thing asked for."""
    assert asks_or_requests(text) is asks
    assert (classify(text).intent == "statement") is not asks


def test_the_speakers_own_name_said_again_is_greeted(maya):  # noqa: F811
    dm, _, _, _ = maya
    assert say(dm, "Maya again").reply == "Hello again, Maya!"


@pytest.mark.parametrize(("text", "asks"), [("my car insurance renews on March 3rd", False),
                                            ("my lease renews in May", False), ("my wifi password", True)])
def test_news_whose_verb_the_tagger_takes_for_a_noun_asks_nothing(text, asks):
    """"my car insurance renews on March 3rd" got "I'm sorry, I don't remember you telling me about that":
    the small tagger reads "renews" as a plural noun, and words without a verb ask for what they name.
    A noun with a subject, or a plural after its noun that WordNet has only as a verb, is the verb."""
    assert asks_or_requests(text) is asks
    assert (classify(text).intent == "statement") is not asks

