import math

import pytest

from scripts.eval.stats import fisher_combined_log10_p, rankdata, spearman, spearman_p_one_sided


def test_rankdata_ties():
    assert list(rankdata([10, 20, 20, 5])) == [2.0, 3.5, 3.5, 1.0]


def test_spearman():
    assert spearman([1, 2, 3, 4], [10, 20, 30, 400]) == pytest.approx(1.0)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    assert spearman([1, 1, 1], [1, 2, 3]) == 0.0


def test_fisher_single_p_is_itself():
    assert fisher_combined_log10_p([0.01]) == pytest.approx(-2.0)
    assert fisher_combined_log10_p([1.0, 1.0]) == 0.0
    # many small p-values combine far below 1e-300 without underflowing to -inf
    assert -1000 < fisher_combined_log10_p([1e-20] * 40) < -300


def test_spearman_p():
    assert spearman_p_one_sided(0.0, 50) == pytest.approx(0.5)
    assert spearman_p_one_sided(0.6, 50) < 1e-4
    assert not math.isnan(spearman_p_one_sided(1.0, 10))


def test_small_folds_use_a_permutation_test():
    # a perfect 4-item ranking has exact one-sided p = 1/24, not the normal approximation's ~1e-12
    p = spearman_p_one_sided(1.0, 4, [1, 2, 3, 4], [1, 2, 3, 4])
    assert p == pytest.approx(1 / 24, abs=0.01)
