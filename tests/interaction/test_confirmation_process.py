"""Every confirmation through the real broker (python -m interaction over MQTT, offline backends): only
a clear yes forgets or links; an unclear answer is asked once more; a no, or a second unclear
answer, keeps everything and links nothing."""

from __future__ import annotations

import pytest

from common import topics as t
from common.store import ProfileStore
from tests.interaction.dialogue_harness import Interaction


@pytest.fixture
def nadine(broker, tmp_path):
    running = Interaction(broker, tmp_path)
    yield running
    running.stop()


def test_forget_one_unclear_is_asked_again_and_only_a_yes_forgets(nadine):
    maya = nadine.make_user("Maya")
    nadine.detect(maya, "Maya")
    nadine.say("Please remember that my sister is expecting twins.")
    nadine.say("Please remember that my brother moved to Oslo.")
    nadine.nobody()  # a later visit: what is forgotten is the stored memory, not a turn of this one
    nadine.detect(maya, "Maya")
    asked = nadine.say("Forget what I said about my sister.")
    assert asked.reply.startswith("Do you want me to forget") and "twins" in asked.reply
    again = nadine.say("Hmm, maybe.")
    assert again.intent == "forget_one_asked_again" and "yes or no" in again.reply
    kept = nadine.say("No.")
    assert kept.intent == "forget_one_cancelled" and "keep" in kept.reply
    assert "expecting twins" in nadine.say("What do you know about me?").reply

    nadine.say("Forget what I said about my brother.")
    assert nadine.say("Hmm, maybe.").intent == "forget_one_asked_again"
    twice = nadine.say("I really don't know.")
    assert twice.intent == "forget_one_cancelled"  # a second unclear answer keeps it
    assert "Oslo" in nadine.say("What do you know about me?").reply

    nadine.say("Forget what I said about my sister.")
    refused = nadine.say("Of course not!")
    assert refused.intent == "forget_one_cancelled"
    nadine.say("Forget what I said about my sister.")
    assert nadine.say("Hmm, maybe.").intent == "forget_one_asked_again"
    done = nadine.say("Yes, go ahead.")
    assert done.intent == "forget_one_confirmed"
    about = nadine.say("What do you know about me?").reply
    assert "twins" not in about and "Oslo" in about


def test_forget_me_refused_after_asking_again(nadine):
    maya = nadine.make_user("Maya")
    nadine.detect(maya, "Maya")
    assert "yes or no" in nadine.say("Please forget everything about me.").reply
    again = nadine.say("Hmm, maybe.")
    assert again.intent == "forget_request" and "yes or no" in again.reply
    refused = nadine.say("Absolutely not!")
    assert refused.intent == "forget_cancelled" and "keep" in refused.reply
    assert ProfileStore(nadine.layout).user_ids() == {maya: "Maya"}
    assert nadine.say("Hello again!").user_id == maya


def nothing_linked_to_maya(nadine: Interaction, maya: str, answer) -> None:
    assert answer.user_id != maya and answer.user_name == "Mia" and not answer.extra["pending_confirmation"]
    assert "Welcome back" not in answer.reply
    ids = ProfileStore(nadine.layout).user_ids()
    assert ids[maya] == "Maya" and ids[answer.user_id] == "Mia"
    assert nadine.rec[t.USER_INFO].wait_for(lambda m: m.user_name == "Mia").user_id == answer.user_id
    assert not [m for m in nadine.rec[t.USER_INFO].messages if m.user_id == maya]


def test_is_your_name_answered_absolutely_not_links_nothing(nadine):
    maya = nadine.make_user("Maya", location="Bern")
    asked = nadine.say("Hello, I'm Mia.")
    assert asked.extra["pending_confirmation"] and asked.reply.endswith("is your name Maya?")
    no = nadine.say("Absolutely not!")
    nothing_linked_to_maya(nadine, maya, no)
    assert "Bern" not in no.reply


def test_is_your_name_unclear_is_asked_again_then_a_no_links_nothing(nadine):
    maya = nadine.make_user("Maya")
    nadine.say("Hello, I'm Mia.")
    again = nadine.say("Hmm, maybe.")
    assert again.extra["pending_confirmation"] and again.reply.endswith("Are you Maya? Please say yes or no.")
    nothing_linked_to_maya(nadine, maya, nadine.say("Of course not."))
