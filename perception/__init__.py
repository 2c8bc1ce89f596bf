"""Nadine perception process."""
