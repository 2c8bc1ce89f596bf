"""Nadine interaction process."""
