#!/usr/bin/env bash
# Run scripts/bench_cpsat.py (OR-tools CP-SAT counting killers up to 2, one thread) in the peers'
# venv (`peer_venv.sh`) with a pinned ortools. Arguments are passed to bench_cpsat.py, e.g.
#   scripts/bench_cpsat.sh --limit 200 --sets krazydad,solo-3x3kdu
# Environment: ORTOOLS_VERSION (default below), PYTHON (default python3),
# SUDOKU_PRESS_DATA (default ../shared/data beside the repository).
set -euo pipefail
# shellcheck source=scripts/peer_venv.sh
source "$(dirname "${BASH_SOURCE[0]}")/peer_venv.sh"
peer_venv_exec bench_cpsat ortools ortools "${ORTOOLS_VERSION:-9.15.6755}" "$@"
