#!/usr/bin/env python3
"""check_diagfmt.py PARRAYC TESTS_DIR: -fdiagnostics-format=json and
sarif-file on every program of tests/diag/.

For each, the JSON (gcc's shape) must be valid against
tests/diagfmt/gcc-json.schema.json and say exactly what the text does (each
"FILE:LINE:COL: KIND: MESSAGE" line, notes as the children of the error or
warning before them); the SARIF log (NAME.pa.sarif, written in the current
directory) must be valid against tests/diagfmt/sarif-2.1.0-subset.schema.json
(and the OASIS schema itself where PARRAY_SARIF_SCHEMA names a copy), with
one result per error and warning at the same place.  Nothing else is
written to stderr in those formats, and the exit status is the text
mode's.  Exit 77 without the jsonschema module."""
import json
import os
import re
import subprocess
import sys
import tempfile

try:
    import jsonschema
except ImportError:
    print("skipped: no python jsonschema module (pip install jsonschema)")
    sys.exit(77)

parrayc, tests = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
here = os.path.join(tests, "diagfmt")
checker = jsonschema.FormatChecker()
gcc_schema = json.load(open(os.path.join(here, "gcc-json.schema.json")))
sarif_schemas = [json.load(open(os.path.join(here, "sarif-2.1.0-subset.schema.json")))]
if os.environ.get("PARRAY_SARIF_SCHEMA"):
    sarif_schemas.append(json.load(open(os.environ["PARRAY_SARIF_SCHEMA"])))
LINE = re.compile(r"^(.+?):(?:(\d+):(\d+):)? (error|warning|note): (.*?)(?: \[(-W[a-z=-]+)\])?$")
fails = 0


def fail(msg):
    global fails
    fails += 1
    print("FAIL: " + msg, file=sys.stderr)


URI_REF = re.compile(r"^(?:[A-Za-z0-9\-._~!$&'()*+,;=@/]|%[0-9A-F]{2})(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-F]{2})*$")


def uris(node):
    """Every artifactLocation uri in a SARIF log."""
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "artifactLocation" or (k == "location" and "uri" in v):
                yield v["uri"]
            else:
                yield from uris(v)
    elif isinstance(node, list):
        for v in node:
            yield from uris(v)


def validate_sarif(log, what):
    """Checks a SARIF log against every schema at hand, and its uris against
    RFC 3986's relative-ref (which jsonschema checks only with rfc3987
    installed); a failure names what."""
    for u in uris(log):
        if not URI_REF.match(u) or (":" in u.split("/")[0]):
            fail(f"{what}: sarif uri {u!r} is no relative reference (RFC 3986)")
    for schema in sarif_schemas:
        try:
            jsonschema.Draft7Validator(schema, format_checker=checker).validate(log)
        except jsonschema.ValidationError as e:
            fail(f"{what}: sarif ({schema.get('title')}): {e.message} at {list(e.absolute_path)}")


def run(args, cwd):
    p = subprocess.run([parrayc] + args, cwd=cwd, capture_output=True, text=True)
    return p.returncode, p.stderr


def flatten(diags):
    for d in diags:
        yield d
        yield from flatten(d["children"])


diag_dir = os.path.join(tests, "diag")
names = sorted(f for f in os.listdir(diag_dir) if f.endswith(".pa"))
for name in names:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.c")
        src = os.path.join(diag_dir, name)
        rc_text, text = run(["-o", out, src], tmp)
        want = [m.groups() for m in map(LINE.match, text.splitlines()) if m]
        rc_json, js = run(["-fdiagnostics-format=json", "-o", out, src], tmp)
        if rc_json != rc_text:
            fail(f"{name}: json: exit status {rc_json}, text mode {rc_text}")
        try:
            doc = json.loads(js)
        except ValueError as e:
            fail(f"{name}: json: not one JSON document on stderr ({e}): {js[:200]!r}")
            continue
        try:
            jsonschema.validate(doc, gcc_schema, format_checker=checker)
        except jsonschema.ValidationError as e:
            fail(f"{name}: json: {e.message} at {list(e.absolute_path)}")
        got = []
        for d in flatten(doc):
            c = d["locations"][0]["caret"] if d["locations"] else None
            got.append((c["file"] if c else None, str(c["line"]) if c else None,
                        str(c["column"]) if c else None, d["kind"], d["message"], d.get("option")))
        want = [(f if ln else None, ln, col, k, m, o) for f, ln, col, k, m, o in want]
        if [g[1:] for g in got] != [w[1:] for w in want] or any(
                g[0] and not w[0].endswith(os.path.basename(g[0])) for g, w in zip(got, want)):
            fail(f"{name}: json says\n  {got}\ntext says\n  {want}")
        rc_sarif, se = run(["-fdiagnostics-format=sarif-file", "-o", out, src], tmp)
        if rc_sarif != rc_text:
            fail(f"{name}: sarif-file: exit status {rc_sarif}, text mode {rc_text}")
        if se.strip():
            fail(f"{name}: sarif-file: stderr is not empty: {se[:200]!r}")
        path = os.path.join(tmp, name + ".sarif")
        if not os.path.exists(path):
            fail(f"{name}: sarif-file wrote no {name}.sarif")
            continue
        log = json.load(open(path))
        validate_sarif(log, name)
        results = log["runs"][0]["results"]
        tops = [w for w in want if w[3] != "note"]
        if [(r["level"], r["message"]["text"]) for r in results] != [(w[3], w[4]) for w in tops]:
            fail(f"{name}: sarif results differ from the text's errors and warnings")
        for r, w in zip(results, tops):
            if w[5] and r.get("ruleId") != w[5]:
                fail(f"{name}: sarif ruleId {r.get('ruleId')} for {w[5]}")
        for r, w in zip(results, tops):
            if w[1]:
                reg = r["locations"][0]["physicalLocation"]["region"]
                if (str(reg["startLine"]), str(reg.get("startColumn"))) != (w[1], w[2]):
                    fail(f"{name}: sarif region {reg} for {w}")
        if log["runs"][0]["invocations"][0]["executionSuccessful"] != (rc_text == 0):
            fail(f"{name}: sarif executionSuccessful")

# an input that cannot be read is a diagnostic too (without a line)
with tempfile.TemporaryDirectory() as tmp:
    rc, js = run(["-fdiagnostics-format=json", "missing.pa"], tmp)
    try:
        doc = json.loads(js)
        jsonschema.validate(doc, gcc_schema, format_checker=checker)
        if rc != 1 or len(doc) != 1 or "cannot read 'missing.pa'" not in doc[0]["message"] or doc[0]["locations"]:
            fail(f"missing input in json: status {rc}, {doc}")
    except (ValueError, jsonschema.ValidationError) as e:
        fail(f"missing input in json: {e}: {js!r}")
    rc, se = run(["-fdiagnostics-format=sarif-file", "missing.pa"], tmp)
    path = os.path.join(tmp, "missing.pa.sarif")
    if rc != 1 or se.strip() or not os.path.exists(path):
        fail(f"missing input in sarif-file: status {rc}, stderr {se!r}")
    else:
        log = json.load(open(path))
        validate_sarif(log, "missing input")
        if log["runs"][0]["results"][0]["level"] != "error":
            fail("missing input in sarif: not an error result")

# issue 51: every message in the document, driver errors included; valid
# whatever the file names; the run's status; warnings named


def sarif_of(text, what):
    try:
        log = json.loads(text)
    except ValueError as e:
        fail(f"{what}: not one JSON document ({e}): {text[:300]!r}")
        return None
    validate_sarif(log, what)
    return log


def json_of(text, what):
    try:
        doc = json.loads(text)
        jsonschema.validate(doc, gcc_schema, format_checker=checker)
        return doc
    except (ValueError, jsonschema.ValidationError) as e:
        fail(f"{what}: {e}: {text[:300]!r}")
        return None


with tempfile.TemporaryDirectory() as tmp:
    # usage errors and driver errors: in the document, status 1, run failed
    for args, said in [(["--bogus", "x.pa"], "unrecognized command-line option '--bogus'"),
                       (["-c", "--run", "x.pa"], "cannot be used together"),
                       (["-o", os.path.join(tmp, "no", "dir", "x.c"),
                         os.path.join(diag_dir, "..", "cli", "args.pa")], "cannot write")]:
        for fmt in ("json", "sarif-stderr"):
            rc, err = run([f"-fdiagnostics-format={fmt}"] + args, tmp)
            if fmt == "json":
                doc = json_of(err, f"{args} json")
                ok = doc is not None and any(said in d["message"] for d in doc)
            else:
                log = sarif_of(err, f"{args} sarif")
                ok = log is not None and any(said in r["message"]["text"] for r in log["runs"][0]["results"]) \
                    and log["runs"][0]["invocations"][0]["executionSuccessful"] is False
            if rc != 1 or not ok:
                fail(f"{fmt} {args}: status {rc}, the error not in the document: {err[:300]!r}")
    # the C compiler failing: its error and its text in the document
    rc, err = run(["-fdiagnostics-format=sarif-stderr", "--build", os.path.join(tests, "cli", "args.pa"),
                   "-lparray_no_such_library", "-o", "prog"], tmp)
    log = sarif_of(err, "--build failing")
    if rc != 1 or not log or log["runs"][0]["invocations"][0]["executionSuccessful"] is not False or \
            not any("compiling" in r["message"]["text"] for r in log["runs"][0]["results"]):
        fail(f"--build failing in sarif: status {rc}: {err[:300]!r}")
    rc, err = run(["-fdiagnostics-format=sarif-stderr", "-o", "ok.c", os.path.join(tests, "cli", "args.pa")], tmp)
    log = sarif_of(err, "a good program")
    if rc != 0 or not log or log["runs"][0]["invocations"][0]["executionSuccessful"] is not True:
        fail(f"a good program in sarif: status {rc}: {err[:300]!r}")
    # file names that are not UTF-8, with spaces, colons and percent signs
    src = open(os.path.join(diag_dir, "robust_warnings.pa"), "rb").read()
    odd = b"odd \xff%:name.pa"
    with open(os.path.join(tmp.encode(), odd), "wb") as f:
        f.write(src)
    docs = {}
    for fmt in ("json", "sarif-stderr"):
        p = subprocess.run([parrayc, f"-fdiagnostics-format={fmt}", odd], cwd=tmp, capture_output=True)
        try:
            docs[fmt] = p.stderr.decode("utf-8")
        except UnicodeDecodeError as e:
            fail(f"odd name {fmt}: not UTF-8: {e}")
            docs[fmt] = ""
    json_of(docs["json"], "odd name json")
    log = sarif_of(docs["sarif-stderr"], "odd name sarif")
    if log:
        uris = [a["location"]["uri"] for a in log["runs"][0]["artifacts"]]
        if uris[0] != "odd%20%FF%25%3Aname.pa":
            fail(f"odd name sarif: uri {uris[0]!r} is not percent-encoded")
    # warnings named: -Wno-NAME, -Werror=NAME, -Wno-error=NAME
    rw = os.path.join(diag_dir, "robust_warnings.pa")
    rc, err = run(["-fdiagnostics-format=json", "-Wno-size-reference", "-Werror=reshape", rw], tmp)
    doc = json_of(err, "-Wno-/-Werror=") or []
    opts = [(d["kind"], d.get("option")) for d in doc if d.get("option")]
    if opts != [("error", "-Werror=reshape")]:
        fail(f"-Wno-size-reference -Werror=reshape: {opts}")
    rc, err = run(["-Werror", "-Wno-error=reshape", rw], tmp)
    if "warning: #copy from" not in err or "[-Wreshape]" not in err or "[-Werror=size-reference]" not in err:
        fail(f"-Werror -Wno-error=reshape: {err}")

# a bad value is a usage error
rc, err = run(["-fdiagnostics-format=xml", os.path.join(diag_dir, names[0])], tests)
if rc != 1 or "expected text, json" not in err:
    fail(f"-fdiagnostics-format=xml: status {rc}: {err}")
print(f"diagnostic formats: {len(names)} programs" + (", ok" if not fails else f", {fails} failures"))
sys.exit(1 if fails else 0)
