#!/usr/bin/env python3
"""The README's classroom tour, with the keyboard alone, on a real X screen.

Starts Xvfb at 1280x720 with openbox, a D-Bus session and the AT-SPI bus,
opens the window with accessibility on, sends keys with xdotool and reads
back what the window shows through the accessibility tree (names, values,
on-screen extents): the tree a screen reader uses. Not part of ctest (it
needs a display server); run it by hand:

    tests/keyboard_tour.py [path/to/idemlab]

Needs xvfb openbox xdotool x11-utils dbus-x11 at-spi2-core python3-pyatspi.
Prints each step and the keys it pressed; exits 1 on the first step whose
result the window does not show.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

DISPLAY = ":97"
APP = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build/app/idemlab")
procs = []
keys_used = []


def start(cmd, env=None):
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    procs.append(p)
    return p


def cleanup():
    for p in reversed(procs):
        p.terminate()
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            p.kill()


def fail(message):
    print("FAIL:", message)
    cleanup()
    sys.exit(1)


def key(*names, pause=0.35):
    for name in names:
        keys_used.append(name)
        subprocess.run(["xdotool", "key", "--clearmodifiers", name], env=os.environ, check=True)
        time.sleep(pause)


# ---- the display, the window manager, the accessibility bus ----------------
for tool in ("Xvfb", "openbox", "xdotool", "xwininfo", "xprop", "dbus-launch"):
    if not shutil.which(tool):
        print("missing:", tool)
        sys.exit(2)
home = tempfile.mkdtemp(prefix="idemlab-tour-")
os.environ["DISPLAY"] = DISPLAY
start(["Xvfb", DISPLAY, "-screen", "0", "1280x720x24", "-nolisten", "tcp"])
for _ in range(50):
    if subprocess.run(["xwininfo", "-root"], capture_output=True).returncode == 0:
        break
    time.sleep(0.1)
out = subprocess.run(["dbus-launch", "--sh-syntax"], capture_output=True, text=True).stdout
for line in out.splitlines():
    if line.startswith("DBUS_SESSION_BUS_ADDRESS="):
        os.environ["DBUS_SESSION_BUS_ADDRESS"] = line.split("=", 1)[1].rstrip(";").strip("'")
    if line.startswith("DBUS_SESSION_BUS_PID="):
        pid = int(line.split("=", 1)[1].rstrip(";"))
start(["openbox"])
# The window manager first: a window mapped before it runs is never given the focus.
for _ in range(100):
    if "_NET_SUPPORTING_WM_CHECK(WINDOW)" in subprocess.run(
            ["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.1)
start(["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"])
time.sleep(1.5)
env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=home + "/.config", LANG="en_US.UTF-8",
           QT_QPA_PLATFORM="xcb", QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1", QT_ACCESSIBILITY="1")
start([APP], env)

import pyatspi  # noqa: E402  (needs the session bus set above)


def app_root():
    for _ in range(60):
        desk = pyatspi.Registry.getDesktop(0)
        for a in desk:
            if a is not None and "idemlab" in (a.name or ""):
                return a
        time.sleep(0.5)
    fail("the window never appeared on the accessibility bus")


def walk(a, depth=0):
    yield a
    if depth > 40:
        return
    try:
        n = a.childCount
    except Exception:
        return
    for i in range(n):
        try:
            c = a.getChildAtIndex(i)
        except Exception:
            continue
        if c is not None:
            yield from walk(c, depth + 1)


def showing(a):
    try:
        return a.getState().contains(pyatspi.STATE_SHOWING)
    except Exception:
        return False


def extents(a):
    e = a.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    return e.x, e.y, e.width, e.height


def find(pred, root=None, visible=True):
    for a in walk(root or app_root()):
        try:
            if (not visible or showing(a)) and pred(a):
                return a
        except Exception:
            continue
    return None


def find_all(pred, visible=True):
    out = []
    for a in walk(app_root()):
        try:
            if (not visible or showing(a)) and pred(a):
                out.append(a)
        except Exception:
            continue
    return out


def text_of(a):
    try:
        t = a.queryText()
        return t.getText(0, t.characterCount)
    except Exception:
        return a.name or ""


def wait(what, pred, timeout=15):
    end = time.time() + timeout
    while time.time() < end:
        a = find(pred)
        if a is not None:
            return a
        time.sleep(0.3)
    fail(what)


def focused():
    # The focused widget; an item (a cell, a list entry, a tab) keeps its
    # own focused state after its view lost the focus, so items don't count.
    return find(lambda a: a.getState().contains(pyatspi.STATE_FOCUSED)
                and a.getRoleName() not in ("table cell", "list item", "page tab"))


def named(role, text):
    return lambda a: a.getRoleName() == role and text in (a.name or "")


def verdict_shown(word):
    return lambda a: a.getRoleName() == "label" and word in (a.name or "") and len(a.name) < 60


def current_page(name):
    # Qt names a tab bar after its current tab.
    return lambda a: a.getRoleName() == "page tab list" and a.name.startswith(name)


def step(title):
    print("\n==", title)


root = app_root()
frame = wait("no main frame", lambda a: a.getRoleName() == "frame" and "Idempotency Lab" in a.name)
print("window:", extents(frame))

step("1. the scenario picker has the focus; Down and Enter load Payment callback")
wait("the picker has no focused row",
     lambda a: a.getRoleName() == "table cell" and a.getState().contains(pyatspi.STATE_FOCUSED))
# A row keeps its focused state while the window is not yet the active one
# (the window manager gives the focus a moment after the window shows): keys
# sent before that go nowhere.
for _ in range(50):
    if focused() is not None:
        break
    time.sleep(0.3)
if focused() is None:
    fail("the window never got the keyboard focus")
print("focus:", focused().getRoleName())
key("Down", "Return")
wait("the variant is not payment-callback's recommended one",
     named("combo box", "Unique key and state machine"))
print("variant:", find(lambda a: a.getRoleName() == "combo box" and "★" in a.name).name)

step("2. Alt+N goes to the variant; Up to the first, `none`; Escape leaves the field")
key("alt+n")
f = focused()
print("focus:", f.getRoleName(), f.name)
if f.getRoleName() != "combo box":
    fail("Alt+N did not focus the variant")
for _ in range(6):
    key("Up", pause=0.2)
wait("the variant did not become none", named("combo box", "No guard"), timeout=5)
key("Escape")
print("focus after Escape:", focused().getRoleName(), focused().name)

step("3. F5 fires; the first step is shown with a hint; End goes to the end")
key("F5")
time.sleep(1.5)
key("End")
wait("DUPLICATED never shown", verdict_shown("DUPLICATED"))
outcome = find(lambda a: a.getRoleName() == "label" and "Effect" in (a.name or ""))
print("outcome:", outcome.name.replace("\n", " | ") if outcome else "?")

step("4. Home, Right, Space: back to the start, one step, play")
key("Home")
slider = find(lambda a: a.getRoleName() == "slider")
v0 = slider.queryValue().currentValue
key("Right")
v1 = slider.queryValue().currentValue
print("slider", v0, "->", v1)
if not v1 > v0:
    fail("Right did not step")
key("space")
time.sleep(2.5)
v2 = slider.queryValue().currentValue
key("space")
print("after playing 2.5 s:", v2)
if not v2 > v1:
    fail("Space did not play")

step("5. unique-and-state: Alt+N, pick it with Down, F5, End: EXACTLY ONCE")
key("alt+n")
for _ in range(3):
    key("Down")
key("Escape", "F5")
time.sleep(1.0)
key("End")
wait("EXACTLY ONCE never shown", verdict_shown("EXACTLY ONCE"))

step("6. Ctrl+K shows Compare, Alt+1 returns to Live")
key("ctrl+k")
wait("Compare never shown", current_page("Compare"))
key("alt+1")
wait("Live never back", current_page("Live"))

step("7. Alt+4 Experiment; Tab to Start; Space starts it")
key("alt+4")
wait("Experiment never shown", current_page("Experiment"))
first = focused()
print("focus after Alt+4:", first.getRoleName(), first.name)
if "Variants" not in first.name:
    fail("Alt+4 did not put the focus on the Experiment's variants")
for _ in range(6):
    f = find(lambda a: a.getRoleName() == "push button" and "Start" in a.name
             and a.getState().contains(pyatspi.STATE_FOCUSED))
    if f is not None:
        break
    key("Tab", pause=0.6)
else:
    fail("Tab never reached the Experiment's Start button")
print("focus:", f.name)
key("space")
progress = wait("the experiment did not start", lambda a: a.getRoleName() == "progress bar"
                and a.queryValue().currentValue > 0, timeout=20)
print("progress:", progress.queryValue().currentValue)
key("Escape", "alt+1")

step("8. F11 presenter mode: the window within the screen, the outcome on it")
key("F11", pause=1.5)
x, y, w, h = extents(frame)
print("presenter window:", (x, y, w, h))
if x < 0 or y < 0 or x + w > 1280 or y + h > 720:
    fail("the window is not within the 1280x720 screen")
out = find(lambda a: a.getRoleName() == "filler" and a.name == "Outcome")
if out is None:
    fail("no outcome panel in presenter mode")
ox, oy, ow, oh = extents(out)
print("outcome panel:", (ox, oy, ow, oh))
if ox < 0 or ox + ow > 1280 or ow < 220:
    fail("the outcome panel is off screen or narrower than 220 px")
banner = find(verdict_shown("EXACTLY ONCE"))
if banner is None:
    fail("no verdict banner in presenter mode")
print("banner:", extents(banner))

step("9. Ctrl+T dark theme; Alt+V, Down to 中文, Enter: the window in Chinese")
key("ctrl+t")
key("alt+v", pause=0.8)
for _ in range(6):
    key("Down", pause=0.25)
key("Return", pause=1.5)
zh = wait("the window did not switch to Chinese",
          lambda a: a.getRoleName() == "frame" and a.name == "幂等实验室")
print("window title:", zh.name)
banner = wait("no Chinese verdict banner", verdict_shown("恰好一次"))
print("banner:", banner.name, extents(banner))

step("10. ? shows the keys")
key("question", pause=1)
keys = find(lambda a: "Space" in (a.name or "") or "空格" in (a.name or ""))
print("keys overlay:", (keys.name[:80] if keys else None))
key("Escape")

step("11. F2 chooses a lesson (Enter takes the first); Page Down goes on; Shift+F2 leaves")
key("F2", pause=1.5)
key("Return", pause=2.5)
frame1 = wait("no lesson frame shown", lambda a: a.getRoleName() == "label" and
              (a.name.startswith("Frame 1") or a.name.startswith("第 1")))
print("lesson:", frame1.name)
key("Next", pause=2.5)
key("Next", pause=2.5)
later = wait("Page Down did not go on", lambda a: a.getRoleName() == "label" and
             (a.name.startswith("Frame 2") or a.name.startswith("Frame 3") or
              a.name.startswith("第 2") or a.name.startswith("第 3")))
print("after Page Down:", later.name)
key("shift+F2", pause=1.5)
if find(lambda a: a.getRoleName() == "label" and a.name.startswith("第 ") and "帧" in a.name and "/" in a.name):
    fail("Shift+F2 did not leave the lesson")

print("\nkeys used:", " ".join(keys_used))
print("TOUR PASSED")
cleanup()
