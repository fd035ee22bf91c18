#!/usr/bin/env bash
# Shared set-up for run.sh and test.sh: install what a fresh Debian machine
# lacks, then configure and build incrementally in ./build.
set -euo pipefail

IDEM_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
IDEM_BUILD="${IDEM_BUILD:-$IDEM_ROOT/build}"
# Paths relative to the checkout in ccache's keys: another clone of the
# project (CI's, a second work tree) reuses what this one compiled.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$IDEM_ROOT}"
# ... and the build folder out of them (a RelWithDebInfo build would put it in).
export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-true}"

idem_packages=(
    cmake ninja-build g++ ccache pkg-config
    qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev libgl-dev
    qt6-charts-dev qt6-svg-dev qt6-declarative-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
    qt6-translations-l10n libsqlite3-dev libssl-dev zlib1g-dev sqlite3 python3 fonts-noto-cjk
    # the exports read back and the trace schema checked (tests/exports_test.py)
    jq python3-jsonschema
    # the spreadsheet export read back (tests/xlsx_test.py)
    python3-openpyxl
    # CI's habits check (scripts/check.sh)
    git clang-format
    # the .deb (dpkg-shlibdeps, dpkg-buildflags) and its test (desktop-file-validate,
    # appstreamcli, man, lintian, hardening-check of devscripts)
    dpkg-dev desktop-file-utils appstream man-db lintian devscripts
    # presenter mode on a real X screen (tests/xvfb_presenter.sh), and the
    # README's tour with the keyboard alone, read back through the
    # accessibility tree (tests/keyboard_tour.py, tests/live_tour.py, which
    # also take screenshots of the real window: xwd, then PNG by netpbm)
    xvfb openbox xdotool x11-utils dbus-x11 at-spi2-core python3-pyatspi x11-apps netpbm
    # live mode's private servers (postgresql-15 ships pgrowlocks;
    # mariadb-install-db runs my_print_defaults of mariadb-client-core) and
    # their client libraries; no system service or cluster (below)
    postgresql-15 mariadb-server-core mariadb-client-core libpq-dev libmariadb-dev
    # real Redis (a private redis-server of the lab's, never the system
    # service: below) and its client library
    redis-server libhiredis-dev
)

idem_install_missing() {
    local missing=()
    for p in "${idem_packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "Installing missing packages: ${missing[*]}" >&2
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    # PostgreSQL's server package creates a system cluster on install unless
    # told not to; the lab only ever starts servers of its own.
    if [[ " ${missing[*]} " == *" postgresql-15 "* ]] &&
        ! grep -qs '^create_main_cluster' /etc/postgresql-common/createcluster.conf; then
        $sudo mkdir -p /etc/postgresql-common
        echo 'create_main_cluster = false' | $sudo tee -a /etc/postgresql-common/createcluster.conf >/dev/null
    fi
    # redis-server's package starts its system service on install unless
    # the machine's policy says no: say no for the length of the install.
    local policy=""
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        policy=/usr/sbin/policy-rc.d
        printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null
        $sudo chmod 755 "$policy"
    fi
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 ||
        { [ -n "$policy" ] && $sudo rm -f "$policy"; return 1; }
    [ -n "$policy" ] && $sudo rm -f "$policy"
    # ... nor at the next boot.
    if [[ " ${missing[*]} " == *" redis-server "* ]] && command -v systemctl >/dev/null &&
        [ -d /run/systemd/system ]; then
        $sudo systemctl disable --now redis-server >/dev/null 2>&1 || true
    fi
    return 0
}

# Builds and packages stamped with the last commit's time, not the clock's:
# the resources compiled in (rcc) and the .deb (cpack) come out the same
# bytes from the same commit.
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
    SOURCE_DATE_EPOCH=$(git -C "$IDEM_ROOT" log -1 --format=%ct 2>/dev/null) || true
fi
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
    export SOURCE_DATE_EPOCH
fi

idem_build() {
    if [ ! -f "$IDEM_BUILD/build.ninja" ]; then
        cmake -S "$IDEM_ROOT" -B "$IDEM_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >&2
    fi
    cmake --build "$IDEM_BUILD" >&2
}
