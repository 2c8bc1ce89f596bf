#!/usr/bin/env bash
# Starts Nadine: a loopback Mosquitto (unless a broker already answers), then perception, interaction
# and control, each logging to logs/<process>.log. Ctrl-C (or `./start_nadine.sh --stop` from another
# terminal) ends every process this script started, and the broker if it started one.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$ROOT"
RUN_DIR="${NADINE_RUN_DIR:-$ROOT/run}"
LOG_DIR="${NADINE_LOG_DIR:-$ROOT/logs}"
PROCESSES=(perception interaction control)

usage() {
  cat <<'EOF'
usage: ./start_nadine.sh [options]
  --demo               play the bundled two-session demo conversation against a replayed camera
  --chat               type turns in this terminal; replies are printed (the suite runs as usual)
  --inspector          also serve the memory inspector on http://127.0.0.1:8765/ (NADINE_INSPECTOR_PORT)
  --study              study logging on (NADINE_STUDY_LOG=1, FER sampling and novelty unless set)
  --no-visual-memory   study condition B (NADINE_ENABLE_VISUAL_MEMORY=0 for perception and interaction)
  --camera SOURCE      webcam index, video file, image folder, watch:<folder> or realsense (NADINE_CAMERA)
  --preview            open the camera preview window
  --no-broker          never start Mosquitto; use the broker that NADINE_MQTT_HOST/PORT name
  --detach             return once everything is up (stop later with --stop)
  --stop               stop what an earlier start_nadine.sh started
EOF
}

stop_group() {
  local pidfile pid name limit
  for name in "$@"; do
    pidfile="$RUN_DIR/$name.pid"
    [ -f "$pidfile" ] || continue
    pid="$(cat "$pidfile")"
    if kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" 2>/dev/null || true
    fi
  done
  for name in "$@"; do
    pidfile="$RUN_DIR/$name.pid"
    [ -f "$pidfile" ] || continue
    pid="$(cat "$pidfile")"
    # interaction finishes the turn in progress and saves the open session's episode first, within
    # its model budgets (written at start by common.config.check --stop-seconds); the rest stop at once
    limit=5
    if [ "$name" = interaction ] && [ -f "$RUN_DIR/interaction.stop_s" ]; then limit="$(cat "$RUN_DIR/interaction.stop_s")"; fi
    for _ in $(seq 1 "$(( ${limit%.*} * 10 ))"); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      echo "[nadine] $name (pid $pid) did not stop in $limit s; killing it" >&2
      kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$pidfile"
  done
}

# the broker last: the processes say `offline` and interaction saves the open episode through it
stop_all() { stop_group "${PROCESSES[@]}" chat inspector; stop_group broker; }

MODE=run DETACH=0 START_BROKER=1 INSPECTOR=0
while [ $# -gt 0 ]; do
  case "$1" in
    --demo) MODE=demo ;;
    --chat) MODE=chat ;;
    --inspector) INSPECTOR=1 ;;
    --study)
      export NADINE_STUDY_LOG=1
      export NADINE_ENABLE_FER_SAMPLING="${NADINE_ENABLE_FER_SAMPLING:-1}"
      export NADINE_FER_NOVELTY="${NADINE_FER_NOVELTY:-1}" ;;
    --no-visual-memory) export NADINE_ENABLE_VISUAL_MEMORY=0 ;;
    --camera) [ $# -ge 2 ] || { echo "--camera needs a SOURCE" >&2; exit 2; }; export NADINE_CAMERA="$2"; shift ;;
    --camera=*) export NADINE_CAMERA="${1#--camera=}" ;;
    --preview) export NADINE_PREVIEW=1 ;;
    --no-broker) START_BROKER=0 ;;
    --detach) DETACH=1 ;;
    --stop) stop_all; echo "[nadine] stopped" >&2; exit 0 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown option: $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done

"$ROOT/scripts/bootstrap.sh" run
PY="${NADINE_VENV:-$ROOT/.venv}/bin/python"
. "$ROOT/scripts/freed_memory.sh"

if [ "$MODE" = demo ]; then
  # The runner starts the broker and the three processes itself (fresh data root, replayed camera).
  exec "$PY" -m scripts.run_script "$ROOT/scripts/demo/demo.yaml" --demo
fi

mkdir -p "$RUN_DIR" "$LOG_DIR"
for name in "${PROCESSES[@]}"; do
  if [ -f "$RUN_DIR/$name.pid" ] && kill -0 "$(cat "$RUN_DIR/$name.pid")" 2>/dev/null; then
    echo "[nadine] $name is already running (pid $(cat "$RUN_DIR/$name.pid")); use --stop first" >&2
    exit 1
  fi
done

# Fail before starting anything when the config is invalid: one line naming the key.
"$PY" -m common.config.check
"$PY" -m common.config.check --stop-seconds > "$RUN_DIR/interaction.stop_s"
# --preview needs a GUI OpenCV build and a display: refuse now, with the fix, rather than per frame
if [ "${NADINE_PREVIEW:-0}" = 1 ] || [ "${NADINE_PREVIEW:-}" = true ]; then
  "$PY" -m perception.preview || exit 2
fi

HOST="${NADINE_MQTT_HOST:-127.0.0.1}"
PORT="${NADINE_MQTT_PORT:-1883}"
broker_answers() { timeout 1 bash -c "exec 3<>/dev/tcp/$HOST/$PORT" 2>/dev/null; }

cleanup() { trap - INT TERM EXIT; echo "[nadine] stopping" >&2; stop_all; }

if ! broker_answers; then
  if [ "$START_BROKER" = 0 ]; then
    echo "[nadine] no broker answers on $HOST:$PORT and --no-broker was given" >&2
    exit 1
  fi
  sed "s/^listener .*/listener $PORT 127.0.0.1/" "$ROOT/config/mosquitto.conf" > "$RUN_DIR/mosquitto.conf"
  MOSQUITTO="$(command -v mosquitto || echo /usr/sbin/mosquitto)"
  "$MOSQUITTO" -c "$RUN_DIR/mosquitto.conf" >> "$LOG_DIR/mosquitto.log" 2>&1 &
  echo $! > "$RUN_DIR/broker.pid"
  for _ in $(seq 1 50); do broker_answers && break; sleep 0.1; done
  broker_answers || { echo "[nadine] Mosquitto did not start; see $LOG_DIR/mosquitto.log" >&2; stop_all; exit 1; }
  echo "[nadine] started Mosquitto on $HOST:$PORT (pid $(cat "$RUN_DIR/broker.pid"))" >&2
else
  # a second suite on the same broker and topic root would answer this one's turns and keep its
  # memories: the running one says so in its retained status (its last will clears it)
  TOPIC_ROOT="${NADINE_TOPIC_ROOT:-nadine}"
  LIVE="$({ mosquitto_sub -h "$HOST" -p "$PORT" -t "$TOPIC_ROOT/status/+" -v -W 1 2>/dev/null || true; } \
          | awk '$2 == "online" && $1 ~ /\/status\/(perception|interaction|control)$/ {print $1}' | sort -u | paste -sd' ')"
  if [ -n "$LIVE" ]; then
    echo "[nadine] another Nadine is already running on $HOST:$PORT under topic root '$TOPIC_ROOT' ($LIVE online);" \
         "stop it (./start_nadine.sh --stop) or give this one its own NADINE_MQTT_PORT or NADINE_TOPIC_ROOT" >&2
    exit 1
  fi
fi

[ "$DETACH" = 1 ] || trap cleanup INT TERM EXIT
# each process writes logs/<process>.log itself (rotated, ids and names pseudonymised, uncaught
# exceptions included); <process>.out keeps only what bypasses logging (a crash in native code)
export NADINE_LOG_CONSOLE=0
if [ "$DETACH" = 0 ]; then
  # every error (a camera that cannot be opened, an LLM endpoint that does not answer, no broker, a
  # model package missing) once, on one line, on this terminal: descriptor 3 is a copy of its stderr
  exec 3>&2
  export NADINE_PROBLEMS_FD=3
fi
for name in "${PROCESSES[@]}"; do
  "$PY" -m "$name" >> "$LOG_DIR/$name.out" 2>&1 &
  echo $! > "$RUN_DIR/$name.pid"
  echo "[nadine] started $name (pid $!), log $LOG_DIR/$name.log" >&2
done
if [ "$INSPECTOR" = 1 ]; then
  "$PY" -m scripts.inspector --port "${NADINE_INSPECTOR_PORT:-8765}" >> "$LOG_DIR/inspector.log" 2>&1 &
  echo $! > "$RUN_DIR/inspector.pid"
  echo "[nadine] memory inspector on http://127.0.0.1:${NADINE_INSPECTOR_PORT:-8765}/ (pid $!)" >&2
fi

if [ "$DETACH" = 1 ]; then
  # return only when every process says it is online (retained status), or say which did not
  pids="$(for name in "${PROCESSES[@]}"; do printf '%s=%s,' "$name" "$(cat "$RUN_DIR/$name.pid")"; done)"
  # online, and perception's camera open: a camera that cannot be opened is a degraded start (exit 1)
  if "$PY" -m scripts.wait_online --timeout "${NADINE_START_TIMEOUT:-120}" --pids "$pids" "${PROCESSES[@]}"; then
    echo "[nadine] all processes online; watch the bus: mosquitto_sub -h $HOST -p $PORT -t '${NADINE_TOPIC_ROOT:-nadine}/#' -v" >&2
    exit 0
  fi
  echo "[nadine] see $LOG_DIR/<process>.log; ./start_nadine.sh --stop ends what did start" >&2
  exit 1
fi
if [ "$MODE" = chat ]; then
  "$PY" -m interaction.chat || true
  exit 0
fi
echo "[nadine] running; Ctrl-C stops everything. Watch the bus: mosquitto_sub -h $HOST -p $PORT -t '${NADINE_TOPIC_ROOT:-nadine}/#' -v" >&2
# Return when any process ends (a crash ends the suite rather than leaving it half up) or on Ctrl-C.
wait -n || true
