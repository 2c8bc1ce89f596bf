#!/usr/bin/env bash
# Write a Mosquitto password file and ACL for Nadine's processes from the environment.
#
#   NADINE_MQTT_PASSWORD_PERCEPTION=... NADINE_MQTT_PASSWORD_INTERACTION=... \
#   NADINE_MQTT_PASSWORD_CONTROL=... NADINE_MQTT_PASSWORD_OPERATOR=... \
#   [NADINE_TOPIC_ROOT=nadine/robot7] scripts/broker_credentials.sh OUT_DIR
#
# writes OUT_DIR/passwd (hashed, mode 600) and OUT_DIR/acl (config/mosquitto.acl.example for the
# topic root). Passwords never appear on a command line (mosquitto_passwd -U hashes the file in
# place), so `ps` does not show them. Use with config/mosquitto-secure.conf.example.
#
# Several robots on one broker (each started with NADINE_ROBOT_ID=<id>):
#
#   NADINE_ROBOT_IDS="r1 r2" NADINE_MQTT_PASSWORD_PERCEPTION_R1=... NADINE_MQTT_PASSWORD_INTERACTION_R1=... \
#   NADINE_MQTT_PASSWORD_CONTROL_R1=... NADINE_MQTT_PASSWORD_OPERATOR_R1=... (the same for R2) \
#   scripts/broker_credentials.sh OUT_DIR
#
# gives each robot its own users (perception-r1, ..., operator-r1) and ACL section, confined to
# <NADINE_TOPIC_ROOT>/<id>/: one robot's processes and operator can neither read nor write another's.
set -euo pipefail

out="${1:?usage: $0 OUT_DIR}"
here="$(cd "$(dirname "$0")/.." && pwd)"
root="${NADINE_TOPIC_ROOT:-nadine}"
root="${root%/}"
if [[ ! "$root" =~ ^[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*$ ]]; then
    echo "broker_credentials: NADINE_TOPIC_ROOT='$root' is not a topic root like nadine or nadine/robot7" >&2
    exit 2
fi
command -v mosquitto_passwd >/dev/null || { echo "broker_credentials: mosquitto_passwd missing (apt-get install mosquitto)" >&2; exit 2; }

processes=(perception interaction control operator)
robots=(${NADINE_ROBOT_IDS:-})
for robot in "${robots[@]}"; do
    if [[ ! "$robot" =~ ^[a-z0-9][a-z0-9-]{0,31}$ ]]; then
        echo "broker_credentials: robot id '$robot' in NADINE_ROBOT_IDS is not like robot7 (a-z, 0-9, -)" >&2
        exit 2
    fi
done
# user -> the variable holding its password, and the ACL section it gets (robot "" = the one robot)
users=() vars=()
for robot in "${robots[@]:-}"; do
    for process in "${processes[@]}"; do
        if [[ -n "$robot" ]]; then
            users+=("$process-$robot") vars+=("NADINE_MQTT_PASSWORD_${process^^}_${robot^^}")
        else
            users+=("$process") vars+=("NADINE_MQTT_PASSWORD_${process^^}")
        fi
    done
done
for i in "${!users[@]}"; do
    var="${vars[$i]//-/_}"
    vars[$i]="$var"
    if [[ -z "${!var:-}" ]]; then
        echo "broker_credentials: set $var (the password of MQTT user '${users[$i]}')" >&2
        exit 2
    fi
done

mkdir -p "$out"
umask 077
passwd="$out/passwd"
tmp="$(mktemp "$out/.tmp-passwd.XXXXXX")"
trap 'rm -f "$tmp"' EXIT
for i in "${!users[@]}"; do
    var="${vars[$i]}"
    printf '%s:%s\n' "${users[$i]}" "${!var}" >> "$tmp"
done
mosquitto_passwd -U "$tmp"
mv "$tmp" "$passwd"

acl_tmp="$(mktemp "$out/.tmp-acl.XXXXXX")"
trap 'rm -f "$tmp" "$acl_tmp"' EXIT
for robot in "${robots[@]:-}"; do
    if [[ -n "$robot" ]]; then
        echo "# robot $robot" >> "$acl_tmp"
        sed -E -e "s#^(topic (read|write|readwrite) )nadine/#\\1${root}/${robot}/#" \
               -e "s#^user ([a-z]+)\$#user \\1-${robot}#" "$here/config/mosquitto.acl.example" >> "$acl_tmp"
    else
        sed -E "s#^(topic (read|write|readwrite) )nadine/#\\1${root}/#" "$here/config/mosquitto.acl.example" >> "$acl_tmp"
    fi
done
mv "$acl_tmp" "$out/acl"
chmod 600 "$out/acl"
# Mosquitto started as root drops to the `mosquitto` user, which must still read both files
if [[ $EUID -eq 0 ]] && id mosquitto >/dev/null 2>&1; then
    chown mosquitto "$passwd" "$out/acl"
fi
echo "wrote $passwd and $out/acl (topic root $root${robots:+, robots ${robots[*]}}, users: ${users[*]})" >&2
