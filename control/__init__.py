"""Nadine control process."""
