"""The human-readable transcript of `--demo`: the dialogue and, under each reply, what memory did with
the turn (common/turn_notes.py, the same notes the chat prints)."""

from __future__ import annotations

import textwrap
from typing import TextIO

from common.turn_notes import turn_notes
from scripts.runner.player import Event, PresenceSeen, SessionStarted, TurnOutcome

WIDTH = 96


class Transcript:
    def __init__(self, out: TextIO) -> None:
        self.out = out

    def _line(self, text: str = "", indent: str = "") -> None:
        wrapped = textwrap.fill(text, WIDTH, initial_indent=indent, subsequent_indent=indent + "  ",
                                break_long_words=False, break_on_hyphens=False) if text else ""
        print(wrapped, file=self.out, flush=True)

    def show(self, event: Event) -> None:
        if isinstance(event, SessionStarted):
            gap = f", {event.session.gap_hours:g} hours later" if event.session.gap_hours else ""
            camera = ", ".join(p.name for p in event.images) or "nobody"
            self._line()
            self._line(f"=== Session {event.index}{gap} — camera: {camera} ===")
        elif isinstance(event, PresenceSeen):
            self._presence(event)
        else:
            self._turn(event)

    def _presence(self, event: PresenceSeen) -> None:
        msg = event.message
        if event.camera_empty:
            self._line("[camera] nobody in view", "  ")
        elif msg is None:
            self._line("[perception] reported no face within the time limit", "  ")
        elif msg.user_id:
            self._line(f"[perception] recognises {msg.user_name} by face (user {msg.user_id}, "
                       f"confidence {msg.confidence:.0f}%)", "  ")
        else:
            self._line("[perception] sees a face it does not know yet", "  ")

    def _turn(self, o: TurnOutcome) -> None:
        self._line(f"Person: {o.spec.say}", "  ")
        r = o.result
        if r is None:
            self._line("Nadine: (no reply within the time limit)", "  ")
            return
        self._line(f"Nadine: {r.reply}", "  ")
        for note in turn_notes(r, o.decision, o.scenes):
            self._line(note.strip(), "    " + " " * (len(note) - len(note.lstrip())))
        if o.checks:
            failed = [k for k, ok in o.checks.items() if not ok]
            self._line("[check] " + ("expectations met" if not failed else f"NOT met: {', '.join(failed)}"), "    ")
