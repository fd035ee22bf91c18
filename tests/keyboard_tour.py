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
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xtour  # noqa: E402
from xtour import (app_root, current_page, extents, fail, find, focused, key,  # noqa: E402
                   keys_used, named, step, verdict_shown, wait)

APP = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build/app/idemlab")
xtour.open_window(APP)
pyatspi = xtour.pyatspi

root = app_root()
frame = wait("no main frame", lambda a: a.getRoleName() == "frame" and "Idempotency Lab" in a.name)
print("window:", extents(frame))

step("1. the scenario picker has the focus; Down and Enter load Payment callback")
wait("the picker has no focused row",
     lambda a: a.getRoleName() == "table cell" and a.getState().contains(pyatspi.STATE_FOCUSED))
# A row keeps its focused state while the window is not yet the active one
# (the window manager gives the focus a moment after the window shows): keys
# sent before that go nowhere.
xtour.wait_for_focus()
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
xtour.cleanup()
