"""Issue 16 item 2: work and place facts from how people describe themselves fill the right fields
and nothing else (the full labelled set is scored by python -m scripts.eval.profile_facts)."""

from __future__ import annotations

import pytest

from interaction.offline import extract
from scripts.eval.profile_facts import field_right, load

CASES = [
    ("I'm a robotics engineer and I live in Zurich.", "robotics engineer", None, "Zurich"),
    ("I'm a nurse in Porto.", "nurse", None, "Porto"),
    ("I work for Siemens as an engineer.", "engineer", "Siemens", None),
    ("I'm retired.", "retired", None, None),
    ("My job is a bus driver.", "bus driver", None, None),
    ("I'm a data scientist at Novartis in Basel.", "data scientist", "Novartis", "Basel"),
    ("I'm a huge fan of jazz.", None, None, None),      # not an occupation
    ("I'm happy today.", None, None, None),
    ("My sister is a nurse in Lisbon.", None, None, None),  # not about the speaker
    ("I was a nurse in Porto.", None, None, None),          # no longer true
    ("I don't work for Siemens.", None, None, None),
    ("Are you a nurse?", None, None, None),
    ("I want to be a doctor.", None, None, None),
    # "the" part someone plays in a setting is a job only with its workplace
    ("I'm the best man at my cousin's wedding next week.", None, None, None),
    ("I'm the goalkeeper of our pub team.", None, None, None),
    ("I'm the night manager at Aldi.", "night manager", "Aldi", None),
    # a state said by degree is a feeling, never a job ("I'll remember that you're so relieved")
    ("Our twins finally sleep through the night, I'm so relieved!", None, None, None),
    ("I'm really exhausted after the move.", None, None, None),
]


@pytest.fixture(scope="module")
def parse_backend():
    extract.use_profile_facts_backend("spacy_parse", warm_up=False)
    yield
    extract.use_profile_facts_backend("spacy_parse", warm_up=False)


@pytest.mark.parametrize(("text", "position", "company", "location"), CASES)
def test_self_descriptions_fill_the_right_fields(parse_backend, text, position, company, location):
    got = extract.extract_profile(text)
    assert (got.current_position, got.current_company, got.location) == (position, company, location)
    assert got.user_name is None and got.hobbies == [] and got.interests == []


def test_the_rules_backend_is_selectable(parse_backend):
    extract.use_profile_facts_backend("rules", warm_up=False)
    assert extract.extract_profile("I'm a robotics engineer and I live in Zurich.").current_position == \
        "robotics engineer and I live"  # the rules' known miss, kept measurable
    extract.use_profile_facts_backend("spacy_parse", warm_up=False)
    assert extract.extract_profile("I'm a robotics engineer and I live in Zurich.").current_position == \
        "robotics engineer"


def test_the_labelled_set_has_a_held_out_split_and_the_scorer_can_fail():
    rows = load()
    assert len(rows) >= 200 and {r["split"] for r in rows} == {"dev", "test"}
    assert sum(r["split"] == "test" for r in rows) >= 60
    assert field_right(["maths teacher", "teacher"], "The Teacher") and field_right(None, None)
    assert not field_right(None, "engineer") and not field_right("nurse", None)


def test_a_text_is_parsed_once_and_each_reader_gets_its_own_copy(parse_backend, monkeypatch):
    reader = extract._READER.get()
    parsed: list[str] = []
    parse = reader.nlp
    monkeypatch.setattr(reader, "nlp", lambda text: parsed.append(text) or parse(text))
    text = "I'm a pastry chef at Sprungli in Zurich."
    first = reader.candidates(text)
    first["current_position"] = "changed by a caller"
    assert reader.candidates(text)["current_position"] == "pastry chef"
    assert parsed == [text]  # routing and the profile update read one parse


def test_a_session_summary_parses_its_turns_in_one_batch(parse_backend, monkeypatch):
    from datetime import datetime

    from interaction.agents.episode import offline_summary
    from interaction.memory.contracts import TranscriptTurn

    parser = extract._READER.get().nlp
    spacy_calls: list[object] = []

    class Counted:
        def __init__(self, nlp) -> None:
            self.nlp = nlp

        def __call__(self, text):
            spacy_calls.append(text)
            return self.nlp(text)

        def pipe(self, texts):
            spacy_calls.append(list(texts))
            return self.nlp.pipe(spacy_calls[-1])

    monkeypatch.setattr(parser, "nlp", Counted(parser.nlp))
    said = ["I'm a glass blower in Murano, Lia.", "I moved to a flat near the canal last spring.",
            "My cat Pepe sleeps on the piano all day."]
    now = datetime(2026, 5, 1, 10)
    summary = offline_summary([TranscriptTurn("user", text, now) for text in said], "Lia")
    assert spacy_calls == [said]  # one batch, then every reader found its parse
    assert "glass blower" in summary.result


def test_a_session_summary_embeds_its_turns_felt_parts_in_one_call(monkeypatch):
    from datetime import datetime

    from common.embedding.registry import offline_text_embedder
    from interaction.agents.episode import offline_summary
    from interaction.memory.contracts import TranscriptTurn

    said = ["Our boat finally sank in the harbour, I'm gutted.", "The harbour master laughed, I was furious!",
            "We sold the sails to a museum in Brest."]
    turns = [TranscriptTurn("user", text, datetime(2026, 5, 1, 10)) for text in said]
    expected = offline_summary(turns, "Lia")
    embedder = offline_text_embedder()
    embedder._recent.clear()  # as if the session had never been said here (a replayed one)
    calls: list[list[str]] = []
    embed = embedder.embed
    monkeypatch.setattr(embedder, "embed", lambda texts: calls.append(list(texts)) or embed(texts))
    assert offline_summary(turns, "Lia") == expected
    assert len(calls[0]) > len(said) and all(set(c) <= set(calls[0]) for c in calls[1:])


def test_a_session_summary_learns_nothing_from_the_name_it_was_held_under():
    from datetime import datetime

    from interaction.agents.episode import offline_summary
    from interaction.memory.contracts import TranscriptTurn

    at = datetime(2026, 5, 2, 9)
    # a returning person saying their first name again has told nothing new about themselves
    again = offline_summary([TranscriptTurn("user", "Morning, it's Rosalind.", at),
                             TranscriptTurn("user", "The rain has not stopped all week.", at)], "Rosalind Achebe")
    assert "user name" not in again.result and "learned nothing new" in again.result, again.result
    # a name that is not the one the session was held under is news
    other = offline_summary([TranscriptTurn("user", "Actually my name is Bronwen.", at)], "Rosalind Achebe")
    assert "Bronwen" in other.result, other.result


def test_the_parser_is_loaded_once_for_the_process():
    # every reader asks for the parser on every turn: loading spaCy's model again each time costs
    # seconds a call, so the one loaded is the one every later call gets
    from interaction.offline.parsing import load_parser

    assert load_parser() is load_parser()
