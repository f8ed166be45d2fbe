#!/bin/sh
# A replay wrapper that fails the first time it runs (no report, exit 1)
# and runs the replay after: the suite must call the trace a Flake.
# usage: flaky_once.sh STATE_FILE COMMAND...
state=$1
shift
if [ ! -e "$state" ]; then
  : > "$state"
  exit 1
fi
exec "$@"
