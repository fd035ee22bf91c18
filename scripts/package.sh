#!/usr/bin/env bash
# Build the Debian package: install what is missing, build the release in a
# folder of its own (build-release, or IDEM_RELEASE_BUILD), then let CPack
# make idemlab_<version>_<arch>.deb there and print its path.
#
# The same commit gives the same bytes wherever it is checked out and
# whatever its release folder is called: time stamps are the last commit's
# (setup.sh), and CMakeLists.txt maps the source and build folders out of
# what the compiler writes. For that the compiler must be given absolute
# paths, so ccache may not rewrite them into relative ones here (the
# everyday build's CCACHE_BASEDIR is unset), and the folder sits directly
# in the checkout, where the relative paths moc writes are the same.
set -euo pipefail
IDEM_BUILD="${IDEM_RELEASE_BUILD:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build-release}"
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
unset CCACHE_BASEDIR
idem_install_missing
if [ ! -f "$IDEM_BUILD/build.ninja" ]; then
    cmake -S "$IDEM_ROOT" -B "$IDEM_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DIDEM_BENCH=OFF -DCMAKE_SKIP_INSTALL_ALL_DEPENDENCY=ON >&2
fi
# What the package installs, not the tests.
cmake --build "$IDEM_BUILD" --target idemlab idem_completion idem_desktop_files >&2
cd "$IDEM_BUILD"
cpack -G DEB >&2
ls -t "$IDEM_BUILD"/idemlab_*.deb | head -1
