"""Test doubles for what lies outside the unit under test."""

from __future__ import annotations


class RecordingBus:
    """Stands in for common.bus.Bus where only what is published matters."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, object]] = []

    def publish(self, spec, message, qos=None) -> None:
        self.sent.append((spec.suffix, message))

    def of(self, spec) -> list:
        return [m for s, m in self.sent if s == spec.suffix]
