#!/usr/bin/env bash
# Build the Debian package: install what is missing, build, then let CPack
# make idemlab_<version>_<arch>.deb in the build folder and print its path.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
idem_install_missing
idem_build
cd "$IDEM_BUILD"
cpack -G DEB >&2
ls -t "$IDEM_BUILD"/idemlab_*.deb | head -1
