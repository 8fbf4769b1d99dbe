#!/usr/bin/env bash
# Runs a command with a PostgreSQL server of its own: a new cluster in a
# temporary folder, owned by an unprivileged user, listening on a free
# loopback port, removed when the command ends. The command finds the server
# in SYGO_TEST_POSTGRES (postgres://sygo@127.0.0.1:PORT; the user `sygo` is
# its superuser, trusted from this machine only).
#
# The server takes TLS connections too (plain ones as well), with a
# certificate made for the run: issued for `localhost` only, by an authority
# whose certificate is in SYGO_TEST_POSTGRES_CA; SYGO_TEST_POSTGRES_OTHER_CA
# is another authority's, which did not sign it.
#
#   scripts/with-postgres.sh cargo test -p sygo-server
#   WITH_POSTGRES_DURABLE=1 scripts/with-postgres.sh sh -c \
#       'createdb -h 127.0.0.1 -p ${SYGO_TEST_POSTGRES##*:} -U sygo load &&
#        cargo bench -p sygo-server --bench load -- --db $SYGO_TEST_POSTGRES/load'
#
# PostgreSQL's server programs come from Debian's package `postgresql`;
# they are installed when missing (as root, with apt-get), or the script
# says what to install and stops. `scripts/with-postgres.sh --install` only
# installs what is missing (scripts/test.sh does it while it compiles).
set -euo pipefail

say() { echo "with-postgres: $*" >&2; }

find_bindir() {
    local dir
    if command -v pg_config >/dev/null 2>&1; then
        dir="$(pg_config --bindir 2>/dev/null || true)"
        if [[ -x "$dir/initdb" && -x "$dir/pg_ctl" ]]; then echo "$dir"; return; fi
    fi
    # Debian keeps the server's programs out of PATH, one folder a version.
    for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        if [[ -x "$dir/initdb" && -x "$dir/pg_ctl" ]]; then echo "$dir"; return; fi
    done
    if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
        dirname "$(command -v initdb)"
    fi
}

bindir="$(find_bindir)"
if [[ -z "$bindir" ]]; then
    if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; then
        say "PostgreSQL is missing: installing Debian's package postgresql"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq >&2
        apt-get install -y -qq --no-install-recommends postgresql >&2
        bindir="$(find_bindir)"
    fi
    if [[ -z "$bindir" ]]; then
        say "PostgreSQL's server programs (initdb, pg_ctl) are not installed."
        say "Install them (Debian, Ubuntu: sudo apt-get install postgresql) and run again."
        exit 1
    fi
fi
if ! command -v openssl >/dev/null 2>&1; then
    if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; then
        say "openssl is missing (for the server's TLS certificate): installing Debian's package openssl"
        apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends openssl >&2
    fi
    if ! command -v openssl >/dev/null 2>&1; then
        say "openssl is not installed (Debian, Ubuntu: sudo apt-get install openssl); run again once it is."
        exit 1
    fi
fi

if [[ "${1:-}" == --install ]]; then
    exit 0
fi

# PostgreSQL refuses to run as root: as root, the cluster belongs to the
# package's `postgres` user (or a user made for it).
as_owner=()
if [[ "$(id -u)" == 0 ]]; then
    owner=postgres
    if ! id "$owner" >/dev/null 2>&1; then
        owner=sygo-test
        id "$owner" >/dev/null 2>&1 || useradd --system --no-create-home "$owner"
    fi
    as_owner=(runuser -u "$owner" --)
fi

dir="$(mktemp -d "${TMPDIR:-/tmp}/sygo-postgres.XXXXXX")"
chmod 755 "$dir"
[[ ${#as_owner[@]} -gt 0 ]] && chown "$owner" "$dir"

port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null || echo $((20000 + RANDOM % 20000)))"

stop() {
    "${as_owner[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
}
trap stop EXIT

"${as_owner[@]}" "$bindir/initdb" -D "$dir/data" --username=sygo --auth=trust \
    --encoding=UTF8 --locale=C >"$dir/initdb.log" 2>&1 || {
    cat "$dir/initdb.log" >&2
    say "initdb failed"
    exit 1
}
# The TLS certificates: two authorities, and the server's, signed by the
# first, for the name localhost only (so that verify-full to 127.0.0.1
# fails and verify-ca passes). Elliptic-curve keys: made at once.
tls="$dir/tls"
mkdir "$tls"
make_tls() {
    local name
    for name in ca other-ca; do
        openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
            -days 3 -subj "/CN=sygo test $name" -keyout "$tls/$name.key" -out "$tls/$name.pem" \
            -addext basicConstraints=critical,CA:TRUE \
            -addext keyUsage=critical,keyCertSign,cRLSign || return 1
    done
    openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
        -subj "/CN=localhost" -keyout "$tls/server.key" -out "$tls/server.csr" || return 1
    printf '%s\n' "subjectAltName=DNS:localhost" "basicConstraints=critical,CA:FALSE" \
        "keyUsage=critical,digitalSignature" "extendedKeyUsage=serverAuth" >"$tls/server.ext"
    openssl x509 -req -in "$tls/server.csr" -CA "$tls/ca.pem" -CAkey "$tls/ca.key" \
        -CAcreateserial -days 3 -extfile "$tls/server.ext" -out "$tls/server.pem" || return 1
}
make_tls >"$tls/openssl.log" 2>&1 || {
    cat "$tls/openssl.log" >&2
    say "the TLS certificates could not be made"
    exit 1
}
chmod 600 "$tls/server.key"
[[ ${#as_owner[@]} -gt 0 ]] && chown "$owner" "$tls/server.key" "$tls/server.pem"

# Tests check behaviour, not durability: no flush to disk (unless
# WITH_POSTGRES_DURABLE=1, for a benchmark), and enough connections for every
# test's servers.
durability="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
[[ "${WITH_POSTGRES_DURABLE:-0}" == 1 ]] && durability=""
"${as_owner[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir \
        $durability -c max_connections=300 \
        -c ssl=on -c ssl_cert_file=$tls/server.pem -c ssl_key_file=$tls/server.key" start >/dev/null || {
    cat "$dir/server.log" >&2
    say "the server did not start"
    exit 1
}
say "PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"

export SYGO_TEST_POSTGRES="postgres://sygo@127.0.0.1:$port"
export SYGO_TEST_POSTGRES_CA="$tls/ca.pem"
export SYGO_TEST_POSTGRES_OTHER_CA="$tls/other-ca.pem"
set +e
"$@"
status=$?
set -e
exit $status
