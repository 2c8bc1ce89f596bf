"""A remember request that names the thing to keep and gives its value apart from it: "could you
remember my locker number, it's 31" or "remember my locker number 31" keeps "my locker number is
31", said back as "your locker number is 31"; the content the classifier leaves ("it's 31", "my
locker number 31") would lose what the value is of, or say the two side by side. Read off spaCy's
parse of the whole request.
"""

from __future__ import annotations

from interaction.offline.parsing import ParserUnavailable, load_parser, without_closing

_VALUE_OF_NOUN = ("nummod", "appos", "npadvmod")  # a value set after its noun: "my locker number 31"


def with_named_value(request: str, content: str) -> str:
    """`content` (what the classifier left of `request` after its asking words) as "<the noun phrase
    the request verb takes> is <its value>" when the request names that noun phrase and the value
    follows it, in a clause of its own whose subject is "it" / "that" ("..., it's 31") or set right
    after the noun ("my locker number 31"); `content` unchanged otherwise, and without the parser."""
    # content of several sentences is joined with full stops whatever ended them ("...for me? it's 31")
    pieces = content.split(". ")
    first, last = pieces[0], pieces[-1]
    start = request.find(first)
    after = request.find(last, start) if start >= 0 else -1
    if start < 0 or after < 0 or not content.strip():
        return content
    try:
        doc = load_parser()(request)
    except ParserUnavailable:
        return content
    end = after + len(without_closing(last).rstrip(" .!?"))  # "... 31 please" ends at "31"
    for noun in doc:
        # the thing named: the object of the request's own verb, which comes before the content, or the
        # head of a request said without one ("and my badge number 88412", going on from the last)
        fragment = noun.dep_ == "ROOT" and not any(t.pos_ in ("VERB", "AUX") for t in doc)
        if noun.pos_ not in ("NOUN", "PROPN") or not (fragment or (noun.dep_ == "dobj" and noun.head.idx < start)):
            continue
        value = _value(noun, end)
        if value is None:
            continue
        verb = "are" if noun.morph.get("Number") == ["Plur"] else "is"
        # with what it is of ("the code for my garden shed"): a thing set by its article, its owner or
        # its name; never for whom it is kept ("for me"), nor a phrase of the request ("in mind")
        of = [p for p in _phrases_after(noun) if p.right_edge.idx < value.idx
              and any(o.pos_ in ("PROPN", "NUM") or any(c.dep_ in ("det", "poss") for c in o.children)
                      for o in p.children if o.dep_ == "pobj")]
        last = of[-1].right_edge if of else noun
        first = next(t for t in noun.subtree if t.dep_ != "cc")  # "and my badge number 88412": the "and" goes on
        return f"{request[first.idx:last.idx + len(last)]} {verb} {request[value.idx:end].strip()}"
    return content


def _value(noun, end: int):  # noqa: ANN001, ANN202 - spaCy Tokens
    """The first word of the value given for `noun`, which runs to `end`: a number or name set right
    after it, closing the content ("my bank card PIN: 6620" is not the card's PIN); or the complement of a "be" clause next after its phrase whose subject is a neuter or
    demonstrative pronoun (it stands for the noun); a quality ("it's urgent") is no value."""
    after = [c for c in noun.rights if c.dep_ in _VALUE_OF_NOUN and c.pos_ in ("NUM", "PROPN")]
    # right after it, or set off by a comma or a colon ("my lab door code, 4 8 1 5")
    gap = noun.doc[noun.i + 1:after[-1].left_edge.i] if after else []
    if after and all(t.text in ",:" for t in gap) and len(gap) <= 1 and _ends_at(after[-1].right_edge, end):
        return after[-1].left_edge
    # the clause after the phrase; the parser may hang it on the noun as an apposition ("my gym
    # number, it's GM-20931")
    # ... after the request's phrases after the noun: for whom ("can you remember my locker code for me?
    # it's 4471"), or what it is of, which the parse may hang on the request's verb ("the PIN for my
    # work van? It's 2207")
    hung = {t.i for p in _phrases_after(noun) for t in p.subtree}
    nxt = next((t for t in noun.doc[noun.i + 1:] if not t.is_punct and t.i not in hung and (
        t.i > noun.right_edge.i or (t.head.dep_ == "appos" and t.head.head == noun))), None)
    if nxt is None or nxt.dep_ not in ("nsubj", "nsubjpass") or nxt.pos_ != "PRON" or nxt.head.lemma_ != "be":
        return None
    morph = nxt.morph
    if morph.get("Gender") != ["Neut"] and morph.get("PronType") != ["Dem"]:
        return None
    told = next((c for c in nxt.head.rights if c.dep_ in ("attr", "acomp", "npadvmod") and c.pos_ != "ADJ"), None)
    return told.left_edge if told is not None and told.idx < end else None


def _phrases_after(noun) -> list:  # noqa: ANN001 - a spaCy Token; its preposition Tokens
    """The prepositional phrases right after the noun, on it or on the request's verb, in order."""
    phrases = sorted((p for p in [*noun.rights, *noun.head.children] if p.dep_ == "prep" and p.i > noun.i),
                     key=lambda p: p.i)
    out, end = [], noun.i
    for p in phrases:
        if p.i != end + 1:
            break
        out.append(p)
        end = p.right_edge.i
    return out


def _ends_at(token, end: int) -> bool:  # noqa: ANN001 - a spaCy Token
    return token.idx + len(token) == end
