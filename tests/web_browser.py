#!/usr/bin/env python3
"""web_browser.py PARRAYC SRCDIR PLAYGROUND SHOTS: the playground driven in
headless Chromium as a student would, through the DevTools protocol over a
pipe (--remote-debugging-pipe: no websocket, no package beyond Python's own).

  1. every example of the page loaded: the generated code must be native
     parrayc's (-o -), the diagnostics its JSON ones; a screenshot each of
     the tutorial's steps and the paper's figures into SHOTS;
  2. a type edited by typing (tutorial step 1's M made the transpose of H):
     the picture and the code change, and are native parrayc's;
  3. hovering a cell shows its index path and offset;
  4. the cursor on an access of a pthd detour: the thread map sweeps the
     loops (each thread's quadrant);
  5. a mistake typed in: the error appears under its line, as native
     parrayc reports it;
  6. the page's address reproduces the program; the page also works
     served by python3 -m http.server.
Fails when the page shows an error (an exception, a console error, its
error banner) or an output differs from native parrayc's.  Skipped (77)
without Chromium or without the WebAssembly build (sh scripts/web.sh)."""
import base64
import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

PARRAYC, SRCDIR, PLAYGROUND, SHOTS = [os.path.abspath(p) for p in sys.argv[1:5]]


def skip(why):
    print(f"web_browser: {why}: skipped", file=sys.stderr)
    sys.exit(77)


class Browser:
    """Chromium and one page, spoken to over --remote-debugging-pipe."""

    def __init__(self, exe, profile):
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()
        args = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--remote-debugging-pipe",
                f"--user-data-dir={profile}", "--window-size=1600,1000", "about:blank"]
        self.proc = subprocess.Popen(["sh", "-c", f'exec "$0" "$@" 3<&{to_chrome_r} 4>&{from_chrome_w}', exe] + args,
                                     pass_fds=(to_chrome_r, from_chrome_w), stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.next_id, self.replies, self.errors = 0, {}, []
        self.cv = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        pages = [t for t in self.call("Target.getTargets")["targetInfos"] if t["type"] == "page"]
        self.session = self.call("Target.attachToTarget", targetId=pages[0]["targetId"], flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable", session=True)

    def _read(self):
        buf = b""
        while True:
            chunk = os.read(self.from_chrome, 1 << 16)
            if not chunk:
                return
            buf += chunk
            while b"\0" in buf:
                raw, buf = buf.split(b"\0", 1)
                msg = json.loads(raw)
                with self.cv:
                    if "id" in msg:
                        self.replies[msg["id"]] = msg
                        self.cv.notify_all()
                    else:
                        self._event(msg)

    def _event(self, msg):
        m, p = msg.get("method"), msg.get("params", {})
        if m == "Runtime.exceptionThrown":
            d = p["exceptionDetails"]
            self.errors.append(f"exception: {d.get('exception', {}).get('description') or d.get('text')}")
        elif m == "Runtime.consoleAPICalled" and p["type"] == "error":
            self.errors.append("console.error: " + " ".join(str(a.get("value", a.get("description"))) for a in p["args"]))
        elif m == "Log.entryAdded" and p["entry"]["level"] == "error" and "favicon" not in p["entry"].get("url", ""):
            self.errors.append(f"log: {p['entry']['text']} {p['entry'].get('url', '')}")

    def call(self, method, session=False, **params):
        with self.cv:
            self.next_id += 1
            i = self.next_id
        msg = {"id": i, "method": method, "params": params}
        if session:
            msg["sessionId"] = self.session
        os.write(self.to_chrome, json.dumps(msg).encode() + b"\0")
        with self.cv:
            if not self.cv.wait_for(lambda: i in self.replies, timeout=60):
                raise RuntimeError(f"{method}: no answer from Chromium")
            reply = self.replies.pop(i)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply["result"]

    def js(self, expr):
        r = self.call("Runtime.evaluate", session=True, expression=expr, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expr[:80]}...: {r['exceptionDetails'].get('exception', {}).get('description')}")
        return r["result"].get("value")

    def wait(self, expr, what, timeout=60):
        end = time.time() + timeout
        while time.time() < end:
            if self.js(expr):
                return
            time.sleep(0.05)
        raise RuntimeError(f"timed out waiting for {what}")

    def open(self, url):
        self.call("Page.navigate", session=True, url=url)
        self.wait("!!(window.paPlayground && paPlayground.ready)", f"the page {url} to start")

    def shot(self, path):
        data = self.call("Page.captureScreenshot", session=True, format="png")["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        self.proc.wait(timeout=30)


class Check:
    def __init__(self, browser):
        self.b, self.failures, self.passed = browser, [], 0

    def __call__(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failures.append(what)
            print(f"web_browser: FAIL: {what}", file=sys.stderr)
        page_errors = self.b.js("paPlayground.errors.concat(document.getElementById('page-error').hidden ? [] : "
                                "[document.getElementById('page-error').textContent])")
        for e in page_errors + self.b.errors:
            self.failures.append(f"the page shows an error: {e}")
            print(f"web_browser: FAIL: the page shows an error ({what}): {e}", file=sys.stderr)
        self.b.errors.clear()
        self.b.js("paPlayground.errors.length = 0")


def native(root, *args):
    r = subprocess.run([PARRAYC, *args], cwd=root, capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def type_text(b, line, old, new):
    """Selects `old` on line (1-based) of the editor and types `new` over it."""
    col = b.js(f"paPlayground.editor.getLine({line - 1}).indexOf({json.dumps(old)})")
    if col < 0:
        raise RuntimeError(f"'{old}' is not on line {line}")
    before = b.js("paPlayground.updates")
    b.js(f"paPlayground.editor.focus(); paPlayground.editor.setSelection({{line: {line - 1}, ch: {col}}}, "
         f"{{line: {line - 1}, ch: {col + len(old)}}})")
    b.call("Input.insertText", session=True, text=new)
    b.wait(f"paPlayground.updates > {before}", "the page to follow the typing")


def main():
    browser = next((shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)
    if not browser:
        skip("no chromium")
    if not os.path.isfile(os.path.join(PLAYGROUND, "parrayc_web.js")):
        skip(f"no WebAssembly build in '{PLAYGROUND}' (sh scripts/web.sh builds it)")
    os.makedirs(SHOTS, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="web_browser.")
    work = os.path.join(tmp, "src")  # the samples, where edited programs are written for native parrayc
    shutil.copytree(os.path.join(SRCDIR, "samples"), os.path.join(work, "samples"))
    b = Browser(browser, os.path.join(tmp, "profile"))
    check = Check(b)
    try:
        url = "file://" + os.path.join(PLAYGROUND, "index.html")
        b.open(url)
        check(True, "the page starts")

        # 1. every example, against native parrayc
        examples = b.js("Array.from(document.querySelectorAll('#example option')).map(o => o.value).filter(v => v)")
        check(len(examples) >= 20, f"the examples: {len(examples)} found, expected the tutorial, figures and samples")
        for rel in examples:
            b.js(f"paPlayground.load({json.dumps(rel)})")
            rc, out, err = native(SRCDIR, "-o", "-", "-fdiagnostics-format=json", rel)
            code = b.js("paPlayground.code.getValue()")
            check(code == out, f"{rel}: the generated code differs from native parrayc's")
            diags = b.js("paPlayground.translation.diagnostics")
            check(json.loads(err or "[]") == diags, f"{rel}: the diagnostics differ from native parrayc's")
            check(b.js("paPlayground.translation.status") == (1 if rc else 0), f"{rel}: the status differs")
            if "tutorial/" in rel or "fig" in rel:
                b.shot(os.path.join(SHOTS, rel.replace("/", "_").replace(".pa", ".png")))
        print(f"web_browser: {len(examples)} examples give native parrayc's code and diagnostics")

        # 2. a type edited: tutorial step 1's M becomes the transpose of H
        rel = "samples/tutorial/step1_one_thread.pa"
        b.js(f"paPlayground.load({json.dumps(rel)})")
        line = 1 + b.js("paPlayground.editor.getValue().split('\\n').findIndex(l => /^#parray .*\\} M$/.test(l))")
        b.js(f"paPlayground.editor.setCursor({line - 1}, paPlayground.editor.getLine({line - 1}).length - 1)")
        b.wait("document.getElementById('type-name').textContent === 'M' && paPlayground.layout", "M's picture")
        picture0, code0 = b.js("paPlayground.layout.output"), b.js("paPlayground.code.getValue()")
        type_text(b, line, "[N][N]", "[#H_1][#H_0]")
        b.js(f"paPlayground.editor.setCursor({line - 1}, paPlayground.editor.getLine({line - 1}).length - 1)")
        b.wait("paPlayground.layout && paPlayground.layout.output !== " + json.dumps(picture0), "M's new picture")
        edited = b.js("paPlayground.editor.getValue()")
        with open(os.path.join(work, rel), "w") as f:
            f.write(edited)
        picture1, code1 = b.js("paPlayground.layout.output"), b.js("paPlayground.code.getValue()")
        check(picture1 != picture0 and code1 != code0, "editing M's type changes its picture and the code")
        check(code1 == native(work, "-o", "-", rel)[1], "the edited program's code is native parrayc's")
        check(picture1 == native(work, "--explain", "M", "--format=svg", "-D", "N=8", rel)[1],
              "the edited M's picture is native parrayc's --explain M --format=svg -D N=8")
        check("a[k * N + i]" in code1, "the transposed M reads a[k * N + i]")
        b.shot(os.path.join(SHOTS, "edited_type.png"))

        # 3. hover: a cell's index path and offset.  The picture may be drawn
        # again after the edit, which clears the text (a timer of the edit's
        # cursor moves): the text is read in the same turn as the hover, and
        # the hover tried again until it answers, a minute at most
        hover = ("(() => { const c = document.querySelector('#layout [data-info]'); if (c) c.dispatchEvent("
                 "new MouseEvent('mouseover', {bubbles: true})); "
                 "return document.getElementById('layout-info').textContent; })()")
        end, info = time.time() + 60, ""
        while time.time() < end:
            info = b.js(hover)
            if info == "M[0][0]: offset 0":
                break
            time.sleep(0.05)
        check(info == "M[0][0]: offset 0", f"hovering M's first cell shows 'M[0][0]: offset 0', not '{info}'")
        cells = b.js("document.querySelectorAll('#layout [data-info]').length")
        check(cells >= 64, f"M's picture has {cells} cells to hover, expected at least 64")

        # 4. the thread map of a pthd detour: each thread's quadrant
        rel = "samples/tutorial/step2_pthreads.pa"
        b.js(f"paPlayground.load({json.dumps(rel)})")
        line = 1 + b.js("paPlayground.editor.getValue().split('\\n').findIndex(l => l.includes('c[$M[[$tid_0$][i]]'))")
        b.js(f"paPlayground.editor.setCursor({line - 1}, 4)")
        b.wait(f"document.getElementById('access-line').textContent === '{line}' && paPlayground.access", "the access")
        text = b.js("document.getElementById('access-text').textContent")
        want = native(SRCDIR, "--explain-access", f"{rel}:{line}", "--thread-map", "-D", "N=8")[1]
        check(text == want, f"the accesses of {rel}:{line} are native parrayc's --explain-access")
        check("the map sweeps the loops of i from 0 to 3, j from 0 to 3" in text and "reach 64 elements" in text,
              "the thread map sweeps the loops: each thread's quadrant")
        check(b.js("document.querySelectorAll('#access svg [data-info]').length") > 0, "the thread map is drawn")
        b.shot(os.path.join(SHOTS, "thread_map.png"))

        # 5. a mistake: the error under its line, as native parrayc says it
        line = 1 + b.js("paPlayground.editor.getValue().split('\\n').findIndex(l => l.includes('#create M(a)'))")
        type_text(b, line, "M(a)", "Q(a)")
        edited = b.js("paPlayground.editor.getValue()")
        with open(os.path.join(work, rel), "w") as f:
            f.write(edited)
        rc, _, err = native(work, "-o", "-", "-fdiagnostics-format=json", rel)
        first = json.loads(err)[0]
        widget = b.js("(w => w && [w.dataset.line, w.textContent])(document.querySelector('.pa-diag-widget.pa-error'))")
        check(rc == 1 and widget is not None, "the mistake gives an error in the editor")
        if widget:
            check(int(widget[0]) == first["locations"][0]["caret"]["line"] == line and first["message"] in widget[1],
                  f"the error is shown under line {line}: '{first['message']}' (shown: line {widget[0]}: {widget[1]})")
            # in the editor's own lines: the widget follows line `line`
            check(b.js(f"paPlayground.editor.lineInfo({line - 1}).widgets.length") == 1, "the error is a line widget")
        check(b.js("paPlayground.code.getValue()") == "", "no code is shown for a program with errors")
        b.shot(os.path.join(SHOTS, "mistake.png"))

        # 6. the address reproduces the program; served over http too
        href = b.js("location.href")
        b.call("Page.navigate", session=True, url="about:blank")
        b.open(href)
        check(b.js("paPlayground.editor.getValue()") == edited, "the page's address reproduces the program")
        class Quiet(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args):
                pass
        handler = functools.partial(Quiet, directory=PLAYGROUND)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        b.open(f"http://127.0.0.1:{server.server_port}/index.html")
        check(b.js("paPlayground.translation.status") == 0 and b.js("paPlayground.code.getValue()").startswith(
            "/* Generated by parrayc"), "the page works from python3 -m http.server")
        server.shutdown()
    except Exception as e:  # a step that could not run is a failure, said
        check(False, f"the test could not go on: {e}")
    finally:
        b.close()
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"web_browser: {check.passed} checks passed, {len(check.failures)} failed; screenshots in {SHOTS}")
    sys.exit(1 if check.failures else 0)


if __name__ == "__main__":
    main()
