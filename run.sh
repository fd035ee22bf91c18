#!/usr/bin/env bash
# Install what is missing, build, then start idemlab with the given arguments
# (no arguments: the window).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/scripts/setup.sh"
idem_install_missing
idem_build
exec "$IDEM_BUILD/app/idemlab" "$@"
