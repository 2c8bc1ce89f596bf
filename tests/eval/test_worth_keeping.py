"""The measuring code of the emotion-intensity model: the split keeps a writer's sentences together, the
keep scores count as written, and the word lists it is compared with read as they used to."""

from __future__ import annotations

from scripts.eval.emotion_word_lists import word_list_emotion
from scripts.eval.train_emotion_intensity import split_of, writer_of
from scripts.eval.worth_keeping import keep_scores


def test_every_sentence_of_one_review_or_article_lands_in_one_split():
    assert writer_of("amazon", "12_1") == writer_of("amazon", "12_7") == "amazon:12"
    assert writer_of("tweets", "12") != writer_of("nyt", "12_1")
    assert {split_of(writer_of("nyt", f"41_{i}")) for i in range(1, 30)} == {split_of("nyt:41")}
    splits = [split_of(f"tweets:{i}") for i in range(2000)]
    assert 0.6 < splits.count("train") / 2000 < 0.8 and splits.count("dev") > 200 and splits.count("test") > 200


def test_keep_scores():
    scores = keep_scores([True, True, False, False, True], [True, False, True, False, True])
    assert (scores["tp"], scores["fp"], scores["fn"]) == (2, 1, 1)
    assert scores["precision"] == scores["recall"] == 0.667 and scores["accuracy"] == 0.6
    assert keep_scores([], [])["precision"] == 0.0


def test_the_word_lists_keep_a_listed_word_and_miss_news_without_one():
    assert word_list_emotion("My neighbour named her new puppy Joy.").intensity >= 0.5
    assert word_list_emotion("We scattered my father's ashes off the pier where he taught me to fish.").intensity < 0.5
