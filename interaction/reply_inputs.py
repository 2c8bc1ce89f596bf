"""Everything the response step may use for one reply, gathered once from the turn state so the model
prompt and the offline template see exactly the same facts."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from common.messages import RecallReport
from common.store import UserProfile
from common.store.facts import FactChange
from interaction.memory.contracts import VisualMemory
from interaction.names import NameConfirmation
from interaction.profiles import ProfileOutcome
from interaction.turn_understanding import Emotion


@dataclass(frozen=True)
class RecalledFact:
    """What a recall question is answered from besides episodes and scenes (issue 13)."""

    kind: str  # this_session: a turn of the current conversation (long-term memories come from the core)
    text: str  # in the user's words
    occurred_at: str | None
    probability: float  # the retrieval core's calibrated probability that it is what was asked about
    outcome: Literal["asserted", "offered"] = "asserted"  # offered: Nadine asks whether it is meant


@dataclass
class ReplyInputs:
    text: str
    intent: str
    is_recall: bool
    now: datetime
    language: str
    user_emotion: Emotion
    profile: UserProfile | None = None
    outcome: ProfileOutcome | None = None
    fact_changes: list[FactChange] = field(default_factory=list)  # applied this turn
    identity_event: str | None = None
    confirmation: NameConfirmation | None = None
    scene: VisualMemory | None = None  # only an injected scene
    # recall turns only: the retrieval core's decision; its memories are what matched (asserted: up to
    # top_k, each with its date; offered: the one Nadine asks about)
    recall: RecallReport | None = None
    # recall turns: an explicit memory or an earlier turn of this session; ordinary turns: a strongly
    # matching explicit memory only
    fact: RecalledFact | None = None
    search: str | None = None
    vision: str | None = None
    knowledge: str | None = None
    affect: str = ""
    history: list[tuple[str, str]] = field(default_factory=list)
    visual_memory_enabled: bool = True

    @property
    def name(self) -> str | None:
        return self.profile.user_name if self.profile and self.profile.known else None
