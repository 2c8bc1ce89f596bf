"""Read a PyTorch state dict (.pth) into numpy arrays without torch and without running its pickle.

torch.save's legacy format (the one torchvision's published weights use) is a run of pickles — magic
number, format version, system info, the state dict, the list of storage keys — followed by each
storage's raw bytes (an int64 element count, then the elements). The state dict pickle names only a
few globals: the ordered dict, the tensor rebuild function and the storage types. The unpickler here
resolves exactly those to inert stand-ins and refuses any other global, so a crafted file can never
construct or call anything else.
"""

from __future__ import annotations

import pickle
import struct
import zipfile
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import numpy as np

MAGIC = 0x1950A86A20F9469CFC6C  # torch.serialization's MAGIC_NUMBER
FORMAT_VERSION = 1001


class StateDictError(ValueError):
    """The file is not a state dict this reader accepts (a foreign global, a layout it does not know)."""


@dataclass(frozen=True)
class _StorageType:
    dtype: np.dtype


@dataclass
class _Storage:
    dtype: np.dtype
    numel: int
    data: np.ndarray | None = None


@dataclass(frozen=True)
class _Tensor:
    storage: _Storage
    offset: int
    shape: tuple[int, ...]
    stride: tuple[int, ...]


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks, metadata=None):
    return _Tensor(storage, storage_offset, tuple(size), tuple(stride))


ALLOWED = {
    ("collections", "OrderedDict"): OrderedDict,
    ("torch._utils", "_rebuild_tensor_v2"): _rebuild_tensor_v2,
    ("torch", "FloatStorage"): _StorageType(np.dtype("<f4")),
    ("torch", "LongStorage"): _StorageType(np.dtype("<i8")),
}


class RestrictedUnpickler(pickle.Unpickler):
    """Resolves only the globals in ALLOWED; storages (persistent ids) become _Storage records."""

    def __init__(self, file: BinaryIO, storages: dict[str, _Storage]) -> None:
        super().__init__(file)
        self._storages = storages

    def find_class(self, module: str, name: str):
        try:
            return ALLOWED[(module, name)]
        except KeyError:
            raise StateDictError(f"refusing to unpickle {module}.{name}: a state dict holds only tensors") from None

    def persistent_load(self, pid):
        if not (isinstance(pid, tuple) and len(pid) == 6 and pid[0] == "storage"):
            raise StateDictError(f"unknown persistent id {pid!r}")
        _, kind, key, _location, numel, view = pid
        if not isinstance(kind, _StorageType) or view is not None:
            raise StateDictError(f"unsupported storage {kind!r} (view {view!r})")
        storage = self._storages.setdefault(key, _Storage(kind.dtype, int(numel)))
        if storage.dtype != kind.dtype or storage.numel != numel:
            raise StateDictError(f"storage {key} is declared twice with different types")
        return storage


def _materialise(name: str, t: _Tensor) -> np.ndarray:
    data = t.storage.data
    itemsize = data.itemsize
    last = t.offset + sum((n - 1) * s for n, s in zip(t.shape, t.stride, strict=True)) if all(t.shape) else t.offset
    if t.offset < 0 or min(t.stride, default=0) < 0 or last >= max(len(data), 1):
        raise StateDictError(f"tensor {name} reaches outside its storage")
    view = np.lib.stride_tricks.as_strided(
        data[t.offset:], shape=t.shape, strides=[s * itemsize for s in t.stride], writeable=False)
    return np.array(view, dtype=data.dtype.newbyteorder("="))


def read_state_dict(path: Path) -> dict[str, np.ndarray]:
    """The state dict in `path` as name -> array. StateDictError (a ValueError) for a file that is not
    a legacy-format state dict of float32/int64 tensors; pickle.UnpicklingError or EOFError for a
    damaged one."""
    with path.open("rb") as f:
        if zipfile.is_zipfile(f):
            raise StateDictError(f"{path} is in torch's zip format; only the legacy format is read")
        f.seek(0)
        storages: dict[str, _Storage] = {}
        header = [RestrictedUnpickler(f, storages).load() for _ in range(3)]
        if header[0] != MAGIC or header[1] != FORMAT_VERSION:
            raise StateDictError(f"{path} is not a torch.save file (magic {header[0]!r}, version {header[1]!r})")
        if not (isinstance(header[2], dict) and header[2].get("little_endian")):
            raise StateDictError(f"{path} was saved on a big-endian machine")
        state = RestrictedUnpickler(f, storages).load()
        keys = RestrictedUnpickler(f, storages).load()
        if not isinstance(state, dict) or sorted(keys) != sorted(storages):
            raise StateDictError(f"{path} holds no state dict, or its storages do not match their list")
        for key in keys:
            storage = storages[key]
            count = f.read(8)
            numel = struct.unpack("<q", count)[0] if len(count) == 8 else -1
            raw = f.read(storage.numel * storage.dtype.itemsize)
            if numel != storage.numel or len(raw) != numel * storage.dtype.itemsize:
                raise StateDictError(f"{path} is truncated or storage {key} has the wrong size")
            storage.data = np.frombuffer(raw, dtype=storage.dtype)
    tensors = {name: t for name, t in state.items() if isinstance(t, _Tensor)}
    if len(tensors) != len(state):
        raise StateDictError(f"{path}: the state dict holds values that are not tensors")
    return {name: _materialise(name, t) for name, t in tensors.items()}
