"""A chat has no face to leave the view: a person who comes back the next day without having said
goodbye began another conversation. Before, the next day's turns went on yesterday's: "hey its zara"
was kept with the last thing told the day before ("... shes ignoring me now :(. hey its zara"), and the
recall said "earlier today" of yesterday (tester62 s15, s72)."""

from __future__ import annotations

from tests.interaction import test_memory_requests, test_own_words
from tests.interaction.test_memory_requests import say

maya = test_memory_requests.maya  # Maya, known by face, with real memory services
stranger = test_own_words.stranger  # nobody in view: a chat without a camera


def test_a_turn_after_a_night_of_silence_begins_a_new_conversation(maya):
    dm, _, _, _ = maya
    say(dm, "Our neighbour's goat got into the garden and ate all my roses.")
    dm.clock.advance(20)  # no goodbye: the next morning
    reply = say(dm, "What did I tell you about the goat?").reply
    assert "yesterday" in reply and "earlier today" not in reply, reply
    assert [t.text for t in dm.session.transcript if t.role == "user"] == ["What did I tell you about the goat?"]


def test_a_pause_shorter_than_the_silence_line_is_the_same_conversation(maya):
    dm, _, _, _ = maya
    say(dm, "Our neighbour's goat got into the garden and ate all my roses.")
    dm.clock.advance(0.25)
    say(dm, "I had grown them for ten years.")
    assert len([t for t in dm.session.transcript if t.role == "user"]) == 2


def test_in_a_chat_who_was_talking_before_the_silence_is_still_who_talks(stranger):
    # ended as a goodbye ends it, "hey its zara" the next day was asked "is your name Zara?" and every
    # question after it waited for a yes (replay of tester62: 13 scripts)
    say(stranger, "Hi, I'm Inge Berg. I breed Icelandic horses.")
    said = stranger.session.identity.user_id
    stranger.clock.advance(20)
    turn = say(stranger, "hey its inge")
    assert "just to be sure" not in turn.reply and stranger.session.identity.user_id == said, turn.reply
    assert not stranger.session.met_now
    assert [t.text for t in stranger.session.transcript if t.role == "user"] == ["hey its inge"]



def test_a_forget_question_left_unanswered_is_answered_by_nothing_said_the_next_day(maya):
    dm, _, _, uid = maya
    assert "Please say yes or no" in say(dm, "please forget everything about me").reply
    dm.clock.advance(20)
    turn = say(dm, "yes")  # the next day's first word, to whatever she says next
    assert turn.intent != "forget_confirmed" and uid in dm.store.user_ids(), turn.reply


def asked_the_next_day(dm, told: list[str], back: str, question: str) -> str:  # noqa: ANN001 - a DialogueManager
    """The reply to `question`, asked the day after `told` was said, once they are `back`."""
    for said in told:
        say(dm, said)
    dm.clock.advance(20)
    say(dm, back)
    return say(dm, question).reply


def test_a_plain_statement_told_the_day_before_is_recalled_when_asked_with_do_you_remember(stranger):
    # "What am I building, do you remember?" the next day got "I don't remember you telling me": the
    # listener's remembering was read as something the question asks of, which the memory never names
    # (tester62 s25)
    reply = asked_the_next_day(stranger, ["Hello robot! I'm Benedikt.", "I do woodworking in my spare time, I am "
                                          "building a rocking chair for my grandson."],
                               "Hello, Benedikt again.", "What am I building, do you remember?")
    assert "rocking chair" in reply and "yesterday" in reply and "not sure" not in reply, reply
