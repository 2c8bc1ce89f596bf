"""The documented NADINE_* environment variables (the original start scripts' and ours), mapped onto
config keys.

This table is the only place that knows an env var name. NADINE_PROFILE_<agent> is the one dynamic
family: it overrides interaction.llm.agents.<agent>.
"""

from __future__ import annotations

import difflib

ENV_KEYS: dict[str, str] = {
    # ours
    "NADINE_TOPIC_ROOT": "common.topic_root",
    "NADINE_ROBOT_ID": "common.robot_id",
    "NADINE_DATA_DIR": "common.data_dir",
    "NADINE_LOG_DIR": "common.log_dir",
    "NADINE_LOG_LEVEL": "common.log_level",
    "NADINE_MQTT_HOST": "common.mqtt.primary_host",
    "NADINE_MQTT_FALLBACK_HOST": "common.mqtt.fallback_host",
    "NADINE_MQTT_PORT": "common.mqtt.port",
    "NADINE_MQTT_USERNAME": "common.mqtt.username",
    "NADINE_MQTT_PASSWORD": "common.mqtt.password",
    "NADINE_MQTT_TLS": "common.mqtt.tls.enabled",
    "NADINE_MQTT_CA_CERTS": "common.mqtt.tls.ca_certs",
    "NADINE_CAMERA": "perception.camera.source",
    "NADINE_CAMERA_FPS": "perception.camera.fps",
    "NADINE_PREVIEW": "perception.camera.preview",
    "NADINE_LLM_BASE_URL": "interaction.llm.base_url",
    "NADINE_LLM_MODEL": "interaction.llm.model",
    "NADINE_LLM_BUDGET_UNDERSTANDING_S": "interaction.llm.budget.understanding_s",
    "NADINE_LLM_BUDGET_RESPONSE_S": "interaction.llm.budget.response_s",
    "NADINE_RETRIEVAL_MODE": "interaction.retrieval.mode",
    "NADINE_CHROMA_MODE": "interaction.chroma.mode",
    "NADINE_CHROMA_HOST": "interaction.chroma.host",
    "NADINE_CHROMA_PORT": "interaction.chroma.port",
    "NADINE_CHROMA_SERVER_PATH": "interaction.chroma.server_persist_dir",
    "NADINE_PRESENCE_GRACE_S": "interaction.presence_grace_s",
    "NADINE_SILENCE_ENDS_CONVERSATION_S": "interaction.silence_ends_conversation_s",
    "NADINE_TTS": "control.tts.provider",
    "NADINE_ROBOT_DRIVER": "control.driver.kind",
    "NADINE_SERIAL_PORT": "control.driver.serial_port",
    # the original start scripts' switches, kept so their studies run unchanged
    "NADINE_ENABLE_VISION_AGENT": "interaction.enable_vision_agent",
    "NADINE_ENABLE_MEMORY_AGENTS": "interaction.enable_memory_agents",
    "NADINE_ENABLE_VISUAL_MEMORY": "common.enable_visual_memory",
    "NADINE_STORAGE_TRIGGER": "perception.selective_memory.trigger",
    "NADINE_STORAGE_EMOTION_SOURCE": "perception.selective_memory.emotion_source",
    "NADINE_DESC_EMBED_MODEL": "interaction.visual_memory.desc_embed_model",
    "NADINE_STUDY_LOG": "interaction.study.enabled",
    "NADINE_STUDY_CONDITION": "interaction.study.condition",
    "NADINE_PARTICIPANT_ID": "interaction.study.participant_id",
    "NADINE_STUDY_AUDIO_TIMEOUT": "interaction.study.audio_timeout_s",
    "NADINE_ENABLE_FER_SAMPLING": "perception.fer.enabled",
    "NADINE_FER_INTERVAL": "perception.fer.interval_s",
    "NADINE_FER_NOVELTY": "perception.fer.novelty",
    "NADINE_FER_LOG": "perception.fer.log_path",
}

PROFILE_PREFIX = "NADINE_PROFILE_"
PROFILE_KEY = "interaction.llm.agents"
# Per-process broker credentials (NADINE_MQTT_PASSWORD_PERCEPTION, optional ..._USERNAME_PERCEPTION,
# default user = the process name) win over the shared pair, so the one environment that
# scripts/broker_credentials.sh reads also starts every process under its own ACL user.
CREDENTIAL_USERS = ("PERCEPTION", "INTERACTION", "CONTROL", "OPERATOR")  # scripts/broker_credentials.sh
PROCESS_CREDENTIALS = {"NADINE_MQTT_USERNAME": "common.mqtt.username", "NADINE_MQTT_PASSWORD": "common.mqtt.password"}


def env_overrides(environ: dict[str, str], process: str | None = None) -> dict[str, tuple[str, str]]:
    """dotted config key -> (value, env var name) for every documented variable that is set."""
    found: dict[str, tuple[str, str]] = {}
    for var, key in ENV_KEYS.items():
        if var in environ and environ[var] != "":
            found[key] = (environ[var], var)
    if process:
        for base, key in PROCESS_CREDENTIALS.items():
            var = f"{base}_{process.upper()}"
            if environ.get(var):
                found[key] = (environ[var], var)
        password_var = f"NADINE_MQTT_PASSWORD_{process.upper()}"
        if environ.get(password_var) and not environ.get(f"NADINE_MQTT_USERNAME_{process.upper()}"):
            # on a robot of a fleet the broker knows this process as <process>-<robot_id>
            user = f"{process}-{environ['NADINE_ROBOT_ID']}" if environ.get("NADINE_ROBOT_ID") else process
            found[PROCESS_CREDENTIALS["NADINE_MQTT_USERNAME"]] = (user, password_var)
    for var, value in environ.items():
        if var.startswith(PROFILE_PREFIX) and len(var) > len(PROFILE_PREFIX) and value:
            found[f"{PROFILE_KEY}.{var[len(PROFILE_PREFIX):]}"] = (value, var)
    return found


# NADINE_* variables read outside the validated config (launcher, bootstrap, test data, logging).
OTHER_VARS = frozenset({
    "NADINE_CONFIG_DIR", "NADINE_SHARED_DATA", "NADINE_VENV", "NADINE_PYTHON", "NADINE_RUN_DIR",
    "NADINE_LOG_TO_FILE", "NADINE_LOG_CONSOLE", "NADINE_START_TIMEOUT", "NADINE_WHEELHOUSE", "NADINE_INSPECTOR_PORT",
    "NADINE_INSPECTOR_TOKEN", "NADINE_ROBOT_IDS", "NADINE_PROBLEMS_FD", "NADINE_TEST_WORKERS",
})


def _known(var: str) -> bool:
    if var in ENV_KEYS or var in OTHER_VARS:
        return True
    if var.startswith(PROFILE_PREFIX) and len(var) > len(PROFILE_PREFIX):
        return True
    # per-process credentials: NADINE_MQTT_PASSWORD_<PROCESS>, NADINE_MQTT_USERNAME_<PROCESS>
    return any(var == f"{base}_{who}" for base in PROCESS_CREDENTIALS for who in CREDENTIAL_USERS)


def unknown_env_vars(environ: dict[str, str]) -> list[tuple[str, str | None]]:
    """(variable, closest known name or None) for every NADINE_* variable nothing reads, so a typo
    such as NADINE_CAMREA is reported at start instead of being silently ignored."""
    # compared without the shared NADINE_ prefix, which would make every name look alike
    suffixes = sorted(name.removeprefix("NADINE_") for name in ENV_KEYS.keys() | OTHER_VARS)
    found = []
    for var in sorted(environ):
        if var.startswith("NADINE_") and not _known(var):
            close = difflib.get_close_matches(var.removeprefix("NADINE_"), suffixes, n=1, cutoff=0.7)
            found.append((var, f"NADINE_{close[0]}" if close else None))
    return found


def describe_unknown_env_vars(environ: dict[str, str]) -> list[str]:
    """One warning line per unknown NADINE_* variable, naming the closest known one."""
    return [
        f"warning: {var} is not a Nadine variable and is ignored"
        + (f"; did you mean {close}?" if close else " (see the Configuration table in README.md)")
        for var, close in unknown_env_vars(environ)
    ]
