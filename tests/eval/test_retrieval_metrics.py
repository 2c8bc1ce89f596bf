import numpy as np
import pytest

from scripts.eval.retrieval import alpha_sweep, best_alpha, fuse, recall_at_k, zscore_rows


def test_recall_at_k_counts_ranks():
    sim = np.array([[0.9, 0.1, 0.2],   # target 0 ranked 1st
                    [0.5, 0.4, 0.1],   # target 1 ranked 2nd
                    [0.9, 0.8, 0.1]])  # target 2 ranked 3rd
    assert recall_at_k(sim, [0, 1, 2], [1, 2, 3]) == {1: pytest.approx(1 / 3), 2: pytest.approx(2 / 3), 3: 1.0}


def test_ties_do_not_push_the_target_down():
    assert recall_at_k(np.array([[0.5, 0.5]]), [1], [1]) == {1: 1.0}


def test_fusion_combines_complementary_channels():
    # text finds queries 0 and 1, image finds 1 and 2: neither alone gets all three, the fusion does
    sim_text = np.array([[0.9, 0.1, 0.5], [0.1, 0.9, 0.5], [0.6, 0.2, 0.5]])
    sim_image = np.array([[0.2, 0.3, 0.25], [0.1, 0.9, 0.2], [0.1, 0.2, 0.9]])
    targets = [0, 1, 2]
    assert recall_at_k(sim_text, targets, [1])[1] < 1
    assert recall_at_k(sim_image, targets, [1])[1] < 1
    sweep = alpha_sweep(sim_image, sim_text, targets, [0.0, 0.5, 1.0], [1])
    assert sweep[0.5][1] == 1.0
    assert best_alpha(sweep, [1]) == 0.5
    # alpha 0 / 1 reduce to the single channels (z-scoring keeps the order within a row)
    assert sweep[0.0] == recall_at_k(sim_text, targets, [1])
    assert sweep[1.0] == recall_at_k(sim_image, targets, [1])


def test_zscore_rows():
    z = zscore_rows(np.array([[1.0, 2.0, 3.0]]))
    assert z.mean() == pytest.approx(0.0)
    assert z.std() == pytest.approx(1.0, rel=1e-6)
    assert np.allclose(fuse(np.eye(2), np.eye(2), 0.3), zscore_rows(np.eye(2)))
