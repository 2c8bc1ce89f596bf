"""Configuration: YAML files under config/ plus the documented NADINE_* env vars, validated at start-up."""

from common.config.loader import ConfigError, NadineSettings, load_settings

__all__ = ["ConfigError", "NadineSettings", "load_settings"]
