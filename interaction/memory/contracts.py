"""What the dialogue graph asks of memory. The graph (interaction/graph) calls a MemoryServices; the
memory package implements it. Typed domain objects shared by both sides live here."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pydantic import BaseModel

from common.messages import RecallReport

if TYPE_CHECKING:
    from interaction.memory.retrieval.core import RecallDecision
    from interaction.memory.retrieval.decision import Chooser


class EpisodicSave(BaseModel):
    """Summary of one session in four parts; concrete names and claims are preserved so a later recall
    can quote them."""

    observation: str
    thought: str
    action: str
    result: str

    def as_text(self) -> str:
        return (
            f"Observation: {self.observation}\nThought: {self.thought}\n"
            f"Action: {self.action}\nResult: {self.result}"
        )


@dataclass(frozen=True)
class TranscriptTurn:
    role: Literal["user", "nadine"]
    text: str
    at: datetime
    turn_id: str | None = None  # the person's turn as TurnResult names it (what a memory's source_turn holds)
    # the person's answer to a question Nadine put and was waiting on (a yes / no to "is your name
    # ...?" or "do you want me to forget ...?"): part of the conversation, never something told
    answers_question: bool = False
    # the turn the conversation ended on ("ok gotta run, bye"): part of it, never something told
    farewell: bool = False
    # Nadine's reply: the memories it said back (their ids, and the person's turns they were told in),
    # so that forgetting one takes the reply that reworded it too ("Biscuit — you told me ...")
    drew_on: frozenset[str] = frozenset()

    @property
    def tells(self) -> bool:
        """Said by the person and neither an answer to Nadine's question nor their goodbye."""
        return self.role == "user" and not self.answers_question and not self.farewell


@dataclass(frozen=True)
class MemoryHit:
    """One retrieved text memory (episode or conversation document)."""

    text: str
    similarity: float
    timestamp: str | None = None
    memory_type: Literal["episode", "conversation"] = "episode"


@dataclass(frozen=True)
class VisualMemory:
    """The best scene candidate of a turn: what the response shows of it, and how it was decided."""

    scene_id: str
    image_path: str
    similarity: float
    threshold: float
    injected: bool  # similarity >= threshold, or chosen by recency on a generic recall question
    description: str = ""
    user_message: str | None = None
    episode_context: str | None = None
    timestamp: str | None = None
    scene_type: str = "moment"
    # similarity: an ordinary turn's threshold; recall: chosen by the retrieval core's decision
    selected_by: Literal["similarity", "recall"] = "similarity"


@dataclass
class RetrievalResult:
    episode: MemoryHit | None = None
    conversation: MemoryHit | None = None
    scene: VisualMemory | None = None  # best candidate, injected or not (None when there is none)
    text_injected: bool = False  # text memories go into the prompt (asserted recall turns only)
    details: dict = field(default_factory=dict)
    recall: RecallReport | None = None  # the retrieval core's decision (recall turns)


@dataclass(frozen=True)
class ExplicitMemory:
    """A fact the person asked Nadine to remember ("please remember that ...")."""

    memory_id: str
    text: str
    occurred_at: str
    source_turn: str | None = None
    similarity: float = 0.0  # to the query of a search; 0 from list()


class ExplicitMemoryStore(Protocol):
    """The person's explicit memories (interaction/memory/explicit_memories.py keeps them in Chroma)."""

    def add(self, user_id: str, user_name: str, text: str, source_turn: str | None) -> ExplicitMemory | None:
        """Store one fact for a known user (None for an unknown user or an empty fact)."""
        ...

    def list(self, user_id: str) -> list[ExplicitMemory]:
        """The user's explicit memories, oldest first."""
        ...

    def search(self, user_id: str, query: str, n: int = 3) -> list[ExplicitMemory]:
        """The n explicit memories most similar to the query, best first."""
        ...


class MemoryServices(Protocol):
    explicit: ExplicitMemoryStore  # facts the person asked Nadine to remember (kind explicit_memory)

    def retrieve(self, user_id: str, query: str, is_recall: bool, chooser: Chooser | None = None) -> RetrievalResult:
        """Episode + conversation queries on the latest message and visual scene retrieval, for a
        known user only. Never returns another user's memory. chooser: who decides a recall turn's
        shortlist (a configured model); the offline decision when None."""
        ...

    def save_episode(
        self, user_id: str, user_name: str, transcript: list[TranscriptTurn], summary: EpisodicSave
    ) -> bool:
        """Store the session summary (memory_type episode) and its text (conversation) in the user's
        collection, timestamped with the shared clock. Unknown users are never saved; returns saved."""
        ...

    def about(self, user_id: str, query: str, said: list[TranscriptTurn],
              kinds: frozenset[str] = frozenset()) -> RecallDecision | None:
        """Which of this conversation's statements `said`, or of the user's memories of `kinds`
        (explicit_memory, moment), a question or request is about: the retrieval core's
        RecallDecision (asserted / offered / abstained, the candidates it read), None without a core."""
        ...

    def read_ahead(self, said: str) -> None:
        """After a turn's reply: read now what a recall later in this conversation would read of what
        the person said (the things it names), instead of on that recall's reply path."""
        ...

    def texts_ahead(self, text: str) -> list[str]:
        """What this turn's retrieval will embed with the offline text embedder for the utterance
        `text`, which the turn's understanding has just parsed: to embed with the turn's own texts in
        one call instead of in runs of their own on its reply path."""
        ...

    def knowledge(self, query: str) -> str | None:
        """Top-k knowledge chunks about Nadine and her world, flattened to text, or None."""
        ...

    def warm_up(self) -> None:
        """Open (on a new data root: build) what the first turn would otherwise wait for."""
        ...

    def look(self, question: str, user_id: str | None, is_recall: bool) -> str:
        """Vision agent: capture the current view through perception, answer about it (offline: the
        captioner); may store an observation scene (interaction/memory/observation.py)."""
        ...

    def on_scene_stored(self, user_id: str) -> None:
        """Perception stored a scene for this user: refresh that user's in-memory scene vectors."""
        ...

    def forget_user(self, user_id: str) -> dict[str, int]:
        """Delete everything interaction holds about the user; returns counts removed per kind."""
        ...

    def forget_document(self, user_id: str, doc_id: str) -> Any:
        """Delete one text memory (explicit memory, episode); returns documents.Deleted or None."""
        ...

    def forget_words(self, user_id: str, forgotten: Any, summarize: Any) -> Any:
        """Take a forgotten memory (forgotten.Forgotten) out of every saved session that holds it, the
        summary made again by `summarize` (episodic.Summarizer); returns documents.Deleted or None."""
        ...

    def told_turns(self, user_id: str) -> list[TranscriptTurn]:
        """What the person told in their saved sessions, the latest first (episodic.EpisodicMemory.told_turns)."""
        ...

    def reword_turn(self, user_id: str, turn_id: str, said: str, corrected: str, old: str, new: str,
                    summarize: Any) -> Any:
        """A statement of a saved session put right: the turn keeps the corrected words, its session is
        written again (episodic.EpisodicMemory.reword_turn); returns documents.Deleted or None."""
        ...

    def on_scenes_changed(self, user_id: str) -> None:
        """A scene of the user was deleted or reworded: drop what the scene index holds for them."""
        ...
