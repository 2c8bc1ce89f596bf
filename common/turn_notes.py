"""What memory did with one turn, in words: the notes printed under a reply by the chat, the demo
transcript and the script runner. Built only from the turn's TurnResult, perception's storage
decision and the scenes stored for the turn, so every front end tells the same account, with the
scores that decided it and no number where nothing was scored."""

from __future__ import annotations

from collections.abc import Sequence

from common.messages import RecallReport, SceneStored, StorageDecision, TurnResult

QUOTE_CHARS = 160
_NARROWED = "[forget] nothing asked or forgotten: the request keeps something out, and one request forgets all or one thing"
# privacy turns answered outside the turn graph: TurnResult.intent says what happened
PRIVACY_NOTES = {
    "forget_request": "[forget me] asked for a clear yes before forgetting everything about this person",
    "forget_confirmed": "[forgotten] everything about this person, in every process",
    "forget_cancelled": "[forget me] cancelled: every memory kept",
    "forget_nobody_known": "[forget me] nothing forgotten: nobody is known by face or name yet (their name first); "
                           "what this conversation held for them is dropped",
    "forget_narrowed": _NARROWED,
    "forget_one_confirmed": "[forgotten] that memory, everywhere it was held",
    "forget_one_failed": "[forget] failed: the memory is still held (see logs/interaction.log)",
    "forget_one_cancelled": "[forget] cancelled: the memory is kept",
    "forget_one_asked_again": "[forget] the answer was not a clear yes or no: asked once more, nothing forgotten",
}


def _quote(text: str | None) -> str:
    text = " ".join((text or "").split())
    return f"\"{text[:QUOTE_CHARS]}{'...' if len(text) > QUOTE_CHARS else ''}\""


def _against(p: float | None, line: float | None) -> str:
    """The best p_told beside the line a rule other than the probability decided against: said as it
    stands to it, since the rule, not the line, decided ("0.817 at or above 0.687" for a memory that
    holds no answer)."""
    p, line = p or 0.0, line or 0.0
    return f"best p_told {p:.3f} {'below' if p < line else 'at or above'} {line:.3f}"


def recall_note(report: RecallReport) -> list[str]:
    """The recall decision and the score that decided it, then what it named."""
    verb = {"asserted": "asserted", "offered": "asked about", "abstained": "abstained", "none": "nothing recalled"}
    window = f" in '{report.window_expression}'" if report.window_expression else ""
    if report.decided_by == "memorable":
        why = "what was told in the time named (the question names no topic)" if window else \
            "what was told in the last conversation (the question names no topic)"
        head = f"[recall] {verb[report.outcome]}{window}: {why}"
    elif report.decided_by == "planned":
        head = f"[recall] {verb[report.outcome]}: what was told takes place on the day asked (the question names nothing else)"
    elif report.decided_by == "agreement":
        head = (f"[recall] asserted{window}: the memory agrees with everything the question names and is "
                f"the closest ({_against(report.p_told, report.assert_above)})")
    elif report.decided_by == "margin":
        head = (f"[recall] asked about{window}: the closest memory stands out from the others by its dense cosine "
                f"({_against(report.p_told, report.abstain_below)})")
    elif report.decided_by == "no_answer":
        head = (f"[recall] abstained{window}: the closest memory holds no answer of what the question asks for "
                f"({_against(report.p_told, report.abstain_below)})")
    elif report.decided_by == "window":
        head = (f"[recall] asked about{window}: the one memory of that time that agrees with everything the "
                f"question names ({_against(report.p_told, report.abstain_below)})")
    elif report.decided_by == "probability" and report.p_told is not None:
        p, hi, lo = report.p_told, report.assert_above, report.abstain_below
        bound = (f">= {hi:.3f}" if report.outcome == "asserted" else f"< {lo:.3f}" if report.outcome == "abstained"
                 else f"between {lo:.3f} and {hi:.3f}" if p < hi
                 # sure enough to assert, but it names something other than what was asked
                 else f">= {hi:.3f}, but it names something the question does not")
        head = f"[recall] {verb[report.outcome]}{window}: best p_told {p:.3f} {bound}"
    elif report.outcome == "abstained":
        # with a window, memories may exist outside it: say which emptiness decided
        head = f"[recall] abstained{window}: " + ("nothing told in that time" if window else "nothing stored to recall")
    else:
        head = f"[recall] {verb[report.outcome]}{window}"
    lines = [head]
    for memory in report.memories[:3]:
        lines.append(f"  {memory.kind}: {_quote(memory.text)}")
    return lines


def _retrieved_note(result: TurnResult) -> list[str]:
    scene = result.retrieved
    if scene is None:
        return []
    what = f"{scene.scene_type or 'moment'} {scene.scene_id}"
    said = _quote(scene.user_message or scene.description)
    if scene.selected_by == "recall":  # its threshold is the recall decision's (the next note)
        return [f"[recalled] {what}, chosen by the recall decision: {said}"] if scene.injected else []
    if scene.selected_by == "recency":
        return [f"[recalled] {what}, the latest memorable one (the question names no topic): {said}"]
    if scene.injected:
        return [f"[recalled] {what} (similarity {scene.similarity:.2f} >= {scene.threshold:.2f}): {said}"]
    return []  # the closest scene was not used: nothing happened to tell


# what a memory offered for forgetting is, in the words of the notes' reader (the kinds are the memory
# requests' own)
_FORGET_KINDS = {"explicit_memory": "explicit memory", "moment": "moment", "turn": "thing said",
                 "this_session": "thing said in this conversation", "fact": "profile fact"}


def _action_note(result: TurnResult) -> list[str]:
    action = result.memory_action
    if action is None:
        note = PRIVACY_NOTES.get(result.intent)
        return [note] if note else []
    if action.outcome == "kept":
        return [f"[remembered] explicit memory kept: {_quote(action.text)}"]
    if action.outcome == "not_kept":
        return [f"[not remembered] no explicit memory kept: {action.reason}"]
    if action.outcome == "forget_asked":
        sure = f" (p_told {action.p_told:.3f})" if action.p_told is not None else ""
        what = _FORGET_KINDS.get(action.kind or "", "memory")
        return [f"[forget] asked for a yes before forgetting the {what} {_quote(action.text)}{sure}"]
    if action.outcome == "forget_narrowed":
        return [_NARROWED]
    return ["[forget] no memory matches the request: nothing to forget"]


def _scene_lines(scenes: Sequence[SceneStored]) -> list[str]:
    out = []
    for s in scenes:
        if s.scene_type == "first_meeting":
            out.append(f"[stored] scene {s.scene_id} (first meeting): {s.reason or 'first face registration'}")
    return out


def _decision_note(decision: StorageDecision | None, scenes: Sequence[SceneStored], other_kept: bool) -> list[str]:
    if decision is None:
        return ["[memory] no storage decision (perception not running?)"]
    if decision.stored:
        scene = next((s for s in scenes if s.scene_id == decision.scene_id), None)
        kind = "text-only moment: no camera view, " if scene is not None and not scene.image_path else ""
        score = (f"memorability {decision.memorability:.2f} >= {decision.threshold:.2f}"
                 if decision.memorability is not None and decision.threshold is not None else "stored")
        image = [f"  image: {scene.image_path}"] if scene is not None and scene.image_path else []
        return [f"[stored] scene {decision.scene_id} ({kind}{score}): {decision.reason}", *image]
    if not other_kept:
        return [f"[not stored] {decision.reason}"]
    # below the line, or suppressed whatever it read (a request to remember is kept as its explicit memory, never a moment)
    if decision.memorability is not None and decision.threshold is not None and decision.memorability < decision.threshold:
        return [f"[no moment of its own] memorability {decision.memorability:.2f} < {decision.threshold:.2f}"]
    return [f"[no moment of its own] {decision.reason}"]


def turn_notes(result: TurnResult, decision: StorageDecision | None,
               scenes: Sequence[SceneStored] = ()) -> list[str]:
    """The notes for one turn, in order: what was recalled, what a memory request did, what was
    stored (first-meeting scene, moment) or not and why."""
    if result.answered_from_profile:  # what a recall decided was not what the reply said
        lines = ["[profile] answered from what they told of themselves (their profile), not from a recalled memory"]
    else:
        lines = _retrieved_note(result) + (recall_note(result.recall) if result.recall is not None else [])
    action = _action_note(result)
    lines += action
    stored = _scene_lines([s for s in scenes if s.turn_id in (None, result.turn_id)])
    lines += stored
    kept = bool(stored) or (result.memory_action is not None and result.memory_action.outcome == "kept")
    lines += _decision_note(decision, scenes, kept)
    return lines
