"""Compatibility (issue 15 item 2): what the client sends adapts to what a server accepts, JSON is
validated with one repair, and replies are cut where they start to continue the prompt."""

from __future__ import annotations

import json
import logging

import pytest

from common.config import load_settings
from interaction.agents.context import AgentDeps
from interaction.agents.episode import offline_summary, summarize
from interaction.llm import Deadline, LlmError, LlmRegistry, LlmSkipped
from interaction.llm.openai_backend import JSON_INSTRUCTION
from interaction.llm.reply_text import spoken_part
from interaction.memory.contracts import TranscriptTurn
from interaction.prompts import (
    BACKGROUND_HEADING,
    CONVERSATION_HEADING,
    NADINE_LABEL,
    PERSONA,
    REPLY_STOPS,
    USER_LABEL,
)
from interaction.turn_understanding import TurnUnderstanding
from tests.interaction.llm_servers import ScriptedServer

IMAGE = {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,AAAA"}, "caption": "a cat on a sofa"}
UNDERSTOOD = {"intent": "continue_conversation", "emotion": {"label": "happy", "intensity": 0.5},
              "user_emotion": {"label": "neutral", "intensity": 0.1}, "is_recall": False,
              "plan": [{"agent": "response_agent", "message": "answer"}], "language": None}


def _serve(respond):
    server = ScriptedServer(respond)
    settings = load_settings(environ={}, overrides=[f"interaction.llm.base_url={server.url}"])
    return server, settings


@pytest.fixture
def served():
    servers = []

    def make(respond):
        server, settings = _serve(respond)
        servers.append(server)
        return server, settings
    yield make
    for server in servers:
        server.close()


def _has_parts(body) -> bool:
    return any(isinstance(m["content"], list) for m in body["messages"])


def test_a_server_that_refuses_content_parts_gets_text_with_the_caption_and_is_remembered(served, caplog):
    server, settings = served(lambda body: (500, "Expected 'content' to be a string") if _has_parts(body)
                              else (200, "I remember the cat."))
    model = LlmRegistry(settings.interaction.llm, environ={}).for_agent("response_agent")
    messages = [{"role": "system", "content": "You are Nadine."},
                {"role": "user", "content": [{"type": "text", "text": "Do you remember?"}, IMAGE]}]
    with caplog.at_level(logging.WARNING, logger="nadine.interaction.llm"):
        assert model.complete(messages) == "I remember the cat."
        assert model.complete(messages) == "I remember the cat."
    assert [_has_parts(b) for b in server.bodies] == [True, False, False]  # remembered after one refusal
    sent = server.bodies[1]["messages"][1]["content"]
    assert sent == "Do you remember?\n[image: a cat on a sofa]"
    assert "caption" not in json.dumps(server.bodies[0])  # our stand-in never goes on the wire
    assert sum("refused content parts" in r.getMessage() for r in caplog.records) == 1


def test_text_only_unless_the_profile_takes_images(served):
    server, settings = served(lambda body: (200, "fine"))
    registry = LlmRegistry(settings.interaction.llm, environ={})
    text_model = registry.for_agent("search_router")  # gpt_json: vision false
    text_model.complete([{"role": "user", "content": [{"type": "text", "text": "look"}, IMAGE]}], json_mode=False)
    assert not _has_parts(server.bodies[-1])
    with pytest.raises(LlmSkipped):  # no caption to send instead of the image: nothing is made up
        text_model.complete([{"role": "user", "content": [
            {"type": "text", "text": "look"}, {"type": "image_url", "image_url": {"url": "data:,"}}]}])


def test_json_mode_where_supported_else_asked_for_in_the_prompt(served):
    server, settings = served(lambda body: (400, "response_format is not supported") if "response_format" in body
                              else (200, json.dumps(UNDERSTOOD)))
    model = LlmRegistry(settings.interaction.llm, environ={}).for_agent("turn_understanding")
    messages = [{"role": "system", "content": "Return one JSON object."}, {"role": "user", "content": "hi"}]
    assert json.loads(model.complete(messages))["intent"] == "continue_conversation"
    model.complete(messages)
    assert ["response_format" in b for b in server.bodies] == [True, False, False]
    assert server.bodies[-1]["messages"][0]["content"].endswith(JSON_INSTRUCTION)


def _deps(settings) -> AgentDeps:
    return AgentDeps(settings, None, None, LlmRegistry(settings.interaction.llm, environ={}), None, None, None)


def test_invalid_json_gets_one_repair_then_the_offline_backend(served):
    def respond(body):
        repairing = "cannot be used" in str(body["messages"][-1]["content"])
        return 200, json.dumps(UNDERSTOOD) if repairing else '{"intent": "chatting", "plan": "search"}'
    server, settings = served(respond)
    deps = _deps(settings)
    deps.start_turn()
    understood = deps.ask_json("turn_understanding", [{"role": "user", "content": "hi"}], TurnUnderstanding)
    assert understood is not None and understood.intent == "continue_conversation" and len(server.bodies) == 2
    assert "plan" in server.bodies[1]["messages"][-1]["content"]  # the repair names what was wrong

    never, settings = served(lambda body: (200, "Sure! Here is your JSON: {intent: chatting}"))
    deps = _deps(settings)
    deps.start_turn()
    assert deps.ask_json("turn_understanding", [{"role": "user", "content": "hi"}], TurnUnderstanding) is None
    assert len(never.bodies) == 2 and not deps.turn_offline  # the endpoint is alive: only this step is offline


def test_an_episode_summary_that_fails_validation_falls_back_to_the_offline_summary(served):
    server, settings = served(lambda body: (200, json.dumps({"observation": "", "thought": "", "action": "",
                                                             "result": ""})))
    deps = _deps(settings)
    deps.start_turn()
    from datetime import datetime
    transcript = [TranscriptTurn("user", "My sister Ada moved to Oslo.", datetime(2026, 11, 30, 10)),
                  TranscriptTurn("nadine", "How nice!", datetime(2026, 11, 30, 10))]
    assert summarize(deps, transcript, "Zora") == offline_summary(transcript, "Zora")
    assert len(server.bodies) == 2  # asked, repaired once, then the offline summary


def _cut(answer: str) -> str:
    return spoken_part(answer, labels=(USER_LABEL, NADINE_LABEL), own_label=NADINE_LABEL,
                       headings=(BACKGROUND_HEADING, CONVERSATION_HEADING), instructions=[PERSONA])


@pytest.mark.parametrize(("answer", "spoken"), [
    ("Nice to meet you, Zora!\nUser: Thanks!\nNadine: You're welcome.", "Nice to meet you, Zora!"),
    ("Nadine: Hello again!", "Hello again!"),
    ("Hello, Eileen.\nEileen: Hello!", "Hello, Eileen."),
    ("Hello!<|im_end|>\n<|im_start|>user\nHi", "Hello!"),
    ("BACKGROUND\n- Now: Monday.", ""),
    ("Sure. You are Nadine, a social humanoid robot. You talk with people face to face", "Sure."),
    ("I remember your kitten Pixel, she was adorable.", "I remember your kitten Pixel, she was adorable."),
])
def test_replies_are_cut_where_they_continue_the_prompt(answer, spoken):
    assert _cut(answer) == spoken


def test_stop_sequences_come_from_the_prompt_format():
    assert REPLY_STOPS == [f"\n{USER_LABEL}:", f"\n{NADINE_LABEL}:", f"\n{BACKGROUND_HEADING}",
                           f"\n{CONVERSATION_HEADING}"]


def test_a_transient_500_is_retried_without_giving_up_json_mode(served):
    calls = []

    def respond(body):
        calls.append(body)
        return (500, "busy") if len(calls) == 1 else (200, json.dumps(UNDERSTOOD))
    server, settings = served(respond)
    model = LlmRegistry(settings.interaction.llm, environ={}).for_agent("turn_understanding")
    assert json.loads(model.complete([{"role": "user", "content": "hi"}]))["is_recall"] is False
    model.complete([{"role": "user", "content": "hi"}])
    assert len(server.bodies) == 3 and all("response_format" in b for b in server.bodies)


def test_retries_stop_where_the_budget_ends(served):
    server, settings = served(lambda body: (503, "overloaded"))
    settings = load_settings(environ={}, overrides=[f"interaction.llm.base_url={server.url}",
                                                   "interaction.llm.profiles.gpt_json.max_retries=10"])
    model = LlmRegistry(settings.interaction.llm, environ={}).for_agent("search_router")
    with pytest.raises(LlmError):
        model.complete([{"role": "user", "content": "hi"}], deadline=Deadline(0.6))
    # 0.25 s then 0.5 s apart: the third pause would end past the 0.6 s budget, whatever max_retries says
    assert len(server.bodies) in (1, 2)
