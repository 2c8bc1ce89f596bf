"""A turn that speaks of someone or something only by a pronoun means whom the person's statement just
before it told of: "his name is Bolt, he's a border collie" after "I got a puppy last week!", "he's a
mountain guide" after "my boyfriend's name is Kristoff". Kept alone, the memory says nothing of the
puppy or the boyfriend, and "what's my puppy called?" finds no name in it. It is kept, ranked and read
with that statement before it, as one memory said in two breaths; the readers of a memory already take
a pronoun to mean the one its sentence before named ("a new puppy! her name is Mila").

Only the person's own turn just before counts: an answer to Nadine's question, a goodbye or a question
between is no statement a pronoun can point back to, and nothing further back is guessed at.
"""

from __future__ import annotations

from interaction.memory.contracts import TranscriptTurn

_NAMING = {"NOUN", "PROPN"}


def leans_on_the_turn_before(text: str) -> bool:
    """The first sentence of `text` speaks of a third person or thing by a pronoun ("he", "her", "its",
    "them") before it names anyone or anything; False without the parser. A "they" its subject is most
    often no one told of ("they reset the locker code"), and an "it" that stands for nothing ("it's
    raining") is the parser's expletive where it knows one."""
    from interaction.offline.parsing import ParserUnavailable, load_parser

    try:
        doc = load_parser()(text)
    except ParserUnavailable:
        return False
    for token in next(iter(doc.sents), []):
        if token.pos_ in _NAMING:
            return False
        if (token.pos_ == "PRON" and token.dep_ != "expl" and token.morph.get("Person") == ["3"]
                and token.morph.get("PronType") == ["Prs"]
                and (token.morph.get("Number") == ["Sing"] or token.dep_ not in ("nsubj", "nsubjpass"))):
            return True
    return False


def turn_leant_on(transcript: list[TranscriptTurn], i: int) -> int | None:
    """The index of the person's statement that turn `i` of `transcript` leans on: their turn just before
    it, when both tell something (a question, "got it?", is no memory to keep with it) and turn `i`
    speaks of the other's one by a pronoun; None otherwise."""
    from interaction.memory.told import is_told

    before = next((j for j in range(i - 1, -1, -1) if transcript[j].role == "user"), None)
    if before is None or not transcript[i].tells or not transcript[before].tells:
        return None
    if not leans_on_the_turn_before(transcript[i].text) or not is_told(transcript[i].text) \
            or not is_told(transcript[before].text):
        return None
    return before


def said_with(before: str, text: str) -> str:
    """The two statements as one memory, the first ending its sentence."""
    before = before.rstrip()
    return f"{before} {text}" if before.endswith((".", "!", "?", "…")) else f"{before}. {text}"


def quoted_with_what_they_lean_on(said: list[TranscriptTurn]) -> list[str]:
    """Each of `said` (the person's statements, in order) as its memory is quoted: joined with the one
    before it where it speaks of that one's by a pronoun."""
    return [said_with(said[k - 1].text, t.text) if k and leans_on_the_turn_before(t.text) else t.text
            for k, t in enumerate(said)]
