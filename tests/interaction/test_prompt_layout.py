"""The response prompt's order: what holds for the whole conversation first, what changes with each turn
after, so that a server keeping the previous prompt's evaluation reads again only this turn's part."""

from __future__ import annotations

from datetime import datetime

from common.messages import RecallReport
from common.store import UserProfile
from interaction.prompts import response_messages
from interaction.reply_inputs import ReplyInputs
from interaction.turn_understanding import Emotion

PERSON = UserProfile.model_validate({"user_id": "260101_0001", "user_name": "Oskar Lindqvist",
                                     "location": "Tromso", "hobbies": ["kayaking"]})


def _prompt(now: datetime, affect: str, text: str, **more) -> str:
    inputs = ReplyInputs(**{"is_recall": False, **more}, text=text, intent="continue_conversation", now=now,
                         language="en-US", user_emotion=Emotion(label="neutral", intensity=0.0), profile=PERSON,
                         affect=affect, met_before=False)
    return response_messages(inputs, None)[1]["content"]


def test_two_turns_of_one_conversation_share_every_line_about_the_person_before_they_differ():
    earlier = _prompt(datetime(2026, 3, 2, 9, 15), "you feel calm (intensity 0.2)", "The fjord froze last night.")
    later = _prompt(datetime(2026, 3, 2, 9, 16), "you feel surprised (intensity 0.7)", "Do you remember my boat?",
                    is_recall=True, recall=RecallReport(outcome="abstained", memories=[]))
    shared = next(i for i, (a, b) in enumerate(zip(earlier, later, strict=False)) if a != b)
    about_the_person = ("The person: Oskar Lindqvist", "you live in Tromso; you enjoy kayaking.",
                        "You met this person for the first time in this conversation.")
    for line in about_the_person:
        assert later.index(line) + len(line) <= shared, (line, later[:shared])
    # this turn's lines are all still there, after those
    for line in ("Now: Monday 02 March 2026, 09:16.", "Your affect: you feel surprised",
                 "You do not remember them telling you about this"):
        assert later.index(line) > max(later.index(p) for p in about_the_person)
