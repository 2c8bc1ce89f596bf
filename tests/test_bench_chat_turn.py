"""The chat-turn benchmark runs through the whole suite without a camera and prints its target ratio."""

from __future__ import annotations

import json

import pytest

from scripts.bench.chat_turn import chat_session, main

pytestmark = pytest.mark.slow


def test_the_first_turn_gives_name_and_news_in_one_sentence():
    first = chat_session("Lena", 0)[0]
    assert first.startswith("Hi, I'm Lena and ") and first.endswith("!")


def test_the_benchmark_prints_the_prompt_ratio_and_a_json_line(capsys):
    assert main(["--users", "1"]) == 0
    out = capsys.readouterr().out
    assert "prompt p95 / 1000 ms target" in out and "prompt, farewells apart p95 / 1000 ms target" in out
    result = json.loads(out.strip().splitlines()[-1])
    assert result["turns"] == 7 and result["first_turns_text_only_moment"] == 1
