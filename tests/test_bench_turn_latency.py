"""The turn-latency benchmark: it runs, and it measures the models, not the text memories."""

from __future__ import annotations

from scripts.bench.turn_latency import NAMES, main, session


def test_no_two_simulated_users_say_the_same_sentence():
    # the embedder and the parser remember recent texts: a repeated sentence would be timed as a lookup
    said = [text for n, name in enumerate(NAMES) for text in session(name, n)]
    assert len(said) == len(set(said))


def test_the_benchmark_prints_each_target_ratio(capsys):
    assert main(["--users", "1"]) == 0
    out = capsys.readouterr().out
    for target in ("reply (latency_s) p95 / 150 ms", "reply, ordinary turns p95 / 30 ms",
                   "reply, recall turns p95 / 80 ms"):
        assert target in out
