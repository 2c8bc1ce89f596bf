"""Memory quality evaluations (benchmarks, calibration, the paper's protocols). Not part of the test suite."""
