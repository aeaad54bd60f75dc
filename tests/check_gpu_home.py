#!/usr/bin/env python3
"""check_gpu_home.py SRCDIR: where CUDA may be spelled in compiler/.

The GPU has one home (doc/internals.md, "The GPU"): the GPU target,
compiler/targets/cuda/; the launch model, model/launch.c and .h (the
launch rule and CUDA's numbers); the explainer's pictures, explain/; and
the command (driver.c, driver.h, main.c), which runs nvcc.  Every other
file of compiler/ describes GPU work only through the Backend interface
(emit/backend.h) and names no GPU API:

  - in code, comments or printed text: no call of the CUDA runtime
    (pa_cuda_...), no launch (<<<), no CUDA API name (cudaMemcpy, ...),
    no __global__, __syncthreads, dim3, threadIdx, ... (the qualifiers
    a source may write, __shared__ and __device__, are C to read),
    no "CUDA", no nvcc;
  - in code: no identifier spelling cuda (e->cuda, uses_cuda), except
    the language's thread kind TK_CUDA outside emit/ and targets/ (the
    walk and the other targets ask the Backend, never the kind) and the
    list of targets (targets/all.c, all.h) naming backend_cuda.
The language's word "cuda" in strings (diagnostics, keywords) is fine.
Exit 0 when no file breaks the rules, 1 otherwise, naming each place."""
import os
import re
import sys

HOME = ("targets/cuda/", "model/launch.", "explain/", "driver.", "main.c")
API = re.compile(r"pa_cuda_|<<<|\bcuda[A-Z]\w*|__global__|__syncthreads|\bdim3\b|"
                 r"\b(?:threadIdx|blockIdx|blockDim|gridDim)\b|\bCUDA\b|\bnvcc\b")
IDENT = re.compile(r"\b\w*[cC][uU][dD][aA]\w*\b")
TOKENS = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def code_only(text):
    """text with comments and string literals blanked (lines kept)"""
    return TOKENS.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


def check(src, rel):
    text = open(os.path.join(src, rel), encoding="utf-8", errors="replace").read()
    bad = []
    for m in API.finditer(text):
        bad.append((line_of(text, m.start()), m.group(0)))
    code = code_only(text)
    for m in IDENT.finditer(code):
        word = m.group(0)
        if word == "TK_CUDA" and not rel.startswith(("emit/", "targets/")):
            continue
        if word == "backend_cuda" and rel.startswith("targets/all."):
            continue
        bad.append((line_of(code, m.start()), word))
    return [f"FAIL: compiler/{rel}:{line}: '{word}': CUDA is spelled in targets/cuda/, model/launch.*, "
            "explain/ and the command only" for line, word in sorted(set(bad))]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_gpu_home.py SRCDIR")
    src = os.path.join(sys.argv[1], "compiler")
    files = []
    for root, _, names in os.walk(src):
        for f in names:
            if f.endswith((".c", ".h", ".l", ".y")):
                rel = os.path.relpath(os.path.join(root, f), src)
                if not rel.startswith(HOME):
                    files.append(rel)
    problems = [p for rel in sorted(files) for p in check(src, rel)]
    for p in problems:
        print(p)
    print(f"check_gpu_home: {len(files)} files outside the GPU's home; "
          f"{'ok' if not problems else str(len(problems)) + ' problems'}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
