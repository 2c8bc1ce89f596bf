"""A kept memory whose value the person changes later is said back with the new value wherever it is
said as what holds ("what do you know about me?"); the memory as kept stays (nothing goes without a
yes), and a statement that gives no new value of the same thing changes nothing."""

from __future__ import annotations

import re
from datetime import datetime

import pytest

from common.messages import UserInput
from interaction.memory.contracts import TranscriptTurn
from interaction.memory.inventory import as_text, person
from interaction.offline.value_changes import changed_value
from tests.interaction.test_correction_kept import _keep_as_moment, _next_visit, _odile


def test_what_do_you_know_says_the_changed_value(tmp_path):
    dm, services, uid = _odile(tmp_path)
    dm.process_input(UserInput(text="please remember my storage unit number is 118"))
    dm.process_input(UserInput(text="could you remember that my MOT is on the 15th"))
    dm.process_input(UserInput(text="I restore old motorbikes in Dijon."))
    dm.process_input(UserInput(text="my storage unit number changed to 342 last week"))
    dm.process_input(UserInput(text="the garage moved my MOT to the 22nd"))
    told = dm.process_input(UserInput(text="what do you know about me?")).reply
    assert "your storage unit number is 342" in told and "118" not in told, told
    assert "your MOT is on the 22nd" in told and "15th" not in told, told
    # what was asked to be kept is kept as it was asked
    assert {m.text for m in services.explicit.list(uid)} == {"my storage unit number is 118", "my MOT is on the 15th"}
    # a change the fact-change model reads, without a verb naming the thing changed
    dm.process_input(UserInput(text="please remember that our home is in Limerick"))
    dm.process_input(UserInput(text="we moved to Cork last month"))
    assert "your home is in Cork" in dm.process_input(UserInput(text="what do you know about me?")).reply


def test_no_new_value_of_the_same_thing_changes_nothing():
    assert changed_value("I lent my storage unit key to Tom", "my storage unit number is 118") is None
    assert changed_value("my cousin moved to Perth", "my storage unit number is 118") is None
    assert changed_value("the council changed my bin day to Thursday", "my bin day is Monday") == "my bin day is Thursday"


def test_the_one_an_appointment_is_with_moves_it():
    # "the podiatrist has been moved": the appointment with them, whatever the tagger made of the word
    assert changed_value("they phoned, the podiatrist has been moved to Wednesday the 9th",
                         "my podiatrist appointment is on Tuesday at ten") \
        == "my podiatrist appointment is on Wednesday the 9th at ten"
    assert changed_value("the hygienist moved to Leeds", "my hygienist appointment is on Tuesday at ten") is None


def test_news_that_changes_a_kept_value_is_met_with_what_holds_now(tmp_path):
    """The change is taken, and the reply says so in the kept memory's words; news that gives no kept
    thing a new value is met as any news is."""
    dm, _, _ = _odile(tmp_path)
    dm.process_input(UserInput(text="please remember that my choir concert is on the 4th of April"))
    moved = dm.process_input(UserInput(text="oh, they pushed the choir concert back to the 11th of April")).reply
    assert moved.startswith("Thank you for letting me know") and "your choir concert is on the 11th of April now" in moved, moved
    other = dm.process_input(UserInput(text="my neighbour moved to Lyon last spring")).reply
    assert "Thank you for letting me know" not in other and "concert" not in other, other


def test_a_question_about_a_kept_value_changes_nothing(tmp_path):
    """"Is the piano recital moving to the 16th of May?" asks what holds, with the verb of motion and the
    value a change would have: nothing is said to be taken, and the kept day stands."""
    dm, _, _ = _odile(tmp_path)
    dm.process_input(UserInput(text="please remember that my piano recital is on the 9th of May"))
    asked = dm.process_input(UserInput(text="Is the piano recital moving to the 16th of May?")).reply
    assert "Thank you for letting me know" not in asked and "now" not in asked, asked
    later = dm.process_input(UserInput(text="When is my piano recital?")).reply
    assert "9th of May" in later and "16th" not in later, later


def test_an_event_told_with_a_verb_is_changed_by_the_noun_of_that_event():
    """"the christening" names what "is getting christened" tells (WordNet derives the noun from a verb
    of that sense); a noun that no verb of the statement gives is another thing."""
    assert changed_value("the christening has been pushed back to the 9th of August",
                         "my niece Ilse is getting baptised on the 2nd of August") \
        == "my niece Ilse is getting baptised on the 9th of August"
    assert changed_value("the christening has been pushed back to the 9th of August",
                         "my niece Ilse started school on the 2nd of August") is None


def test_a_change_to_something_told_at_an_earlier_visit_is_taken_and_answered(tmp_path):
    """Told, not asked to be kept, a visit before: the change is met as one, and what holds now is the
    new value wherever it is said back."""
    dm, services, uid = _odile(tmp_path)
    dm.process_input(UserInput(text="my nephew Tobias is graduating on the 20th of June, we're all so proud"))
    _keep_as_moment(dm, services, uid)
    _next_visit(dm, "Odile")
    moved = dm.process_input(UserInput(text="the graduation got moved to the 27th of June because of a strike")).reply
    assert moved.startswith("Thank you for letting me know") and "27th of June" in moved, moved
    asked = dm.process_input(UserInput(text="when is my nephew's graduation?")).reply
    assert "27th of June" in asked, asked
    told = dm.process_input(UserInput(text="what do you know about me?")).reply
    assert "27th of June" in told and "20th of June" not in told, told
    # on disk the moment stays as it was told, and reads as changed since
    dm.close_session("test")
    moment = person(dm.settings, dm.layout, uid, as_they_hold=True)["moments"][0]
    assert "20th of June" in moment["utterance"] and "27th of June" in moment["now"], moment
    assert "changed since, now:" in as_text(person(dm.settings, dm.layout, uid, as_they_hold=True))


def test_a_change_that_two_things_could_take_changes_neither(tmp_path):
    dm, _, _ = _odile(tmp_path)
    dm.process_input(UserInput(text="my cousin Lotte is getting married on the 3rd of May"))
    dm.process_input(UserInput(text="and my old flatmate Sem is getting married on the 10th of May"))
    turn = dm.process_input(UserInput(text="the wedding got moved to the 24th of May")).reply
    assert "Thank you for letting me know" not in turn, turn


def test_a_new_day_and_time_take_the_place_of_the_old_ones_whole():
    """However the tagger cuts a date into entities, a new day and time replace the day and time told,
    a new day alone the day (a weekday the new day would belie goes with it), a new time the time."""
    told = "our pottery class showcase is on Wednesday the 4th of June at 5pm"
    assert changed_value("the showcase was moved to Friday the 6th of June at 7pm", told) \
        == "our pottery class showcase is on Friday the 6th of June at 7pm"
    assert changed_value("the showcase was moved to Friday the 6th of June", told) \
        == "our pottery class showcase is on Friday the 6th of June at 5pm"
    assert changed_value("the showcase was moved to 7pm", told) == "our pottery class showcase is on Wednesday the 4th of June at 7pm"
    assert changed_value("they moved the showcase to the 6th", "our pottery class showcase is on Wednesday the 4th") \
        == "our pottery class showcase is on the 6th"
    # the tagger may hang the day apart from its weekday; "last week" tells when the change was made
    assert changed_value("the street party got moved to Saturday the 14th of March at 7pm",
                         "our street party is on Friday the 13th of March at 6pm") \
        == "our street party is on Saturday the 14th of March at 7pm"
    assert changed_value("the showcase was moved to the 11th of June last week", told) \
        == "our pottery class showcase is on the 11th of June at 5pm"



def test_a_bare_hour_at_a_time_is_of_the_clock():
    """"at 7" after a day is its hour, though the tagger calls the number a count: a new day and hour
    replace both, never the day alone beside the old hour; a house number "at" a street is no hour."""
    assert changed_value("They shifted the boiler service to Friday at 7.",
                         "The boiler service at the cottage is on Wednesday at 4.") \
        == "The boiler service at the cottage is on Friday at 7."
    assert changed_value("The surveyor moved our site visit to 8.30.", "Our site visit is on the 3rd at 10.") \
        == "Our site visit is on the 3rd at 8.30."
    assert changed_value("They moved my allotment to 12 Mill Lane.", "My allotment is at 4 Mill Lane.") \
        == "My allotment is at 12 Mill Lane."
    assert changed_value("The piano exam got moved to the 20th at 10am", "my piano exam is on the 18th at 4:45pm") \
        == "my piano exam is on the 20th at 10am"


def test_it_moved_is_the_thing_last_told_with_a_date(tmp_path):
    """"they've shifted it to the 12th" names no thing: "it" is the one told last with a date, and the
    change is taken, said back and read by a later question, as if the thing were named."""
    dm, _, _ = _odile(tmp_path)
    dm.process_input(UserInput(text="can you remember that my hearing test is on the 9th at 2pm"))
    dm.process_input(UserInput(text="I went swimming with my granddaughter this morning"))
    moved = dm.process_input(UserInput(text="ugh, the audiology clinic shifted it to the 12th")).reply
    assert moved.startswith("Thank you for letting me know") and "your hearing test is on the 12th at 2pm now" in moved, moved
    asked = dm.process_input(UserInput(text="when is my hearing test?")).reply
    assert "12th" in asked and "9th" not in asked.split("—")[0], asked
    still = dm.process_input(UserInput(text="is it still on the 9th?")).reply
    assert still.startswith("No"), still
    told = dm.process_input(UserInput(text="what do you know about me?")).reply
    assert "your hearing test is on the 12th at 2pm" in told and "9th" not in told, told


def test_it_rescheduled_at_a_later_visit_changes_what_was_kept(tmp_path):
    """A verb that does another anew ("rescheduled" is scheduled again) gives a new value, with "for"
    a new time as with "to"; the next day, "it" is still the thing last told with a date."""
    dm, services, uid = _odile(tmp_path)
    dm.process_input(UserInput(text="please remember my boiler service is on Monday the 4th of May"))
    _next_visit(dm, "Odile")
    moved = dm.process_input(UserInput(text="the engineer has rescheduled it for the 7th of May")).reply
    assert "your boiler service is on the 7th of May now" in moved, moved
    asked = dm.process_input(UserInput(text="when is my boiler service?")).reply
    assert "7th of May" in asked, asked
    # what was asked to be kept is kept as it was asked; the change is told in the turn that made it
    assert [m.text for m in services.explicit.list(uid)] == ["my boiler service is on Monday the 4th of May"]


def test_it_changed_with_nothing_told_with_a_date_changes_nothing():
    from interaction.dated_it import news_with_it_named

    at = datetime(2026, 11, 4, 15, 0)  # a fixed day, never the wall clock
    said = [TranscriptTurn("user", "my grandson plays the cello", at)]
    assert news_with_it_named("they moved it to the 12th", said) is None
    dated = [TranscriptTurn("user", "our book club is on the 5th", at), *said]
    assert news_with_it_named("they moved it to the 12th", dated) == "they moved our book club to the 12th"
    # "for" a thing that is no time swaps the thing: no new value of anything
    assert news_with_it_named("I changed it for a bigger one", dated) is None


@pytest.mark.parametrize(("dated", "news", "asked", "said"), [
    ("My grandson's school play is on Wednesday at 6.", "Oh dear, it's been cancelled, half the cast has flu.",
     "Is my grandson's school play still on Wednesday?", "your grandson's school play's been cancelled"),
    ("can you remember that my flu jab is on Friday at 11", "They have put it off until next month.",
     "Do I still have my flu jab on Friday?", "put your flu jab off"),
    # "it" stands for no person: what someone has on that day
    ("My granddaughter Ivy has a ballet show on Friday at 6.", "Oh no, it's been cancelled, the teacher is ill.",
     "Is Ivy's ballet show still on Friday?", "the ballet show's been cancelled"),
])
def test_news_of_what_was_done_to_it_is_news_of_the_thing_last_dated(tmp_path, dated, news, asked, said):
    """"it's been cancelled" names no thing: "it" is the one told last with a date, so the next day a
    question whether it is still on gets no yes."""
    dm, _, _ = _odile(tmp_path)
    dm.process_input(UserInput(text=dated))
    dm.process_input(UserInput(text=news))
    _next_visit(dm, "Odile")
    reply = dm.process_input(UserInput(text=asked)).reply
    assert not re.match(r"Yes\b", reply) and said in reply, reply


@pytest.mark.parametrize("said", ["It was decided that the fete moves indoors.", "It's raining again.",
                                  "I loved it.", "They made it to the station in time."])
def test_an_it_nothing_was_done_to_is_named_as_nothing(said):
    from interaction.dated_it import news_with_it_named

    at = datetime(2026, 11, 4, 15, 0)
    assert news_with_it_named(said, [TranscriptTurn("user", "our village fete is on Saturday", at)]) is None


@pytest.mark.parametrize(("news", "told"), [
    # replay24 yusuf: the gate code's change was kept as the gym locker code's new value
    ("The gate code changed, it's 5590 now.", "the gym locker code is 8806"),
    ("My bike lock code changed to 7777.", "my gym locker code is 8806"),
    ("The kitchen tap washer got changed to a brass one.", "the bathroom tap drips every night"),
    # "I got the job!!! I'm moving to Canada" over "I've got a job interview in Toronto next Monday, ..."
    # got "So you've got a job interview in Canada next Monday" (tester29 amara): a place said of a
    # thing is no home of theirs for a move to change
    ("I got the job!!! I'm moving to Norway", "I've got a job interview in Bergen next Friday, wish me luck"),
])
def test_a_change_of_another_one_of_its_kind_changes_nothing(news, told):
    """A change that says which one it changes ("the gate code") changes no other one of its kind
    (the gym locker code): every noun before the thing's own is named by the earlier statement too."""
    assert changed_value(news, told) is None


@pytest.mark.parametrize(("news", "told", "now"), [
    # the tester's words, then ours: the value as what "it" is now, not a phrase of place or time
    ("The gate code changed, it's 5590 now.", "my building gate code is 1234", "my building gate code is 5590"),
    ("They changed my locker combination, it is 0417 now.", "my locker combination is 2290",
     "my locker combination is 0417"),
])
def test_a_change_whose_value_is_what_it_is_now(news, told, now):
    """"The gate code changed, it's 5590 now." got "Tell me more!" and the old code stayed the one
    recalled first (tester23 yusuf): a value said as what the changed thing is now changes it."""
    assert changed_value(news, told) == now


@pytest.mark.parametrize(("news", "told", "now"), [
    ("the ferry got changed, it's now on the 3rd of August at 7am", "our ferry to Santander is on the 4th of August at 9pm",
     "our ferry to Santander is on the 3rd of August at 7am"),
    ("The quiz night has been moved, it's on Thursday instead.", "the quiz night at the Crown is on Tuesday at 8",
     "the quiz night at the Crown is on Thursday at 8"),
    # a clause after that holds no value now, or whose subject is no pro-form of the thing, gives none
    ("the ferry got changed, I'm now so tired", "our ferry to Santander is on the 4th of August at 9pm", None),
    ("the ferry got changed, Tom is now on the 3rd deck", "our ferry to Santander is on the 4th of August at 9pm", None),
])
def test_a_change_with_its_new_value_said_in_the_clause_after(news, told, now):
    """A change with no "to" phrase may say its value after it, of "it", as holding now or instead."""
    assert changed_value(news, told) == now


@pytest.mark.parametrize(("news", "told", "now"), [
    # a time of day after a comma is the new day's own (it kept the old afternoon time beside the new day)
    ("The surgery rang, my blood test has been moved to Monday the 9th, 8:20 in the morning.",
     "my blood test is on Thursday the 5th at 2:10 in the afternoon, at the Grange clinic",
     "my blood test is on Monday the 9th, 8:20 in the morning, at the Grange clinic"),
    # a day and its time set off by a comma, written as "17 of March" and "10:30" (a count and no entity to
    # the tagger): both give way to the new ones, never the time kept beside them
    ("They changed my viva to 21 of March, 15:30, same room.", "my viva is 17 of March, 10:30, room 2.14",
     "my viva is 21 of March, 15:30, room 2.14"),
    # what follows the new day after a comma that is no time keeps the time told
    ("The garage moved my MOT to the 12th, same time.", "my MOT is on the 8th at 4pm", "my MOT is on the 12th at 4pm"),
    # two days set off by a comma are two days, not a day and its time
    ("The gym moved my spin class to Thursday.", "my spin class is on Tuesday, 7:15, in studio 3",
     "my spin class is on Thursday, 7:15, in studio 3"),
])
def test_a_day_and_its_time_set_off_by_a_comma_change_together(news, told, now):
    assert changed_value(news, told) == now
