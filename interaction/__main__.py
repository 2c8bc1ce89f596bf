"""Entry point: python -m interaction. The dialogue manager on one worker thread, fed by the bus."""

from __future__ import annotations

import logging
import threading
import time

from common import topics as t
from common.messages import ForgetMemory, ForgetUser, SceneStored, UserForgotten
from common.runtime import ProcessContext, base_parser, start_process
from common.store import is_valid_user_id
from interaction.agents import understand_agent
from interaction.agents.episode import summarize
from interaction.dialogue import DialogueManager
from interaction.forget import forget_in_interaction, forget_one_memory
from interaction.llm import sentences
from interaction.memory.contracts import MemoryServices
from interaction.memory_requests import forget_in_session
from interaction.offline import fact_changes
from interaction.offline.extract import use_profile_facts_backend
from interaction.worker import Worker

log = logging.getLogger("nadine.interaction")


def build_services(ctx: ProcessContext) -> MemoryServices | None:
    if not ctx.settings.interaction.enable_memory_agents and not ctx.settings.interaction.enable_vision_agent:
        log.info("memory and vision agents disabled: running without memory services")
        return None
    from interaction.memory.local_services import LocalMemoryServices

    return LocalMemoryServices(ctx.settings, ctx.layout, ctx.clock, ctx.bus)


def build_study_logger(ctx: ProcessContext):  # noqa: ANN201 - StudyLog protocol of interaction.dialogue
    if not ctx.settings.interaction.study.enabled:
        return None
    from interaction.study_logger import StudyLogger

    return StudyLogger(ctx.settings, ctx.layout, ctx.clock)


def wire(ctx: ProcessContext, dm: DialogueManager, services: MemoryServices | None, worker: Worker) -> None:
    bus = ctx.bus

    def scene_stored(msg: SceneStored) -> None:
        if services is None:
            return
        if not is_valid_user_id(msg.user_id):
            log.warning("scene_stored with invalid user id %r dropped", msg.user_id)
            return
        worker.submit(services.on_scene_stored, msg.user_id)

    def forget(msg: ForgetUser) -> None:
        if not is_valid_user_id(msg.user_id):
            log.warning("forget_user with invalid user id %r dropped", msg.user_id)
            return
        worker.submit(forget_now, msg.user_id, msg.pseudonym)

    def forget_now(user_id: str, pseudonym: str | None) -> None:
        current = dm.session.identity.user_id == user_id
        names = [dm.session.identity.name] if current and dm.session.identity.name else []
        removed = forget_in_interaction(ctx.settings, ctx.layout, services, user_id, names, pseudonym)
        if current:
            dm.forget_session()
        bus.publish(t.USER_FORGOTTEN, UserForgotten(user_id=user_id, process="interaction", removed=removed))

    def forget_memory(msg: ForgetMemory) -> None:
        if not is_valid_user_id(msg.user_id):
            log.warning("forget_memory with invalid user id %r dropped", msg.user_id)
            return
        worker.submit(forget_memory_now, msg)

    def forget_memory_now(msg: ForgetMemory) -> None:
        try:
            removed, forgotten = forget_one_memory(ctx.layout, msg, ctx.clock.now(), services,
                                                   lambda turns, name: summarize(dm.deps, turns, name),
                                                   ctx.settings.interaction.chroma.mode == "embedded")
        except ValueError as exc:  # a malformed scene id
            log.warning("forget_memory refused: %s", exc)
            removed, forgotten = {}, None
        if services is not None and msg.kind == "moment":
            services.on_scenes_changed(msg.user_id)
        if dm.session.identity.user_id == msg.user_id and forgotten is not None:  # the conversation going on
            forget_in_session(ctx.layout, dm.session, forgotten, ctx.clock.now(), bool(removed.get("fact_records")))
        if dm.session.identity.user_id == msg.user_id and msg.kind == "fact":
            dm.session.identity = dm.keeper.load(msg.user_id, dm.session.identity.name)
        bus.publish(t.USER_FORGOTTEN, UserForgotten(user_id=msg.user_id, process="interaction", removed=removed,
                                                    memory_id=msg.memory_id))

    bus.subscribe(t.USER_DETECTED, lambda msg: worker.submit(dm.on_user_detected, msg))
    bus.subscribe(t.FACE_STORED, lambda msg: worker.submit(dm.on_face_stored, msg))
    bus.subscribe(t.USER_INPUT, lambda msg: worker.submit(dm.process_input, msg, time.monotonic()))
    bus.subscribe(t.START_SPEAK, lambda msg: worker.submit(dm.on_audio_onset, time.monotonic()))
    bus.subscribe(t.END_SPEAK, lambda msg: worker.submit(dm.on_speech_ended))
    bus.subscribe(t.SCENE_STORED, scene_stored)
    bus.subscribe(t.FORGET_USER, forget)
    bus.subscribe(t.FORGET_MEMORY, forget_memory)


def tick_every_second(stop: threading.Event, worker: Worker, dm: DialogueManager) -> None:
    """Time passing is an event too: a person out of view past the grace period ends the session."""
    while not stop.wait(1.0):
        worker.submit(dm.tick)


def main(argv: list[str] | None = None) -> int:
    args = base_parser("interaction").parse_args(argv)
    ctx = start_process("interaction", args)
    use_profile_facts_backend(ctx.settings.interaction.profile_facts)
    services = build_services(ctx)
    dm = DialogueManager(ctx.settings, ctx.layout, ctx.clock, ctx.bus, services, build_study_logger(ctx))
    worker = Worker()
    fact_changes.warm_up()
    understand_agent.warm_up()
    if services is not None:
        threading.Thread(target=services.warm_up, name="memory-warm-up", daemon=True).start()
    wire(ctx, dm, services, worker)
    worker.start()
    threading.Thread(target=tick_every_second, args=(ctx.stop_event, worker, dm), name="presence", daemon=True).start()
    ctx.bus.start()  # `online` is announced only now, when a turn can be answered
    if dm.deps.streams("response_agent"):
        sentences.warm_up()  # a first streamed reply waits for it, if it comes that soon
    online = "offline rules" if not dm.deps.llm.any_online() else "LLM endpoint"
    log.info("interaction running (data root %s, %s)", ctx.layout.root, online)
    try:
        ctx.stop_event.wait()
    finally:
        # the open session's episode is saved before exit, within the turn and episode budgets
        worker.stop(final=dm.shutdown, timeout=ctx.settings.interaction.llm.budget.shutdown_s)
        ctx.bus.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
