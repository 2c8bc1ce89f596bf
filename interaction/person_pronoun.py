"""A question whose only person is "she" or "he" ("where is she going to study?", "what did his boss
say?") asks after the last person the speaker told of in this conversation ("my sister Asha is going
to study medicine in Leeds"): it is read with the pronoun as that person's words ("where is my sister
Asha going to study?"), so the retrieval core matches it with what was told of them and the answer is
read off that statement, as a question naming them would be."""

from __future__ import annotations

from interaction.memory.contracts import TranscriptTurn

_SUBJECTS = {"nsubj", "nsubjpass"}
_NAMING = {"NOUN", "PROPN"}


def with_person_named(question: str, said: list[TranscriptTurn], speaker: str | None = None) -> str:
    """`question` with its one third-person "she"/"he" (or "her"/"him"/"his") said as the person the
    latest of `said` (this conversation's statements, oldest first) tells of, its subject; unchanged
    when the question names a person of its own, when it has no such pronoun or more than one, or
    when no statement's subject is a person (WordNet's noun.person, or a name the recogniser marks).
    The `speaker`'s own name ("Fatima here, slept well") is never whom they call "he" or "she"."""
    from interaction.memory.retrieval.lexicon import load_wordnet
    from interaction.offline.parsing import ParserUnavailable, as_capitalised, load_parser

    lexicon = load_wordnet()
    try:
        nlp = load_parser()
    except ParserUnavailable:
        return question
    if lexicon is None:
        return question
    asked = nlp(question)
    pronouns = [t for t in asked if _a_person_pronoun(t)]
    # a person of the pronoun's ("her boss") is no person of the question's own
    if len(pronouns) != 1 or any(_a_person(t, lexicon) and pronouns[0] not in t.children for t in asked):
        return question
    pronoun = pronouns[0]
    sex = pronoun.morph.get("Gender")[0]
    # typed without capitals, a name is read as it would be written ("where is arjun moving?")
    own = {n.casefold() for n in (speaker or "").split()} | {(speaker or "").casefold()}
    phrase = next((p for p in (_person_told_of(nlp(as_capitalised(turn.text)), lexicon, sex) for turn in reversed(said))
                   if p and p.casefold() not in own), None)
    if phrase is None:
        return question
    said_as = phrase + ("'s" if pronoun.morph.get("Poss") == ["Yes"] else "")
    return question[:pronoun.idx] + said_as + question[pronoun.idx + len(pronoun.text):]


def _a_person_pronoun(token) -> bool:  # noqa: ANN001 - a spaCy Token
    return (token.pos_ == "PRON" and token.morph.get("Person") == ["3"] and token.morph.get("Number") == ["Sing"]
            and token.morph.get("Gender") in (["Fem"], ["Masc"]))


def _a_person(token, lexicon) -> bool:  # noqa: ANN001 - a spaCy Token, a WordNet
    # the small recogniser files a name it does not know as an organisation at times ("What does Callum
    # do?"); a name of no place may be the person a "he" or "she" stands for
    return token.pos_ in _NAMING and (token.ent_type_ == "PERSON" or (token.pos_ == "PROPN" and token.ent_type_ == "ORG")
                                      or lexicon.kind_of_person(token.lemma_.lower(), senses=2))  # "mum" is a flower first


def _person_told_of(doc, lexicon, sex: str) -> str | None:  # noqa: ANN001 - a spaCy Doc, a WordNet
    """The words naming the subject of the statement's first clause (or the one person it names) when it
    is a person not of the other sex (WordNet's gloss: "my sister" is no "he"; a name may be either), with the name set beside
    it ("my sister Asha"), the capital of a sentence's "My" or "The" taken off; None otherwise."""
    def naming(head) -> list:  # noqa: ANN001 - a spaCy Token
        # "my sister Asha" is parsed either way round: the name beside the kind of person, or the kind
        # a compound of the name
        return [head, *(c for c in head.children if c.dep_ in ("appos", "compound"))]

    sentence = next(iter(doc.sents))
    subject = next((t for t in sentence.root.children if t.dep_ in _SUBJECTS), None)
    if subject is None or not any(_a_person(t, lexicon) for t in naming(subject)):
        # ... or, with no person its subject, the one person of theirs or by name it names ("what's
        # happening with my mum?", "I had lunch with my sister"; "I'm training as a vet" names none)
        people = [t for t in sentence if _a_person(t, lexicon) and t.dep_ not in ("appos", "compound")
                  and (t.pos_ == "PROPN" or any(c.dep_ == "poss" for c in t.children))]
        subject = people[0] if len(people) == 1 else None
    if subject is None:
        return None
    named = naming(subject)
    if not any(_a_person(t, lexicon) for t in named) or any(lexicon.sex_of(t.lemma_.lower()) not in (None, sex) for t in named if t.pos_ == "NOUN"):
        return None
    first = subject.left_edge
    end = max(t.right_edge.i if t is not subject else t.i for t in named)
    while end + 1 < len(doc) and doc[end + 1].ent_type_ == "PERSON":  # a name the parser did not set beside it
        end += 1
    words = doc[first.i:end + 1].text
    return words[:1].lower() + words[1:] if first.pos_ in ("PRON", "DET") else words


def with_relations_named(question: str, relations: list[str]) -> str:
    """`question` with the name set beside each person of the speaker's it names by how they are theirs
    ("is my son alright?" -> "is my son Peter alright?"), when the profile's `relations` ("Peter (son)")
    hold exactly one person so related; so the retrieval core matches it with what was told of them by
    name ("Peter is in hospital"). Unchanged where the name is said already or is what is asked ("what's
    my son's name?"), or without the parser."""
    from interaction.offline.grounding import first_person
    from interaction.offline.parsing import ParserUnavailable, load_parser
    from interaction.profile_wording import relation_of

    named: dict[str, list[str]] = {}
    for value in relations:
        if (held := relation_of(value)) is not None:
            named.setdefault(held[1].casefold(), []).append(held[0])
    if not named:
        return question
    try:
        asked = load_parser()(question)
    except ParserUnavailable:
        return question
    said = {w.casefold() for w in question.split()}
    out, at = [], 0
    for tok in asked:
        names = named.get(tok.lemma_.lower()) or named.get(tok.lower_) or []
        if (tok.pos_ == "NOUN" and len(names) == 1 and names[0].split()[0].casefold() not in said
                and any(c.dep_ == "poss" and first_person(c) for c in tok.children)
                and not (tok.dep_ == "poss" and tok.head.lemma_.lower() == "name")):  # "my daughter's name": asked
            end = tok.idx + len(tok.text)
            out += [question[at:end], f" {names[0]}"]
            at = end
    return "".join(out) + question[at:]

