"""Load config/*.yaml, merge config/generated/*.yaml (values tools such as calibration write), apply
NADINE_* env vars and --config-override pairs, validate once."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from common.config.base import Section
from common.config.common_settings import CommonSettings
from common.config.control_settings import ControlSettings
from common.config.env import env_overrides
from common.config.interaction_settings import InteractionSettings
from common.config.perception_settings import PerceptionSettings

PROJECT_ROOT = Path(__file__).resolve().parents[2]
SECTIONS = ("common", "perception", "interaction", "control")
# Written by tools (scripts/eval/calibrate --write), never by hand; merged key by key over the section
# files so a tool rewrites its own small file instead of editing a commented hand-written one.
GENERATED_DIR = "generated"


class ConfigError(RuntimeError):
    """Start-up stops with this: it names the key, the value, where it came from and what is allowed."""


class NadineSettings(Section):
    common: CommonSettings = CommonSettings()
    perception: PerceptionSettings = PerceptionSettings()
    interaction: InteractionSettings = InteractionSettings()
    control: ControlSettings = ControlSettings()

    @property
    def data_dir(self) -> Path:
        return self.common.data_dir

    @property
    def study_condition(self) -> str:
        return self.interaction.study.condition or ("A" if self.common.enable_visual_memory else "B")


def _set_dotted(tree: dict[str, Any], dotted: str, value: Any) -> None:
    parts = dotted.split(".")
    node = tree
    for part in parts[:-1]:
        child = node.get(part)
        if not isinstance(child, dict):
            child = {}
            node[part] = child
        node = child
    node[parts[-1]] = value


def _get_dotted(tree: Any, parts: list[str]) -> Any:
    for part in parts:
        if isinstance(tree, dict) and part in tree:
            tree = tree[part]
        else:
            return None
    return tree


def _merge(tree: dict[str, Any], data: dict[str, Any], prefix: str, sources: dict[str, str], origin: str) -> None:
    """Deep-merge `data` into `tree`; each leaf remembers where it came from."""
    for key, value in data.items():
        dotted = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, dict) and isinstance(tree.get(key), dict):
            _merge(tree[key], value, dotted, sources, origin)
        else:
            tree[key] = value
            sources[dotted] = origin


def _read_yaml(path: Path) -> dict[str, Any]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        raise ConfigError(f"config error: {path} is not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"config error: {path} must hold a mapping with a top-level section key")
    return data


def default_config_dir(environ: dict[str, str] | None = None) -> Path:
    environ = os.environ if environ is None else environ
    return Path(environ.get("NADINE_CONFIG_DIR") or PROJECT_ROOT / "config")


def load_settings(
    config_dir: Path | None = None,
    environ: dict[str, str] | None = None,
    overrides: list[str] | None = None,
    process: str | None = None,
) -> NadineSettings:
    """Build validated settings. Raises ConfigError with one readable line on any bad value.
    `process` selects that process's own broker credentials when they are set."""
    environ = dict(os.environ if environ is None else environ)
    config_dir = config_dir or default_config_dir(environ)
    raw: dict[str, Any] = {}
    sources: dict[str, str] = {}  # dotted key prefix -> where it came from
    for section in SECTIONS:
        path = config_dir / f"{section}.yaml"
        if not path.exists():
            continue
        data = _read_yaml(path)
        unknown = set(data) - {section}
        if unknown:
            raise ConfigError(
                f"config error: {path} has top-level key(s) {sorted(unknown)}; only '{section}:' is allowed"
            )
        raw[section] = data.get(section) or {}
        sources[section] = str(path)
    for path in sorted((config_dir / GENERATED_DIR).glob("*.yaml")):
        data = _read_yaml(path)
        unknown = set(data) - set(SECTIONS)
        if unknown:
            raise ConfigError(f"config error: {path} has top-level key(s) {sorted(unknown)}; allowed: {', '.join(SECTIONS)}")
        _merge(raw, data, "", sources, str(path))
    for key, (value, var) in env_overrides(environ, process).items():
        _set_dotted(raw, key, value)
        sources[key] = f"env {var}"
    for pair in overrides or []:
        if "=" not in pair:
            raise ConfigError(f"config error: override {pair!r} must look like section.key=value")
        key, text = pair.split("=", 1)
        if key.split(".")[0] not in SECTIONS:
            raise ConfigError(f"config error: override key {key!r} must start with one of {', '.join(SECTIONS)}")
        _set_dotted(raw, key.strip(), yaml.safe_load(text))
        sources[key.strip()] = "--config-override"
    try:
        settings = NadineSettings.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(_describe(exc, raw, sources)) from None
    data_dir = settings.common.data_dir
    if not data_dir.is_absolute():
        settings.common.data_dir = (PROJECT_ROOT / data_dir).resolve()
    log_dir = settings.common.log_dir
    if not log_dir.is_absolute():
        settings.common.log_dir = (PROJECT_ROOT / log_dir).resolve()
    return settings


def _describe(exc: ValidationError, raw: dict[str, Any], sources: dict[str, str]) -> str:
    err = exc.errors()[0]
    parts = [str(p) for p in err["loc"]]
    key = ".".join(parts)
    value = _get_dotted(raw, parts)
    origin = next(
        (sources[k] for k in sorted(sources, key=len, reverse=True) if key == k or key.startswith(k + ".")),
        "defaults",
    )
    allowed = err["msg"]
    if err["type"] == "extra_forbidden":
        allowed = "unknown key (check the spelling against config/*.yaml)"
    more = f" (and {len(exc.errors()) - 1} more)" if len(exc.errors()) > 1 else ""
    return f"config error: {key} = {value!r} (from {origin}): {allowed}{more}"


def dump_effective(settings: BaseModel) -> str:
    """The effective config as YAML (for `--print-config` and logs); secrets are SecretStr fields,
    which dump masked."""
    return yaml.safe_dump(settings.model_dump(mode="json"), sort_keys=False)
