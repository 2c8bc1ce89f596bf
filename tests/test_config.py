"""Config: YAML + NADINE_* env vars -> validated settings; a bad value names key, value and rule."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from common.config import ConfigError, NadineSettings, load_settings
from common.config.env import ENV_KEYS
from common.config.loader import dump_effective
from tests.support import PROJECT_ROOT


def test_shipped_config_is_valid_and_has_reference_defaults():
    s = load_settings(environ={})
    assert s.perception.selective_memory.policy == "intensity"
    assert s.perception.selective_memory.intensity_threshold == 0.5
    assert s.perception.selective_memory.trigger == "event"
    assert s.common.enable_visual_memory is True
    assert s.common.topic_root == "nadine"
    assert s.common.data_dir == (PROJECT_ROOT / "interaction" / "db").resolve()


def test_env_vars_override():
    s = load_settings(environ={
        "NADINE_ENABLE_VISUAL_MEMORY": "0", "NADINE_STORAGE_TRIGGER": "interval",
        "NADINE_STORAGE_EMOTION_SOURCE": "robot", "NADINE_STUDY_LOG": "1", "NADINE_PARTICIPANT_ID": "P07",
        "NADINE_FER_INTERVAL": "2.5", "NADINE_TOPIC_ROOT": "nadine/robot7",
        "NADINE_PROFILE_response_agent": "claude_response", "NADINE_DATA_DIR": "/tmp/nadine-x",
    })
    assert s.common.enable_visual_memory is False
    assert s.perception.selective_memory.trigger == "interval"
    assert s.perception.selective_memory.emotion_source == "robot"
    assert s.interaction.study.enabled and s.interaction.study.participant_id == "P07"
    assert s.perception.fer.interval_s == 2.5
    assert s.common.topic_root == "nadine/robot7"
    assert s.interaction.llm.agents["response_agent"] == "claude_response"
    assert s.common.data_dir == Path("/tmp/nadine-x")
    assert s.study_condition == "B"


@pytest.mark.parametrize("var", sorted(ENV_KEYS))
def test_every_documented_env_var_maps_to_a_real_key(var):
    node = NadineSettings()
    for part in ENV_KEYS[var].split("."):
        assert part in type(node).model_fields, f"{var} -> {ENV_KEYS[var]}: no field {part!r}"
        node = getattr(node, part)


def test_invalid_env_value_names_key_value_and_rule():
    with pytest.raises(ConfigError) as err:
        load_settings(environ={"NADINE_STORAGE_TRIGGER": "sometimes"})
    text = str(err.value)
    assert "perception.selective_memory.trigger" in text and "'sometimes'" in text
    assert "NADINE_STORAGE_TRIGGER" in text and "event" in text


def test_invalid_yaml_value_names_file(tmp_path):
    (tmp_path / "perception.yaml").write_text("perception:\n  selective_memory:\n    intensity_threshold: lots\n")
    with pytest.raises(ConfigError) as err:
        load_settings(config_dir=tmp_path, environ={})
    assert "perception.selective_memory.intensity_threshold = 'lots'" in str(err.value)
    assert "perception.yaml" in str(err.value)


def test_unknown_key_is_an_error(tmp_path):
    (tmp_path / "control.yaml").write_text("control:\n  tts:\n    provder: espeak\n")
    with pytest.raises(ConfigError, match="control.tts.provder"):
        load_settings(config_dir=tmp_path, environ={})


def test_override_pairs():
    s = load_settings(environ={}, overrides=["perception.camera.fps=3", "interaction.retrieval.mode=fusion"])
    assert s.perception.camera.fps == 3 and s.interaction.retrieval.mode == "fusion"
    with pytest.raises(ConfigError, match="must start with"):
        load_settings(environ={}, overrides=["nope.x=1"])


def test_process_exits_2_with_one_line_on_bad_config(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "NADINE_STORAGE_EMOTION_SOURCE": "face", "NADINE_LOG_DIR": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-m", "perception"], cwd=PROJECT_ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "perception.selective_memory.emotion_source = 'face'" in proc.stderr


def test_per_process_broker_credentials_win_over_the_shared_pair():
    env = {"NADINE_MQTT_USERNAME": "shared", "NADINE_MQTT_PASSWORD": "s",
           "NADINE_MQTT_USERNAME_PERCEPTION": "perception", "NADINE_MQTT_PASSWORD_PERCEPTION": "p"}
    own = load_settings(environ=env, process="perception").common.mqtt
    assert (own.username, own.password.get_secret_value()) == ("perception", "p")
    other = load_settings(environ=env, process="control").common.mqtt
    assert (other.username, other.password.get_secret_value()) == ("shared", "s")
    # the broker_credentials.sh environment alone: the user is the process name
    alone = load_settings(environ={"NADINE_MQTT_PASSWORD_CONTROL": "c"}, process="control").common.mqtt
    assert (alone.username, alone.password.get_secret_value()) == ("control", "c")


def test_the_broker_password_never_prints():
    settings = load_settings(environ={"NADINE_MQTT_PASSWORD": "hunter2-secret"}, process="perception")
    assert settings.common.mqtt.password.get_secret_value() == "hunter2-secret"
    for shown in (dump_effective(settings), repr(settings), str(settings.common.mqtt), settings.model_dump_json()):
        assert "hunter2-secret" not in shown
