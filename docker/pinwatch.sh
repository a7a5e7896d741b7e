#!/bin/sh
# The container image's entrypoint (/usr/local/bin/pinwatch): runs the CLI on the
# checkout mounted at the working directory. A CI runner mounts that checkout owned
# by another user than the container's, and git then refuses it ("dubious
# ownership"), which would make every history question fail: the mounted tree is
# trusted for this process only (GIT_CONFIG_* env, nothing written to any config).
set -eu
PINWATCH_HOME="${PINWATCH_HOME:-/opt/pinwatch}"
n="${GIT_CONFIG_COUNT:-0}"
export "GIT_CONFIG_KEY_$n=safe.directory" "GIT_CONFIG_VALUE_$n=*"
export GIT_CONFIG_COUNT=$((n + 1))
exec node "$PINWATCH_HOME/bin/pinwatch.js" "$@"
