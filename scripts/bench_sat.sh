#!/usr/bin/env bash
# Run scripts/bench_sat.py (CaDiCaL through python-sat counting killers up to 2) in the peers'
# venv (`peer_venv.sh`) with a pinned python-sat. Arguments are passed to bench_sat.py, e.g.
#   scripts/bench_sat.sh --limit 5
#   scripts/bench_sat.sh --file output/some-killers.jsonl --solver glucose4
# Environment: PYSAT_VERSION (default below), PYTHON (default python3),
# SUDOKU_PRESS_DATA (default ../shared/data beside the repository).
set -euo pipefail
# shellcheck source=scripts/peer_venv.sh
source "$(dirname "${BASH_SOURCE[0]}")/peer_venv.sh"
peer_venv_exec bench_sat python-sat pysat "${PYSAT_VERSION:-1.9.dev24}" "$@"
