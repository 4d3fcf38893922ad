#!/usr/bin/env bash
# Run the hostile-input fuzz harness (tests/fuzz) for longer than the default test run.
#
#   scripts/fuzz.sh                      # 600 s, random seeds (the `long` profile)
#   FUZZ_SECONDS=3600 scripts/fuzz.sh    # an hour
#   FUZZ_SECONDS=120 scripts/fuzz.sh -k reader   # extra pytest arguments pass through
#
# The time is shared by the fuzz tests by weight; each test runs rounds of examples with
# fresh random seeds until its share is spent. A failure prints the shrunk example and a
# reproduce blob (@reproduce_failure); the example is also kept in .hypothesis/ and is
# replayed first by the next run, including the bounded one in the default test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
export ZCF_FUZZ_PROFILE=long
export FUZZ_SECONDS="${FUZZ_SECONDS:-600}"
# pytest-timeout's default (300 s per test) would cut long rounds short: give each test
# the whole budget plus a margin.
exec .venv/bin/pytest tests/fuzz -q --timeout="$((FUZZ_SECONDS + 600))" "$@"
