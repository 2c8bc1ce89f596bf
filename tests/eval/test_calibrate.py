from pathlib import Path

import pytest
import yaml

from common.config import ConfigError, load_settings
from common.config.loader import PROJECT_ROOT
from scripts.eval.calibrate import (
    Pair,
    calibrate,
    choose_threshold,
    load_pairs,
    write_profile,
)

PAIRS = Path(__file__).resolve().parents[2] / "scripts" / "eval" / "calibration_pairs" / "minilm_pairs.jsonl"


def test_separable_lists_get_the_middle_of_the_gap():
    c = choose_threshold([0.9, 0.7, 0.6, 0.2, 0.1, 0.3], [True, True, True, False, False, False])
    assert c.threshold == pytest.approx(0.45)
    assert c.balanced_accuracy == 1.0
    assert c.separable and c.auc == 1.0


def test_balanced_accuracy_is_not_pulled_by_the_larger_class():
    # nine positives spread low, one negative at 0.5: plain accuracy would put the threshold below 0.5,
    # balanced accuracy keeps the negative out at the cost of two positives
    sims = [0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.45, 0.4, 0.5]
    labels = [True] * 9 + [False]
    c = choose_threshold(sims, labels)
    assert c.threshold == pytest.approx(0.55)
    assert c.balanced_accuracy == pytest.approx((7 / 9 + 1) / 2)


def test_equal_balanced_accuracy_prefers_the_widest_margin():
    # 0.35 (gap 0.2..0.5, half-width 0.15) and 0.66 (gap 0.52..0.8, half-width 0.14) both misclassify
    # one pair; the wider gap wins
    c = choose_threshold([0.8, 0.5, 0.52, 0.2], [True, True, False, False])
    assert c.balanced_accuracy == pytest.approx(0.75)
    assert c.threshold == pytest.approx(0.35)


def test_one_class_only_still_gives_a_threshold():
    assert choose_threshold([0.3, 0.4], [False, False]).threshold > 0.4
    assert choose_threshold([0.3, 0.4], [True, True]).threshold < 0.3


def test_calibrate_per_kind():
    pairs = [Pair("ordinary", "a", "b", True), Pair("ordinary", "c", "d", False),
             Pair("recall", "remember my puppy?", "f", True), Pair("recall", "remember my job?", "h", False)]
    out = calibrate(pairs, [0.8, 0.4, 0.3, 0.1])
    assert out["ordinary"].threshold == pytest.approx(0.6)
    assert out["recall"].threshold == pytest.approx(0.2)
    assert "first_meeting" not in out


def test_committed_pairs_are_many_and_cover_every_kind():
    pairs = load_pairs(PAIRS)
    assert len(pairs) >= 60
    for kind in ("ordinary", "recall", "first_meeting"):
        labels = {p.should_match for p in pairs if p.kind == kind}
        assert labels == {True, False}, kind
    assert all("introduced themselves" in p.scene for p in pairs if p.kind == "first_meeting")


def test_load_pairs_rejects_unknown_kind(tmp_path):
    bad = tmp_path / "p.jsonl"
    bad.write_text('{"kind": "sometimes", "query": "q", "scene": "s", "should_match": true}\n')
    with pytest.raises(ValueError, match="kind must be"):
        load_pairs(bad)


def test_profile_goes_to_the_generated_file_and_the_loader_merges_it(tmp_path):
    cfg = tmp_path / "interaction.yaml"
    hand_written = "interaction:\n  name_high_similarity: 0.9   # keep me\n  visual_memory:\n    retrieval_alpha: 0.0\n"
    cfg.write_text(hand_written)
    profile = {"similarity_threshold": 0.44, "recall_threshold": 0.23, "first_meeting_recall_threshold": 0.33}
    target = write_profile(tmp_path, "minilm_onnx", profile)
    assert target == tmp_path / "generated" / "embedder_profiles.yaml"
    assert cfg.read_text() == hand_written  # the hand-written file is never touched
    profiles = load_settings(config_dir=tmp_path, environ={}).interaction.visual_memory.embedder_profiles
    assert profiles["minilm_onnx"].model_dump() == profile
    assert "openai" in profiles  # the built-in profile is kept beside the calibrated one
    write_profile(tmp_path, "minilm_onnx", profile | {"recall_threshold": 0.2})
    again = load_settings(config_dir=tmp_path, environ={}).interaction.visual_memory
    assert again.embedder_profiles["minilm_onnx"].recall_threshold == 0.2
    assert again.retrieval_alpha == 0.0  # merged key by key: the section file's other values stay


def test_the_committed_profiles_are_in_the_generated_file():
    generated = yaml.safe_load((PROJECT_ROOT / "config" / "generated" / "embedder_profiles.yaml").read_text())
    committed = generated["interaction"]["visual_memory"]["embedder_profiles"]
    loaded = load_settings(environ={}).interaction.visual_memory.embedder_profiles
    assert {k: v.model_dump() for k, v in loaded.items()} == committed


def test_a_bad_generated_file_is_a_config_error(tmp_path):
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated" / "embedder_profiles.yaml").write_text(
        "interaction:\n  visual_memory:\n    embedder_profiles:\n      minilm_onnx:\n        recall_threshold: 7\n")
    with pytest.raises(ConfigError, match="generated/embedder_profiles.yaml"):
        load_settings(config_dir=tmp_path, environ={})


def test_generic_recall_questions_do_not_calibrate_the_recall_threshold():
    pairs = [Pair("recall", "Do you remember what I told you last time?", "I adopted a puppy", True),
             Pair("recall", "Do you remember my puppy?", "I adopted a puppy", True),
             Pair("recall", "Do you remember my new job?", "I adopted a puppy", False)]
    out = calibrate(pairs, [0.05, 0.6, 0.2])
    assert out["recall"].n_pos == 1
    assert out["recall"].threshold == pytest.approx(0.4)


def test_every_committed_pair_file_loads():
    for path in PAIRS.parent.glob("*.jsonl"):
        assert load_pairs(path), path


def test_ordinary_turns_let_no_labelled_non_match_through():
    sims = [0.9, 0.45, 0.44, 0.43, 0.5, 0.2]
    labels = [True, True, True, True, False, False]
    assert choose_threshold(sims, labels).threshold == pytest.approx(0.315)  # balanced accuracy alone
    strict = choose_threshold(sims, labels, max_fpr=0.0)
    assert strict.threshold == pytest.approx(0.7)
    pairs = [Pair("ordinary", str(i), "s", m) for i, m in enumerate(labels)]
    assert calibrate(pairs, sims)["ordinary"].threshold == pytest.approx(0.7)


def test_the_code_default_recall_decision_is_the_shipped_fit():
    """Tests build services on the code defaults: they judge the decision the generated file ships."""
    from common.config import load_settings
    from common.config.interaction_settings import RecallSettings

    shipped = load_settings(environ={}).interaction.retrieval.recall
    assert shipped.calibration == RecallSettings().calibration
    assert shipped.generic_threshold == RecallSettings().generic_threshold
