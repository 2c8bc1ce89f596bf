"""The paper's protocols as command-line tools, run on the shared photos with the offline backends.

The ratings here are SYNTHETIC (made up in this test from the folder's expression labels); they only
show that the tool runs end to end, not how well anything predicts memorability.
"""

import csv
import json

import pytest

from scripts.eval import memorability, retrieval

pytestmark = pytest.mark.shared_data

SYNTHETIC_RATING = {"happy": 7, "surprised": 6, "angry": 6, "sad": 4, "neutral": 2}


def test_memorability_cli_runs_on_expression_photos(shared_data, tmp_path, capsys):
    ratings = tmp_path / "synthetic_ratings.csv"
    with ratings.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["image", "rating", "rater"])
        for label, base in SYNTHETIC_RATING.items():
            for i in (1, 2):
                w.writerow([f"{label}_0{i}.jpg", base, "synthetic_a"])
                w.writerow([f"{label}_0{i}.jpg", base + (1 if i == 1 else -1), "synthetic_b"])
    code = memorability.main([
        "--images", str(shared_data / "expressions"), "--ratings", str(ratings),
        "--repeats", "1", "--novelty-repeats", "20", "--weights", "1,0", "0.5,0.5",
    ])
    out = capsys.readouterr().out
    assert code == 0, out
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["images"] == 10
    assert summary["human_consistency"] is not None
    assert [r["folds"] for r in summary["results"]] == [5, 5, 5]


def test_memorability_cli_reports_missing_images(shared_data, tmp_path, capsys):
    ratings = tmp_path / "r.csv"
    ratings.write_text("image,rating\nnot_there.jpg,3\n")
    assert memorability.main(["--images", str(shared_data / "faces"), "--ratings", str(ratings)]) == 2
    assert "not in" in capsys.readouterr().err


def test_retrieval_cli_text_channel_offline(shared_data, tmp_path, capsys):
    captions = tmp_path / "captions.csv"
    captions.write_text(
        "image,caption\nnoface_cat.png,a close-up of a cat\nnoface_coffee.png,a cup of coffee\n"
        "noface_rocket.jpg,a rocket launch pad at night\n"
    )
    assert retrieval.main(["--images", str(shared_data / "faces"), "--captions", str(captions), "--k", "1", "3"]) == 0
    out = capsys.readouterr().out
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["text"]["3"] == 1.0
    assert summary["image"] is None  # MobileNetV2 has no text tower
    assert "CLIP" in out
