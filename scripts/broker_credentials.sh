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

users=(perception interaction control operator)
for user in "${users[@]}"; do
    var="NADINE_MQTT_PASSWORD_${user^^}"
    if [[ -z "${!var:-}" ]]; then
        echo "broker_credentials: set $var (the password of MQTT user '$user')" >&2
        exit 2
    fi
done

mkdir -p "$out"
umask 077
passwd="$out/passwd"
tmp="$(mktemp "$out/.tmp-passwd.XXXXXX")"
trap 'rm -f "$tmp"' EXIT
for user in "${users[@]}"; do
    var="NADINE_MQTT_PASSWORD_${user^^}"
    printf '%s:%s\n' "$user" "${!var}" >> "$tmp"
done
mosquitto_passwd -U "$tmp"
mv "$tmp" "$passwd"

sed -E "s#^(topic (read|write|readwrite) )nadine/#\\1${root}/#" "$here/config/mosquitto.acl.example" > "$out/acl"
chmod 600 "$out/acl"
# Mosquitto started as root drops to the `mosquitto` user, which must still read both files
if [[ $EUID -eq 0 ]] && id mosquitto >/dev/null 2>&1; then
    chown mosquitto "$passwd" "$out/acl"
fi
echo "wrote $passwd and $out/acl (topic root $root, users: ${users[*]})" >&2
