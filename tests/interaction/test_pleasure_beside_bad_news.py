""""My startup just ran out of money. We're shutting down next month." got "That's wonderful, Kofi!":
the first sentence leans pleasant, less surely than the second reads unpleasant, so no feeling is named
(tester63 s22)."""

from __future__ import annotations

from interaction.offline.understand_rules import PLEASANT, user_emotion


def test_pleasure_less_sure_than_the_bad_news_beside_it_is_not_named():
    assert user_emotion("My startup just ran out of money. We're shutting down next month.").label not in PLEASANT


def test_good_news_surer_than_a_worry_after_it_is_still_named():
    assert user_emotion("I passed!! honestly thought I'd failed it").label in PLEASANT


def test_a_chat_word_parts_the_news_from_what_is_said_of_it():
    # "failed my driving test again lol great day" got "That's wonderful, Jayden!" (tester63 s03): read
    # whole, the praise outweighed the news it mocks
    assert user_emotion("failed my driving test again lol great day").label not in PLEASANT
    assert user_emotion("passed my driving test lol so happy").label in PLEASANT
