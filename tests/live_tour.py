#!/usr/bin/env python3
"""Live mode with the keyboard alone, in Chinese presenter mode, on a real X
screen at 1280x720 (issue: locks you can see).

Chooses MariaDB, the locking read then insert (check-for-update), Fire, and
steps with the Right arrow to the deadlock: the caption names it, the Locks
view shows the gap locks and the wait. Then PostgreSQL, the same steps: a
wait, then a unique violation. Screenshots of both go to the folder given
(default /tmp). Not part of ctest (it needs a display server and both
servers); run it by hand:

    tests/live_tour.py [path/to/idemlab] [screenshot folder]

Needs what tests/xtour.py needs, MariaDB and PostgreSQL (scripts/setup.sh
installs them all). Exits 1 on the first step whose result the window does
not show.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xtour  # noqa: E402
from xtour import extents, fail, find, find_all, focused, key, keys_used, step, wait  # noqa: E402

APP = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build/app/idemlab")
SHOTS = sys.argv[2] if len(sys.argv) > 2 else "/tmp"
xtour.open_window(APP, lang="zh_CN.UTF-8")
pyatspi = xtour.pyatspi


def combo(text):
    return lambda a: a.getRoleName() == "combo box" and text in (a.name or "")


def choose(shortcut, want, other_keys=("Down", "Up")):
    """Alt+letter to a combo box, then arrows until it shows `want`."""
    key(shortcut)
    f = focused()
    if f is None or f.getRoleName() != "combo box":
        fail(shortcut + " did not focus a combo box")
    for direction in other_keys:
        for _ in range(14):
            if want in (focused().name or ""):
                key("Escape")
                return
            key(direction, pause=0.25)
    fail("%s never showed %s (it shows %s)" % (shortcut, want, focused().name))


def caption_with(*words):
    return lambda a: a.getRoleName() == "label" and all(w in (a.name or "") for w in words)


def step_until(pred, what, most=60):
    """Right, one step at a time, until pred holds for some shown widget."""
    for _ in range(most):
        if find(pred) is not None:
            return find(pred)
        key("Right", pause=0.6)
    f = focused()
    print("focus:", f.getRoleName() if f else None, f.name if f else None)
    for a in find_all(lambda a: a.getRoleName() == "label" and len(a.name or "") > 20):
        print("label:", a.name[:160].replace("\n", " | "))
    fail(what)


def lock_cells():
    return [c.name for c in find_all(lambda a: a.getRoleName() == "table cell")
            if c.name and ("锁" in c.name or "等待" in c.name)]


root = xtour.app_root()
frame = wait("no main frame", lambda a: a.getRoleName() == "frame" and a.name == "幂等实验室")
xtour.wait_for_focus()

step("1. Escape declines the first start's lesson; Enter loads order creation; F11 presenter mode")
offer = None
for _ in range(30):
    offer = find(lambda a: a.getRoleName() in ("dialog", "alert") and "欢迎" in (a.name or ""))
    if offer is not None:
        break
    time.sleep(0.3)
if offer is None:
    fail("the first start offered no lesson")
key("Escape", pause=0.8)
if find(lambda a: a.getRoleName() in ("dialog", "alert") and "欢迎" in (a.name or "")) is not None:
    fail("Escape did not close the lesson's offer")
key("Return", pause=1.0)
key("F11", pause=1.5)
x, y, w, h = extents(frame)
print("presenter window:", (x, y, w, h))
if x < 0 or y < 0 or x + w > 1280 or y + h > 720:
    fail("the window is not within the 1280x720 screen")

step("2. Alt+B MariaDB, Alt+N the locking read (FOR UPDATE), Alt+T concurrent")
choose("alt+b", "MariaDB")
choose("alt+n", "FOR UPDATE")
choose("alt+t", "并发")

step("3. F5 fires (the server starts in the background); Right steps to the deadlock")
key("F5", pause=4.0)
deadlock = step_until(caption_with("死锁", "回滚"), "no caption named the deadlock")
print("caption:", deadlock.name)
cells = lock_cells()
print("locks view:", cells[:12])
if not any("间隙锁" in c or "临键锁" in c for c in cells):
    fail("the Locks view shows no gap lock")
if not any("等待" in c for c in cells):
    fail("the Locks view shows no wait")
xtour.screenshot(os.path.join(SHOTS, "live-tour-mariadb-deadlock.png"))

step("4. Alt+B PostgreSQL, F5, Right: a wait, then a unique violation")
choose("alt+b", "PostgreSQL")
key("F5", pause=4.0)
waits = step_until(caption_with("等待", "#1"), "no caption named a wait")
print("caption:", waits.name)
xtour.screenshot(os.path.join(SHOTS, "live-tour-postgres-wait.png"))
refused = step_until(caption_with("唯一键"), "no caption named the unique violation")
print("caption:", refused.name)
if find(caption_with("死锁")) is not None:
    fail("PostgreSQL's run was captioned a deadlock")
xtour.screenshot(os.path.join(SHOTS, "live-tour-postgres-unique.png"))

print("\nkeys used:", " ".join(keys_used))
print("TOUR PASSED")
xtour.cleanup()
