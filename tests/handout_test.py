#!/usr/bin/env python3
"""`idemlab lesson export --format html`: two bundled lessons, each in both
languages, read back as a student's browser would. The page parses with every
element closed, says its language, has one section per frame with the state
and the sequence diagram at every frame whose run is fired, the frames' words
and every question with its choices, and the answers page gives for each
question the answer `lesson check --json` reads from the run. Nothing is
fetched from elsewhere. Bad input writes nothing and exits 2."""

import html
import html.parser
import json
import os
import re
import subprocess
import sys
import tempfile

IDEMLAB = os.environ["IDEMLAB"]
LESSONS = os.environ["LESSONS"]  # resources/lessons
BAD = os.environ["BAD_LESSONS"]  # tests/lessons
LESSON_IDS = ["first-five-minutes", "unique-key"]
VOID = {"meta", "br", "img", "hr", "link", "input", "col", "area", "base", "wbr", "source"}

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def run(*args, env=None):
    return subprocess.run([IDEMLAB, *args], capture_output=True, text=True, timeout=300, env=env)


def lesson_file(lesson_id):
    for name in sorted(os.listdir(LESSONS)):
        with open(os.path.join(LESSONS, name), encoding="utf-8") as f:
            data = json.load(f)
        if data["id"] == lesson_id:
            return data
    raise SystemExit(f"no lesson {lesson_id} in {LESSONS}")


def fired(frames, index):
    """The frame's run is fired: the nearest frame at or before it that loads
    a configuration fires it."""
    for frame in reversed(frames[: index + 1]):
        if "load" in frame:
            return frame.get("fire", True)
    return False


class Page(html.parser.HTMLParser):
    """Every element closed in order; the sections, figures, answers and the
    text of each, and every src/href."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.errors = []
        self.html_lang = None
        self.sections = []  # {"id", "frame", "figures": [classes], "text"}
        self.answers = None  # {"items": [{"frame", "answer", "text"}], "text"}
        self.links = []
        self.style = ""
        self.text = []
        self._in_answers = False
        self._item = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("src", "href", "xlink:href", "action", "data"):
            if key in a:
                self.links.append(a[key])
        if tag == "html":
            self.html_lang = a.get("lang")
        if tag == "section" and "frame" in a.get("class", "").split():
            self.sections.append({"frame": a.get("data-frame"), "id": a.get("id"),
                                  "figures": [], "svgs": [], "text": [], "notes": ""})
        if tag == "section" and "answers" in a.get("class", "").split():
            self.answers = {"items": [], "text": []}
            self._in_answers = True
        if tag == "p" and self.sections and self._open("section"):
            self.sections[-1]["notes"] += " " + a.get("class", "")
        if tag == "figure" and self.sections and self._open("section"):
            self.sections[-1]["figures"].append(a.get("class", ""))
        if tag == "svg" and self.sections and self._open("figure"):
            self.sections[-1]["svgs"].append(self.sections[-1]["figures"][-1])
        if tag == "li" and self._in_answers:
            self._item = {"frame": a.get("data-frame"), "answer": a.get("data-answer"),
                          "text": []}
            self.answers["items"].append(self._item)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        a = dict(attrs)
        for key in ("src", "href", "xlink:href"):
            if key in a:
                self.links.append(a[key])

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else None}>")
            return
        self.stack.pop()
        if tag == "section":
            self._in_answers = False
        if tag == "li":
            self._item = None

    def handle_data(self, data):
        if self._open("style"):
            self.style += data
            return
        if self._open("svg"):
            return
        self.text.append(data)
        if self._open("section") and self.sections and not self._in_answers:
            self.sections[-1]["text"].append(data)
        if self._in_answers:
            self.answers["text"].append(data)
            if self._item is not None:
                self._item["text"].append(data)

    def _open(self, tag):
        return tag in self.stack


def words(text):
    """Text as the page shows it: entities read, runs of spaces as one."""
    return " ".join(html.unescape(text).split())


def export_and_check(lesson_id, lang, work):
    data = lesson_file(lesson_id)
    frames = data["frames"]
    out = os.path.join(work, f"{lesson_id}-{lang}.html")
    r = run("lesson", "export", lesson_id, "--format", "html", "--lang", lang, "--out", out)
    check(r.returncode == 0 and r.stdout == "" and r.stderr == "",
          f"{lesson_id} {lang}: exit {r.returncode}, stderr {r.stderr!r}")
    if r.returncode != 0:
        return
    with open(out, "rb") as f:
        raw = f.read()
    page_text = raw.decode("utf-8")
    page = Page()
    page.feed(page_text)
    page.close()
    where = f"{lesson_id} {lang}"
    check(not page.errors, f"{where}: not well formed: {page.errors[:3]}")
    check(page.stack == [], f"{where}: elements left open: {page.stack}")
    check(page_text.startswith("<!DOCTYPE html>"), f"{where}: no doctype")
    check(page.html_lang == ("zh-CN" if lang == "zh" else "en"),
          f"{where}: html lang is {page.html_lang!r}")

    # Nothing from elsewhere: no link to a remote file, no import, no url().
    remote = [l for l in page.links if re.match(r"\s*(https?:)?//", l)]
    check(not remote, f"{where}: remote references {remote[:3]}")
    check(not re.search(r"(src|href)\s*=\s*[\"']?\s*(https?:)?//", page_text, re.I),
          f"{where}: a src= or href= to a remote file")
    check("@import" not in page.style and "url(" not in page.style,
          f"{where}: the style fetches something")
    check("<script" not in page_text, f"{where}: has a script")
    # Printing: the answers start a page, the diagrams fit the page's width.
    check(re.search(r"\.answers\{[^}]*break-before:page", page.style) is not None,
          f"{where}: the answers do not start a new page")
    check("@media print" in page.style and "break-inside:avoid" in page.style,
          f"{where}: no print rules")

    check(len(page.sections) == len(frames),
          f"{where}: {len(page.sections)} frame sections for {len(frames)} frames")
    for i, (frame, section) in enumerate(zip(frames, page.sections)):
        n = i + 1
        check(section["frame"] == str(n) and section["id"] == f"frame-{n}",
              f"{where}: section {n} is marked {section['frame']}/{section['id']}")
        text = words("".join(section["text"]))
        check(words(frame["title"][lang]) in text, f"{where}: frame {n}'s title is missing")
        if fired(frames, i):
            kinds = [c.split() for c in section["svgs"]]
            check(any("state" in k for k in kinds), f"{where}: frame {n} has no state diagram")
            # Paused before the first request, a note says there is nothing to draw yet.
            check(any("sequence" in k for k in kinds) or
                  (frame.get("pause") == "start" and "nothing-sent" in section["notes"]),
                  f"{where}: frame {n} has no sequence diagram")
        else:
            check(not section["svgs"], f"{where}: frame {n} is not fired yet has diagrams")
        if "question" in frame:
            q = frame["question"]
            check(words(q["prompt"][lang]) in text, f"{where}: frame {n}'s question is missing")
            for c in q["choices"]:
                check(words(c["label"][lang]) in text,
                      f"{where}: frame {n}'s choice {c['label'][lang]!r} is missing")
            check(words(q.get("why", {}).get(lang, "")) not in text or not q.get("why"),
                  f"{where}: frame {n} gives its explanation before the answers page")
    # Where each frame stops, said as a sentence, not as the lesson file's
    # filter ("the first “sql” event with attempt 2, code 2067").
    pauses = [words(m) for m in re.findall(r"<dt>(?:Pause|暂停)</dt><dd>(.*?)</dd>", page_text)]
    configured = sum(any("load" in f for f in frames[: i + 1]) for i in range(len(frames)))
    check(len(pauses) == configured,
          f"{where}: {len(pauses)} pause lines for {configured} frames with a run")
    for n, said in enumerate(pauses, 1):
        check(said.endswith("。" if lang == "zh" else ".") and
              not re.search(r"\bevent\b|事件|“(sql|fire|guard)”|attempt \d|\([a-z_]+: ", said),
              f"{where}: frame {n}'s pause does not read as a sentence: {said!r}")

    # The narration of frame 3, paragraph by paragraph.
    third = words("".join(page.sections[2]["text"]))
    for paragraph in frames[2]["narration"][lang].split("\n"):
        if paragraph.strip():
            check(words(paragraph) in third, f"{where}: frame 3's narration is missing")

    # The answers: what the lesson library reads from the runs.
    r = run("lesson", "check", "--json", lesson_id)
    check(r.returncode == 0, f"{where}: lesson check --json exited {r.returncode}")
    checked = json.loads(r.stdout)["lessons"][0]
    questions = checked["questions"]
    check(len(questions) == sum("question" in f for f in frames),
          f"{where}: lesson check --json lists {len(questions)} questions")
    check(page.answers is not None, f"{where}: no answers section")
    if page.answers is None:
        return
    items = {item["frame"]: item for item in page.answers["items"]}
    check(len(page.answers["items"]) == len(questions),
          f"{where}: {len(page.answers['items'])} answers for {len(questions)} questions")
    for q in questions:
        item = items.get(str(q["frame"]))
        check(item is not None, f"{where}: no answer for frame {q['frame']}")
        if item is None:
            continue
        text = words("".join(item["text"]))
        check(item["answer"] == q["answer"],
              f"{where}: frame {q['frame']} answers {item['answer']!r}, the run {q['answer']!r}")
        check(words(q["label"][lang]) in text,
              f"{where}: frame {q['frame']}'s answer does not say {q['label'][lang]!r}: {text}")
        check(words(q["prompt"][lang]) in text, f"{where}: frame {q['frame']}'s answer lacks its question")
        check(str(q["frame"]) in text, f"{where}: frame {q['frame']}'s answer lacks the frame number")
    print(f"{where}: {len(raw)} bytes, {len(page.sections)} frames, {len(questions)} answers")


def bad_input(work):
    # An unknown lesson: the words of `lesson check`, exit 2, nothing written.
    out = os.path.join(work, "nope.html")
    r = run("lesson", "export", "nope", "--format", "html", "--out", out)
    c = run("lesson", "check", "nope")
    check(r.returncode == 2 and not os.path.exists(out),
          f"unknown lesson: exit {r.returncode}, file written: {os.path.exists(out)}")
    check(r.stderr.count("\n") == 1 and "\"nope\" is neither a lesson file nor a lesson id" in r.stderr
          and r.stderr == c.stderr, f"unknown lesson: {r.stderr!r} (lesson check says {c.stderr!r})")
    # A teacher's own page at --out is never replaced, --force or not.
    own = os.path.join(work, "own.html")
    with open(own, "w") as f:
        f.write("a teacher's own page\n")
    r = run("lesson", "export", "unique-key", "--format", "html", "--out", own, "--force")
    check(r.returncode == 2 and "was not written by idemlab" in r.stderr,
          f"a teacher's page at --out: exit {r.returncode}, {r.stderr!r}")
    with open(own) as f:
        check(f.read() == "a teacher's own page\n", "a teacher's page at --out was overwritten")
    # A lesson that does not hold: exit 2 naming the frame; an earlier
    # hand-out at --out stays as it was, even with --force.
    keep = os.path.join(work, "keep.html")
    run("lesson", "export", "unique-key", "--format", "html", "--out", keep)
    with open(keep, "rb") as f:
        earlier = f.read()
    r = run("lesson", "export", os.path.join(BAD, "bad-answer.json"), "--format", "html",
            "--out", keep, "--force")
    check(r.returncode == 2 and "frame 2 (Predict first)" in r.stderr,
          f"failing lesson: exit {r.returncode}, {r.stderr!r}")
    with open(keep, "rb") as f:
        check(f.read() == earlier, "failing lesson: --out was overwritten")
    # The lesson file itself is never the output.
    lesson = os.path.join(work, "mine.json")
    with open(os.path.join(LESSONS, sorted(os.listdir(LESSONS))[0]), "rb") as src:
        original = src.read()
    with open(lesson, "wb") as f:
        f.write(original)
    r = run("lesson", "export", lesson, "--format", "html", "--out", lesson)
    with open(lesson, "rb") as f:
        check(r.returncode == 2 and f.read() == original,
              f"--out the lesson itself: exit {r.returncode}, {r.stderr!r}")
    # A format or language the command does not write.
    for args, words_ in ((["--format", "pdf"], "unknown --format \"pdf\""),
                         (["--format", "html", "--lang", "fr"], "unknown --lang \"fr\""),
                         (["--format", "html"], "--out FILE is required")):
        r = run("lesson", "export", "unique-key", *args, *([] if "--out" in words_ else
                                                           ["--out", os.path.join(work, "x.html")]))
        check(r.returncode == 2 and words_ in r.stderr, f"{args}: exit {r.returncode}, {r.stderr!r}")
    check(not os.path.exists(os.path.join(work, "x.html")), "bad input wrote a file")


def default_language(work):
    """Without --lang: Chinese when the system speaks it, as the window picks."""
    for locale, want in (("zh_CN.UTF-8", "zh-CN"), ("C.UTF-8", "en"), ("en_US.UTF-8", "en")):
        env = {k: v for k, v in os.environ.items()
               if k not in ("LC_ALL", "LC_MESSAGES", "LANGUAGE")}
        env["LANG"] = locale
        out = os.path.join(work, "default.html")
        r = run("lesson", "export", "unique-key", "--format", "html", "--out", out, "--force",
                env=env)
        page = Page()
        with open(out, encoding="utf-8") as f:
            page.feed(f.read())
        check(r.returncode == 0 and page.html_lang == want,
              f"LANG={locale}: exit {r.returncode}, lang {page.html_lang!r} (want {want})")


def main():
    with tempfile.TemporaryDirectory() as work:
        for lesson_id in LESSON_IDS:
            for lang in ("en", "zh"):
                export_and_check(lesson_id, lang, work)
        default_language(work)
        bad_input(work)
    if failures:
        print(f"{len(failures)} failed")
        return 1
    print("all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
