""""My startup just ran out of money. We're shutting down next month." got "That's wonderful, Kofi!":
the first sentence leans pleasant, less surely than the second reads unpleasant, so no feeling is named
(tester63 s22)."""

from __future__ import annotations

from interaction.offline.understand_rules import PLEASANT, user_emotion
from tests.interaction import test_own_words
from tests.interaction.test_memory_requests import say

stranger = test_own_words.stranger  # nobody in view: a chat without a camera


def test_pleasure_less_sure_than_the_bad_news_beside_it_is_not_named():
    assert user_emotion("My startup just ran out of money. We're shutting down next month.").label not in PLEASANT


def test_good_news_surer_than_a_worry_after_it_is_still_named():
    assert user_emotion("I passed!! honestly thought I'd failed it").label in PLEASANT


def test_a_chat_word_parts_the_news_from_what_is_said_of_it():
    # "failed my driving test again lol great day" got "That's wonderful, Jayden!" (tester63 s03): read
    # whole, the praise outweighed the news it mocks
    assert user_emotion("failed my driving test again lol great day").label not in PLEASANT
    assert user_emotion("passed my driving test lol so happy").label in PLEASANT


def test_news_with_a_sentence_of_surely_bad_news_is_not_called_good(stranger):
    # no feeling named, the news' sign still read the whole as good: "That sounds like good news, Kofi!"
    # (final replay of tester63: s22/2)
    say(stranger, "Yo Nadine. Kofi here.")
    reply = say(stranger, "My startup just ran out of money. We're shutting down next month.").reply
    assert "good news" not in reply and "wonderful" not in reply, reply
