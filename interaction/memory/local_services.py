"""LocalMemoryServices: the MemoryServices the dialogue graph calls (interaction/memory/contracts.py).

Per-user text memory (session summaries and turns, ChromaDB, MiniLM), visual scenes (in-memory
index), knowledge RAG and the vision agent. Recall turns are decided by the retrieval core
(interaction/memory/retrieval) over the user's text memories and scenes together; ordinary turns
only ever bring up a scene that passes the strict similarity threshold (utterance-anchored) or
the paper's fusion. Every method takes the user id it serves and reads only that user's collection
and scene folder.
"""

from __future__ import annotations

import logging
from datetime import datetime

import numpy as np

from common.bus import Bus
from common.clock import Clock
from common.config import NadineSettings
from common.embedding.base import TextEmbedder
from common.embedding.chroma import NadineEmbeddingFunction
from common.embedding.registry import build_text_embedder, offline_text_embedder, profile_key
from common.messages import RecalledMemory, RecallReport
from common.store.ids import is_valid_user_id
from common.store.layout import DataLayout
from common.store.scenes import SceneStore
from common.vision.base import BackendUnavailable
from interaction import cues
from interaction.answer_span import holds_no_answer
from interaction.current_view import VisionAgent
from interaction.memory.chroma_store import episodic_client, make_client
from interaction.memory.contracts import EpisodicSave, RetrievalResult, TranscriptTurn
from interaction.memory.documents import Deleted
from interaction.memory.episodic import EpisodicMemory, Summarizer
from interaction.memory.explicit_memories import ExplicitMemories
from interaction.memory.forgotten import Forgotten
from interaction.memory.fusion import fuse
from interaction.memory.knowledge import KnowledgeBase, about_nadine, seed_rag_files
from interaction.memory.observation import should_store, store_observation
from interaction.memory.retrieval import windows
from interaction.memory.retrieval.candidates import Candidate, CandidatePool
from interaction.memory.retrieval.core import SCENE_KINDS, RecallDecision, RetrievalCore
from interaction.memory.retrieval.decision import Chooser
from interaction.memory.retrieval.entities import Thresholds, build_reader
from interaction.memory.retrieval.generic import GenericQuestions
from interaction.memory.retrieval.spelling import mend, names_as_told, words_of
from interaction.memory.retrieval.text_pool import TextPools
from interaction.memory.retrieval.verifier import build_verifier
from interaction.memory.scene_index import SceneIndex, SceneScores, as_visual_memory
from interaction.memory.told import is_told
from interaction.memory_intent.misspelt import memories_as_meant
from interaction.memory_intent.to_do import as_to_be_done
from interaction.offline.chat_spelling import spelled_out
from interaction.reported_speech import reported

log = logging.getLogger("nadine.memory")

FUSION_EPISODE_POOL = 50  # episodes z-scored per turn in fusion mode (the best ones; most users have fewer)
VISION_OFF = "Sorry, my vision is switched off."
STORED_TEXT_KINDS = frozenset({"explicit_memory", "turn"})  # kept in the episodic text store, not on disk as scenes


def _seconds(timestamp: str | None) -> float:
    try:
        return datetime.fromisoformat(timestamp).timestamp() if timestamp else 0.0
    except ValueError:
        return 0.0


def _active_embedder(settings: NadineSettings, offline: TextEmbedder) -> TextEmbedder:
    try:
        return build_text_embedder(settings.interaction)
    except BackendUnavailable as exc:
        log.error("%s; retrieval and knowledge use %s", exc, offline.name)
        return offline


class LocalMemoryServices:
    def __init__(self, settings: NadineSettings, layout: DataLayout, clock: Clock, bus: Bus | None) -> None:
        self.settings = settings
        self.layout = layout
        self.clock = clock
        offline = self.offline = offline_text_embedder()
        active = self.active = _active_embedder(settings, offline)
        self.scenes = SceneStore(layout)
        # text memory stays local whatever the retrieval embedder: a person's words never leave the machine
        recall = settings.interaction.retrieval.recall
        self.episodic = EpisodicMemory(
            episodic_client(settings, layout), NadineEmbeddingFunction(offline), clock,
            context_turns=recall.context_turns,
        )
        self.explicit = ExplicitMemories(self.episodic, clock)
        self.text_pools = TextPools(self.episodic, offline.name, offline.dim, embed=offline.embed)
        seed_rag_files(layout.rag_files_dir)
        self.knowledge_base = KnowledgeBase(
            make_client(settings.interaction.chroma.model_copy(update={"mode": "embedded"}), layout.knowledge_chroma_dir),
            NadineEmbeddingFunction(active), layout.rag_files_dir,
        )
        self.scene_index = SceneIndex(settings, self.scenes, active, offline)
        self.core = self._core(settings, offline)
        self.knowledge_threshold = settings.interaction.knowledge_thresholds.get(profile_key(active))
        if self.knowledge_threshold is None:
            log.warning("no knowledge threshold for embedder %s (python -m scripts.eval.knowledge_relevance): "
                        "every question about Nadine gets the nearest knowledge", profile_key(active))
        self.vision = VisionAgent(settings, layout, bus, clock) if bus is not None else None

    @staticmethod
    def _core(settings: NadineSettings, offline: TextEmbedder) -> RetrievalCore | None:
        recall = settings.interaction.retrieval.recall
        calibration = recall.decision_for(offline.name)
        if calibration is None:
            log.error("no recall calibration (interaction.retrieval.recall.calibration); recall turns abstain. "
                      "Fix: python -m scripts.eval.calibrate_recall --write")
            return None
        generic = GenericQuestions(offline, recall.generic_threshold)
        verifier = build_verifier(recall.verifier, recall.verifier_model)
        entities = build_reader(offline.embed, Thresholds.of(calibration))
        return RetrievalCore(recall, verifier, calibration, generic, entities, reading=as_to_be_done,
                             meant=memories_as_meant)

    # --- MemoryServices --------------------------------------------------------------------------

    def retrieve(self, user_id: str, query: str, is_recall: bool, chooser: Chooser | None = None) -> RetrievalResult:
        if not is_valid_user_id(user_id) or not self.settings.interaction.enable_memory_agents:
            return RetrievalResult()
        query = spelled_out(query)
        if self.settings.interaction.retrieval.mode == "fusion":  # the paper's algorithm, recall turns included
            result = self._retrieve_fusion(user_id, query, is_recall)
            result.text_injected = is_recall and result.episode is not None
            if result.text_injected and result.episode is not None:
                result.recall = RecallReport(outcome="asserted", memories=[RecalledMemory(
                    kind="episode", memory_id="fusion", text=result.episode.text,
                    occurred_at=result.episode.timestamp, fused_score=result.details.get("z_episode"))])
            return result
        if is_recall:
            return self._recall(user_id, query, chooser)
        scene = self.scene_index.retrieve(user_id, query, is_recall)
        return RetrievalResult(scene=scene, details={"mode": "phd"})  # never text memories on ordinary turns

    def _recall(self, user_id: str, query: str, chooser: Chooser | None = None) -> RetrievalResult:
        """The retrieval core decides over the user's text memories and scenes together."""
        if self.core is None:
            return RetrievalResult(recall=RecallDecision("abstained").report(), details={"mode": "core"})
        pools: list[tuple[CandidatePool, np.ndarray]] = []
        text = self.text_pools.pool(user_id)
        text_vector = self.episodic.embed_query(query) if len(text) else None
        if text_vector is not None:
            pools.append((text, text_vector))
        scenes = self.scene_index.pool(user_id)
        if scenes is not None:
            pool, embedder = scenes
            same = text_vector is not None and embedder.name == text.embedder
            pools.append((pool, text_vector if same else embedder.embed([query])[0]))
        query = _as_written(query, [pool for pool, _ in pools])
        decision = self.core.decide(query, self.clock.now(), pools, chooser)
        report = decision.report()
        if holds_no_answer(query, report):
            report = report.model_copy(update={"outcome": "abstained", "memories": [], "decided_by": "no_answer"})
        asserted = decision.outcome == "asserted"
        result = RetrievalResult(recall=report, details={"mode": "core"})
        result.text_injected = asserted and any(j.candidate.kind not in SCENE_KINDS for j in decision.chosen)
        for judged in decision.chosen:
            if judged.candidate.kind in SCENE_KINDS:
                meta = self.scene_index.scene(user_id, judged.candidate.memory_id)
                if meta is not None:
                    result.scene = as_visual_memory(meta, judged.dense, 0.0, asserted, "recall")
                break
        return result

    def about(self, user_id: str, query: str, said: list[TranscriptTurn],
              kinds: frozenset[str] = frozenset(), spelling: float | None = None) -> RecallDecision | None:
        """Which of `said` (this conversation's statements, not in the long-term store yet) or of the
        user's memories of `kinds` (explicit_memory, moment, turn: a statement of an earlier
        conversation) a question or request is about, decided
        like a recall: ranked, verified and thresholded by the retrieval core. `spelling`: a word
        of the query no dictionary knows is read as the nearest word these memories use, from this
        similarity (spelling.py; a forget request). None: no core."""
        if self.core is None:
            return None
        query = spelled_out(query)
        pools: list[CandidatePool] = []
        stored = self.text_pools.pool(user_id) if is_valid_user_id(user_id) else None
        moments = self._moment_pool(user_id) if "moment" in kinds and stored is not None else None
        items = [Candidate(kind="this_session", memory_id=str(i), text=meant, quote=t.text,
                           occurred_ts=t.at.timestamp(), group="this_session")
                 for i, (t, meant) in enumerate(zip(said, memories_as_meant([t.text for t in said]), strict=True))]
        if items:
            pools.append(CandidatePool(items, self.offline.embed([c.text for c in items]), self.offline.name))
        stored_kinds = sorted(kinds & STORED_TEXT_KINDS)
        of_kinds = stored.subset(np.isin(stored.kinds, stored_kinds)) if stored_kinds and stored is not None else None
        if of_kinds is not None:
            pools.append(of_kinds)
        if moments is not None:
            pools.append(moments)
        query = _as_written(query, pools)
        if spelling is not None:
            lexicon = self.core.entities.lexicon if self.core.entities is not None else None
            query = mend(query, words_of(c.quote for pool in pools for c in pool.items), lexicon, spelling)
        vector = self.offline.embed([query])[0]
        # "what did I tell you last week?" is not about this conversation: a window the question names
        # ("last time" from the saved sessions) leaves out what lies outside it, as in a recall
        sessions = [stored] if stored is not None else []
        now = self.clock.now()
        live = [(pool, vector) for pool in pools]
        # what takes place on a day is what every memory says of it, with this conversation's news: a
        # plan told before and moved or called off now ("book club moved to Saturday") is off its day
        everything = [*((p, v) for p, v in live if p is not of_kinds), *([(stored, vector)] if stored is not None else [])]
        window = windows.resolve(query, now, sessions)
        # ... and a question that names only a time asks what was told then ("do you remember what
        # happened yesterday?"), as a recall does
        by_time = self.core.of_its_time(query, now, live, window) if window is not None else None
        return by_time or self.core.planned(query, now, everything) or self.core.verify(query, live, window)

    def read_ahead(self, said: str) -> None:
        if not is_told(said):
            return
        if self.core is not None and self.core.entities is not None:
            self.core.entities.prepare([said])
        reported(said)  # a recall says it back: the parses that takes (a question tagged on after a comma)

    def texts_ahead(self, text: str) -> list[str]:
        """A question's named things, which a recall (or a question about their own life) compares
        with the memories it reads, and a question about Nadine as the knowledge reads it, when the
        knowledge is embedded offline too."""
        if not cues.is_question(text):
            return []
        named = self.core.entities.words(text) if self.core is not None and self.core.entities is not None else []
        about = [about_nadine(text)] if self.active is self.offline and cues.is_about_nadine(text) else []
        return [*named, *about]

    def _moment_pool(self, user_id: str) -> CandidatePool:
        """The person's moments by what was said then (read from disk: a forget request finds them
        even with visual memory switched off)."""
        moments = [m for m in self.scenes.list(user_id) if m.scene_type == "moment" and m.retrieval_text]
        items = [Candidate(kind="moment", memory_id=m.scene_id, text=meant,
                           quote=m.user_message or m.retrieval_text, occurred_ts=_seconds(m.timestamp) or None,
                           group=m.scene_id, memorability=float(m.memorability))
                 for m, meant in zip(moments, memories_as_meant([m.retrieval_text for m in moments]), strict=True)]
        if not items:
            return CandidatePool.empty(self.offline.name, self.offline.dim)
        return CandidatePool(items, self.offline.embed([c.text for c in items]), self.offline.name)

    def _retrieve_fusion(self, user_id: str, query: str, is_recall: bool) -> RetrievalResult:
        """Algorithm 1: the winner of the z-scored pools picks its time-nearest partner. A scene that
        wins is injected by its threshold; a scene paired to a winning episode is injected on recall
        turns (the pair is the remembered moment) and otherwise by its threshold."""
        episodes = self.episodic.query(user_id, query, "episode", n=FUSION_EPISODE_POOL)
        scored: SceneScores | None = self.scene_index.scores(user_id, query, is_recall)
        scene_sims = scored.similarity if scored else np.zeros(0)
        scene_times = scored.seconds if scored else np.zeros(0)
        pick = fuse(
            np.array([e.similarity for e in episodes]), np.array([_seconds(e.timestamp) for e in episodes]),
            scene_sims, scene_times, self.settings.interaction.retrieval.fusion_epsilon,
        )
        result = RetrievalResult(details={
            "mode": "fusion", "primary": pick.primary, "z_episode": pick.z_episode, "z_scene": pick.z_scene,
        })
        if pick.episode is not None:
            chosen = episodes[pick.episode]
            result.episode = chosen.hit()
            if chosen.session:
                result.conversation = self.episodic.session_document(user_id, chosen.session, "conversation")
        if pick.scene is not None and scored is not None:
            j = pick.scene
            sim, threshold = float(scored.similarity[j]), float(scored.thresholds[j])
            injected = sim >= threshold or (pick.primary == "episode" and is_recall)
            result.scene = as_visual_memory(scored.scene(j), sim, threshold, injected)
        return result

    def save_episode(
        self, user_id: str, user_name: str, transcript: list[TranscriptTurn], summary: EpisodicSave
    ) -> bool:
        if not self.settings.interaction.enable_memory_agents:
            return False
        saved = self.episodic.save(user_id, user_name, transcript, summary)
        if saved and self.core is not None and self.core.entities is not None:
            # what a recall reads of a memory (the things it names, their vectors) is read now, after
            # the farewell's reply, so that a recall reads only its question: the turns as quoted, and the summary
            self.core.entities.prepare([t.text for t in transcript if t.role == "user"] + [summary.as_text()])
        if saved:
            self.text_pools.pool(user_id)  # and the candidates a recall ranks, each new turn read as told or not
        return saved

    def knowledge(self, query: str) -> str | None:
        return self.knowledge_base.relevant(query, self.knowledge_threshold if self.knowledge_threshold is not None
                                            else float("-inf"))

    def warm_up(self) -> None:
        self.knowledge_base.prepare()  # the first question about Nadine waited ~0.2 s for it
        if self.core is not None:
            self.core.warm_up(self.clock.now())

    def look(self, question: str, user_id: str | None, is_recall: bool) -> str:
        if self.vision is None or not self.settings.interaction.enable_vision_agent:
            return VISION_OFF
        seen = self.vision.look(question)
        visual_memory = self.settings.common.enable_visual_memory
        if seen.image_path is not None and should_store(visual_memory, user_id, is_recall, question, seen.answer):
            assert user_id is not None
            if store_observation(self.scenes, self.clock, user_id, question, seen.answer, seen.image_path, seen.source):
                self.scene_index.on_scene_stored(user_id)
        return seen.answer

    def on_scene_stored(self, user_id: str) -> None:
        self.scene_index.on_scene_stored(user_id)

    def forget_document(self, user_id: str, doc_id: str) -> Deleted | None:
        return self.episodic.forget_document(user_id, doc_id)

    def forget_words(self, user_id: str, forgotten: Forgotten, summarize: Summarizer) -> Deleted | None:
        return self.episodic.forget_words(user_id, forgotten, summarize)

    def told_turns(self, user_id: str) -> list[TranscriptTurn]:
        return self.episodic.told_turns(user_id)

    def reword_turn(self, user_id: str, turn_id: str, said: str, corrected: str, old: str, new: str,
                    summarize: Summarizer) -> Deleted | None:
        return self.episodic.reword_turn(user_id, turn_id, said, corrected, old, new, summarize)

    def on_scenes_changed(self, user_id: str) -> None:
        if is_valid_user_id(user_id):
            self.scene_index.forget(user_id)  # rebuilt from the files on the next retrieval

    def forget_user(self, user_id: str) -> dict[str, int]:
        if not is_valid_user_id(user_id):
            return {}
        removed = {
            "text_memories": self.episodic.forget(user_id),
            "indexed_scenes": self.scene_index.forget(user_id),
        }
        self.text_pools.forget(user_id)
        log.info("forgot %s in interaction memory: %s", user_id, removed)
        return removed


def _as_written(query: str, pools: list[CandidatePool]) -> str:
    """The question as it would be written, which the parser reads best: a name the memories spell with
    a capital written with it (names_as_told), and its question mark, typed without it ("how many
    babies did nibbles have": "nibbles" then reads as the object of "did", not the subject of "have")."""
    query = names_as_told(query, (c.quote for pool in pools for c in pool.items))
    return f"{query.rstrip()}?" if cues.is_question(query) and not query.rstrip().endswith("?") else query

