#!/usr/bin/env bash
# Run scripts/bench_cpsat.py (OR-tools CP-SAT counting killers up to 2, one thread) in its own venv.
#
# The venv lives in output/.venv-peers (ignored by git) and gets a pinned ortools, so reruns
# measure the same peer. Arguments are passed to bench_cpsat.py, e.g.
#   scripts/bench_cpsat.sh --limit 200 --sets krazydad,solo-3x3kdu
# Environment: ORTOOLS_VERSION (default below), PYTHON (default python3),
# SUDOKU_PRESS_DATA (default ../shared/data beside the repository).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/output/.venv-peers"
ortools_version="${ORTOOLS_VERSION:-9.15.6755}"
python="${PYTHON:-python3}"

if [ ! -x "$venv/bin/python" ]; then
    echo "creating $venv" >&2
    "$python" -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import ortools, sys; sys.exit(ortools.__version__ != '$ortools_version')" 2>/dev/null; then
    echo "installing ortools==$ortools_version into $venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "ortools==$ortools_version"
fi

env_note="${SUDOKU_PRESS_DATA:+SUDOKU_PRESS_DATA=$SUDOKU_PRESS_DATA }"
# shellcheck disable=SC2016 # a literal `$ command` line for the report
printf '`$ %sscripts/bench_cpsat.sh%s`\n\n' "$env_note" "${*:+ $*}"
exec "$venv/bin/python" "$root/scripts/bench_cpsat.py" "$@"
