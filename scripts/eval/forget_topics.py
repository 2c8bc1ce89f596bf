"""Forget one by a vaguely named topic: which memory a forget request offers, and the bounds of the
looser forget offer (common/config/interaction_settings.py ForgetOfferSettings).

scripts/eval/forget_topics/people.jsonl: people written for this repo, each with what they told
Nadine in one conversation (greetings, questions and requests among it, as said) and forget
requests naming a topic vaguely, misspelt or not at all ("forget the doctor thing", "forget what I
said about my parnets devorced", "forget what I told you about my cat" after the dog), each with the
memory meant or none, and the other memories that restate the same thing ("also": a correction of
it) or that a general topic names as much ("my health": a diagnosis and an inhaler), which are to be
offered with it. An extra is any other memory offered with the one meant that
is not one of those. Each person's conversation is played in process (the real dialogue manager,
Chroma, the retrieval core), saved, and the requests are matched on the next visit by
interaction.memory_requests.forget_matches. The people are split dev / test by a hash of their
name; the bounds are chosen on dev (fewest wrong offers and extras counted twice plus missed ones and
restatements left out, the strictest bounds on a tie) and reported on both.

    NADINE_SHARED_DATA=/work/shared/data .venv/bin/python -m scripts.eval.forget_topics [--failures]
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import tempfile
from dataclasses import dataclass
from pathlib import Path

from rapidfuzz import fuzz

from common.config.interaction_settings import ForgetOfferSettings
from common.messages import UserDetected, UserInput
from common.store import ProfileStore
from interaction.dialogue import DialogueManager
from interaction.memory.local_services import LocalMemoryServices
from interaction.memory_requests import ForgetCandidate, ForgetMatches, chosen_to_forget, forget_matches
from tests.interaction.memory_fixtures import layout_and_clock, make_settings
from tests.interaction.test_dialogue_inprocess import Outbox

PEOPLE = Path(__file__).parent / "forget_topics" / "people.jsonl"
SPELLING = (0.75, 0.8, 0.85, 0.9, 1.01)  # above 1: never mended
OFFER_MARGIN = (0.05, 0.08, 0.1, 0.12, 0.15, 0.18, 0.22, 0.3, float("inf"))
BEFORE = ForgetOfferSettings(offer_margin=float("inf"), spelling=1.01)


@dataclass
class Asked:
    person: str
    say: str
    memories: list[str]
    answer: int | None
    also: list[int]  # memories that restate the one meant: offered with it
    matches: dict[float, ForgetMatches]  # by spelling bound


def split_of(person: str) -> str:
    return "dev" if int(hashlib.md5(person.encode()).hexdigest(), 16) % 2 == 0 else "test"


def played(person: dict, root: Path) -> list[Asked]:
    """The person's conversation said and saved; their requests matched on the next visit."""
    layout, clock = layout_and_clock(root)
    settings = make_settings(root)
    dm = DialogueManager(settings, layout, clock, Outbox(), services=LocalMemoryServices(settings, layout, clock, bus=None),
                         environ={})
    store = ProfileStore(layout)
    name = person["person"].title()
    uid = store.mint_user_id(name, clock.now())
    store.update(uid, {"user_name": name}, clock.now())
    arrive = UserDetected(user_name=name, confidence=90.0, user_id=uid)
    dm.on_user_detected(arrive)
    for said in person["memories"]:
        dm.process_input(UserInput(text=said))
    dm.close_session("eval")
    dm.on_user_detected(arrive)
    profile = store.load(uid)
    return [Asked(person["person"], ask["say"], person["memories"], ask["answer"], ask.get("also", []),
                  {s: forget_matches(dm.deps, uid, ask["say"], [], profile, s) for s in SPELLING})
            for ask in person["asks"]]


def is_meant(candidate: ForgetCandidate, memory: str) -> bool:
    """The candidate is that memory: the turn itself, what it asked to keep, or a profile fact it told."""
    return fuzz.partial_ratio(candidate.text.casefold(), memory.casefold()) >= 85


def verdict(a: Asked, offer: ForgetOfferSettings) -> str:
    got = chosen_to_forget(a.matches[offer.spelling], offer)
    if a.answer is None:
        return "none_right" if got is None else "none_offered"
    if got is None:
        return "missed"
    return "right" if any(is_meant(c, a.memories[a.answer]) for c in (got, *got.also)) else "wrong"


def with_it(a: Asked, offer: ForgetCandidate) -> tuple[int, int]:
    """Of the memories offered beside the one meant: extras (restating nothing meant), and the
    restatements left out."""
    others = [c for c in (offer, *offer.also) if not is_meant(c, a.memories[a.answer])]  # type: ignore[index]
    restating = [i for i in a.also if any(is_meant(c, a.memories[i]) for c in others)]
    return len(others) - len(restating), len(a.also) - len(restating)


def tally(asked: list[Asked], offer: ForgetOfferSettings) -> dict[str, int]:
    counts = dict.fromkeys(("right", "wrong", "missed", "none_right", "none_offered", "extra", "left_out"), 0)
    for a in asked:
        v = verdict(a, offer)
        counts[v] += 1
        if v == "right":
            extra, left_out = with_it(a, chosen_to_forget(a.matches[offer.spelling], offer))  # type: ignore[arg-type]
            counts["extra"] += extra
            counts["left_out"] += left_out
    return counts


def cost(counts: dict[str, int]) -> int:
    return 2 * (counts["wrong"] + counts["none_offered"] + counts["extra"]) + counts["missed"] + counts["left_out"]


def choose(dev: list[Asked]) -> ForgetOfferSettings:
    grid = [ForgetOfferSettings(offer_margin=m, spelling=s) for s, m in itertools.product(SPELLING, OFFER_MARGIN)]
    # on a tie the strictest bounds
    return min(grid, key=lambda o: (cost(tally(dev, o)), -o.offer_margin, -o.spelling))


def line(name: str, asked: list[Asked], offer: ForgetOfferSettings) -> str:
    c = tally(asked, offer)
    told = c["right"] + c["wrong"] + c["missed"]
    untold = c["none_right"] + c["none_offered"]
    return (f"{name:<12} n={len(asked):>3}  meant offered {c['right']}/{told}, wrong memory {c['wrong']}, "
            f"nothing offered {c['missed']};  nothing close: said so {c['none_right']}/{untold}, "
            f"offered one {c['none_offered']};  offered with the one meant: extras {c['extra']}, "
            f"restatements left out {c['left_out']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--failures", action="store_true", help="print every request the chosen bounds get wrong")
    args = parser.parse_args(argv)
    people = [json.loads(row) for row in PEOPLE.read_text(encoding="utf-8").splitlines() if row.strip()]
    with tempfile.TemporaryDirectory() as tmp:
        asked = [a for person in people for a in played(person, Path(tmp) / person["person"])]
    return report(asked, args.failures)


def report(asked: list[Asked], failures: bool) -> int:
    dev = [a for a in asked if split_of(a.person) == "dev"]
    test = [a for a in asked if split_of(a.person) == "test"]
    chosen = choose(dev)
    print(f"people: dev {sorted({a.person for a in dev})}, test {sorted({a.person for a in test})}")
    print(f"chosen on dev: offer_margin={chosen.offer_margin} "
          f"spelling={chosen.spelling}")
    shipped = ForgetOfferSettings()
    for label, offer in (("before", BEFORE), ("shipped", shipped), ("chosen", chosen)):
        print(f"{label}:")
        print("  " + line("dev", dev, offer))
        print("  " + line("test", test, offer))
    if failures:
        for a in asked:
            v = verdict(a, chosen)
            if v == "right" and any(with_it(a, chosen_to_forget(a.matches[chosen.spelling], chosen))):  # type: ignore[arg-type]
                got = chosen_to_forget(a.matches[chosen.spelling], chosen)
                print(f"[{split_of(a.person)}] right, with extras or restatements left out: {a.say!r} -> "
                      f"{[c.text for c in (got, *got.also)]!r}")  # type: ignore[union-attr]
            if v in ("wrong", "missed", "none_offered"):
                got = chosen_to_forget(a.matches[chosen.spelling], chosen)
                meant = None if a.answer is None else a.memories[a.answer]
                print(f"[{split_of(a.person)}] {v}: {a.say!r} -> {got.text if got else None!r} (meant {meant!r})")
                for d in a.matches[chosen.spelling].decisions:
                    for j in d.considered[:2]:
                        print(f"      {d.outcome:<9} p={j.probability:.3f} dense={j.dense:.3f} "
                              f"margin={j.dense_margin:.3f} conflict={j.conflict} {j.candidate.quote[:50]!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
