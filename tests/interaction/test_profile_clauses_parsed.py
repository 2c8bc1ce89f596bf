"""What the profile holds is said back in the clauses it was told in: those clauses are parsed in
one spaCy batch (each as it is parsed alone), not one call each on the reply path."""

from __future__ import annotations

from datetime import datetime

from tests.interaction.parse_counting import count_parses


def test_the_clauses_a_profile_holds_are_parsed_in_one_batch(monkeypatch):
    from common.store import UserProfile
    from common.store.facts import FactWords
    from common.store.profiles import merge_profile
    from interaction import profile_wording
    from interaction.offline.parsing import load_parser

    clauses = {("current_company", "nestle"): "I work at Nestle", ("location", "basel"): "I live in Basel"}
    profile = merge_profile(UserProfile(user_id="u1"), {"current_company": "Nestle", "location": "Basel"},
                            datetime(2026, 5, 1, 12), wording={k: FactWords(clause=c) for k, c in clauses.items()})
    nlp = load_parser()
    alone = {c: [(t.tag_, t.dep_, t.head.i, t.ent_type_) for t in nlp.nlp(c)] for c in clauses.values()}
    expected = profile_wording.current(profile)
    calls = count_parses(monkeypatch, nlp)
    assert profile_wording.current(profile) == expected
    assert [sorted(c) for c in calls] == [sorted(clauses.values())]
    assert {c: [(t.tag_, t.dep_, t.head.i, t.ent_type_) for t in nlp(c)] for c in clauses.values()} == alone
    assert {t.clause for t in expected} == set(clauses.values())
