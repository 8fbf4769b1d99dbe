#!/usr/bin/env bash
# The Python package's tests (scripts/test.sh runs this after `cargo test`):
#   1. a fresh virtual environment in a temporary folder (python3 -m venv),
#      with maturin, NumPy and pytest pinned (crates/sygo-py/tests/
#      requirements.txt) and OpenSpiel (for the adapter's test; left out with
#      SYGO_TEST_OPENSPIEL=0, skipped if it cannot be installed);
#   2. the package `sygo` (crates/sygo-py) built as a wheel by maturin and
#      installed into it;
#   3. pytest over crates/sygo-py/tests, with the `sygo` binary that `cargo
#      test` built (SYGO_BIN) to check the bulk helper against `sygo bench`.
#
# The native module is built in the workspace's target folder with the
# settings of the test profile, read from Cargo.toml (maturin builds with
# cargo's `dev` profile, here given the test profile's settings: its folder
# and its builds are the same), and with the features the workspace turns
# on (crates/sygo-py/Cargo.toml): what `cargo test` compiled is reused, and
# only pyo3 and the module itself are compiled. PYTHON names the
# interpreter (default python3); arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}
started=$SECONDS
work=$(mktemp -d "${TMPDIR:-/tmp}/sygo-python.XXXXXX")
trap 'rm -rf "$work"; echo "the Python package: done in $((SECONDS - started)) s" >&2' EXIT

echo "the Python package: a virtual environment in $work" >&2
"$python" -m venv "$work/venv"
venv_python="$work/venv/bin/python"
pip_install() {
    "$venv_python" -m pip install --quiet --disable-pip-version-check "$@"
}
pip_install -r crates/sygo-py/tests/requirements.txt
if [ "${SYGO_TEST_OPENSPIEL:-1}" != 0 ]; then
    pip_install "open_spiel==2.0.2" ||
        echo "OpenSpiel could not be installed: its test is skipped" >&2
fi
echo "the Python package: tools installed in $((SECONDS - started)) s" >&2

target=$(cargo metadata --format-version 1 --no-deps |
    "$venv_python" -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
# The test profile's settings as `--config` options for the dev profile
# (none where this Python cannot read TOML: the module is then compiled
# with the dev profile's own settings).
mapfile -t profile < <("$venv_python" - <<'PY'
import json
try:
    import tomllib
except ImportError:
    raise SystemExit
with open("Cargo.toml", "rb") as f:
    test = tomllib.load(f)["profile"]["test"]
def emit(prefix, table):
    for key, value in table.items():
        if key == "package":
            for name, settings in value.items():
                emit(f'{prefix}.package."{name}"', settings)
        else:
            print("--config")
            print(f"{prefix}.{key}={json.dumps(value)}")
emit("profile.dev", test)
PY
)
echo "the Python package: building the wheel" >&2
(
    cd crates/sygo-py
    "$work/venv/bin/maturin" build --profile dev "${profile[@]}" \
        --interpreter "$venv_python" --out "$work/wheels"
)
pip_install --no-deps "$work"/wheels/sygo-*.whl
echo "the Python package: built and installed in $((SECONDS - started)) s" >&2

if [ -z "${SYGO_BIN:-}" ] && [ -x "$target/debug/sygo" ]; then
    export SYGO_BIN="$target/debug/sygo"
fi
cd crates/sygo-py/tests
PYTHONDONTWRITEBYTECODE=1 "$venv_python" -m pytest -p no:cacheprovider -q "$@"
echo "the Python package: tested in $((SECONDS - started)) s" >&2
