"""Every topic of the wire contract, its payload model and its QoS, built from one configurable root.

The original robot's clients use the topics under `nadine/`; NADINE_TOPIC_ROOT lets several robots share a
broker (`nadine/robot7/...`). QoS policy lives here and nowhere else: QoS 1 for messages that change
state, QoS 0 for high-rate streams. Nothing is retained except the process status and perception's
camera status (a subtopic of its status, so `status/+` still reads only online/offline strings).
"""

from __future__ import annotations

from dataclasses import dataclass

from common import messages as m

QOS_STREAM = 0
QOS_STATE = 1
DEFAULT_ROOT = "nadine"


@dataclass(frozen=True)
class TopicSpec:
    suffix: str  # below the root, e.g. "graph/user_detected"
    model: type[m.Message]
    qos: int = QOS_STATE
    retain: bool = False


# perception -> interaction
USER_DETECTED = TopicSpec("graph/user_detected", m.UserDetected, QOS_STREAM)
FACE_STORED = TopicSpec("graph/face_stored", m.FaceStored)
SCENE_STORED = TopicSpec("memory/scene_stored", m.SceneStored)
STORAGE_DECISION = TopicSpec("memory/storage_decision", m.StorageDecision)
VIEW_CAPTURED = TopicSpec("perception/view_captured", m.ViewCaptured)
# perception -> control
LOOK_AT = TopicSpec("agent/control/look_at", m.LookAt, QOS_STREAM)
# interaction -> perception
USER_INFO = TopicSpec("face_recognition/user_info", m.UserInfo)
CAPTURE_CURRENT_VIEW = TopicSpec("perception/capture_current_view", m.CaptureRequest)
AFFECT_STATE = TopicSpec("affect/state", m.AffectState)
# interaction -> control
SPEAK = TopicSpec("agent/control/speak", m.Speak)
ANIMATION = TopicSpec("agent/control/animation", m.Animation)
LOOK_AT_TARGET = TopicSpec("agent/control/look_at_target", m.LookAtTarget)
STOP_SPEAK = TopicSpec("agent/control/stop_speak", m.StopSpeak)
# control -> interaction
START_SPEAK = TopicSpec("agent/feedback/start_speak", m.SpeakFeedback)
END_SPEAK = TopicSpec("agent/feedback/end_speak", m.SpeakFeedback)
# our additions
FORGET_USER = TopicSpec("memory/forget_user", m.ForgetUser)
USER_FORGOTTEN = TopicSpec("memory/user_forgotten", m.UserForgotten)
FORGET_MEMORY = TopicSpec("memory/forget_memory", m.ForgetMemory)
USER_INPUT = TopicSpec("interaction/user_input", m.UserInput)
TURN_RESULT = TopicSpec("interaction/turn_result", m.TurnResult)
EPISODE_SAVED = TopicSpec("interaction/episode_saved", m.EpisodeSaved)
CAMERA_STATUS = TopicSpec("status/perception/camera", m.CameraStatus, QOS_STATE, retain=True)

ALL_TOPICS: tuple[TopicSpec, ...] = (
    USER_DETECTED, FACE_STORED, SCENE_STORED, STORAGE_DECISION, VIEW_CAPTURED, LOOK_AT, USER_INFO,
    CAPTURE_CURRENT_VIEW, AFFECT_STATE, SPEAK, ANIMATION, LOOK_AT_TARGET, STOP_SPEAK, START_SPEAK,
    END_SPEAK, FORGET_USER, USER_FORGOTTEN, FORGET_MEMORY, USER_INPUT, TURN_RESULT, EPISODE_SAVED, CAMERA_STATUS,
)

CONTROL_WILDCARD = "agent/control/#"  # control subscribes to the whole subtree, as in the reference


PROCESSES = ("perception", "interaction", "control")  # each reports on status/<process>


def status_spec(process: str) -> TopicSpec:
    """nadine/status/<process>: retained online/offline, also the process's last will."""
    return TopicSpec(f"status/{process}", m.ProcessStatus, QOS_STATE, retain=True)


class Topics:
    """Resolves topic specs to full topic strings under one root."""

    def __init__(self, root: str = DEFAULT_ROOT) -> None:
        root = root.strip("/")
        if not root or any(c in root for c in "#+") or "//" in root:
            raise ValueError(f"invalid topic root {root!r}: use segments like 'nadine' or 'nadine/robot7'")
        self.root = root

    def __call__(self, spec: TopicSpec | str) -> str:
        suffix = spec if isinstance(spec, str) else spec.suffix
        return f"{self.root}/{suffix}"

    def spec_for(self, topic: str) -> TopicSpec | None:
        """The spec of a concrete topic under this root (status topics included), or None."""
        prefix = self.root + "/"
        if not topic.startswith(prefix):
            return None
        suffix = topic[len(prefix):]
        for spec in ALL_TOPICS:
            if spec.suffix == suffix:
                return spec
        if suffix.startswith("status/") and suffix.count("/") == 1:
            return status_spec(suffix.split("/", 1)[1])
        return None
