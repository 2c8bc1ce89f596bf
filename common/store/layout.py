"""The on-disk layout of the data root (architecture.md), so a lab's existing user_profiles/ works."""

from __future__ import annotations

from pathlib import Path

from common.store.ids import validate_user_id


class PathOutsideDataRoot(ValueError):
    pass


FER_SAMPLES_NAME = "fer_samples.jsonl"  # perception's FER samples beside the study records


class DataLayout:
    def __init__(self, root: Path, robot_id: str | None = None) -> None:
        self.root = Path(root).resolve()
        self.robot_id = robot_id  # robots of a fleet mint ids in their own namespace (<robot_id>-...)

    @property
    def user_ids_file(self) -> Path:
        return self.root / "user_ids.json"

    @property
    def profiles_dir(self) -> Path:
        return self.root / "memory" / "user_profiles"

    @property
    def chroma_dir(self) -> Path:
        return self.root / "memory" / "chroma"

    @property
    def rag_files_dir(self) -> Path:
        return self.root / "knowledge" / "rag_files"

    @property
    def knowledge_chroma_dir(self) -> Path:
        return self.root / "knowledge" / "chroma"

    @property
    def study_logs_dir(self) -> Path:
        return self.root / "study_logs"

    @property
    def fer_samples_file(self) -> Path:
        return self.study_logs_dir / FER_SAMPLES_NAME

    @property
    def captures_dir(self) -> Path:
        return self.root / "nadine_view"

    @property
    def runtime_dir(self) -> Path:
        """Small shared runtime state (the simulated clock offset, runtime language)."""
        return self.root / "runtime"

    @property
    def user_id_counter_file(self) -> Path:
        """The highest user id number issued per day (so ids are never reused after a forget)."""
        return self.runtime_dir / "user_id_counter.json"

    def user_dir(self, user_id: str) -> Path:
        return self.profiles_dir / validate_user_id(user_id)

    def user_info_file(self, user_id: str) -> Path:
        return self.user_dir(user_id) / "user_info.json"

    def faces_dir(self, user_id: str) -> Path:
        return self.user_dir(user_id) / "faces"

    def scenes_dir(self, user_id: str) -> Path:
        return self.user_dir(user_id) / "memorable_scenes"

    def inside(self, path: str | Path) -> Path:
        """Resolve `path` (relative paths are taken from the data root) and refuse anything that
        escapes the data root, symlinks included."""
        candidate = Path(path)
        if not candidate.is_absolute():
            candidate = self.root / candidate
        resolved = candidate.resolve()
        if resolved != self.root and self.root not in resolved.parents:
            raise PathOutsideDataRoot(f"{path} is outside the data root {self.root}")
        return resolved

    def user_ids(self) -> list[str]:
        """Every valid user folder name under user_profiles/ (invalid names are ignored)."""
        if not self.profiles_dir.is_dir():
            return []
        from common.store.ids import is_valid_user_id

        return sorted(p.name for p in self.profiles_dir.iterdir() if p.is_dir() and is_valid_user_id(p.name))
