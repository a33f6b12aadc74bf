# Sourced by the Python peers' wrappers (bench_cpsat.sh, bench_sat.sh): run one of them in the
# venv output/.venv-peers (ignored by git, shared by the peers) with its solver pinned, so reruns
# measure the same peer, after printing the command line for the report.
#
# peer_venv_exec NAME PACKAGE MODULE VERSION [ARGS...]: scripts/NAME.py with ARGS, once
# `import MODULE` gives MODULE.__version__ == VERSION (pip installs PACKAGE==VERSION otherwise).
# Environment: PYTHON (default python3) makes the venv.
peer_venv_exec() {
    local name="$1" package="$2" module="$3" version="$4"
    shift 4
    local root venv python env_note
    root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
    venv="$root/output/.venv-peers"
    python="${PYTHON:-python3}"
    if [ ! -x "$venv/bin/python" ]; then
        echo "creating $venv" >&2
        "$python" -m venv "$venv"
    fi
    if ! "$venv/bin/python" -c "import $module, sys; sys.exit($module.__version__ != '$version')" 2>/dev/null; then
        echo "installing $package==$version into $venv" >&2
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$package==$version"
    fi
    env_note="${SUDOKU_PRESS_DATA:+SUDOKU_PRESS_DATA=$SUDOKU_PRESS_DATA }"
    # shellcheck disable=SC2016 # a literal `$ command` line for the report
    printf '`$ %sscripts/%s.sh%s`\n\n' "$env_note" "$name" "${*:+ $*}"
    exec "$venv/bin/python" "$root/scripts/$name.py" "$@"
}
