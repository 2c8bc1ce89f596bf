"""A pastime told by its doing is kept as a hobby and said back in its clause; a chore is not; values
of one pastime said in one breath are each kept. Whole turns with real memory services."""

from __future__ import annotations

from tests.interaction.test_memory_requests import say
from tests.interaction.test_own_words import facts_of, stranger  # noqa: F401 - a fixture


def test_a_pastime_told_by_its_doing_is_kept_and_a_chore_is_not(stranger):  # noqa: F811
    say(stranger, "Hello, I'm Carys.")
    kept = say(stranger, "I help out at the donkey sanctuary.")
    assert "you help out at the donkey sanctuary" in kept.reply, kept.reply
    assert any("donkey sanctuary" in h for h in facts_of(stranger).get("hobbies") or []), facts_of(stranger)
    chore = say(stranger, "I empty the bins on Tuesdays.")
    assert "remember" not in chore.reply and not any("bins" in h for h in facts_of(stranger).get("hobbies") or []), \
        (chore.reply, facts_of(stranger))


def test_pastimes_said_in_one_breath_are_each_kept(stranger):  # noqa: F811
    say(stranger, "Hi, I'm Idris.")
    turn = say(stranger, "I play badminton and the cello.")
    hobbies = " ".join(facts_of(stranger).get("hobbies") or [])
    assert "badminton" in hobbies and "cello" in hobbies, facts_of(stranger)
    assert "badminton" in turn.reply and "cello" in turn.reply, turn.reply


def test_asked_after_their_pastimes_they_hear_all_of_them(stranger):  # noqa: F811
    say(stranger, "Hi, I'm Idris.")
    say(stranger, "I play the bagpipes and I do a bit of rock climbing.")
    turn = say(stranger, "What are my hobbies?")
    assert "bagpipes" in turn.reply and "rock climbing" in turn.reply, turn.reply


def test_where_a_thing_is_done_is_never_the_pastime(stranger):  # noqa: F811
    """"I keep pigeons at the back of the yard" was kept as a hobby "back" and said back "you enjoy back"."""
    say(stranger, "Hi, I'm Idris.")
    turn = say(stranger, "I keep pigeons at the back of the yard.")
    hobbies = " ".join(facts_of(stranger).get("hobbies") or [])
    assert "back" not in hobbies and "yard" not in hobbies, facts_of(stranger)
    assert "enjoy back" not in turn.reply and "enjoy yard" not in turn.reply, turn.reply
    played = say(stranger, "I play the harp at the back of the chapel on Sundays.")
    assert "harp" in " ".join(facts_of(stranger).get("hobbies") or []), (played.reply, facts_of(stranger))
