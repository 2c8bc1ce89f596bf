"""One conversation with one person: who Nadine believes it is, what was said, what is pending."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field, replace
from datetime import datetime

from common.store.facts import Wording
from interaction.memory.contracts import TranscriptTurn
from interaction.memory.forgotten import Forgotten, forgotten_turns
from interaction.memory_intent.to_do import ToDo
from interaction.names import NameConfirmation
from interaction.profiles import Identity


@dataclass(frozen=True)
class HeldMemory:
    """What a request to remember asked to keep, said before the speaker said who they are: kept for
    them once their name is settled in the same conversation, for nobody if it never is."""

    fact: str
    turn_id: str | None
    todo: ToDo | None = None


@dataclass
class Session:
    identity: Identity = field(default_factory=Identity)
    history: list[tuple[str, str]] = field(default_factory=list)  # trimmed chat history for prompts
    transcript: list[TranscriptTurn] = field(default_factory=list)  # the full session, for the episode
    confirmation: NameConfirmation | None = None
    greeted_user_id: str | None = None
    pending_facts: dict = field(default_factory=dict)
    pending_wording: Wording = field(default_factory=dict)  # how the pending facts were said
    # the face id perception keeps reporting for someone who said they are someone else
    ignored_face_id: str | None = None
    # when perception last reported nobody in view (shared clock); None while the person is here
    away_since: datetime | None = None
    # perception recognised this session's person by face at least once: an unknown face is someone else
    face_seen: bool = False
    session_id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])  # reported in TurnResult.extra
    # every reply of the session: a forgotten memory takes its turns out of the transcript, not the count
    replies: int = 0
    # the turn that raised the pending "is your name ...?": where a speaker who confirms it began
    confirmation_turn_id: str | None = None
    # the person was met for the first time in this conversation (their profile was made in it)
    met_now: bool = False
    held_memories: list[HeldMemory] = field(default_factory=list)
    # asked to keep nothing more of this conversation, or forgotten in it: no later turn is kept, but
    # what the person asks to be remembered in so many words
    keeping_nothing: bool = False

    def record_exchange(self, user_text: str, reply: TranscriptTurn, limit: int) -> None:
        """The user's words are already in the transcript (the graph summarises it); add the reply."""
        self.transcript.append(reply)
        self.replies += 1
        self.history += [("user", user_text), ("nadine", reply.text)]
        del self.history[:-limit]

    def forget_what_was_told(self) -> None:
        """Someone not known yet asked to be forgotten: nothing of theirs is stored, and nothing this
        conversation held for them (what waits for their name, the turns the episode would keep) is
        kept for whoever they turn out to be, nor what the rest of the conversation tells."""
        self.held_memories.clear()
        self.pending_facts.clear()
        self.pending_wording.clear()
        self.transcript.clear()
        self.history.clear()
        self.keeping_nothing = True

    def forget(self, forgotten: Forgotten) -> list[TranscriptTurn]:
        """A memory was forgotten: no turn of this session that holds it is kept, nor the reply to such
        a turn (nor summarised into the episode at the end). Returns the turns taken out."""
        gone = forgotten_turns(self.transcript, forgotten)
        taken = [self.transcript[i] for i in sorted(gone)]
        said = {t.text for t in taken}
        self.transcript = [t for i, t in enumerate(self.transcript) if i not in gone]
        self.history = [h for h in self.history if h[1] not in said and not forgotten.said_in(h[1])]
        return taken

    def correct(self, turn: TranscriptTurn, earlier: str, corrected: str, old: str, new: str) -> None:
        """A later turn put a value of `turn` right: the conversation keeps the statement as corrected, and
        Nadine's reply to it says the new value, so the episode and a recall never hold the slip."""
        for i, said in enumerate(self.transcript):
            if said is turn or (said.role == "user" and said.turn_id == turn.turn_id and said.text == turn.text):
                self.transcript[i] = replace(said, text=corrected)
                if i + 1 < len(self.transcript) and self.transcript[i + 1].role == "nadine":
                    reply = self.transcript[i + 1]
                    self.transcript[i + 1] = replace(reply, text=reply.text.replace(old, new))
                break
        self.history = [(role, corrected if role == "user" and text == earlier else text.replace(old, new))
                        for role, text in self.history]

    def name_it(self, turn_id: str | None, named: str) -> None:
        """The person's turn changed "it", the thing told last with a date: the conversation keeps it
        with that thing named ("they moved my MRI scan to the 16th"), as the episode and a recall must
        read it, when "it" no longer follows what it stood for."""
        for i, said in enumerate(self.transcript):
            if said.role == "user" and said.turn_id == turn_id:
                self.transcript[i] = replace(said, text=named)
                self.history = [(role, named if role == "user" and text == said.text else text)
                                for role, text in self.history]
                break

    def drop_last_exchange(self) -> None:
        """The last turn asked something of memory itself (to forget, or the answer to "shall I forget
        ...?"): not something told, so neither the episode nor the chat history keeps it with its reply."""
        if len(self.transcript) >= 2 and self.transcript[-2].role == "user":
            del self.transcript[-2:]
            del self.history[-2:]

    def hand_over(self, identity: Identity, from_turn: str | None, current_turn: str | None) -> Session:
        """Another person speaks from `from_turn` on (they said who they are): this session keeps what
        was said before it, for the person who said it; the one returned is the new speaker's, from
        that turn on, with Nadine's replies to them. `current_turn`: the turn being answered, whose
        exchange is not in the chat history yet."""
        cut = next((i for i, t in enumerate(self.transcript) if t.role == "user" and t.turn_id == from_turn),
                   len(self.transcript))
        theirs = self.transcript[cut:]
        del self.transcript[cut:]
        moved = sum(t.role == "nadine" for t in theirs)
        self.replies -= moved
        # who is in view is not who spoke: what perception told of the face stays with the conversation
        return Session(identity=identity, transcript=theirs, replies=moved, face_seen=self.face_seen,
                       ignored_face_id=self.ignored_face_id,
                       history=[(t.role, t.text) for t in theirs if t.role == "nadine" or t.turn_id != current_turn])

    @property
    def spoke(self) -> bool:
        return any(t.role == "user" for t in self.transcript)
