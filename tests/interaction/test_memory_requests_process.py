"""Memory intents through the real broker: python -m interaction driven only over MQTT (offline
backends). A remember request is stored and recalled in a later session, forgetting it takes a yes,
and an emotional "I forgot ..." is an ordinary turn for the memorability policy."""

from __future__ import annotations

from tests.interaction.dialogue_harness import Interaction


def test_remember_recall_and_forget_one_over_mqtt(broker, tmp_path):
    nadine = Interaction(broker, tmp_path)
    try:
        maya = nadine.make_user("Maya")
        nadine.detect(maya, "Maya")
        asked = nadine.say("Please remember that my daughter's birthday is on 3 May.")
        assert asked.memory_intent == "remember" and asked.user_id == maya
        assert asked.reply == "I'll remember that your daughter's birthday is on 3 May."
        keys = nadine.say("I'm devastated, I forgot my keys and missed my flight.")
        assert keys.memory_intent == "statement" and not nadine.affect_of(keys).suppress_storage
        nadine.nobody()  # she steps out of view and comes back
        nadine.detect(maya, "Maya")
        later = nadine.say("What's my daughter's birthday again?")
        assert later.is_recall and later.memory_intent == "recall" and "3 May" in later.reply
        assert nadine.affect_of(later).suppress_storage
        about = nadine.say("What do you know about me?")
        assert about.memory_intent == "recall" and "your daughter's birthday is on 3 May" in about.reply
        question = nadine.say("Please forget what I told you about my daughter's birthday.")
        assert question.memory_intent == "forget_one" and question.reply.startswith("Do you want me to forget")
        done = nadine.say("Yes.")
        assert done.intent == "forget_one_confirmed"
        gone = nadine.say("When is my daughter's birthday?")
        assert "3 May" not in gone.reply
    finally:
        nadine.stop()
