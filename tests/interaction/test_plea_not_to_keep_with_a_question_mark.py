""""My wife is pregnant with twins!" then "We haven't told anyone yet, so don't keep this, okay?" got
"I don't remember you telling me about that", and the next day "Do you remember my news?" recited the
twins: with its question mark the plea was read as a recall question (tester63 s23)."""

from __future__ import annotations

from tests.interaction import test_own_words
from tests.interaction.test_silence_ends_conversation import asked_the_next_day

stranger = test_own_words.stranger  # nobody in view: a chat without a camera


def test_a_plea_not_to_keep_said_as_a_question_is_obeyed(stranger):
    told = ["Hi I'm Sven.", "My wife is pregnant with twins! Due in June.",
            "We haven't told anyone yet, so don't keep this, okay?"]
    reply = asked_the_next_day(stranger, told, "Hi Nadine, Sven here.", "Do you remember my news?")
    assert "twins" not in reply, reply
    assert "twins" not in " ".join(t.text for t in stranger.session.transcript if t.role == "nadine")
