#!/usr/bin/env bash
# Install what is missing, build, then run every test off screen.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/scripts/setup.sh"
idem_install_missing
idem_build
export QT_QPA_PLATFORM=offscreen
cd "$IDEM_BUILD"
# Two slots a core: a test that works takes two, one that mostly waits for a
# database server one (tests/CMakeLists.txt, PROCESSORS).
ctest --output-on-failure -j "$((2 * $(nproc)))" "$@"
