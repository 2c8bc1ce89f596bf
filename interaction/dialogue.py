"""DialogueManager: user switches, name confirmation, the session transcript, the
turn graph, and what a turn publishes (AFFECT_STATE, SPEAK, ANIMATION, USER_INFO, TURN_RESULT, and
EPISODE_SAVED when a conversation, or one speaker's part of it, ends).

All methods run on the interaction worker thread; bus handlers only enqueue."""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any, Protocol

from common import topics as t
from common.clock import Clock
from common.config import NadineSettings
from common.messages import (
    USER_MESSAGE_MAX_CHARS,
    AffectState,
    Animation,
    EmotionSignal,
    EpisodeSaved,
    FaceStored,
    ForgetUser,
    MemoryAction,
    Message,
    RecallReport,
    RetrievedScene,
    Speak,
    StopSpeak,
    TurnResult,
    UserDetected,
    UserInfo,
    UserInput,
)
from common.store import DataLayout, ProfileStore, is_valid_user_id
from common.store.atomic import (
    atomic_write_json,
    folder_syncs_deferred,
    read_json,
    write_deferred_now,
    writes_deferred,
)
from common.store.faces import FaceStore
from common.store.forget import new_pseudonym
from interaction import cues, profile_wording, said_back
from interaction.agents import memory_agents
from interaction.agents.context import AgentDeps
from interaction.confirmation import asks_of_its_own, next_step, read_reply
from interaction.confirmation.answered import says_an_answer
from interaction.forget import ForgetConversation, PrivacyTurn
from interaction.graph import TurnGraph
from interaction.llm import LlmRegistry
from interaction.llm.endpoints import open_circuits
from interaction.memory.contracts import MemoryServices, TranscriptTurn
from interaction.memory.told import is_told, only_thanks
from interaction.memory_requests import (
    FORGET_INTENTS,
    KEEPING_NOTHING_REASON,
    NOT_KEPT_REASON,
    NOT_TOLD,
    ForgetCandidate,
    ForgetOneConversation,
    asks_of_their_memory,
    wire_memory_intent,
)
from interaction.memory_requests import forget as forget_memory
from interaction.memory_requests import keep as keep_memory
from interaction.names import (
    NameConfirmation,
    confirmation_question,
    name_similarity,
    restates,
    says_the_name_asked,
    sounds_alike,
)
from interaction.offline.extract import answer_name
from interaction.offline.wishes import wishes_the_listener
from interaction.own_life import asks_after_their_past
from interaction.profiles import MEETS, UNSETTLED, Identity, ProfileKeeper, ProfileOutcome
from interaction.search import WebSearch
from interaction.session import Session
from interaction.state import TurnState
from interaction.turn_understanding import TurnUnderstanding

log = logging.getLogger("nadine.interaction.dm")
EPISODE_SAVE = "episode save"  # its timing, beside the graph's nodes (after the TurnResult of a farewell)

WAVE = "LOOKUP_Waving"
SAFE_REPLY = "Sorry, I lost my train of thought. Could you say that again?"
NOT_HEARD = "Sorry, I didn't catch that. Could you say it again?"


class Outbox(Protocol):
    def publish(self, spec: t.TopicSpec, message: Message) -> Any: ...


class StudyLog(Protocol):
    def turn_started(self, turn_id: str, user_text: str, t_received: float, t_speech_end: float | None = None) -> None: ...
    def turn_completed(self, turn_id: str, fields: dict[str, Any]) -> None: ...
    def audio_onset(self, t: float) -> None: ...
    def close(self) -> None: ...


class DialogueManager:
    def __init__(
        self, settings: NadineSettings, layout: DataLayout, clock: Clock, out: Outbox,
        services: MemoryServices | None = None, study: StudyLog | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self.settings = settings
        self.layout = layout
        self.clock = clock
        self.out = out
        self.study = study
        cfg = settings.interaction
        self.store = ProfileStore(layout)
        self.keeper = ProfileKeeper(self.store, clock, cfg.name_high_similarity, cfg.name_low_similarity)
        self.keeper.told_of = profile_wording.told_of
        self.keeper.face_refutes = self._face_refutes
        self.faces = FaceStore(layout)
        self._stranger_in_view = False  # perception reports a face it matched against the gallery: nobody
        self.deps = AgentDeps(
            settings, layout, clock, LlmRegistry(cfg.llm, environ), self.keeper, services, WebSearch(environ),
            on_understood=self._publish_affect, on_sentence=self._say_sentence,
        )
        self.graph = TurnGraph(self.deps)
        self.forgetting = ForgetConversation()
        self.forgetting_one = ForgetOneConversation()
        self.session = Session()
        # the parts of earlier speakers of this conversation, saved once the new speaker's reply is out
        self._left: list[Session] = []
        self._language_file = layout.runtime_dir / "runtime_language.json"
        self.language = self._load_language()
        self._affect_sent = False
        self._held_kept: MemoryAction | None = None  # a memory asked for before the name, kept this turn
        self._turn_id: str | None = None
        self._reply_latency: float | None = None
        self._first_sentence_latency: float | None = None
        self._spoken: str | None = None
        self._sentences: list[str] = []  # this turn's streamed sentences, as handed to control
        self._turn_text, self._turn_start = "", 0.0
        self._greets = False
        self._unfinished = 0  # utterances handed to control whose end_speak has not come back
        self._last_turn_at: datetime | None = None  # the shared clock's time of the last turn

    # --- perception events ---------------------------------------------------------------------

    def on_user_detected(self, msg: UserDetected) -> None:
        """Switch to a different recognised person: close the outgoing session, load the new profile.
        The all-null message (nobody in view for no_face_timeout_s) starts the presence grace period:
        the same person back within presence_grace_s continues the session, otherwise it closes then.
        An unrecognised face keeps a session that has no face yet (perception links the face once a
        name is settled), but ends one whose person was recognised by face: someone else stepped in,
        and a stranger must never be answered with that person's memories."""
        uid = msg.user_id
        if uid is not None and not is_valid_user_id(uid):
            log.warning("user_detected with invalid user id %r dropped", uid)
            return
        self._stranger_in_view = uid is None and msg.user_name is not None
        self._end_session_if_gone()
        s = self.session
        if uid is None:
            if msg.user_name is None and (s.spoke or s.identity.user_id):
                # out of view: the session waits presence_grace_s for the person to come back
                s.away_since = s.away_since or self.clock.now()
                self._end_session_if_gone()  # at once with a zero grace period
            elif msg.user_name is not None and s.identity.user_id and (s.identity.source == "face" or s.face_seen):
                self.close_session(f"an unrecognised face replaced {s.identity.user_id}")
            else:
                s.away_since = None
            return
        if uid == s.identity.user_id or uid == s.ignored_face_id:
            s.away_since = None  # back in view within the grace period: the same conversation goes on
            s.face_seen = s.face_seen or uid == s.identity.user_id
            return
        if s.identity.user_id is None and s.spoke:
            # recognition caught up with someone already talking: same conversation, now with a profile
            s.identity = self.keeper.load(uid, msg.user_name)
            if s.pending_facts:
                s.identity.profile = self.store.update(uid, s.pending_facts, self.clock.now(), wording=s.pending_wording)
                s.pending_facts.clear()
                s.pending_wording.clear()
        else:
            self.close_session(f"{uid} detected")
            self.session = Session(identity=self.keeper.load(uid, msg.user_name))
        log.info("now talking with %s (%s)", self.session.identity.name or "an unnamed user", uid)

    def _end_session_if_gone(self) -> None:
        """Out of view for presence_grace_s (on the shared clock, so a script's gap_hours counts): the
        person left and the session ends, as if perception had said so then."""
        away = self.session.away_since
        if away is not None and (self.clock.now() - away).total_seconds() >= self.settings.interaction.presence_grace_s:
            self.close_session("nobody in view")

    def _end_conversation_after_silence(self) -> None:
        """The last turn lies silence_ends_conversation_s back on the shared clock: that conversation
        ended without a goodbye, and is closed as a goodbye closes it before this turn is read. Nobody
        said they were leaving, so whoever was talking is still who talks (in a chat no face tells
        otherwise), in a conversation of its own."""
        s, now = self.session, self.clock.now()
        last, self._last_turn_at = self._last_turn_at, now
        if last is None or (now - last).total_seconds() < self.settings.interaction.silence_ends_conversation_s:
            return
        # a "forget ...?" left unanswered is answered by no word of the next day's ("yes, hello!")
        self.forgetting.withdraw()
        self.forgetting_one.withdraw()
        s.keeping_nothing = False  # a plea for the rest of that conversation (or being forgotten) ended with it
        if s.transcript:
            self._end_conversation(None)
            if s.identity.known:
                self.session = Session(identity=s.identity, face_seen=s.face_seen, ignored_face_id=s.ignored_face_id,
                                       greeted_user_id=s.greeted_user_id)

    def tick(self) -> None:
        """Called every second or so: a session whose person did not come back ends on time."""
        self._end_session_if_gone()

    def _face_refutes(self, user_id: str) -> bool:
        """A face is in view that perception compared with every stored face (its calibrated threshold)
        and matched to nobody, while `user_id` has stored faces: whoever is speaking is not them."""
        return self._stranger_in_view and self.faces.count(user_id) > 0

    def on_face_stored(self, msg: FaceStored) -> None:
        if not is_valid_user_id(msg.user_id):
            log.warning("face_stored with invalid user id %r dropped", msg.user_id)
            return
        known = self.store.user_ids().get(msg.user_id)
        if msg.user_name and msg.user_name != "Unknown" and known != msg.user_name:
            self.store.set_name(msg.user_id, msg.user_name)
        log.info("perception stored a face for %s (%s, %s)", msg.user_name, msg.user_id, msg.status)

    def on_audio_onset(self, at: float) -> None:
        if self.study is not None:
            self.study.audio_onset(at)

    def on_speech_ended(self) -> None:
        self._unfinished = max(0, self._unfinished - 1)

    def _interrupt_speech(self) -> None:
        """A new turn while Nadine is still speaking (or has sentences queued) is a barge-in: control
        stops and drops what is queued, so the new reply is not spoken behind the old one."""
        if self._unfinished > 0:
            self.out.publish(t.STOP_SPEAK, StopSpeak(value=""))
            self._unfinished = 0

    def close_session(self, reason: str) -> None:
        """The episodic save hook of a user switch (and of shutdown)."""
        if self.session.identity.known and self.session.spoke:
            self.deps.start_turn()
            self._save_episode(self.session, reason)
        self.session = Session()
        self._set_language(self.settings.interaction.default_language)

    def _save_episode(self, s: Session, reason: str, turn_id: str | None = None) -> None:
        """Summarise the session (or one speaker's part of it) and hand it to memory, then say so
        (EPISODE_SAVED)."""
        start = time.perf_counter()
        saved = memory_agents.save_episode(self.deps, s.identity, s.transcript, s.replies)
        self.deps.timings[EPISODE_SAVE] = time.perf_counter() - start
        log.info("session with %s closed (%s); episode saved: %s", s.identity.user_id, reason, saved)
        self.out.publish(t.EPISODE_SAVED, EpisodeSaved(user_id=s.identity.user_id, session_id=s.session_id,
                                                       saved=saved, reason=reason, turn_id=turn_id))

    def _end_conversation(self, turn_id: str | None) -> None:
        """After the farewell's reply and TurnResult, on this worker thread: the episode is saved (the
        next turn and a stop wait for it there, nobody waits for it before the reply), and the next
        conversation starts fresh, in the default language, and with nobody known when the person was
        known only by what they said and no face is in view (a chat without a camera)."""
        s = self.session
        # the goodbye is part of the conversation, never something told ("ok gotta run, bye")
        s.transcript[:] = [replace(t, farewell=True) if t.role == "user" and t.turn_id == turn_id else t
                           for t in s.transcript]
        if s.identity.known and s.spoke:
            self._save_episode(s, "farewell", turn_id)
        s.history.clear()
        s.transcript.clear()
        s.held_memories.clear()  # asked by someone who left without a name: kept for nobody
        s.keeping_nothing = False  # the next conversation keeps as usual
        if not s.identity.known:
            # ... and so is what they told of themselves: never the next person's who gives a name
            s.pending_facts.clear()
            s.pending_wording.clear()
        if s.identity.source == "dialogue" and not s.face_seen and not self._stranger_in_view:
            # known only by the name they typed, no face in view: whoever types next is nobody until
            # they say who they are, never linked to the one who left
            self.session = Session()
        self._set_language(self.settings.interaction.default_language)

    # --- a turn ----------------------------------------------------------------------------------

    def process_input(self, msg: UserInput, t_received: float | None = None) -> TurnResult:
        text = cues.typed_plainly(msg.text)
        # this turn's profile writes wait until its reply is handed to control, the folders' fsync after
        # them until its TurnResult is out
        with folder_syncs_deferred(), writes_deferred():
            turn = self._answer(text, msg, t_received if t_received is not None else time.monotonic())
        for left in self._left:  # after the reply and TurnResult, like a farewell's save
            if left.identity.known and left.spoke:
                self._save_episode(left, f"{turn.user_id} took over", turn.turn_id)
        self._left.clear()
        if turn.intent == "end_conversation":
            self._end_conversation(turn.turn_id)
        elif self.deps.services is not None and text:
            self.deps.services.read_ahead(text)  # the reply is out: what a later recall reads of it, read now
        return turn

    def _answer(self, text: str, msg: UserInput, start: float) -> TurnResult:
        self._interrupt_speech()
        self._turn_id = msg.turn_id or uuid.uuid4().hex[:12]
        self._turn_text, self._turn_start = text, start
        self._reply_latency, self._first_sentence_latency, self._spoken, self._sentences = None, None, None, []
        self._affect_sent = False
        self._held_kept = None
        self.deps.start_turn()
        if self.study is not None:
            self.study.turn_started(self._turn_id, text, start)
        self._end_session_if_gone()
        self._end_conversation_after_silence()
        s = self.session
        s.away_since = None  # whoever talks is here
        if not text:
            return self._answer_outside_graph(text, PrivacyTurn(reply=NOT_HEARD, intent="continue_conversation"), start)
        # a turn that answers a question Nadine is waiting on is kept as such, never as something told
        answers = (s.confirmation is not None or self.forgetting.waiting_for(s.identity.user_id)
                   or self.forgetting_one.waiting_for(s.identity.user_id))
        self.forgetting_one.next_turn()
        privacy = (self.forgetting.turn(text, s.identity.user_id, s.identity.name, self.deps)
                   or self.forgetting_one.turn(self.deps, text, s))
        if privacy is not None:
            return self._answer_outside_graph(text, privacy, start, answers)
        identity_event, asked, news = self._answer_confirmation(text) if s.confirmation else (None, text, False)
        # a confirmed name, or someone else greeting, may have begun another speaker's part: their turn
        # answers nothing asked of the one before; news told instead of an answer is told, and becomes
        # theirs with the rest of the conversation once who they are is settled
        answers, s = answers and self.session is s and not news, self.session
        s.transcript.append(TranscriptTurn("user", text, self.clock.now(), self._turn_id, answers_question=answers))
        pins = {"user_emotion": msg.user_emotion.model_dump() if msg.user_emotion else None,
                "is_recall": msg.is_recall, "intent": msg.intent}
        state = {
            "text": asked, "turn_id": self._turn_id, "messages": list(s.history), "transcript": list(s.transcript),
            "identity": s.identity, "name_confirmation": s.confirmation, "identity_event": identity_event,
            "pending_facts": dict(s.pending_facts), "pending_wording": dict(s.pending_wording),
            "greeted_user_id": s.greeted_user_id, "pins": pins, "met_now": s.met_now,
            "language": self.language, "replies": s.replies + 1,  # this turn's reply included
            "declined_forget": self.forgetting_one.declined, "keeping_nothing": s.keeping_nothing,
        }
        try:
            result = self.graph.run(state, lambda ready: self._speak(text, ready, start))
        except Exception:
            log.exception("turn graph failed; answering safely")
            result = {**state, "final_message": self._spoken or SAFE_REPLY, "intent": "continue_conversation",
                      "is_recall": False}
        if not self._affect_sent:  # exactly one AFFECT_STATE per turn, whatever happened
            self._publish_affect(result, result.get("understanding") or TurnUnderstanding.safe(text))
        if self._reply_latency is None:
            self._speak(text, result, start)
        turn = self._finish(text, result)
        s = self.session  # a name said this turn may have begun another speaker's part
        s.keeping_nothing = s.keeping_nothing or bool(result.get("keep_nothing"))
        if s.keeping_nothing and result.get("memory_intent") not in (*NOT_TOLD, "remember"):
            s.drop_last_exchange()  # nor is what is told after "don't keep anything more", for the episode
        elif result.get("memory_intent") in NOT_TOLD:  # a request to forget, or not to keep, is not something told
            s.drop_last_exchange()
            if result.get("take_back") is not None:  # "don't remember that": what they said just before goes too
                self._take_back(result["take_back"])
        elif (fixed := result.get("correction")) is not None:
            # the slip and its correction become the statement as corrected (kept in the earlier turn's place)
            s.drop_last_exchange()
            s.correct(result["corrected_turn"], fixed.earlier, fixed.corrected, fixed.old, fixed.new)
        elif (named := result.get("it_named")) is not None:
            s.name_it(self._turn_id, named)
        return turn

    def _take_back(self, said: ForgetCandidate) -> None:
        """Asked not to keep what they just said: it leaves every store, by the path a confirmed
        forget takes (the request itself was the clear answer)."""
        try:
            forget_memory(self.deps, said, self.session)
        except Exception:
            log.exception("taking back what %s just said failed", said.user_id)

    def _answer_outside_graph(self, text: str, turn: PrivacyTurn, start: float, answers: bool = False) -> TurnResult:
        """"Forget me" and its confirmation (interaction/forget.py), the answer to "Do you want me to
        forget that ...?" (interaction/memory_requests.py), and empty input, answered outside the graph
        and never stored; the erase itself comes back as forget_user, like any other."""
        if turn.intent == "forget_nobody_known":
            self.session.forget_what_was_told()
        if text:
            self.session.transcript.append(TranscriptTurn("user", text, self.clock.now(), answers_question=answers))
        result = {"text": text, "final_message": turn.reply, "intent": turn.intent, "is_recall": False,
                  "memory_intent": "forget_me" if turn.intent == "forget_request" else "statement"}
        # never keep a "forget me" (nor its confirmation, nor the answer to "forget that?")
        self._publish_affect(result, TurnUnderstanding.safe(text),
                             suppressed="a request to forget" if text else "nothing was said")
        self._speak(text, result, start)
        done = self._finish(text, result)
        if text:  # nor the answer to a forget question: neither is kept for the episode
            self.session.drop_last_exchange()
        if turn.forget_user_id is not None:
            self.out.publish(t.FORGET_USER, ForgetUser(user_id=turn.forget_user_id, pseudonym=new_pseudonym()))
        return done

    def _answer_confirmation(self, text: str) -> tuple[str | None, str, bool]:
        """DialogueManager.name_confirmation: consume the answer to "Is your name …?" -> (what it settled,
        what the turn then answers, whether it told news instead of an answer). Only a clear yes links; a turn that is no answer and names nobody is
        asked about once more, and a second one leaves the speaker nobody rather than someone new; the first
        name said back to a full name asked about ("Ana" to "Ana Lima?") names nobody (names.restates). News
        told instead of an answer is no answer whichever way the reader leans (answered.py): what it
        tells of the speaker waits with the question, for whoever they turn out to be. A question of
        their own instead of an answer waits too, answered once who they are is settled (the turn that
        settles it answers it, unless it asks something of its own); one about their own life or what
        they told is never taken for an answer, however often it comes."""
        s = self.session
        conf = s.confirmation
        assert conf is not None
        question = confirmation_question(conf)
        answer, stated = read_reply(self.deps, question, text), answer_name(text)
        if stated is not None and restates(stated, conf):
            stated = None
        if answer != "unclear" and stated is None and not says_an_answer(text, question):
            answer = "unclear"
        if says_the_name_asked(text, conf):
            answer, stated = "yes", None  # "jayden cole" to "are you Jayden Cole?", however it is typed
        news = stated is None and answer == "unclear" and is_told(text)
        told_before = conf.told
        if news:
            conf = replace(conf, told=True, pending_fields={
                **conf.pending_fields, **memory_agents.facts_told(self.deps, text)})
        asked_again = conf.asked_again or conf.held_question is not None
        step = next_step(answer, asked_again, text)
        if stated is not None and answer != "yes" and self._greets_as_someone_else(text, stated, conf):
            self._another_speaker()
            return None, text, False
        if stated is None and cues.is_unambiguous_farewell(text):
            # leaving is no answer ("gotta go" reads as a yes, "bye" as a no): the question is dropped,
            # nobody is linked or made, and the goodbye ends the conversation
            self._apply(ProfileOutcome("none", s.identity))
            return None, text, news
        if stated is None and ((answer == "unclear" and asks_after_their_past(text)) or asks_of_their_memory(text)):
            # "when am I flying home?" or "please forget my student ID" can be answered only once who they
            # are is settled: asked again as often as they ask, never taken for a yes or a no, the latest
            # waiting for the answer
            outcome = ProfileOutcome("confirm", s.identity, replace(conf, held_question=text))
        elif stated is None and step == "moved_on" and not asked_again:
            outcome = ProfileOutcome("confirm", s.identity, replace(conf, held_question=text))
        elif stated is None and step == "ask_again":
            outcome = ProfileOutcome("confirm", s.identity, replace(conf, asked_again=True))
        elif news and not told_before:
            # news told instead of an answer is no "no": it waits for who they are, and the question is
            # put once more, saying so (what they asked before waits no longer: the news is the latest)
            outcome = ProfileOutcome("confirm", s.identity, replace(conf, asked_again=True, held_question=None))
        elif stated is None and answer == "unclear" and conf.on_no in ("create", "nobody"):
            # asked twice without an answer: nobody is linked, and what they told waits for their name
            outcome = ProfileOutcome("unsettled", s.identity, learned=conf.pending_fields)
        else:
            outcome = self.keeper.resolve_confirmation(s.identity, conf, affirmative=answer == "yes", stated_name=stated)
        self._apply(outcome)
        held = conf.held_question
        waited = held is not None and outcome.kind not in ("confirm", *UNSETTLED) and not asks_of_its_own(text)
        return outcome.kind, held if waited and held is not None else text, news

    def _greets_as_someone_else(self, text: str, stated: str, conf: NameConfirmation) -> bool:
        """Instead of an answer to "is your name ...?", the turn opens with a greeting and gives a name
        that is neither the one the question is about nor the one given before it: someone else has
        come to talk ("Hello, I'm Boris"); a speaker who answers does not greet again."""
        names = (conf.given_name, *conf.similar_names)
        return bool(cues.GREETING.match(text)) and all(
            name_similarity(stated, n) < self.keeper.low and not sounds_alike(stated, n) for n in names)

    def _another_speaker(self) -> None:
        """Someone else speaks from this turn on, while "is your name ...?" waited on the one before:
        the question was theirs and goes with them, unanswered, with what they said (saved for them when
        Nadine knew them, kept for nobody when she did not), and the new speaker starts afresh."""
        s = self.session
        if s.identity.known:
            self._left.append(s)
        self.session = s.hand_over(Identity(), self._turn_id, self._turn_id)
        log.info("another speaker greeted while a name question waited on %s", s.identity.user_id or "an unnamed user")

    def _apply(self, outcome: ProfileOutcome) -> None:
        s = self.session
        before = s.identity
        if before.known and outcome.identity.user_id not in (None, before.user_id):
            # another person said who they are: what was said so far stays with the one Nadine took to be
            # speaking then (their moments, facts and memories went there too), the rest is the new
            # speaker's, from the turn that named them (or raised "is your name ...?") on
            claimed_in = s.confirmation_turn_id if s.confirmation is not None else None
            self._left.append(s)
            s = self.session = s.hand_over(outcome.identity, claimed_in or self._turn_id, self._turn_id)
            log.info("%s took over from %s in the same conversation", outcome.identity.user_id, before.user_id)
        asked = s.confirmation
        s.identity = outcome.identity
        s.met_now = outcome.kind in MEETS if outcome.identity.user_id != before.user_id else s.met_now or outcome.kind in MEETS
        s.confirmation = outcome.confirmation if outcome.kind == "confirm" else None
        if s.confirmation is not None and asked is None:
            s.confirmation_turn_id = self._turn_id
        if outcome.kind in ("pending", *UNSETTLED):
            s.pending_facts.update(outcome.learned)
            s.pending_wording.update(outcome.wording)
        elif outcome.kind != "none":
            s.pending_facts.clear()
            s.pending_wording.clear()
        if before.source == "face" and before.user_id and before.user_id != outcome.identity.user_id:
            s.ignored_face_id = before.user_id  # that face is this person, whatever recognition says
        if outcome.settled:
            ident = outcome.identity
            self._keep_held(s)
            write_deferred_now()  # perception, told of this person, finds their id and folder on disk
            self.out.publish(t.USER_INFO, UserInfo(user_name=ident.name or "", user_id=ident.user_id or "",
                                                   turn_id=self._turn_id))
            log.info("name settled: %s is %s (%s)", ident.name, ident.user_id, outcome.kind)

    def _keep_held(self, s: Session) -> None:
        """The person of this conversation is now known: what they asked to be remembered before they
        said who they were is kept for them (the conversation, not a later one, ties it to them)."""
        for held in s.held_memories:
            self._held_kept = keep_memory(self.deps, s.identity, held).get("memory_action")
        s.held_memories.clear()

    def _speak(self, text: str, result: TurnState, start: float) -> None:
        """The reply is ready: say it (and wave on a greeting or farewell) before anything else runs;
        a streamed reply's sentences were handed on already."""
        self._reply_latency = time.monotonic() - start
        if self._sentences:
            self._spoken = " ".join(self._sentences)
            return
        self._spoken = result.get("final_message") or SAFE_REPLY
        self._hand_on(text, result, self._spoken)

    def _say_sentence(self, state: TurnState, sentence: str) -> None:
        """One sentence of a streamed reply, checked and complete: to control at once."""
        if not self._sentences:
            self._first_sentence_latency = time.monotonic() - self._turn_start
        self._sentences.append(sentence)
        self._spoken = " ".join(self._sentences)
        self._hand_on(self._turn_text, state, sentence, first=len(self._sentences) == 1)

    def _hand_on(self, text: str, state: TurnState, utterance: str, first: bool = True) -> None:
        """An utterance to control; with a turn's first, its language and the wave of a greeting or farewell."""
        if first and state.get("language") and state["language"] != self.language:
            self._set_language(state["language"])
        self.out.publish(t.SPEAK, Speak(text=utterance, locale=self.language))
        self._unfinished += 1
        if not first:
            return
        intent = state.get("intent", "continue_conversation")
        who = state.get("identity") or self.session.identity
        # a self-introduction that opens with "hello" is the first greeting too
        greets = intent == "first_greeting" or (
            intent == "update_user_info" and cues.is_greeting(text) and self.session.greeted_user_id != who.user_id)
        if greets or intent == "end_conversation":
            self.out.publish(t.ANIMATION, Animation(value=WAVE))
        self._greets = greets
        write_deferred_now()  # the reply is out: what the turn stored goes to disk now

    def _finish(self, text: str, result: TurnState) -> TurnResult:
        outcome = result.get("profile_outcome")
        if outcome is not None:
            self._apply(outcome)
        elif result.get("name_confirmation") is None:
            self.session.confirmation = None
        s = self.session
        if result.get("held_memory") is not None and not s.identity.known:
            s.held_memories.append(result["held_memory"])
        if result.get("forget_candidate") is not None:
            self.forgetting_one.ask(result["forget_candidate"])
        if result.get("forget_me_asked"):
            self.forgetting.ask(s.identity.user_id, s.identity.name)
        reply = result.get("final_message") or SAFE_REPLY
        intent = result.get("intent", "continue_conversation")
        latency = self._reply_latency or 0.0
        if self._greets:
            s.greeted_user_id = s.identity.user_id
        drew_on = said_back.recalled(self.deps, s.identity.user_id, result.get("retrieval"), bool(result.get("is_recall")),
                                     s.transcript) | result.get("drew_on", frozenset())
        s.record_exchange(text, TranscriptTurn("nadine", reply, self.clock.now(), drew_on=drew_on),
                          self.settings.interaction.conversation_limit)
        u: TurnUnderstanding | None = result.get("understanding")
        turn = TurnResult(
            turn_id=self._turn_id, text=text, reply=reply, user_id=s.identity.user_id, user_name=s.identity.name,
            intent=intent, is_recall=bool(result.get("is_recall")), memory_intent=wire_memory_intent(result),
            memory_action=result.get("memory_action") or self._held_kept, answered_from_profile=bool(result.get("answered_from_profile")),
            user_emotion=EmotionSignal(label=u.user_emotion.label, intensity=u.user_emotion.intensity) if u else None,
            retrieved=self._retrieved(result), recall=self._recall_report(result), latency_s=round(latency, 4),
            extra={"timings_ms": {k: round(v * 1000, 2) for k, v in self.deps.timings.items()},
                   "sentences": len(self._sentences),  # streamed to control one by one (0: the reply went whole)
                   "offline": self.deps.turn_offline
                   or not self.deps.llm.any_online(), "pending_confirmation": s.confirmation is not None,
                   "session_id": s.session_id, "llm_circuits_open": open_circuits()},
        )
        write_deferred_now()  # whoever reads the TurnResult finds on disk what the turn stored
        self.out.publish(t.TURN_RESULT, turn)
        self._study_completed(turn, u, latency)
        return turn

    @staticmethod
    def _recall_report(result: TurnState) -> RecallReport | None:
        retrieval = result.get("retrieval")
        return retrieval.recall if retrieval is not None and result.get("is_recall") else None

    @staticmethod
    def _retrieved(result: TurnState) -> RetrievedScene | None:
        retrieval = result.get("retrieval")
        scene = retrieval.scene if retrieval else None
        if scene is None:
            return None
        return RetrievedScene(
            scene_id=scene.scene_id, similarity=float(scene.similarity), threshold=float(scene.threshold),
            injected=bool(scene.injected), user_message=scene.user_message, description=scene.description,
            scene_type=scene.scene_type, selected_by=scene.selected_by,
        )

    def _answers_her(self) -> bool:
        """This turn answers a question Nadine is waiting on ("yes it is" to "is your name ...?"):
        it tells nothing of the person's own, whatever its words."""
        return any(turn.turn_id == self._turn_id and turn.answers_question for turn in self.session.transcript[-2:])

    def _publish_affect(self, state: TurnState, u: TurnUnderstanding, suppressed: str | None = None) -> None:
        self._affect_sent = True
        # a self-introduction is published after the profile update, so the person it names (maybe
        # new this very turn) is who a text-only moment is kept for
        outcome: ProfileOutcome | None = state.get("profile_outcome")
        who = outcome.identity if outcome is not None else self.session.identity
        # remembering is not a new moment, and a greeting, an introduction, a polite goodbye or thanks or a
        # request to forget is not one either, nor what the person asked not to be kept; a request to
        # remember is kept as the explicit memory it asks for, never twice (this is said before the
        # request is handled: whether it was kept is the memory action's to say)
        why = suppressed or (KEEPING_NOTHING_REASON if self.session.keeping_nothing and u.memory_intent != "remember"
                             else "a request to forget" if u.memory_intent in FORGET_INTENTS
                             else NOT_KEPT_REASON if u.memory_intent == "not_keep"
                             else "a request to remember" if u.memory_intent == "remember"
                             else "a recall question"
                             if u.is_recall else "a goodbye" if u.intent == "end_conversation"
                             else "a thanks" if only_thanks(str(state.get("text", "")))
                             else "a wish for Nadine, nothing of their own" if wishes_the_listener(str(state.get("text", "")))
                             else "an answer to Nadine's question" if self._answers_her()
                             else "nothing told of their own: a greeting, an introduction, a question or a request"
                             if not is_told(str(state.get("text", "")))
                             else None)
        self.out.publish(t.AFFECT_STATE, AffectState(
            label=u.emotion.label, arousal=self.deps.affect.arousal, intensity=u.emotion.intensity,
            user_label=u.user_emotion.label, user_intensity=u.user_emotion.intensity,
            user_message=str(state.get("text", ""))[:USER_MESSAGE_MAX_CHARS],
            suppress_storage=why is not None, suppress_reason=why, turn_id=self._turn_id,
            user_id=who.user_id, user_name=who.name,
        ))

    def _study_completed(self, turn: TurnResult, u: TurnUnderstanding | None, latency: float) -> None:
        if self.study is None or turn.turn_id is None:
            return
        r = turn.retrieved
        self.study.turn_completed(turn.turn_id, {
            "robot_text": turn.reply, "intent": turn.intent, "language": self.language, "user_id": turn.user_id,
            "user_name": turn.user_name, "user_emotion": u.user_emotion.label if u else None,
            "user_intensity": u.user_emotion.intensity if u else None, "robot_emotion": u.emotion.label if u else None,
            "robot_intensity": u.emotion.intensity if u else None,
            "visual": {"injected": r.injected, "scene_id": r.scene_id, "similarity": r.similarity,
                       "description": r.description, "user_message": r.user_message} if r else None,
            # a reply produced whole has no first sentence ahead of it: measured only when it streamed
            "latency_s": round(latency, 4), "latency_first_sentence_s": None if self._first_sentence_latency is None
            else round(self._first_sentence_latency, 4),
            # offline replies quote the scene by template, so "the reply references it" measures nothing
            # (a stream that broke sends the turn offline, but what it spoke is the model's)
            "reply_offline": not self._sentences and (self.deps.turn_offline
                                                      or self.deps.llm.for_agent("response_agent") is None),
        })

    # --- runtime language ------------------------------------------------------------------------

    def _load_language(self) -> str:
        data = read_json(self._language_file, default={}) or {}
        value = data.get("language") if isinstance(data, dict) else None
        return value if isinstance(value, str) and value else self.settings.interaction.default_language

    def _set_language(self, locale: str) -> None:
        if locale == self.language:
            return
        self.language = locale
        try:
            atomic_write_json(self._language_file, {"language": locale})
        except OSError as exc:
            log.warning("runtime language not persisted: %s", exc)

    def forget_session(self) -> None:
        """The current user asked to be forgotten: drop the session without saving an episode, and keep
        nothing more of the conversation (what they tell next is not kept for whoever they say they are)."""
        # the conversation goes on with nobody known ("bye" next takes leave, as it would have)
        self.session = Session(keeping_nothing=True, replies=self.session.replies)

    def shutdown(self) -> None:
        self.close_session("shutdown")
        if self.study is not None:
            self.study.close()
