"""A real X screen for the window's tours: Xvfb at 1280x720 with openbox, a
D-Bus session and the AT-SPI bus, the window started with accessibility on,
keys sent with xdotool, and what the window shows read back through the
accessibility tree (names, values, on-screen extents): the tree a screen
reader uses. tests/keyboard_tour.py and tests/live_tour.py use it.

Needs xvfb openbox xdotool x11-utils dbus-x11 at-spi2-core python3-pyatspi.
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

DISPLAY = ":97"
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
    for pid in bus_pids:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass


def fail(message):
    print("FAIL:", message)
    cleanup()
    sys.exit(1)


def key(*names, pause=0.35):
    for name in names:
        keys_used.append(name)
        subprocess.run(["xdotool", "key", "--clearmodifiers", name], env=os.environ, check=True)
        time.sleep(pause)


pyatspi = None
bus_pids = []  # the session bus's daemon, stopped by cleanup


def open_window(app, args=(), lang="en_US.UTF-8"):
    """Starts the screen, the buses and the window (app with args)."""
    global pyatspi
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
            bus_pids.append(int(line.split("=", 1)[1].rstrip(";")))
    start(["openbox"])
    # The window manager first: a window mapped before it runs is never given the focus.
    for _ in range(100):
        if "_NET_SUPPORTING_WM_CHECK(WINDOW)" in subprocess.run(
                ["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"], capture_output=True, text=True).stdout:
            break
        time.sleep(0.1)
    start(["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"])
    time.sleep(1.5)
    env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=home + "/.config", LANG=lang,
               QT_QPA_PLATFORM="xcb", QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1", QT_ACCESSIBILITY="1")
    start([app] + list(args), env)

    import pyatspi as atspi  # needs the session bus set above
    pyatspi = atspi


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


def wait_for_focus():
    """Until the window manager gives the window the keyboard: keys sent
    before that go nowhere (a row keeps its focused state meanwhile)."""
    for _ in range(50):
        if focused() is not None:
            return focused()
        time.sleep(0.3)
    fail("the window never got the keyboard focus")


def named(role, text):
    return lambda a: a.getRoleName() == role and text in (a.name or "")


def verdict_shown(word):
    return lambda a: a.getRoleName() == "label" and word in (a.name or "") and len(a.name) < 60


def current_page(name):
    # Qt names a tab bar after its current tab.
    return lambda a: a.getRoleName() == "page tab list" and a.name.startswith(name)


def step(title):
    print("\n==", title)




def screenshot(path):
    """The whole 1280x720 screen as a PNG at path."""
    xwd = subprocess.run(["xwd", "-root", "-silent"], capture_output=True, check=True).stdout
    pnm = subprocess.run(["xwdtopnm"], input=xwd, capture_output=True, check=True).stdout
    with open(path, "wb") as f:
        f.write(subprocess.run(["pnmtopng"], input=pnm, capture_output=True, check=True).stdout)
    print("screenshot:", path)
