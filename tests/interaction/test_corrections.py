"""A value corrected in the next breath ("sorry, I meant Gdynia", "no, it's the 13th of April, not the
3rd", "actually it's 241, not 214") is read as the earlier statement with the value replaced, never
as a name or a new statement; a date or number said after "it's" is no name."""

from __future__ import annotations

import pytest

from interaction.offline.extract import extract_name


@pytest.mark.parametrize("text", [
    "No, it's March 13, not March 3.", "it's June 2nd actually", "Oh sorry, it is May 30.",
    "No no, it's August the 1st.",
])
def test_a_date_after_its_is_no_name(text):
    assert extract_name(text) is None


@pytest.mark.parametrize(("text", "name"), [("Hi, it's Grace.", "Grace"), ("It's Katarzyna actually, not Kasia.", "Katarzyna"),
                                            ("Hello, it's Oona.", "Oona")])
def test_a_name_after_its_is_still_a_name(text, name):
    assert extract_name(text) == name


from interaction.offline.corrections import read_correction  # noqa: E402


@pytest.mark.parametrize(("text", "earlier", "corrected"), [
    ("No, it's March 13, not March 3.", "My birthday is March 3.", "My birthday is March 13."),
    ("bday march 13 not march 3", "my bday is march 3", "my bday is march 13"),
    ("Actually it's the 14th.", "My birthday is March 3.", "My birthday is March 14."),
    ("Sorry, I meant Bradford.", "I live in Leeds.", "I live in Bradford."),
    ("oh sorry, I meant Gdynia", "I live in Gdansk with my two cats.", "I live in Gdynia with my two cats."),
    ("No wait, it's the 13th of April, not the 3rd.", "My birthday is on the 3rd of April.",
     "My birthday is on the 13th of April."),
    ("Actually it's 241, not 214.", "Please remember that my locker number at the gym is 214.",
     "Please remember that my locker number at the gym is 241."),
    ("sorry, I meant Thursday", "My dentist appointment is on Tuesday.", "My dentist appointment is on Thursday."),
    # a bare value beside a no
    ("no wait, the 12th of February", "Our anniversary dinner is on the 12th of March.",
     "Our anniversary dinner is on the 12th of February."),
    ("Wednesday, sorry.", "The plumber comes on Monday.", "The plumber comes on Wednesday."),
    ("my mistake, 37", "My seat number on the train is 73.", "My seat number on the train is 37."),
    # the statement said again with the new value before the "not"
    ("Sorry, I got that wrong, the vet is at 4pm not 3pm.", "The vet appointment for Pickle is on Monday at 3pm.",
     "The vet appointment for Pickle is on Monday at 4pm."),
    ("My nephew studies in Cardiff, not Bristol.", "My nephew studies in Bristol and loves it.",
     "My nephew studies in Cardiff and loves it."),
    # a bare value beside an aside that owns the slip
    ("whoops, in October", "My sister is getting married in September.", "My sister is getting married in October."),
    ("oh wait, Tuesday", "The boiler man comes on Friday.", "The boiler man comes on Tuesday."),
    # the new value repeats the noun its number counts: only the number changes
    ("I meant five hens, not four", "We keep four speckled hens in the garden.", "We keep five speckled hens in the garden."),
    # "I meant" before the statement said again: only its value is new
    ("Oops, I meant the bike lock combination is 9182, not 9128.", "the bike lock combination is 9128",
     "the bike lock combination is 9182"),
    ("I meant the recital is on Sunday.", "My niece's recital is on Saturday afternoon.",
     "My niece's recital is on Sunday afternoon."),
    # the correction in one sentence of the turn, an apology in another
    ("Apologies, I got it wrong. The gym locker code is 5531, not 5513.", "the gym locker code is 5513",
     "the gym locker code is 5531"),
    # a name put right by saying what the one it stood beside is called
    ("My nephew is Tomasz, not Tomas.", "my nephew Tomas won the chess final", "my nephew Tomasz won the chess final"),
    ("oops, my goddaughter is Maja, not Maya", "my goddaughter is called Maya and she sings", "my goddaughter is called Maja and she sings"),
    # the whole date said again in place of a day
    ("Oh sorry, the recital is the 9th of May, not the 2nd.", "remember that my son's piano recital is 2nd May",
     "remember that my son's piano recital is the 9th of May"),
    # a clause owning the slip beside it, and a day taken back as an ordinal from a date said with a number
    ("Sorry, I made a mistake - it's the 23rd of June, not the 21st.", "The boiler service is on 21 June at 10am.",
     "The boiler service is on the 23rd of June at 10am."),
    ("I checked, it's 1720, not 1270.", "the storage unit code is 1270", "the storage unit code is 1720"),
    # said again with a verb the earlier statement holds its value under, not the nearest one ("visit")
    ("Sorry, I make mistake, she come on the 16th, not 14th.",
     "My sister name is Agnieszka, she is coming to visit me on the 14th.",
     "My sister name is Agnieszka, she is coming to visit me on the 16th."),
])
def test_a_correction_puts_the_new_value_in_the_earlier_statement(text, earlier, corrected):
    found = read_correction(text, [earlier])
    assert found is not None and found.corrected == corrected and found.earlier == earlier


@pytest.mark.parametrize(("text", "earlier"), [
    ("It's on a Sunday this year.", "My birthday is March 3."),  # says more: no correction
    ("It's raining.", "I live in Leeds."),
    ("I meant it.", "I love you."),
    ("That was great.", "I live in Leeds."),
    ("When is my birthday?", "My birthday is March 3."),
    ("Sorry, I meant Bradford.", "I love my dog."),  # nothing of its kind to put right
    ("Edinburgh too.", "My cousin lives in Glasgow."),  # a bare value with no repair adds to it
    ("Oh, and Lisbon!", "We flew to Porto in May."),
    ("in October, I think", "My sister is getting married in September."),  # a hedge, not a repair
    ("I prefer tea, not coffee.", "I drink coffee every morning."),  # another statement, not this one again
    ("yes, in October", "My sister is getting married in September."),
    ("No, the weather was awful.", "We flew to Porto in May."),  # a clause, not a value
    ("what a week it has been", "I've started evening classes on Wednesdays."),  # an exclamation
])
def test_what_is_no_correction_is_left_alone(text, earlier):
    assert read_correction(text, [earlier]) is None


def test_the_latest_statement_holding_the_value_is_corrected():
    found = read_correction("no, it's 52, not 25", ["My flat is number 25.", "I live in Leeds."])
    assert found is not None and found.corrected == "My flat is number 52."


def test_a_value_with_its_preposition_replaces_the_one_it_corrects():
    found = read_correction("sorry, on Thursday", ["The gas engineer is coming on Monday."])
    assert found is not None and found.corrected == "The gas engineer is coming on Thursday."


@pytest.mark.parametrize(("text", "outright"), [
    ("I meant Rennes, not Nantes.", True), ("I meant Rennes.", True), ("Rennes, not Nantes", True),
    ("It's Friday!", False), ("Thursday, sorry.", False), ("I live in Rennes.", False),
])
def test_only_an_outright_correction_may_reach_an_earlier_visit(text, outright):
    from interaction.offline.corrections import says_a_correction

    assert says_a_correction(text) is outright


def test_a_correction_is_said_back_of_the_person_and_their_own():
    from interaction.offline.replies import correction_reply

    reply = correction_reply("We are flying to Oslo on Thursday and our dog stays with Kit.", "Ines")
    assert "So you are flying to Oslo on Thursday and your dog stays with Kit." in reply


def test_a_correction_is_said_back_without_the_words_that_joined_it_to_what_came_before():
    from interaction.offline.replies import correction_reply

    reply = correction_reply("Oh, and the choir concert is on Friday evening.", "Ines")
    assert "So the choir concert is on Friday evening." in reply, reply


def test_a_correction_that_names_its_topic_puts_right_the_statement_about_it():
    """"... for the boiler" says which of two dates is meant; a topic no statement names puts nothing right."""
    earlier = ["The boiler engineer comes on the 6th of May.", "My car's MOT is on the 6th of May."]
    found = read_correction("Sorry, I meant the 16th of May for the MOT, not the 6th.", earlier)
    assert found is not None and found.corrected == "My car's MOT is on the 16th of May."
    assert read_correction("It is the 16th for the piano tuner, not the 6th.", earlier) is None


def test_a_new_value_that_names_nothing_goes_only_to_a_value_of_its_kind():
    """A date never takes the place of a code, however the tagger files the code's figures; and "it" is
    what was told last: when that holds a value of another kind, nothing earlier is put right instead."""
    assert read_correction("It's now the 19th of June.", ["please remember the safe code at work is 6620"]) is None
    told = ["my padlock combination is 3307", "My vet appointment is on the 8th of June."]
    assert read_correction("It's now on the 19th of June.", told) is None
    found = read_correction("it's now 7033", told)
    assert found is not None and found.corrected == "my padlock combination is 7033"


def test_a_new_value_that_names_nothing_is_left_when_two_things_could_take_it():
    dated = ["My vet appointment is on the 8th of June.", "Our book club meets on the 12th of June."]
    assert read_correction("It's now the 19th of June.", ["I repotted the fern", *dated]) is None
    # one thing of its kind told before a statement that holds no value is what "it" can only be
    found = read_correction("It's now the 19th of June.", ["I repotted the fern", dated[0]])
    assert found is not None and found.corrected == "My vet appointment is on the 19th of June."
    # named, either is put right
    found = read_correction("Sorry, I meant the 19th for the book club, not the 12th.", dated)
    assert found is not None and found.corrected == "Our book club meets on the 19th of June."


@pytest.mark.parametrize(("said", "meant"), [
    # the tester's words (tester27 dmitri: "taxi accountant" was kept and said back)
    ("I'm a taxi accountant... no, I mean a tax accountant, in Edinburgh.", "I'm a tax accountant, in Edinburgh."),
    ("I work as a plumber, I mean a pipe fitter.", "I work as a pipe fitter"),
    ("My dog is called Rex... no, I mean Rolo.", "My dog is called Rolo"),
    # a bare phrase after a no (tester27 tilda: "taxi driver" was kept)
    ("I'm a taxi driver... sorry, no, a tax adviser, in Perth.", "I'm a tax adviser, in Perth."),
    ("I'm a chef... no wait, a sous chef.", "I'm a sous chef"),
    ("Good evening. I am Ruth Baker, retired school teacher, 81 this year.", None),  # no repair said
    ("I'm a nurse, no kidding, a real one.", None),
    ("I'm a nurse. I mean, I love it.", None),  # "I mean" that puts nothing right
    ("I have a cat, I mean, it's my sister's cat.", None),
])
def test_a_slip_put_right_in_the_same_turn_is_read_as_meant(said, meant):
    from interaction.offline.corrections import corrected_in_turn

    assert corrected_in_turn(said) == meant


@pytest.mark.parametrize(("said", "meant"), [
    # "I live in Brighton, no wait, Hove actually" kept "Brighton, no wait" and "do I live in Brighton?"
    # got "Yes" (tester44 zh04): the turn's end closes the phrase put right, a word said of the repair
    # after it is no part of it, and a name the recogniser files as another kind replaces the name
    ("I live in Brighton, no wait, Hove actually", "I live in Hove"),
    ("I live in Brighton. No wait, Hove actually.", "I live in Hove"),
])
def test_a_name_put_right_at_the_end_of_the_turn_is_read_as_meant(said, meant):
    from interaction.offline.corrections import corrected_in_turn

    assert corrected_in_turn(said) == meant


def test_a_greeting_by_name_a_day_later_puts_no_name_right():
    """"Hi, it's Hildegard" a day after "my uncle Boris is visiting next week" was read as putting Boris
    right ("So your uncle Hildegard is visiting next week", replay45 s67): a name of another kind than
    the earlier one is put in its place only within the turn that said both."""
    assert read_correction("Hi, it's Hildegard", ["my uncle Boris is visiting next week"]) is None


def test_a_stretch_that_names_a_value_is_not_read_for_a_taking_back(monkeypatch):
    """"My daughter was born last night, I can't stop smiling": what opens it names a time, so it takes
    nothing back, and the memory-intent classifier is not run on its tails (the reply waited for it);
    a stretch that names nothing still is ("scratch that, it's Verdi")."""
    from interaction.memory_intent import refers_back
    from interaction.offline import corrections

    asked: list[str] = []
    real = refers_back.refers_back
    monkeypatch.setattr(refers_back, "refers_back", lambda text: asked.append(text) or real(text))
    earlier = ["My favourite composer is Puccini."]
    assert read_correction("My daughter was born last night, I can't stop smiling!", earlier) is None
    assert corrections._after_a_taking_back("Our dog Max died on Sunday, I miss him") is None
    assert asked == []
    found = read_correction("scratch that, it's Verdi", earlier)
    assert asked == ["scratch that"] and found is not None and found.corrected == "My favourite composer is Verdi."
