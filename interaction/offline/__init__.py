"""Deterministic backends used when no language model is configured (or it failed for a turn)."""
