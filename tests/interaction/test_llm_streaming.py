"""The streamed request (stream=true) against servers that do not stream: one that ignores the flag and
answers whole, and one that refuses it (then the request goes again without, and the model is
remembered as not streaming). Streams themselves are tested against the real local server
(test_streamed_reply.py)."""

from __future__ import annotations

import logging

from common.config import load_settings
from interaction.llm import LlmRegistry
from tests.interaction.llm_servers import ScriptedServer

MESSAGES = [{"role": "system", "content": "You are Nadine."}, {"role": "user", "content": "Hello!"}]


def _model(server: ScriptedServer):
    settings = load_settings(environ={}, overrides=[f"interaction.llm.base_url={server.url}"])
    return LlmRegistry(settings.interaction.llm, environ={}).for_agent("response_agent")


def test_a_server_that_ignores_stream_answers_in_one_delta():
    server = ScriptedServer(lambda body: (200, "Hello Maya. Nice to see you."))
    try:
        assert list(_model(server).stream(MESSAGES)) == ["Hello Maya. Nice to see you."]
    finally:
        server.close()
    assert server.bodies[0]["stream"] is True


def test_a_server_that_refuses_stream_is_asked_again_without_and_remembered(caplog):
    server = ScriptedServer(lambda body: (400, "streaming is not supported") if body.get("stream")
                            else (200, "Hello Maya."))
    try:
        model = _model(server)
        with caplog.at_level(logging.WARNING, logger="nadine.interaction.llm"):
            assert list(model.stream(MESSAGES)) == ["Hello Maya."]
            assert list(model.stream(MESSAGES)) == ["Hello Maya."]
    finally:
        server.close()
    assert [bool(b.get("stream")) for b in server.bodies] == [True, False, False]
    assert sum("refused streaming" in r.getMessage() for r in caplog.records) == 1
