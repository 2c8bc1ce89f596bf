"""LocalMemoryServices: the MemoryServices the dialogue graph calls (interaction/memory/contracts.py).

Per-user text memory (episode + conversation, ChromaDB, MiniLM), visual scenes (in-memory index,
[P] utterance-anchored rules or the paper's fusion), knowledge RAG and the vision agent. Every method
takes the user id it serves and reads only that user's collection and scene folder.
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
from common.store.ids import is_valid_user_id
from common.store.layout import DataLayout
from common.store.scenes import SceneStore
from common.vision.base import BackendUnavailable
from interaction.agents.vision import VisionAgent
from interaction.memory.chroma_store import episodic_client, make_client
from interaction.memory.contracts import EpisodicSave, RetrievalResult, TranscriptTurn
from interaction.memory.documents import Deleted
from interaction.memory.episodic import EpisodicMemory
from interaction.memory.explicit_memories import ExplicitMemories
from interaction.memory.fusion import fuse
from interaction.memory.knowledge import KnowledgeBase, seed_rag_files
from interaction.memory.observation import should_store, store_observation
from interaction.memory.scene_index import SceneIndex, SceneScores, as_visual_memory

log = logging.getLogger("nadine.memory")

FUSION_EPISODE_POOL = 50  # episodes z-scored per turn in fusion mode (the best ones; most users have fewer)
VISION_OFF = "Sorry, my vision is switched off."


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
        offline = offline_text_embedder()
        active = _active_embedder(settings, offline)
        self.scenes = SceneStore(layout)
        # text memory stays local whatever the retrieval embedder (reference §8 item 11)
        self.episodic = EpisodicMemory(
            episodic_client(settings, layout),
            NadineEmbeddingFunction(offline), clock
        )
        self.explicit = ExplicitMemories(self.episodic, clock)
        seed_rag_files(layout.rag_files_dir)
        self.knowledge_base = KnowledgeBase(
            make_client(settings.interaction.chroma.model_copy(update={"mode": "embedded"}), layout.knowledge_chroma_dir),
            NadineEmbeddingFunction(active), layout.rag_files_dir,
        )
        self.scene_index = SceneIndex(settings, self.scenes, active, offline)
        self.knowledge_threshold = settings.interaction.knowledge_thresholds.get(profile_key(active))
        if self.knowledge_threshold is None:
            log.warning("no knowledge threshold for embedder %s (python -m scripts.eval.knowledge_relevance): "
                        "every question about Nadine gets the nearest knowledge", profile_key(active))
        self.vision = VisionAgent(settings, layout, bus, clock) if bus is not None else None

    # --- MemoryServices --------------------------------------------------------------------------

    def retrieve(self, user_id: str, query: str, is_recall: bool) -> RetrievalResult:
        if not is_valid_user_id(user_id) or not self.settings.interaction.enable_memory_agents:
            return RetrievalResult()
        if self.settings.interaction.retrieval.mode == "fusion":
            result = self._retrieve_fusion(user_id, query, is_recall)
        else:
            episode, conversation = self.episodic.best(user_id, query)
            scene = self.scene_index.retrieve(user_id, query, is_recall)
            result = RetrievalResult(episode, conversation, scene, details={"mode": "phd"})
        result.text_injected = is_recall and (result.episode is not None or result.conversation is not None)
        return result

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
        return self.episodic.save(user_id, user_name, transcript, summary)

    def knowledge(self, query: str) -> str | None:
        return self.knowledge_base.relevant(query, self.knowledge_threshold if self.knowledge_threshold is not None
                                            else float("-inf"))

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

    def on_scene_forgotten(self, user_id: str) -> None:
        if is_valid_user_id(user_id):
            self.scene_index.forget(user_id)  # rebuilt from the files on the next retrieval

    def forget_user(self, user_id: str) -> dict[str, int]:
        if not is_valid_user_id(user_id):
            return {}
        removed = {
            "text_memories": self.episodic.forget(user_id),
            "indexed_scenes": self.scene_index.forget(user_id),
        }
        log.info("forgot %s in interaction memory: %s", user_id, removed)
        return removed


