#!/usr/bin/env bash
# Every test, as CI runs them (.ci/run calls this):
#   1. the whole workspace (`cargo test`: rules, AI, protocol, records, the
#      command line, the web server on SQLite, the browser tests);
#   2. the web server's whole suite again on PostgreSQL, on a server of its
#      own that scripts/with-postgres.sh starts (and installs when missing),
#      and its stores' unit tests (`db::`: the reading of some accounts is
#      checked there on PostgreSQL too when SYGO_TEST_POSTGRES names a
#      server), with `sygo serve` killed (SIGKILL) and started again on it,
#      and `sygo admin` on it; then several servers and a `sygo worker` on
#      one database (the `cluster` tests of the server and of the command
#      line, tests/server/cluster.rs and tests/cli/cluster.rs, which need
#      PostgreSQL and are ignored by the first run), and a server reaching
#      its database over TLS (tests/server/tls.rs, ignored likewise).
# Arguments go to the first `cargo test`.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test "$@"
# The Python package `sygo`, built into a fresh virtual environment, and its
# pytest suite.
scripts/test-python.sh
echo "the web server's suite on PostgreSQL:" >&2
# The server's tests are one binary (crates/sygo-server/tests/server), the
# command line's another (crates/sygo/tests/cli); a test's name starts with
# its file's (`serve::`, `cluster::`). Built with the whole workspace
# selected (as by `cargo test` above), so that nothing is compiled again.
scripts/with-postgres.sh bash -c "
    cargo test --workspace --test server &&
    cargo test --workspace --lib -- db:: &&
    cargo test --workspace --test cli -- --exact \
        serve::games_survive_sigkill_and_the_ai_resumes \
        serve::a_rated_game_counts_exactly_once_when_the_server_is_killed_in_the_middle \
        serve::the_host_disables_an_account_from_the_command_line_while_the_server_runs &&
    cargo test --workspace --test server --test cli -- --include-ignored cluster:: tls::"
