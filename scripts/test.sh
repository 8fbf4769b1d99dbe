#!/usr/bin/env bash
# Every test, as CI runs them (.ci/run calls this):
#   1. the whole workspace compiled once (`cargo test --no-run`), while what
#      the tests need from Debian is installed when missing: Chromium and
#      its WebDriver (scripts/install-browser.sh) and PostgreSQL
#      (scripts/with-postgres.sh --install);
#   2. then three legs at once, each writing to its own log, the log of a
#      leg that fails printed at the end:
#      - the workspace (`cargo test`: rules, AI, protocol, records, the
#        command line, the web server on SQLite, the browser tests);
#      - the web server's whole suite again on PostgreSQL, on a server of
#        its own that scripts/with-postgres.sh starts, and its stores' unit
#        tests (`db::`: the reading of some accounts is checked there on
#        PostgreSQL too when SYGO_TEST_POSTGRES names a server), with `sygo
#        serve` killed (SIGKILL) and started again on it, and `sygo admin`
#        on it; then several servers and a `sygo worker` on one database
#        (the `cluster` tests of the server and of the command line,
#        tests/server/cluster.rs and tests/cli/cluster.rs, which need
#        PostgreSQL and are ignored by the first leg), and a server reaching
#        its database over TLS (tests/server/tls.rs, ignored likewise);
#      - the Python package `sygo`, built into a fresh virtual environment,
#        and its pytest suite (scripts/test-python.sh).
#   The legs wait on sockets, browsers and databases much of the time: side
#   by side they take the time of the longest (the browser tests), not of
#   the three (docs/performance.md, "The test suite").
# Arguments go to the first leg's `cargo test`. SYGO_TEST_LEGS=serial runs
# the legs one after another, their output as it comes.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
say() { echo "test.sh: $*" >&2; }

logs=$(mktemp -d "${TMPDIR:-/tmp}/sygo-test.XXXXXX")
trap 'rm -rf "$logs"' EXIT

# What the tests need from Debian, installed while the workspace compiles
# (one apt-get at a time).
(scripts/install-browser.sh && scripts/with-postgres.sh --install) >"$logs/install.log" 2>&1 &
installing=$!
# Compiled once, with the whole workspace selected (as every leg's `cargo
# test` is), so that no leg compiles anything again.
cargo test --workspace --no-run
if ! wait "$installing"; then
    cat "$logs/install.log" >&2
    say "what the tests need could not be installed"
    exit 1
fi
say "compiled and installed in $((SECONDS - started)) s"

workspace() {
    cargo test --workspace "$@"
}
postgres() {
    # The server's tests are one binary (crates/sygo-server/tests/server),
    # the command line's another (crates/sygo/tests/cli); a test's name
    # starts with its file's (`serve::`, `cluster::`).
    scripts/with-postgres.sh bash -c "
        cargo test --workspace --test server &&
        cargo test --workspace --lib -- db:: &&
        cargo test --workspace --test cli -- --exact \
            serve::games_survive_sigkill_and_the_ai_resumes \
            serve::a_rated_game_counts_exactly_once_when_the_server_is_killed_in_the_middle \
            serve::the_host_disables_an_account_from_the_command_line_while_the_server_runs &&
        cargo test --workspace --test server --test cli -- --include-ignored cluster:: tls::"
}
python() {
    scripts/test-python.sh
}

if [[ "${SYGO_TEST_LEGS:-}" == serial ]]; then
    workspace "$@"
    say "the web server's suite on PostgreSQL:"
    postgres
    python
    say "every test passed in $((SECONDS - started)) s"
    exit 0
fi

declare -A pids
for leg in workspace postgres python; do
    if [[ $leg == workspace ]]; then
        (workspace "$@") >"$logs/$leg.log" 2>&1 &
    else
        ($leg) >"$logs/$leg.log" 2>&1 &
    fi
    pids[$leg]=$!
done
failed=()
for leg in workspace postgres python; do
    if wait "${pids[$leg]}"; then
        say "$leg: passed ($((SECONDS - started)) s from the start)"
        # What each test binary said of itself, for the record.
        grep -E '^test result:|^the Python package: tested|passed in' "$logs/$leg.log" >&2 || true
    else
        say "$leg: FAILED ($((SECONDS - started)) s from the start)"
        failed+=("$leg")
    fi
done
for leg in "${failed[@]}"; do
    say "---------------- the log of the $leg leg ----------------"
    cat "$logs/$leg.log" >&2
done
if [[ ${#failed[@]} -gt 0 ]]; then
    say "failed: ${failed[*]} (in $((SECONDS - started)) s)"
    exit 1
fi
say "every test passed in $((SECONDS - started)) s"
