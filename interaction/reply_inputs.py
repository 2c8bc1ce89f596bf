"""Everything the response step may use for one reply, gathered once from the turn state so the model
prompt and the offline template see exactly the same facts."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from common.messages import RecallReport
from common.store import UserProfile
from common.store.facts import FactChange
from interaction.answer_span import Answered
from interaction.memory.contracts import VisualMemory
from interaction.names import NameConfirmation, address
from interaction.offline.grounding import Grounded
from interaction.profiles import ProfileOutcome
from interaction.turn_understanding import Emotion


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
    fact_wording: dict[str, Grounded] = field(default_factory=dict)  # a value heard this turn -> how it was said
    identity_event: str | None = None
    confirmation: NameConfirmation | None = None
    scene: VisualMemory | None = None  # only an injected scene
    # recall turns only: the retrieval core's decision (over long-term memories, or over this
    # conversation's turns); its memories are what matched (asserted: up to top_k, each with its date;
    # offered: the one Nadine asks about)
    recall: RecallReport | None = None
    # a plain question about their own life ("when is the wedding?"), not a request to recall: answered
    # as an answer; `answer`: the words of the asserted memory that answer it (answer_span.py)
    own_life: bool = False
    answer: Answered | None = None
    profile_field: str | None = None  # the profile field the retrieval core found the question asks after
    search: str | None = None
    vision: str | None = None
    knowledge: str | None = None
    affect: str = ""
    history: list[tuple[str, str]] = field(default_factory=list)
    visual_memory_enabled: bool = True
    # whether the person was met before this conversation (None: nobody is known yet)
    met_before: bool | None = None

    @property
    def name(self) -> str | None:
        return self.profile.user_name if self.profile and self.profile.known else None

    @property
    def addressed(self) -> str | None:
        """What the person is called in a reply (names.address)."""
        return address(self.profile) if self.name and self.profile else None
