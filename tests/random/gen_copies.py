#!/usr/bin/env python3
"""gen_copies.py: random #copy programs for the differential test (issue 31).

    gen_copies.py --target host|pthd|omp|mpi|pthd_dist|omp_dist|gpu_pthd|gpu_mpi --seed S --cases N
                  [--procs P] -o FILE.pa

writes a Parray program of N cases.  Each case declares two random layouts of
one extent (natural, nested, padded, permuted such as column-major, tiled,
split and sub-range views of a base type, views of such views), fills a
source buffer with distinct values and the destination with -1, copies, and
compares every element of the destination's buffer with the answer this
script computes from SPEC 2.4's offset rules (a plain table in the program).  host: on the
host; pthd, omp: in each thread of a 2-thread body (thread-local buffers);
mpi: in a 2-process body, a local copy, or a scatter of process 0's array
into a distributed type (a [#P] dimension, the local block padded or
permuted), an all-to-all into another distribution and a gather back; the
distributed cases' elements int, double, long long, short or float; now and
then a distributed side is one chunk or residue class of a larger
distributed base, its pointer offset into the block (chunk_layout); in 6
programs of 10 some sizes are names: variables, known at run time only, or
macros (symbolic_sizes).
pthd_dist, omp_dist: that program over the threads of a pthd or omp body,
the distributed types' blocks in each thread's own memory (SPEC 6.3).
gpu_pthd, gpu_mpi: the same distributions in GPU memory (dmem) over the 2
threads or processes of a body, each on a GPU of its own: a scatter, a
gather of it, an all-to-all into another distribution, a gather of that;
in a quarter of the cases held by every process, the two distributions are
a matrix by rows and by columns, as the FFT sample's (slab_pair).
--procs P (mpi, *_dist, gpu_*): P processes or threads instead of 2; a
part may then be held by all of them, by the first, or by the first k.
Where P has factors, half the programs declare the processes a grid [a][b]
and each distribution references P, P_0 or P_1 (SPEC 6.3's grids), or
both axes in front of two of its dimensions (two_axes).

The program prints "N cases correct" and exits 0, or prints, for each wrong
case, "FAIL seed S case K: ..." with its types and copy, and exits 1.  The
same seed gives the same program.
"""
import argparse
import random
import re
import sys

NP = 2  # processes (threads) of the distributed targets: --procs
GRID = None  # (a, b): P declared [a][b] (NP = a * b), data over P, P_0 or P_1


# ---- layouts ----------------------------------------------------------------

class Node:
    """A dimension: a leaf of some extent, a reference to a base dimension
    (offset stride, maybe sized), or an inner node with kids."""

    def __init__(self, extent=None, kids=None, ref=None, proc=None):
        self.kids = kids or []
        self.ref = ref          # (base name, k, stride): offset = i * stride
        self.proc = proc        # a process dimension, (name, weight, extent): offset 0, the owner weight * i
        self.extent = extent if extent is not None else prod(k.extent for k in self.kids)

    def text(self):
        if self.proc:
            name, _, full = self.proc
            return '[#%s]' % name if self.extent == full else '[%d #%s]' % (self.extent, name)
        if self.ref:
            name, k, stride, full, n = self.ref
            if self.kids:  # a split: [[a][b] #B_k]
                return '[' + ''.join(c.text() for c in self.kids) + ' #%s_%d]' % (name, k)
            return '[#%s_%d]' % (name, k) if full else '[%d #%s_%d]' % (n, name, k)
        if self.kids:
            return '[' + ''.join(c.text() for c in self.kids) + ']'
        return '[%d]' % self.extent


def prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def leaves_after(root, target):
    """W(target, root): the product of the extents of the leaves after
    target's subtree (a node with a reference or a [#P] counts as a leaf)."""
    order = []

    def walk(n):
        order.append(n)
        if not n.ref and not n.proc:
            for k in n.kids:
                walk(k)
    walk(root)
    w, seen, inside = 1, False, set()

    def mark(n):
        inside.add(id(n))
        for k in n.kids:
            mark(k)
    mark(target)
    for n in order:
        if n is target:
            seen = True
            continue
        if seen and id(n) not in inside and (not n.kids or n.ref or n.proc):
            w *= n.extent
    return w


class Layout:
    """A type (its text and tree) and, for a view, its base type."""

    def __init__(self, root, base=None):
        self.root = root
        self.base = base  # (name, padded extents) or None

    def offset(self, i):
        """(owner, offset) of logical index i (SPEC 2.4; a [#P] digit is the owner)."""
        return self._off(self.root, i, None)

    def _off(self, n, i, above):
        if n.proc:
            return i * n.proc[1], 0
        if n.ref:
            stride = n.ref[2]  # rule 1 (a split's kids: rule 2, through the node's index)
            return 0, stride(i) if callable(stride) else i * stride
        if not n.kids:
            return 0, i * leaves_after(self.root, n)  # rule 4
        owner, off = 0, 0
        rest = i
        digits = []
        for k in reversed(n.kids):
            digits.append(rest % k.extent)
            rest //= k.extent
        digits.reverse()
        for k, d in zip(n.kids, digits):
            o, f = self._off(k, d, n)
            owner += o
            off += f
        return owner, off

    def span(self):
        if self.base and isinstance(self.base[1], int):
            return self.base[1]  # a view of a view: its base's span
        if self.base:
            return prod(self.base[1])
        return 1 + max(self.offset(i)[1] for i in range(self.root.extent))


def factors(e, rng, most):
    """e as a random product of at most `most` factors > 1 (or [e])."""
    fs = [e]
    for _ in range(most - 1):
        k = rng.randrange(len(fs))
        divs = [d for d in range(2, fs[k]) if fs[k] % d == 0]
        if not divs:
            continue
        d = rng.choice(divs)
        fs[k:k + 1] = [d, fs[k] // d]
    rng.shuffle(fs)
    return fs


def group(rng, nodes):
    """Nest some neighbours: [a][b][c] -> [[a][b]][c]."""
    if len(nodes) >= 3 and rng.random() < 0.4:
        k = rng.randrange(len(nodes) - 1)
        nodes = nodes[:k] + [Node(kids=nodes[k:k + 2])] + nodes[k + 2:]
    return nodes


def random_layout(rng, e, name, decls, local=False, depth=0):
    """A random layout of extent e named name; its base (if any) is declared
    first into decls.  Returns the Layout."""
    if depth == 0 and rng.random() < 0.2:
        return view_of_view(rng, e, name, decls)
    fs = factors(e, rng, 4)
    kind = rng.choice(['natural', 'view', 'view', 'view'])
    if kind == 'natural' or len(fs) == 1 and rng.random() < 0.5:
        nodes = group(rng, [Node(f) for f in fs])
        root = Node(kids=nodes) if len(nodes) > 1 else Node(kids=nodes)
        return Layout(root)
    # a base type holding the factors in another order, some padded
    order = list(range(len(fs)))
    rng.shuffle(order)
    base_ext = [fs[j] for j in order]
    pad = [rng.choice([0, 0, 1, 2]) for _ in base_ext]
    padded = [b + p for b, p in zip(base_ext, pad)]
    bname = name + 'B'
    decls.append('#parray {paged int %s} %s' % (''.join('[%d]' % x for x in padded), bname))
    strides = [prod(padded[k + 1:]) for k in range(len(padded))]
    nodes = []
    for j in range(len(fs)):
        k = order.index(j)  # the base dimension holding factor j
        full = pad[k] == 0
        ref = (bname, k, strides[k], full, fs[j])
        node = Node(fs[j], ref=ref)
        divs = [d for d in range(2, fs[j]) if fs[j] % d == 0]
        if full and divs and rng.random() < 0.3:  # a split [[a][b] #B_k]
            a = rng.choice(divs)
            kids = [Node(a), Node(fs[j] // a)]
            node = Node(fs[j], kids=kids, ref=ref)
        nodes.append(node)
    nodes = group(rng, nodes)
    return Layout(Node(kids=nodes), (bname, padded))


def view_of_view(rng, e, name, decls):
    """A view whose references name the dimensions of another view (SPEC 2.2:
    any node of any earlier type): its top-level dimensions in another
    order, one of them split now and then."""
    vname = name + 'V'
    base = random_layout(rng, e, vname, decls, depth=1)
    decls.append('#parray {paged int %s} %s' % (''.join(c.text() for c in base.root.kids), vname))
    kids = base.root.kids
    order = list(range(len(kids)))
    rng.shuffle(order)
    nodes = []
    for k in order:
        r = kids[k]
        ref = (vname, k, lambda i, r=r: base._off(r, i, None)[1], True, r.extent)
        divs = [d for d in range(2, r.extent) if r.extent % d == 0]
        if divs and rng.random() < 0.3:
            a = rng.choice(divs)
            nodes.append(Node(r.extent, kids=[Node(a), Node(r.extent // a)], ref=ref))
        else:
            nodes.append(Node(r.extent, ref=ref))
    nodes = group(rng, nodes)
    return Layout(Node(kids=nodes), (vname, base.span()))


def distributed_layout(rng, e_local, name, decls, hold):
    """A type over P: the local part (natural rows, or a view of a padded or
    permuted local base) with a [#P] dimension grouped in front of one
    top-level dimension.  Returns (Layout, local span)."""
    lay = random_layout(rng, e_local, name + 'L', decls)
    kids = lay.root.kids
    if not lay.base:
        # natural: only the first position keeps the local layout the same on every process
        k = 0
    else:
        k = rng.randrange(len(kids))
    kids[k] = Node(kids=[Node(hold, proc=process_axis(rng, hold)), kids[k]])
    root = Node(kids=kids)
    d = Layout(root, lay.base)
    return d, lay.span()


def process_axis(rng, hold):
    """The process dimension a part of hold processes references: P, or
    with a grid P_0 (weight b) or P_1, when that axis has hold of them."""
    if not GRID:
        return ('P', 1, NP)
    a, b = GRID
    axes = [('P', 1, NP)] + [ax for ax in (('P_0', b, a), ('P_1', 1, b)) if ax[2] >= hold]
    return rng.choice(axes)


def procs_text():
    """P's extent as declared: [NP], or [a][b]."""
    return '[%d][%d]' % GRID if GRID else '[%d]' % NP


def holders(rng):
    """How many of the NP processes hold a part: all, the first ([1 #P]),
    or with more than 2 the first k ([k #P]).  With 2, the draws of the
    programs before --procs existed."""
    hold = NP if rng.random() < 0.8 else 1
    if NP > 2 and hold == 1 and rng.random() < 0.5:
        hold = rng.randrange(2, NP)
    return hold


def other_holders(mix, e, hold):
    """The holders of the all-to-all's destination: mostly those of its
    source; a quarter of the time (drawn from mix, apart from the program's
    draws) another count that divides e into parts of 2 or more, so that
    the copy also gathers to fewer processes or spreads to more."""
    others = [h for h in range(1, NP + 1) if h != hold and e % h == 0 and e // h >= 2]
    if others and mix.random() < 0.25:
        return mix.choice(others)
    return hold


# the element types of the distributed cases besides int: their sizes are
# what the copies' packing, staging and messages scale by
ELEMENTS = ['int', 'int', 'int', 'double', 'long long', 'short', 'float']


def element_of(types, decls, first):
    """A case's element type, drawn from types (apart from the program's
    draws); the case's declarations from decls[first] on take it."""
    ty = types.choice(ELEMENTS)
    if ty != 'int':
        decls[first:] = [d.replace(' int ', ' %s ' % ty, 1) for d in decls[first:]]
    return ty


def typed(ty, names):
    """The case's buffers as pointers to its elements inside a body whose
    thread array passes int pointers: '' for int."""
    if ty == 'int':
        return ''
    return '%s %s;\n      ' % (ty, ', '.join('*%st = (%s *)%s' % (n, ty, n) for n in names))


def destination_layout(rng, mix, e, el, name, decls, hold):
    """The all-to-all's destination over P: (layout, local span).  With
    other holders it is drawn from mix, after the draws of one with hold
    (not used), so that the program's other draws stay as they were."""
    h2 = other_holders(mix, e, hold)
    if h2 == hold:
        return distributed_layout(rng, el, name, decls, hold)
    distributed_layout(rng, el, name, [], hold)
    return distributed_layout(mix, e // h2, name, decls, h2)


def chunk_layout(rng, e_local, name, decls, hold):
    """One chunk or residue class of a distributed base, as the FFT
    sample's XRC and XQC: the base NAMEC is [[#P][C][a]][b] (each process a
    block of C chunks of a rows) or [[#P][a][C]][b] (its rows in C residue
    classes), the view [[#NAMEC_0_0][#NAMEC_0_2 or _1]][#NAMEC_1] takes a
    rows of b, and the pointer goes to chunk (class) c.  #create makes the
    base.  Returns (Layout, local span, pointer offset, base name)."""
    a = rng.choice([d for d in range(1, e_local + 1) if e_local % d == 0])
    b, C = e_local // a, rng.choice([2, 3])
    c, classes = rng.randrange(C), rng.random() < 0.5
    bname = name + 'C'
    name_p, weight, full = process_axis(rng, hold)
    proc = Node(hold, proc=(name_p, weight, full)).text()
    inner = '[%d][%d]' % ((a, C) if classes else (C, a))
    decls.append('#parray {paged int [%s%s][%d]} %s' % (proc, inner, b, bname))
    rows = Node(a, ref=(bname + '_0', 1 if classes else 2, C * b if classes else b, True, a))
    root = Node(kids=[Node(kids=[Node(hold, proc=(bname + '_0_0', weight, hold)), rows]),
                      Node(b, ref=(bname, 1, 1, True, b))])
    return Layout(root, (bname, [C, a, b])), C * a * b, c * b if classes else c * a * b, bname


def holders_of(lay):
    """The extent of a distributed layout's process dimension."""
    todo = [lay.root]
    while todo:
        n = todo.pop()
        if n.proc:
            return n.extent
        todo.extend(n.kids)
    return NP


def chunked(chunks, lay, span, name, decls, first):
    """Now and then (drawn from chunks, apart from the program's draws) a
    chunk of a distributed base in place of the layout just drawn (whose
    declarations from decls[first] on go): (Layout, span, offset, the
    name #create takes)."""
    if chunks.random() >= 0.3:
        return lay, span, 0, name
    del decls[first:]
    hold = holders_of(lay)
    return chunk_layout(chunks, lay.root.extent // hold, name, decls, hold)


def two_axes(grids, lay):
    """Now and then (drawn from grids, apart from the program's draws),
    where the processes are a grid [a][b] and lay is a view distributed
    over all of them by one [#P] in front of a top-level dimension, the
    grid's two axes in front of two: [[#P_0][..]]..[[#P_1][..]], a block
    of rows and of columns on each process (the owner i_0 * b + i_1)."""
    kids = lay.root.kids
    if not GRID or not lay.base or len(kids) < 2 or grids.random() >= 0.4:
        return lay
    at = [k for k, n in enumerate(kids) if n.kids and n.kids[0].proc and n.kids[0].proc[0] == 'P'
          and n.kids[0].extent == NP]
    if not at:
        return lay
    a, b = GRID
    k0 = at[0]
    k1 = grids.choice([k for k in range(len(kids)) if k != k0])  # before or after P_0's
    kids = list(kids)  # new nodes: a node's extent is its kids' product, taken when made
    kids[k0] = Node(kids=[Node(a, proc=('P_0', b, a))] + kids[k0].kids[1:])
    kids[k1] = Node(kids=[Node(b, proc=('P_1', 1, b)), kids[k1]])
    return Layout(Node(kids=kids), lay.base)


# ---- programs --------------------------------------------------------------

def c_array(name, values):
    body = ', '.join(str(v) for v in values)
    return 'static const int %s[%d] = {%s};' % (name, len(values), body)


def copy_case(rng, k, decls, prefix):
    e = rng.choice([2, 3, 4, 6, 8, 9, 12, 16, 18, 24, 30, 36, 48, 60])
    s = random_layout(rng, e, '%sS%d' % (prefix, k), decls)
    decls.append('#parray {paged int %s} %sS%d' % (''.join(c.text() for c in s.root.kids), prefix, k))
    d = random_layout(rng, e, '%sD%d' % (prefix, k), decls)
    decls.append('#parray {paged int %s} %sD%d' % (''.join(c.text() for c in d.root.kids), prefix, k))
    # sometimes the pointers are offset into larger buffers (a chunk: x + c * W)
    so = rng.choice([0, 0, 0, 1, 3, 5])
    do = rng.choice([0, 0, 0, 2, 4])
    ss, ds = s.span() + so, d.span() + do
    want = [-1] * ds
    for i in range(e):
        want[do + d.offset(i)[1]] = so + s.offset(i)[1] + 1
    return e, ss, ds, want, ptr('s', so), ptr('d', do)


def ptr(name, off):
    """A pointer's text, offset by off elements (written as a product now and then)."""
    if not off:
        return name
    return '%s + %d' % (name, off) if off % 2 else '%s + %d * 2' % (name, off // 2)


def types_of(decls, k, prefix):
    names = ('%sS%d' % (prefix, k), '%sD%d' % (prefix, k))
    lines = [d for d in decls if d.split('} ')[-1].startswith(names)]
    return ' / '.join(lines) + ' / '


def c_string(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


def header(seed, n, target):
    procs = ' --procs %d' % NP if NP != 2 else ''
    return ('// parrayc-test: generated by tests/random/gen_copies.py --target %s --seed %d --cases %d%s\n'
            '#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n'
            'static const int seed = %d;' % (target, seed, n, procs, seed))


REPORT = '''static void report(int k, const char *what)
{
  printf("FAIL seed %d case %d: %s\\n", seed, k, what);
}'''

def threads_program(rng, seed, n, target):
    """pthd, omp: the copies stand in the body (each thread's own copy)."""
    decls, out_cases, checks = [], [], []
    wants = []
    for k in range(n):
        e, ss, ds, want, sp, dp = copy_case(rng, k, decls, 'C')
        wants.append(c_array('want%d' % k, want))
        what = c_string(types_of(decls, k, 'C') + '#copy CS%d(%s) to CD%d(%s)' % (k, sp, k, dp))
        out_cases.append('''    { /* case %d */
      int s[%d], d[%d], bad = 0;
      for (int i = 0; i < %d; i++)
        s[i] = i + 1;
      for (int i = 0; i < %d; i++)
        d[i] = -1;
      #copy CS%d(%s) to CD%d(%s)
      for (int i = 0; i < %d; i++)
        bad += d[i] != want%d[i];
      if (bad) {
        report(%d, %s);
        wrong[$tid$]++;
      }
    }''' % (k, ss, ds, ss, ds, k, sp, k, dp, ds, k, k, what))
    out = [header(seed, n, target), '\n'.join(decls), REPORT, '\n'.join(wants),
           '#parray {%s [2]} T' % target,
           '''int main(void)
{
  int wrong[2] = {0, 0};
  #detour T {
%s
  }
  if (!wrong[0] && !wrong[1])
    printf("%d cases correct\\n");
  return wrong[0] || wrong[1];
}''' % ('\n'.join(out_cases), n)]
    return '\n\n'.join(out) + '\n'


def host_only_program(rng, seed, n):
    decls, out_cases, wants = [], [], []
    for k in range(n):
        e, ss, ds, want, sp, dp = copy_case(rng, k, decls, 'C')
        wants.append(c_array('want%d' % k, want))
        what = c_string(types_of(decls, k, 'C') + '#copy CS%d(%s) to CD%d(%s)' % (k, sp, k, dp))
        out_cases.append('''  { /* case %d */
    int s[%d], d[%d], bad = 0;
    for (int i = 0; i < %d; i++)
      s[i] = i + 1;
    for (int i = 0; i < %d; i++)
      d[i] = -1;
    #copy CS%d(%s) to CD%d(%s)
    for (int i = 0; i < %d; i++)
      bad += d[i] != want%d[i];
    if (bad) {
      report(%d, %s);
      wrong++;
    }
  }''' % (k, ss, ds, ss, ds, k, sp, k, dp, ds, k, k, what))
    out = [header(seed, n, 'host'), '\n'.join(decls), REPORT, '\n'.join(wants),
           '''int main(void)
{
  int wrong = 0;
%s
  if (!wrong)
    printf("%d cases correct\\n");
  return wrong != 0;
}''' % ('\n'.join(out_cases), n)]
    return '\n\n'.join(out) + '\n'


def failing_main(bodies, n, correct, note=''):
    """The report function that marks a failure, and a #mainhost that runs
    the bodies and prints the line run_copies.sh looks for (correct: its
    text after the count) unless a case failed; note: a comment line before it."""
    return '''static int failed;
static void report(int k, const char *what)
{
  printf("FAIL seed %d case %d: %s\\n", seed, k, what);
  failed = 1;
}''', '''#mainhost {
%s
%s  if (!failed)
    printf("%d %s\\n");
  return failed;
}''' % ('\n'.join(bodies), note and '  /* %s */\n' % note, n, correct)


def mpi_program(rng, seed, n, form='mpi'):
    """Half local copies in the body, half distributed: a scatter of process
    0's array into a type over P, an all-to-all into another, a gather.
    form pthd or omp: the same program over threads, x and y shared by all
    of them and each thread's blocks its own (SPEC 6.3).  The all-to-all's
    destination may be held by another number of processes
    (destination_layout)."""
    mix = random.Random('holders:%s:%d' % (form, seed))
    types = random.Random('elements:%s:%d' % (form, seed))
    chunks = random.Random('chunks:%s:%d' % (form, seed))
    grids = random.Random('two axes:%s:%d' % (form, seed))
    decls, wants, bodies = [], [], []
    for k in range(n):
        if rng.random() < 0.3:
            e, ss, ds, want, sp, dp = copy_case(rng, k, decls, 'C')
            wants.append(c_array('want%d' % k, want))
            what = c_string(types_of(decls, k, 'C') + '#copy CS%d(%s) to CD%d(%s)' % (k, sp, k, dp))
            bodies.append('''  #detour P(NULL, NULL) { /* case %d: a copy in each process */
    int s[%d], d[%d], bad = 0;
    for (int i = 0; i < %d; i++)
      s[i] = i + 1;
    for (int i = 0; i < %d; i++)
      d[i] = -1;
    #copy CS%d(%s) to CD%d(%s)
    for (int i = 0; i < %d; i++)
      bad += d[i] != want%d[i];
    if (bad)
      report(%d, %s);
  }''' % (k, ss, ds, ss, ds, k, sp, k, dp, ds, k, k, what))
            continue
        el = rng.choice([2, 3, 4, 6, 8, 9, 12])
        hold = holders(rng)
        e = el * hold
        first = len(decls)
        x = random_layout(rng, e, 'X%d' % k, decls)
        decls.append('#parray {paged int %s} X%d' % (''.join(c.text() for c in x.root.kids), k))
        at = len(decls)
        d1, l1 = distributed_layout(rng, el, 'D%d' % k, decls, hold)
        d1, l1, o1, _ = chunked(chunks, d1, l1, 'D%d' % k, decls, at)
        d1 = two_axes(grids, d1)
        decls.append('#parray {paged int %s} D%d' % (''.join(c.text() for c in d1.root.kids), k))
        at = len(decls)
        d2, l2 = destination_layout(rng, mix, e, el, 'E%d' % k, decls, hold)
        d2, l2, o2, _ = chunked(chunks, d2, l2, 'E%d' % k, decls, at)
        d2 = two_axes(grids, d2)
        decls.append('#parray {paged int %s} E%d' % (''.join(c.text() for c in d2.root.kids), k))
        y = random_layout(rng, e, 'Y%d' % k, decls)
        decls.append('#parray {paged int %s} Y%d' % (''.join(c.text() for c in y.root.kids), k))
        ty = element_of(types, decls, first)
        xo, yo = rng.choice([0, 0, 2, 3]), rng.choice([0, 0, 1, 4])
        xs, ys = x.span() + xo, y.span() + yo
        w1 = [[-1] * l1 for _ in range(NP)]
        w2 = [[-1] * l2 for _ in range(NP)]
        wy = [-1] * ys
        for i in range(e):
            v = xo + x.offset(i)[1] + 1
            p1, f1 = d1.offset(i)
            w1[p1][o1 + f1] = v
            p2, f2 = d2.offset(i)
            w2[p2][o2 + f2] = v
            wy[yo + y.offset(i)[1]] = v
        t = '' if ty == 'int' else 't'
        xp, yp = ptr('x' + t, xo), ptr('y' + t, yo)
        lp1, lp2 = ptr('l1', o1), ptr('l2', o2)
        wants.append('static const int want%d_1[%d][%d] = {%s};' % (
            k, NP, l1, ', '.join('{%s}' % ', '.join(map(str, r)) for r in w1)))
        wants.append('static const int want%d_2[%d][%d] = {%s};' % (
            k, NP, l2, ', '.join('{%s}' % ', '.join(map(str, r)) for r in w2)))
        wants.append(c_array('want%d_y' % k, wy))
        names = ('X%d' % k, 'D%d' % k, 'E%d' % k, 'Y%d' % k)
        what = c_string(' / '.join(dl for dl in decls if dl.split('} ')[-1].startswith(names)) +
                        ' / #copy X(%s) to D(%s), D(%s) to E(%s), E(%s) to Y(%s)' % (xp, lp1, lp1, lp2, lp2, yp))
        bodies.append('''  { /* case %d: scatter, all-to-all, gather */
    %s *x = malloc(sizeof(%s) * %d), *y = malloc(sizeof(%s) * %d)%s;
    for (int i = 0; i < %d; i++)
      x[i] = i + 1;
    for (int i = 0; i < %d; i++)
      y[i] = -1;
    #detour P(%s) {
      %s%s l1[%d], l2[%d]%s;
      for (int i = 0; i < %d; i++)
        l1[i] = -1;
      for (int i = 0; i < %d; i++)
        l2[i] = -1;
      #copy X%d(%s) to D%d(%s)
      #copy D%d(%s) to E%d(%s)
      #copy E%d(%s) to Y%d(%s)
      for (int i = 0; i < %d; i++)
        bad1 += l1[i] != want%d_1[$tid$][i];
      for (int i = 0; i < %d; i++)
        bad1 += l2[i] != want%d_2[$tid$][i];
      if (bad1)
        report(%d, %s);
    }
    for (int i = 0; i < %d; i++)
      bad += y[i] != want%d_y[i];
    if (bad)
      report(%d, %s);
    free(x);
    free(y);
  }''' % (k, ty, ty, xs, ty, ys, ', bad = 0' if ty == 'int' else ';\n    int bad = 0', xs, ys,
           'x, y' if ty == 'int' else '(int *)x, (int *)y', typed(ty, 'xy'), ty, l1, l2,
           ', bad1 = 0' if ty == 'int' else ';\n      int bad1 = 0', l1, l2, k, xp, k, lp1, k, lp1, k, lp2, k, lp2,
           k, yp, l1, k, l2,
           k, k, what, ys, k, k, what))
    if form == 'mpi':
        report, main = failing_main(bodies, n, 'cases correct on process 0',
                                    "the other processes' failures are printed by them")
    else:
        report, main = failing_main(bodies, n, 'cases correct')
    target = 'mpi' if form == 'mpi' else form + '_dist'
    out = [header(seed, n, target), '#parray {%s(int *x, int *y) %s} P' % (form, procs_text()), '\n'.join(decls), report,
           '\n'.join(wants), main]
    return '\n\n'.join(out) + '\n'


def split_digit(rng, e):
    """[e], or now and then [a][e / a]: one extent as two digits in a row."""
    divs = [d for d in range(2, e) if e % d == 0]
    if divs and rng.random() < 0.6:
        a = rng.choice(divs)
        return '[%d][%d]' % (a, e // a)
    return '[%d]' % e


def slab_pair(rng, ab, hold, k):
    """D and E as the FFT sample's X and Z: an R x C matrix (R = hold * a,
    C = hold * b, ab = (a, b)) by rows and by columns (each process a slab
    of columns, its rows packed), or the other way, the rows and columns
    of each now and then written as two digits that lie one after another
    (CopyPlan.pk_direct, plan_rectangles).  Their declarations."""
    a, b = ab
    rows = '[[#P]%s][[%d]%s]' % (split_digit(rng, a), hold, split_digit(rng, b))
    cols = '[[%d]%s][[#P]%s]' % (hold, split_digit(rng, a), split_digit(rng, b))
    if rng.random() < 0.5:
        rows, cols = cols, rows
    return ['#parray {dmem int %s} D%d' % (rows, k), '#parray {dmem int %s} E%d' % (cols, k)]


def gpu_program(rng, seed, n, form):
    """gpu_pthd, gpu_mpi: GPU memory distributed over the 2 threads (or
    processes) of P, each on a GPU of its own: a scatter of the host's array
    into a dmem type over P, a gather of it back (checking the scatter), an
    all-to-all into another dmem distribution and a gather of that.  A
    third of the cases (drawn apart, so that the others stay as they were)
    go by host memory distributed over P too: the scatter into a paged
    distribution H, from H into D (host blocks to GPU blocks of another
    distribution), and from E into a paged distribution G before the
    gather.  E may be held by another number of processes than D
    (destination_layout).  Half the programs bind thread (process) k to
    GPU P - 1 - k by INIT_GPU in each body (SPEC 6.5)."""
    mix = random.Random('host blocks:%s:%d' % (form, seed))
    types = random.Random('elements:gpu_%s:%d' % (form, seed))
    chunks = random.Random('chunks:gpu_%s:%d' % (form, seed))
    grids = random.Random('two axes:gpu_%s:%d' % (form, seed))
    slabs = random.Random('slabs:gpu_%s:%d' % (form, seed))
    # half the programs bind thread (process) k to GPU P - 1 - k, not k, by INIT_GPU in each body
    rebind = 'INIT_GPU(rebound_gpu($tid$));\n      ' if random.Random('binding:%s:%d' % (form, seed)).random() < 0.5 else ''
    decls, wants, bodies = [], [], []
    for k in range(n):
        el = rng.choice([2, 3, 4, 6, 8, 9, 12])
        hold = holders(rng)
        slab = slabs.random() < 0.25 and hold == NP  # D and E by rows and by columns (slab_pair)
        if slab:  # a block of a rows and hold * b columns, large enough to split them
            ab = (slabs.choice([1, 2, 3, 4, 6, 8]), slabs.choice([1, 2, 4, 6, 8]))
            el = ab[0] * hold * ab[1]
        e = el * hold
        case_first = len(decls)
        x = random_layout(rng, e, 'X%d' % k, decls)
        decls.append('#parray {paged int %s} X%d' % (''.join(c.text() for c in x.root.kids), k))
        dist, made = [], []  # the layouts; (the type #create takes, the pointer) of each
        first_d = len(decls)
        for name in ('D%d' % k, 'E%d' % k):
            first = len(decls)
            if name.startswith('D'):
                lay, span = distributed_layout(rng, el, name, decls, hold)
            else:
                lay, span = destination_layout(rng, mix, e, el, name, decls, hold)
            lay, span, off, base = chunked(chunks, lay, span, name, decls, first)
            lay = two_axes(grids, lay)
            made.append((base, ptr(name[0].lower(), off)))
            decls[first:] = [d.replace('{paged ', '{dmem ') for d in decls[first:]]  # bases in GPU memory too
            decls.append('#parray {dmem int %s} %s' % (''.join(c.text() for c in lay.root.kids), name))
            dist.append(lay)
        if slab:  # in place of the two drawn
            del decls[first_d:]
            decls.extend(slab_pair(slabs, ab, hold, k))
            made = [('D%d' % k, 'd'), ('E%d' % k, 'e')]
        via_host = mix.random() < 1 / 3
        if via_host:  # host blocks over P before D and after E
            for name in ('H%d' % k, 'G%d' % k):
                lay, span = distributed_layout(mix, el, name, decls, hold)
                decls.append('#parray {paged int %s} %s' % (''.join(c.text() for c in lay.root.kids), name))
        outs = []
        for name in ('Y%d' % k, 'Z%d' % k):
            lay = random_layout(rng, e, name, decls)
            decls.append('#parray {paged int %s} %s' % (''.join(c.text() for c in lay.root.kids), name))
            outs.append(lay)
        ty = element_of(types, decls, case_first)
        xo = rng.choice([0, 0, 2, 3])
        offs = [rng.choice([0, 0, 1, 4]) for _ in outs]
        spans = [lay.span() + o for lay, o in zip(outs, offs)]
        want = [[-1] * sp for sp in spans]
        for i in range(e):
            v = xo + x.offset(i)[1] + 1
            for w, lay, o in zip(want, outs, offs):
                w[o + lay.offset(i)[1]] = v
        wants.append(c_array('want%d_y' % k, want[0]))
        wants.append(c_array('want%d_z' % k, want[1]))
        t = '' if ty == 'int' else 't'
        xp, yp, zp = ptr('x' + t, xo), ptr('y' + t, offs[0]), ptr('z' + t, offs[1])
        names = ('X%d' % k, 'D%d' % k, 'E%d' % k, 'Y%d' % k, 'Z%d' % k, 'H%d' % k, 'G%d' % k)
        if via_host:
            copies = ' / #copy X(%s) to H(h), H(h) to D(d), D(d) to Z(%s), D(d) to E(e), E(e) to G(g), ' \
                     'G(g) to Y(%s)' % (xp, zp, yp)
            into_d = '#create H%d(h)\n      #copy X%d(%s) to H%d(h)\n      #copy H%d(h) to D%d(d)' % (
                k, k, xp, k, k, k)
            from_e = '#create G%d(g)\n      #copy E%d(e) to G%d(g)\n      #copy G%d(g) to Y%d(%s)\n' \
                     '      #destroy H%d(h)\n      #destroy G%d(g)' % (k, k, k, k, k, yp, k, k)
        else:
            copies = ' / #copy X(%s) to D(d), D(d) to Z(%s), D(d) to E(e), E(e) to Y(%s)' % (xp, zp, yp)
            into_d = '#copy X%d(%s) to D%d(d)' % (k, xp, k)
            from_e = '#copy E%d(e) to Y%d(%s)' % (k, k, yp)
        what = c_string(' / '.join(dl for dl in decls if dl.split('} ')[-1].startswith(names)) + copies)
        body = ('''  { /* case %d: scatter, gather, all-to-all, gather */
    %s *x = (%s *)malloc(sizeof(%s) * %d), *y = (%s *)malloc(sizeof(%s) * %d);
    %s *z = (%s *)malloc(sizeof(%s) * %d)%s;
    for (int i = 0; i < %d; i++)
      x[i] = i + 1;
    for (int i = 0; i < %d; i++)
      y[i] = -1;
    for (int i = 0; i < %d; i++)
      z[i] = -1;
    #detour P(%s) {
      %s%s#create D%d(d)
      #create E%d(e)
      %s
      #copy D%d(d) to Z%d(%s)
      #copy D%d(d) to E%d(e)
      %s
      #destroy D%d(d)
      #destroy E%d(e)
    }
    for (int i = 0; i < %d; i++)
      bad += y[i] != want%d_y[i];
    for (int i = 0; i < %d; i++)
      bad += z[i] != want%d_z[i];
    if (bad)
      report(%d, %s);
    free(x);
    free(y);
    free(z);
  }''' % (k, ty, ty, ty, x.span() + xo, ty, ty, spans[0], ty, ty, ty, spans[1],
           ', bad = 0' if ty == 'int' else ';\n    int bad = 0', x.span() + xo, spans[0], spans[1],
           'x, y, z' if ty == 'int' else '(int *)x, (int *)y, (int *)z', rebind, typed(ty, 'xyz'), k, k,
           into_d, k, k, zp, k, k, from_e, k, k, spans[0], k, spans[1], k, k, what))
        for (base, p), name, v in zip(made, ('D%d' % k, 'E%d' % k), 'de'):  # a chunk: its base made, p copied
            body = body.replace('#create %s(%s)' % (name, v), '#create %s(%s)' % (base, v))
            body = body.replace('#destroy %s(%s)' % (name, v), '#destroy %s(%s)' % (base, v))
            body = body.replace('(%s)' % v, '(%s)' % p).replace('%s(%s)' % (base, p), '%s(%s)' % (base, v))
        bodies.append(body)
    report, main = failing_main(bodies, n, 'cases correct')
    if rebind:  # the GPUs in reverse: SPEC 6.5's INIT_GPU overriding the binding
        report += ('\n\nstatic int rebound_gpu(int k)\n{\n  int gpus = 1;\n  cudaGetDeviceCount(&gpus);\n'
                   '  return (%d - 1 - k) %% gpus;\n}' % NP)
    out = [header(seed, n, 'gpu_' + form), '#parray {%s(int *x, int *y, int *z) %s} P' % (form, procs_text()),
           '\n'.join(decls), report, '\n'.join(wants), main]
    return '\n\n'.join(out) + '\n'


def symbolic_sizes(sizes, text):
    """Now and then (drawn from sizes, apart from the program's draws) a
    data type's size becomes a name of the same value: in 3 programs of
    10 a global variable, a size known at run time only, which the bodies
    and the GPU's copy kernels see (captured as an argument); in 3 of 10 a
    macro, a symbol whose value parrayc knows.  A leaf's [k], or the k of
    a sub-range or of a part held by the first k processes, [k #R]; in
    half of those programs the extents of a pthd or omp thread array.  The
    failure messages still show the sizes' values."""
    mode = sizes.random()
    if mode < 0.4:
        return text
    macros = mode >= 0.7
    names = []

    def name(m):
        names.append('size%d = %s' % (len(names), m.group(2)))
        return '%ssize%d%s' % (m.group(1), len(names) - 1, m.group(3))

    def size(m):
        return name(m) if sizes.random() < 0.3 else m.group(0)
    lines = text.split('\n')
    for k, line in enumerate(lines):
        if line.startswith('#parray {') and line.split()[1].lstrip('{') in ('paged', 'pinned', 'dmem'):
            head, dims = line.split(' ', 2)[:2], line.split(' ', 2)[2]
            lines[k] = ' '.join(head) + ' ' + re.sub(r'(\[)(\d+)(\]| #)', size, dims)
    # half the time the threads of a pthd or omp array too (an mpi array's
    # processes are mpirun's, counted where parrayc --run can read them)
    for k, line in enumerate(lines):
        if line.startswith(('#parray {pthd(', '#parray {omp(')) and sizes.random() < 0.5:
            head, dims = line.rsplit(') ', 1)
            lines[k] = head + ') ' + re.sub(r'(\[)(\d+)(\])', name, dims)
    if not names:
        return text
    at = next(k for k, line in enumerate(lines) if line.startswith('#parray {'))
    if macros:
        lines.insert(at, '// sizes parrayc knows as symbols\n%s\n' % '\n'.join('#define ' + n.replace(' = ', ' ')
                                                                             for n in names))
    else:
        lines.insert(at, '// sizes known at run time only\nint %s;\n' % ', '.join(names))
    return '\n'.join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--target', choices=['host', 'pthd', 'omp', 'mpi', 'pthd_dist', 'omp_dist', 'gpu_pthd', 'gpu_mpi'],
                    default='host')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--cases', type=int, default=100)
    ap.add_argument('--procs', type=int, default=2,
                    help='processes or threads of mpi, *_dist and gpu_* (2 to 8)')
    ap.add_argument('-o', dest='out', default='-')
    a = ap.parse_args()
    if not 2 <= a.procs <= 8:
        ap.error('--procs %d: from 2 to 8' % a.procs)
    global NP, GRID
    NP = a.procs
    rng = random.Random('%s:%d' % (a.target, a.seed))
    shapes = [(d, NP // d) for d in range(2, NP) if NP % d == 0]
    if shapes and a.target not in ('host', 'pthd', 'omp') and rng.random() < 0.5:
        GRID = rng.choice(shapes)  # a grid of processes: data over one axis or both
    if a.target == 'host':
        text = host_only_program(rng, a.seed, a.cases)
    elif a.target == 'mpi':
        text = mpi_program(rng, a.seed, a.cases)
    elif a.target.endswith('_dist'):
        text = mpi_program(rng, a.seed, a.cases, a.target[:-5])
    elif a.target.startswith('gpu_'):
        text = gpu_program(rng, a.seed, a.cases, a.target[4:])
    else:
        text = threads_program(rng, a.seed, a.cases, a.target)
    text = symbolic_sizes(random.Random('sizes:%s:%d' % (a.target, a.seed)), text)
    if a.out == '-':
        sys.stdout.write(text)
    else:
        with open(a.out, 'w') as f:
            f.write(text)


if __name__ == '__main__':
    main()
