"""LocalMemoryServices end to end on a real data root: ChromaDB, scenes, knowledge."""

from __future__ import annotations

from datetime import timedelta

import pytest

from interaction.memory.local_services import LocalMemoryServices
from tests.interaction.memory_fixtures import PHD, layout_and_clock, make_settings, write_scene
from tests.interaction.test_memory_episodic import GARDEN_SESSION, PHD_SESSION

MAYA, TOM = "251008_0001", "251008_0002"


def _services(tmp_path, *overrides):
    layout, clock = layout_and_clock(tmp_path)
    services = LocalMemoryServices(make_settings(tmp_path, *overrides), layout, clock, bus=None)
    return services, layout, clock


def _remember_maya(services, layout, clock):
    write_scene(layout, MAYA, None, when=clock.now(), scene_type="first_meeting", memorability=1.0)
    phd = write_scene(layout, MAYA, PHD, when=clock.now() + timedelta(minutes=2))
    assert services.save_episode(MAYA, "Maya", *PHD_SESSION)
    clock.advance(48)
    services.on_scene_stored(MAYA)
    return phd


def _texts(result) -> str:
    """Everything a recall turn hands the reply (the retrieval core's memories)."""
    return " | ".join(m.text for m in result.recall.memories) if result.recall else ""


def test_recall_turn_injects_text_and_scene_ordinary_turn_does_not(tmp_path):
    services, layout, clock = _services(tmp_path)
    phd = _remember_maya(services, layout, clock)
    recall = services.retrieve(MAYA, "Do you remember my PhD defense?", is_recall=True)
    assert recall.recall.outcome == "asserted" and "PhD" in _texts(recall)
    # a question naming a topic is answered by what was told, never by the session's summary
    assert all(m.kind != "episode" for m in recall.recall.memories)
    assert recall.scene.scene_id == phd.scene_id and recall.scene.injected
    chat = services.retrieve(MAYA, "I'm having a great day today!", is_recall=False)
    assert chat.recall is None and not chat.text_injected  # an ordinary turn never volunteers text
    assert chat.scene is None or not chat.scene.injected


def test_a_second_user_never_gets_the_first_users_memory(tmp_path):
    services, layout, clock = _services(tmp_path)
    _remember_maya(services, layout, clock)
    for question, recall in (("Do you remember my PhD defense?", True), ("Do you remember when we first met?", True),
                             ("I just defended my PhD thesis today!", False)):
        result = services.retrieve(TOM, question, is_recall=recall)
        assert (_texts(result), result.scene, result.text_injected) == ("", None, False)
    assert services.save_episode(TOM, "Tom", *GARDEN_SESSION)
    result = services.retrieve(TOM, "Do you remember my tomatoes?", is_recall=True)
    assert "tomatoes" in _texts(result) and "PhD" not in _texts(result) and result.scene is None


def test_unknown_and_malformed_users_get_nothing(tmp_path):
    services, layout, clock = _services(tmp_path)
    _remember_maya(services, layout, clock)
    for user in ("", "../251008_0001", "251008_0001/../x", "Unknown user"):
        result = services.retrieve(user, "Do you remember my PhD defense?", is_recall=True)
        assert _texts(result) == "" and result.scene is None
    assert not services.save_episode("251008_0003", "Unknown", *PHD_SESSION)


def test_visual_memory_off_keeps_text_memory(tmp_path):
    services, layout, clock = _services(tmp_path, "common.enable_visual_memory=false")
    _remember_maya(services, layout, clock)
    result = services.retrieve(MAYA, "Do you remember my PhD defense?", is_recall=True)
    assert result.scene is None and result.text_injected and "PhD" in _texts(result)


def test_fusion_mode_pairs_the_winner_with_its_time_neighbour(tmp_path):
    services, layout, clock = _services(tmp_path, "interaction.retrieval.mode=fusion")
    phd = _remember_maya(services, layout, clock)
    garden = write_scene(layout, MAYA, "Look at the tomatoes from my garden!", when=clock.now())
    assert services.save_episode(MAYA, "Maya", *GARDEN_SESSION)
    result = services.retrieve(MAYA, "How is your garden, are the tomatoes ripe?", is_recall=True)
    assert result.details["mode"] == "fusion" and result.details["primary"] in {"episode", "scene"}
    assert "tomatoes" in result.episode.text and "tomatoes" in result.conversation.text
    assert result.scene.scene_id == garden.scene_id
    thesis = services.retrieve(MAYA, "Tell me again about my PhD thesis defense", is_recall=True)
    assert "PhD" in thesis.episode.text and thesis.scene.scene_id == phd.scene_id


def test_forget_user_drops_collection_and_vectors(tmp_path):
    services, layout, clock = _services(tmp_path)
    _remember_maya(services, layout, clock)
    assert services.retrieve(MAYA, "Do you remember my PhD defense?", is_recall=True).scene is not None
    # the session summary, its transcript and its two user turns
    assert services.forget_user(MAYA) == {"text_memories": 4, "indexed_scenes": 2}
    after = services.retrieve(MAYA, "Do you remember my PhD defense?", is_recall=True)
    # the scene files are perception's to delete; no text memory is left
    assert not after.text_injected and {m.kind for m in after.recall.memories} <= {"moment", "first_meeting"}
    assert services.forget_user("../x") == {}


@pytest.mark.parametrize("question", ["Who created you?", "Who made you, Nadine?", "Where were you built?"])
def test_knowledge_answers_questions_about_nadine(tmp_path, question):
    services, layout, clock = _services(tmp_path)
    answer = services.knowledge(question)
    assert answer.startswith("Nadine > Who created Nadine") and "Magnenat Thalmann" in answer


def test_a_questions_named_things_and_its_knowledge_form_are_embedded_ahead_a_statements_are_not(tmp_path, monkeypatch):
    """What the turn's retrieval will embed goes into the turn's own embedder call; after a told
    turn's reply, the parses its saying back takes are made, not on a later recall's reply path."""
    from interaction.memory.knowledge import about_nadine
    from interaction.offline.question_form import asks_question
    from interaction.offline.self_description import load_parser

    services, _, _ = _services(tmp_path)
    asked = services.texts_ahead("What did I tell you about my cousin's sailing boat?")
    assert "boat" in " ".join(asked) and "cousin" in " ".join(asked)
    assert about_nadine("Who built you?") in services.texts_ahead("Who built you?")
    assert services.texts_ahead("My cousin sold his sailing boat last winter.") == []
    nlp = load_parser()
    parsed: list[str] = []
    pipeline = nlp.nlp

    class Noted:  # the pipeline, noting each text it parses
        def __call__(self, text):
            parsed.append(text)
            return pipeline(text)

        def pipe(self, texts):
            texts = list(texts)
            parsed.extend(texts)
            return pipeline.pipe(texts)

    monkeypatch.setattr(nlp, "nlp", Noted())
    monkeypatch.setattr(nlp, "_docs", type(nlp._docs)(nlp._docs.maxsize))  # nothing parsed by earlier tests
    asks_question.cache_clear()  # nor a question read by them
    told = "My niece won the chess final on Friday, I'm so proud of her!"
    services.read_ahead(told)
    assert "I'm so proud of her!" in parsed  # what follows the last comma, read for a tagged question now
    parsed.clear()
    from interaction.reported_speech import reported

    assert reported(told) == "your niece won the chess final on Friday, you're so proud of her"
    assert parsed == []  # saying it back on a recall parses nothing more
