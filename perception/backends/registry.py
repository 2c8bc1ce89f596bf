"""Config name -> perception model backend. Models load once per process (instances are cached);
a backend that cannot load raises BackendUnavailable, which the caller logs once."""

from __future__ import annotations

from common.config import NadineSettings
from common.vision.cache import load_once
from perception.backends.base import EmotionRecognizer, FaceDetector, FaceIdentifier
from perception.backends.emotion_deepface import DeepFaceEmotion
from perception.backends.emotion_fer import FerTfliteEmotion
from perception.backends.faces_dlib import DlibFaceDetector, DlibFaceIdentifier
from perception.backends.faces_insightface import InsightFaceDetector, InsightFaceIdentifier, InsightFaceModel

INSIGHTFACE_DET_SIZE = 640  # det_size=(640, 640), as the original robot ran it

_dlib_detector = load_once(DlibFaceDetector)
_dlib_identifier = load_once(DlibFaceIdentifier)
_insightface = load_once(InsightFaceModel)
_emotion = {
    "fer_tflite": load_once(FerTfliteEmotion),
    "deepface": load_once(DeepFaceEmotion),
}


def build_face_detector(settings: NadineSettings) -> FaceDetector:
    faces = settings.perception.faces
    if faces.backend == "insightface":
        return InsightFaceDetector(_insightface(faces.model_root, INSIGHTFACE_DET_SIZE))
    return _dlib_detector(faces.detector_upsample)


def build_face_identifier(settings: NadineSettings) -> FaceIdentifier:
    faces = settings.perception.faces
    if faces.backend == "insightface":
        return InsightFaceIdentifier(_insightface(faces.model_root, INSIGHTFACE_DET_SIZE))
    return _dlib_identifier()


def recognition_threshold(settings: NadineSettings) -> float:
    """Cosine similarity above which the configured identity backend recognises a face."""
    faces = settings.perception.faces
    try:
        return faces.recognition_threshold[faces.backend]
    except KeyError:
        raise ValueError(
            f"perception.faces.recognition_threshold has no entry for backend {faces.backend!r}"
        ) from None


def build_emotion(settings: NadineSettings) -> EmotionRecognizer | None:
    """None for backend `none`. Probabilities are unboosted: the vision policy applies the original's
    happy boost itself (selective_memory/policies.boost_happy), the FER sampler logs them as measured."""
    backend = settings.perception.emotion.backend
    return None if backend == "none" else _emotion[backend]()
