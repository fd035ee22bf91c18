#!/usr/bin/env python3
"""The workbench with the keyboard alone, on a real X screen at 1280x720, in
English, then in Chinese presenter mode (issue: the workbench in the window).

F2 opens the lesson "Your turn"; Page Down goes through it as a remote does:
the double click on the stage, the starter on the Workbench page, Check
reporting a counterexample, that run stepped on the stage to its second
INSERT, then the editor. There the fix is typed (Ctrl+A, then the handler),
F5 checks it, and the results say it passed on SQLite. Screenshots go to the
folder given (default /tmp). Not part of ctest (it needs a display server);
run it by hand:

    tests/workbench_tour.py [path/to/idemlab] [screenshot folder] [en|zh]

Needs what tests/xtour.py needs. Exits 1 on the first step whose result the
window does not show.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xtour  # noqa: E402
from xtour import fail, find, find_all, focused, key, keys_used, step, text_of, wait  # noqa: E402

APP = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build/app/idemlab")
SHOTS = sys.argv[2] if len(sys.argv) > 2 else "/tmp"
LANG = sys.argv[3] if len(sys.argv) > 3 else "en"
ZH = LANG == "zh"
xtour.open_window(APP, lang="zh_CN.UTF-8" if ZH else "en_US.UTF-8")
pyatspi = xtour.pyatspi

# The fix a student types: the database decides, a repeat reads the winner.
FIX = """const schema = "CREATE UNIQUE INDEX uk_orders_request_id ON orders (request_id)";
function* handle(request, db) {
const r = yield db.exec("INSERT INTO orders (request_id, user_id, amount, created_at) VALUES (?, ?, ?, ?)", request.key, request.user_id, request.amount, now());
if (r.error === "unique-violation") {
const found = yield db.query("SELECT id FROM orders WHERE request_id = ?", request.key);
return { status: "duplicate", order: found[0].id };
}
if (r.error) return { status: "error" };
return { status: "created", order: r.insertId };
}
"""


def frame_label(n):
    prefix = "第 %d /" % n if ZH else "Frame %d /" % n
    return lambda a: a.getRoleName() == "label" and (a.name or "").startswith(prefix)


def page_is(en, zh):
    name = zh if ZH else en
    return lambda a: a.getRoleName() == "page tab list" and (a.name or "").startswith(name)


def cell_starting(*words):
    return lambda a: a.getRoleName() == "table cell" and any(
        (a.name or "").startswith(w) for w in words)


def editor():
    return find(lambda a: a.getRoleName() in ("text", "editbar", "entry") and
                "function* handle" in text_of(a))


def page_down(n, what, timeout=30):
    key("Next", pause=1.0)
    return wait(what, frame_label(n), timeout=timeout)


xtour.app_root()
xtour.wait_for_focus()

step("1. Escape declines the first start's card" + ("; F11 presenter mode" if ZH else ""))
key("Escape", pause=1)
if ZH:
    key("F11", pause=2)

step("2. F2, Down to 'Your turn', Enter: frame 1, the double click on the stage")
key("F2", pause=1.5)
for _ in range(3):
    key("Down", pause=0.3)
key("Return", pause=3)
wait("the lesson did not open at frame 1", frame_label(1), timeout=30)

step("3. Page Down reveals two orders, Page Down goes on; Page Down: the Workbench, the starter")
key("Next", pause=2)
page_down(2, "frame 2 did not come")
page_down(3, "frame 3 did not come")
wait("the Workbench page is not in front", page_is("Workbench", "工作台"))
ed = editor()
if ed is None or "SELECT id FROM orders" not in text_of(ed):
    fail("the editor does not show the starter")
f = focused()
print("focus:", f.getRoleName() if f else None)
xtour.screenshot(os.path.join(SHOTS, "tour-workbench-%s-starter.png" % LANG))

step("4. Page Down, with the focus in the editor: Check runs and finds a counterexample")
page_down(4, "Page Down from the editor did not go on to frame 4")
wait("the results do not say failed", cell_starting("failed", "未通过"), timeout=60)
xtour.screenshot(os.path.join(SHOTS, "tour-workbench-%s-failed.png" % LANG))

step("5. Page Down: the smallest failing run on the stage; its answer; its pause at #1's INSERT")
page_down(5, "frame 5 did not come", timeout=60)
wait("the stage is not in front", page_is("Live", "实时"))
key("Next", pause=2)
page_down(6, "frame 6 did not come", timeout=60)
inserts = [c for c in find_all(lambda a: a.getRoleName() == "table cell" and
                               (a.name or "").startswith("INSERT INTO orders"))]
print("INSERT cells in the SQL log:", len(inserts))
if len(inserts) < 2:
    fail("the stage does not show the two INSERTs")
xtour.screenshot(os.path.join(SHOTS, "tour-workbench-%s-run.png" % LANG))

step("6. Page Down: back in the editor; Ctrl+A, the fix typed, F5: passed on SQLite")
page_down(7, "frame 7 did not come")
wait("the Workbench page is not in front", page_is("Workbench", "工作台"))
f = focused()
if f is None or "function* handle" not in text_of(f):
    fail("the editor does not have the focus")
key("ctrl+a")
for line in FIX.splitlines():  # Return between lines, as a student presses it
    subprocess.run(["xdotool", "type", "--delay", "4", line], env=os.environ, check=True)
    key("Return", pause=0.05)
keys_used.append("(typed the fix)")
key("F5", pause=2)
wait("the results do not say passed", cell_starting("passed", "通过"), timeout=60)
xtour.screenshot(os.path.join(SHOTS, "tour-workbench-%s-passed.png" % LANG))

print("\nkeys used:", " ".join(keys_used))
print("TOUR PASSED")
xtour.cleanup()
