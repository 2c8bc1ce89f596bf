import numpy as np
import pytest

from scripts.eval.memorability_cv import (
    Params,
    burn_in_novelty,
    emotion_salience,
    human_consistency,
    mem_score,
    nested_cv,
    stratified_folds,
)


def test_emotion_salience_is_the_normalised_activation_above_threshold():
    probs = np.array([[0.9, 0.1], [0.4, 0.3]])
    e = emotion_salience(probs, np.array([0.5, 0.2]))
    assert e == pytest.approx([0.8, 0.125])


def test_burn_in_novelty_scores_the_odd_one_out_highest():
    rng = np.random.default_rng(0)
    base = rng.normal(size=16)
    similar = base + rng.normal(scale=0.05, size=(8, 16))
    odd = rng.normal(size=(1, 16))
    nov = burn_in_novelty(np.vstack([similar, odd]), burn_in=2, repeats=200)
    assert np.argmax(nov) == 8
    # with a burn-in as large as the set nothing is ever scored
    assert np.isnan(burn_in_novelty(np.eye(3), burn_in=3, repeats=5)).all()


def test_stratified_folds_spread_ratings():
    rng = np.random.default_rng(1)
    ratings = np.arange(30, dtype=float)
    folds = stratified_folds(ratings, 5, rng)
    for f in range(5):
        members = ratings[folds == f]
        assert len(members) == 6
        assert members.min() < 5 and members.max() >= 25


def test_nested_cv_finds_the_planted_signal():
    rng = np.random.default_rng(2)
    n = 60
    probs = rng.dirichlet(np.ones(8) * 0.5, size=n)
    novelty = rng.uniform(size=n)
    ratings = 5 * probs[:, 1] + rng.normal(scale=0.3, size=n)  # "happy" drives memorability
    results = {r.name: r for r in nested_cv(probs, novelty, ratings, [(1.0, 0.0), (0.0, 1.0)], repeats=2)}
    assert len(results["(1.0, 0.0)"].rhos) == 10
    assert results["(1.0, 0.0)"].mean > 0.3
    assert results["(1.0, 0.0)"].log10_p_fisher < -5
    assert abs(results["(0.0, 1.0)"].mean) < 0.4
    assert "random" in results


def test_mem_score_weights():
    probs = np.array([[1.0, 0.0]])
    params = Params((0.5, 0.5), 0.2)
    assert mem_score(probs, np.array([0.6]), (0.5, 0.5), params) == pytest.approx([0.5 * 1.0 + 0.5 * 0.5])


def test_human_consistency():
    raters = {"a": {"x": 1, "y": 2, "z": 3}, "b": {"x": 1, "y": 2, "z": 3}, "c": {"x": 3, "y": 2, "z": 1}}
    assert human_consistency(raters) == pytest.approx((0 + 0 - 1) / 3)
    assert human_consistency({"a": {"x": 1}}) is None
