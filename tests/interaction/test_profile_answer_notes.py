"""The notes under a reply say what the reply did: a question about their own job answered from the
profile says so, and carries no recall decision (asked about, abstained) that the reply never used."""

from __future__ import annotations

from common.messages import RecallReport, StorageDecision, TurnResult
from common.turn_notes import turn_notes
from tests.interaction.test_memory_requests import say
from tests.interaction.test_own_words import stranger  # noqa: F401 - a fixture

NOT_STORED = StorageDecision(stored=False, reason="below threshold")


def _turn(**fields) -> TurnResult:
    return TurnResult(**{"turn_id": "t7", "text": "what's my line of work?", "reply": "You repair clocks.",
                         "intent": "continue_conversation", "is_recall": True, "latency_s": 0.2, **fields})


def test_a_reply_from_the_profile_is_noted_as_such_and_not_as_the_recall_it_did_not_use():
    notes = turn_notes(_turn(answered_from_profile=True, recall=RecallReport(outcome="abstained")), NOT_STORED)
    assert notes[0].startswith("[profile]") and not any("[recall]" in n for n in notes), notes


def test_a_reply_from_the_recall_keeps_the_recall_note():
    notes = turn_notes(_turn(recall=RecallReport(outcome="abstained")), NOT_STORED)
    assert notes[0].startswith("[recall] abstained") and not any("[profile]" in n for n in notes), notes


def test_a_rule_that_decided_against_the_line_says_where_the_probability_stands():
    """"abstained: the closest memory holds no answer ... (best p_told 0.817 below 0.687)" (tester59
    s107): the rule decided, and the note said the probability was below a line it was above."""
    report = RecallReport(outcome="abstained", decided_by="no_answer", p_told=0.817, abstain_below=0.687)
    note = turn_notes(_turn(recall=report), NOT_STORED)[0]
    assert "best p_told 0.817 at or above 0.687" in note and "below" not in note, note


def test_asked_their_job_after_telling_it_the_turn_says_it_came_from_the_profile(stranger):  # noqa: F811
    say(stranger, "Hi there, I'm Oluwaseun.")
    say(stranger, "I work as a clockmaker in Bristol.")
    asked = say(stranger, "what do I do for a living?")
    assert "clockmaker" in asked.reply and asked.answered_from_profile, asked
    chat = say(stranger, "The weather was lovely on the walk in.")
    assert not chat.answered_from_profile, chat


def test_a_question_naming_their_job_or_work_another_way_is_answered_from_the_profile(stranger):  # noqa: F811
    """The retrieval core finds which fact a question asks after, said in the person's words with its
    field's notion: no phrase of the question needs to be foreseen."""
    say(stranger, "Hello, I'm Wilhelmina.")
    say(stranger, "I work as a piano tuner and I live in Haarlem.")
    say(stranger, "Bye!")
    say(stranger, "Hello, I'm Wilhelmina.")
    for question in ("what did I tell you about my job?", "did I mention anything about work?"):
        asked = say(stranger, question)
        assert "piano tuner" in asked.reply and asked.answered_from_profile, (question, asked.reply)
    for question in ("when is my dentist appointment?", "what did I say about my brother's job?"):
        asked = say(stranger, question)
        assert "pianos" not in asked.reply and not asked.answered_from_profile, (question, asked.reply)
