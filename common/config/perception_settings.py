"""perception.yaml (root key `perception:`): camera, faces, emotion, scene encoder, captioner, selective memory."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from common.config.base import Section


class CameraSettings(Section):
    source: str = Field(
        "0",
        description="NADINE_CAMERA: webcam index, video file, image folder, 'watch:<folder>' (newest image), "
        "or 'realsense'",
    )
    fps: float = Field(10.0, gt=0, le=120, description="frames processed per second (live cameras are sampled, "
                       "stills and files replayed at this rate)")
    loop: bool = Field(True, description="replay an image folder or video in a loop")
    preview: bool = Field(False, description="open a preview window (--preview)")
    retry_s: float = Field(2.0, gt=0, description="wait before reopening a missing or failing camera")
    frame_timeout_s: float = Field(5.0, gt=0)


class FaceSettings(Section):
    backend: Literal["dlib", "insightface"] = "dlib"
    model_root: str | None = Field(None, description="InsightFace model root (lab backend)")
    # cosine similarity between identity embeddings above which a face is recognised, per backend.
    # dlib: midpoint of the gap measured on shared/data/faces (upsample 1, 1 jitter): same identity
    # min 0.932 (93 pairs), different identity max 0.907 (1447 pairs) -> 0.92. insightface: the
    # original robot's 0.3.
    recognition_threshold: dict[str, float] = {"dlib": 0.92, "insightface": 0.3}
    identify_every_n_frames: int = Field(10, ge=1, description="re-identify a stable track every N frames")
    track_hold_s: float = Field(2.5, ge=0, description="active-user switch hysteresis")
    announce_period_s: float = Field(5.0, gt=0, description="user_detected heartbeat")
    no_face_timeout_s: float = Field(5.0, gt=0)
    face_store_cooldown_s: float = Field(10.0, ge=0)
    max_face_images: int = Field(3, ge=1)
    detector_upsample: int = Field(1, ge=0, le=2, description="dlib HOG upsampling (1 finds smaller faces)")
    detect_max_side: int = Field(
        320, ge=0, description="detect on a copy scaled to this longer side (0 = full frame); boxes are mapped "
        "back, identity and emotion use the full frame. 320 keeps dlib HOG near 40 ms per 640x480 frame",
    )
    registration_wait_s: float = Field(
        5.0, gt=0, description="how long a user_info request waits for a tracked face before it is dropped"
    )
    crop_margin: float = Field(0.25, ge=0, le=1, description="stored face crop: box plus this share on each side")


class EmotionSettings(Section):
    backend: Literal["fer_tflite", "deepface", "none"] = "fer_tflite"


class SceneEncoderSettings(Section):
    backend: Literal["mobilenet_v2", "clip", "none"] = "mobilenet_v2"
    clip_model: str = "openai/clip-vit-base-patch32"


class CaptionerSettings(Section):
    backend: Literal["tags", "moondream2", "none"] = "tags"
    moondream_revision: str = "2025-06-21"


class SelectiveMemorySettings(Section):
    policy: Literal["intensity", "pad_arousal", "vision"] = "intensity"
    trigger: Literal["event", "interval"] = Field("event", description="NADINE_STORAGE_TRIGGER")
    emotion_source: Literal["user", "robot"] = Field("user", description="NADINE_STORAGE_EMOTION_SOURCE")
    intensity_threshold: float = Field(0.5, ge=0, le=1)
    arousal_threshold: float = Field(0.25, ge=0, le=1)
    w_emotion: float = Field(0.8, ge=0)
    w_novelty: float = Field(0.2, ge=0)
    novelty_threshold: float = Field(0.45, ge=0, le=2)
    memorability_threshold: float = Field(0.4, ge=0, le=1)
    happy_boost_factor: float = Field(1.2, gt=0)
    memorability_check_interval: float = Field(3.0, gt=0, description="seconds, interval trigger")
    scene_store_cooldown_s: float = Field(15.0, ge=0, description="interval trigger")
    decision_wait_s: float = Field(
        5.0, gt=0, description="an affect event whose user is not in view this long is decided 'not in view'"
    )
    vision_rule: Literal["paper", "weighted"] = Field(
        "paper",
        description="vision policy: 'paper' stores if e > 0 or n > novelty_threshold (seed 003 eq. 4); "
        "'weighted' stores if w_emotion*e + w_novelty*n_salience >= memorability_threshold "
        "(the local robot's code)",
    )
    emotion_thresholds: dict[str, float] = {
        "neutral": 1.0, "happy": 0.5, "sad": 0.7, "surprise": 0.7, "anger": 0.7, "contempt": 0.7,
        "fear": 0.8, "disgust": 0.8,
    }


class FerSamplerSettings(Section):
    enabled: bool = Field(False, description="NADINE_ENABLE_FER_SAMPLING (on with --study)")
    interval_s: float = Field(1.5, gt=0, description="NADINE_FER_INTERVAL")
    novelty: bool = Field(False, description="NADINE_FER_NOVELTY")
    log_path: str | None = Field(None, description="NADINE_FER_LOG; default <data>/study_logs/fer_samples.jsonl")


class PerceptionSettings(Section):
    camera: CameraSettings = CameraSettings()
    faces: FaceSettings = FaceSettings()
    emotion: EmotionSettings = EmotionSettings()
    scene_encoder: SceneEncoderSettings = SceneEncoderSettings()
    captioner: CaptionerSettings = CaptionerSettings()
    selective_memory: SelectiveMemorySettings = SelectiveMemorySettings()
    fer: FerSamplerSettings = FerSamplerSettings()
