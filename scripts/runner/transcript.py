"""The human-readable transcript of `--demo`: the dialogue, each stored scene (path, memorability,
why it was kept) and each recalled scene (similarity against its threshold)."""

from __future__ import annotations

import textwrap
from typing import TextIO

from common.messages import RecallReport
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

    def _recall(self, report: RecallReport) -> None:
        """Why the retrieval core decided what it did: window, verifier, each memory's channels."""
        window = (f" in the window '{report.window_expression}' ({report.window_start[:16]} .. {report.window_end[:16]})"
                  if report.window_start and report.window_end else "")
        verifier = f", best verifier score {report.verifier_score:.1f}" if report.verifier_score is not None else ""
        self._line(f"[recall] {report.outcome}{window}{verifier}", "    ")
        for m in report.memories:
            channels = ", ".join(f"{k} {v:.2f}" for k, v in m.channels.items())
            self._line(f"{m.kind} of {(m.occurred_at or '?')[:16]}: \"{m.text}\" ({channels}"
                       + (f", verifier {m.verifier_score:.1f}" if m.verifier_score is not None else "") + ")", "      ")

    def _turn(self, o: TurnOutcome) -> None:
        self._line(f"Person: {o.spec.say}", "  ")
        r = o.result
        if r is None:
            self._line("Nadine: (no reply within the time limit)", "  ")
            return
        if r.retrieved is not None:
            ret = r.retrieved
            verdict = "recalled" if ret.injected else "closest scene, not used:"
            why = ("chosen by the recall decision (below)" if ret.selected_by == "recall"
                   else f"similarity {ret.similarity:.2f} (threshold {ret.threshold:.2f})")
            self._line(f"[memory] {verdict} {ret.scene_type or 'moment'} scene {ret.scene_id}, {why}: "
                       f"\"{ret.user_message or ret.description or ''}\"", "    ")
        if r.recall is not None:
            self._recall(r.recall)
        self._line(f"Nadine: {r.reply}", "  ")
        d = o.decision
        for scene in o.scenes:
            self._line(f"[memory] stored {scene.scene_type or 'moment'} scene {scene.scene_id}: memorability "
                       f"{scene.memorability:.2f}; kept because: {scene.reason or scene.description}", "    ")
            if scene.image_path:
                self._line(f"image: {scene.image_path}", "      ")
        if d is not None and not d.stored:
            self._line(f"[memory] not stored: {d.reason} (memorability {d.memorability:.2f}, "
                       f"threshold {d.threshold:.2f})", "    ")
        if o.checks:
            failed = [k for k, ok in o.checks.items() if not ok]
            self._line("[check] " + ("expectations met" if not failed else f"NOT met: {', '.join(failed)}"), "    ")
