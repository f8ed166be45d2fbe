#!/bin/bash
# The libFuzzer flags a target needs beyond the common ones, one a line,
# for ci/test.sh's fuzz step and campaign.sh alike.
# usage: tests/fuzz/options.sh NAME
case "$1" in
  # Replay hands Mesa what it accepts: Mesa's own allocations would be
  # reported as the target's leaks; a replay may take seconds.
  replay) printf '%s\n' -detect_leaks=0 -timeout=30 ;;
  # Trim replays the trace up to its start, then its result, up to seven times.
  trim) printf '%s\n' -detect_leaks=0 -timeout=60 ;;
  # The suite parser prints why each file is refused: stderr is closed (the
  # crash input is still written).
  suite) printf '%s\n' -close_fd_mask=2 ;;
esac
