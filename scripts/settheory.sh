#!/usr/bin/env bash
# Issue 25's measurements (goals 2-4: hardest published killers without trial, extreme on
# demand rated by pencilmark, order inside a level) in one run; Markdown on stdout.
# Usage: scripts/settheory.sh [--bin PATH] [--goals 2,3,4] [--extreme N] [--per-level N]
#        [--seed S] [--seconds S]
#        goal 3: [--extreme-seeds 31,32] [--rate N] [--tarek N] [--known-unique] [--cpu-limit S]
set -euo pipefail
# shellcheck source=scripts/peer_venv.sh
source "$(dirname "$0")/peer_venv.sh"
# pencilmark's `verify` extra brings OR-Tools: without it, its uniqueness search gives up
# ("Undecided") on tarek-like extremes before rating them (a venv made earlier lacks it: remove
# output/.venv-peers once).
peer_venv_exec settheory 'pencilmark[verify]' pencilmark 1.0.0rc1 "$@"
