#!/bin/sh
# Presenter mode on a 1280x720 screen with a window manager: starts Xvfb :99
# and openbox, opens the window, presses F11 and checks with xwininfo that the
# window lies within the screen. Not part of ctest (needs Xvfb, openbox,
# xdotool and xwininfo: apt-get install -y xvfb openbox xdotool x11-utils).
# Usage: tests/xvfb_presenter.sh [path/to/idemlab]
set -eu
app=${1:-build/app/idemlab}
display=:99
for tool in Xvfb openbox xdotool xwininfo; do
    command -v "$tool" >/dev/null || { echo "missing: $tool" >&2; exit 2; }
done
home=$(mktemp -d)
pids=""
cleanup() {
    for pid in $pids; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$home"
}
trap cleanup EXIT INT TERM

Xvfb "$display" -screen 0 1280x720x24 -nolisten tcp >/dev/null 2>&1 &
pids="$! $pids"
export DISPLAY=$display
i=0
until xwininfo -root >/dev/null 2>&1; do
    i=$((i + 1)); [ $i -lt 50 ] || { echo "Xvfb did not start" >&2; exit 1; }
    sleep 0.1
done
openbox >/dev/null 2>&1 &
pids="$! $pids"
sleep 1
# A fresh settings directory: the window starts in normal mode.
HOME=$home XDG_CONFIG_HOME=$home/.config QT_QPA_PLATFORM=xcb "$app" >/dev/null 2>&1 &
pids="$! $pids"
i=0
until win=$(xdotool search --sync --onlyvisible --class idemlab 2>/dev/null | head -n 1) &&
    [ -n "$win" ]; do
    i=$((i + 1)); [ $i -lt 30 ] || { echo "no window" >&2; exit 1; }
    sleep 1
done
sleep 2
geometry() {
    xwininfo -id "$win" | awk -F: '
        /Absolute upper-left X/ {x=$2} /Absolute upper-left Y/ {y=$2}
        /Width/ {w=$2} /Height/ {h=$2}
        END {gsub(/ /,"",x); gsub(/ /,"",y); gsub(/ /,"",w); gsub(/ /,"",h); print x, y, w, h}'
}
echo "before F11: $(geometry | awk '{print $3 "x" $4 " at " $1 "," $2}')"
xdotool windowactivate --sync "$win" 2>/dev/null || xdotool windowfocus "$win"
xdotool key --window "$win" F11
sleep 3

set -- $(geometry)
x=$1 y=$2 w=$3 h=$4
echo "screen 1280x720; window after F11: ${w}x${h} at ${x},${y}"
if [ "$x" -ge 0 ] && [ "$y" -ge 0 ] && [ $((x + w)) -le 1280 ] && [ $((y + h)) -le 720 ]; then
    echo "ok: the window is within the screen"
else
    echo "FAIL: the window is not within the screen" >&2
    exit 1
fi
