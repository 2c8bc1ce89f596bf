"""Routes everything under <root>/agent/control/# to speech, gestures and gaze.

Runs on the bus dispatcher thread, so every branch only hands work over: speech goes to the speech
worker's queue, gestures and gaze set joint tracks that the motion loop plays.
"""

from __future__ import annotations

import logging
from typing import Any

from common import topics as t
from common.bus import Bus
from common.messages import SpeakFeedback
from control.body import Body
from control.speech import SpeechWorker

log = logging.getLogger("nadine.control")


class SpeechFeedback:
    """What happens at audio onset and end: the body's speaking posture and the feedback topics."""

    def __init__(self, bus: Bus, body: Body) -> None:
        self.bus = bus
        self.body = body

    def speech_started(self) -> None:
        self.body.prepare_for_speech()
        self.body.motion.speaking = True
        self.bus.publish(t.START_SPEAK, SpeakFeedback(value="start_speak"))

    def speech_ended(self) -> None:
        self.body.motion.speaking = False
        self.bus.publish(t.END_SPEAK, SpeakFeedback(value="end_speak"))


class ControlService:
    def __init__(self, bus: Bus, body: Body, speech: SpeechWorker) -> None:
        self.bus = bus
        self.body = body
        self.speech = speech

    def subscribe(self) -> None:
        self.bus.subscribe_tree(t.CONTROL_WILDCARD, self.handle)

    def handle(self, spec: t.TopicSpec, msg: Any) -> None:
        if spec is t.SPEAK:
            self.speech.say(msg)
        elif spec is t.STOP_SPEAK:
            self.speech.stop_speaking()
        elif spec is t.ANIMATION:
            self.body.play_animation(msg.value.strip())
        elif spec is t.LOOK_AT:
            self.body.look_at(msg.x, msg.y, msg.z)
        elif spec is t.LOOK_AT_TARGET:
            self.body.look_at_target(msg.value.strip())
        else:
            log.debug("ignoring %s under the control tree", spec.suffix)
