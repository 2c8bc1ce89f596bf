"""News told calmly gets a reply that fits news (the calibrated polarity's sign, no feeling named);
a plain fact or a question does not."""

from __future__ import annotations

import pytest

from interaction.offline.replies import news_sign


@pytest.mark.parametrize(("said", "sign"), [
    ("I finally got my driving licence back in the post.", "positive"),
    ("Our boiler broke down again and the engineer can't come till next week.", "negative"),
    ("I had cereal for breakfast.", None),
    ("Did you get the keys to the flat?", None),
])
def test_calm_news_is_read_as_good_or_bad(said, sign):
    assert news_sign(said) == sign


@pytest.mark.parametrize("said", [
    # "I was diagnosed with diabetes last month." got "That sounds like good news" (tester65 s50/2): the
    # polarity gives it P(positive) 0.51, below the line the judge's dev splits chose for saying so
    "I was diagnosed with diabetes last month.",
    "I have an appointment about my hip next week.",
])
def test_news_barely_likelier_good_than_not_is_not_called_good(said):
    assert news_sign(said) is None
