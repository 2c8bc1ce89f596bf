"""Confirmations: reading the answer to a yes / no question, and what it leads to.

Only a clear yes acts (deletes, links); an unclear answer is asked once more; a no, or a second
unclear answer, keeps everything as it is.
"""

from __future__ import annotations

from typing import Literal

from interaction.confirmation.reader import Answer, read_offline, read_reply

Step = Literal["act", "ask_again", "keep"]


def next_step(answer: Answer, asked_again: bool) -> Step:
    if answer == "yes":
        return "act"
    return "ask_again" if answer == "unclear" and not asked_again else "keep"


__all__ = ["Answer", "Step", "next_step", "read_offline", "read_reply"]
