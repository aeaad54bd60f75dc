// web_compare.js PARRAYC SRCDIR PLAYGROUND: parrayc in WebAssembly
// (PLAYGROUND/parrayc_web.js, run by node) against native PARRAYC, file by
// file, on every samples/**/*.pa:
//  - the translation (-o - -fdiagnostics-format=json: the text, the
//    diagnostics, the status) as written and with the thread arrays as each
//    kind (pthd, omp, cuda, mpi: the playground's "Thread arrays as");
//  - --explain of every type the program declares (text and svg, -D N=8);
//  - --explain-access --thread-map of every line with a $ (svg: what the
//    page shows).
// Exit 1 on the first file that differs, with the difference.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');

const [parrayc, srcdir, playground] = process.argv.slice(2).map((p) => path.resolve(p));
const api = require(path.join(srcdir, 'web', 'parrayc-api.js'));
const create = require(path.join(playground, 'parrayc_web.js'));

function samples(dir, rel) {
  let out = [];
  for (const n of fs.readdirSync(dir).sort()) {
    const p = path.join(dir, n);
    if (fs.statSync(p).isDirectory())
      out = out.concat(samples(p, rel + n + '/'));
    else if (n.endsWith('.pa'))
      out.push(rel + n);
  }
  return out;
}

function native(cwd, args) {
  const r = spawnSync(parrayc, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function firstDiff(a, b) {
  const x = a.split('\n'), y = b.split('\n');
  for (let i = 0; i < Math.max(x.length, y.length); i++)
    if (x[i] !== y[i])
      return `line ${i + 1}:\n  native: ${JSON.stringify(x[i])}\n  wasm:   ${JSON.stringify(y[i])}`;
  return 'no difference in the lines';
}

// what the explainer prints on stderr (the text of a picture too large) is
// in the diagnostics too: not on the console
create({ printErr: () => {} }).then((Module) => {
  const run = api.compiler(Module);
  // the samples in a folder of their own: a retargeted program is written
  // over its copy, next to the headers it includes
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'web_compare.'));
  fs.cpSync(path.join(srcdir, 'samples'), path.join(tmp, 'samples'), { recursive: true });
  let failures = 0, checks = 0;
  const fail = (what, msg) => {
    failures++;
    console.error(`web_compare: ${what}: ${msg}`);
  };
  const same = (what, n, w) => {
    checks++;
    if (n.status !== w.status)
      return fail(what, `exit status native ${n.status}, wasm ${w.status}\n${n.stderr}`);
    if (n.stdout !== w.output)
      return fail(what, `the outputs differ at ${firstDiff(n.stdout, w.output)}`);
    return true;
  };
  for (const rel of samples(path.join(srcdir, 'samples'), 'samples/')) {
    const orig = fs.readFileSync(path.join(srcdir, rel), 'utf8');
    let types = [];
    for (const kind of ['written', 'pthd', 'omp', 'cuda', 'mpi']) {
      const src = api.retarget(orig, kind);
      if (kind !== 'written' && src === orig)
        continue;
      fs.writeFileSync(path.join(tmp, rel), src);
      const n = native(tmp, ['-o', '-', '-fdiagnostics-format=json', rel]);
      const w = run({ path: rel, src, mode: 'translate' });
      const what = `${rel} (thread arrays ${kind})`;
      if (same(what, n, w)) {
        let nd;
        try {
          nd = JSON.parse(n.stderr || '[]');
        } catch (e) {
          fail(what, `native's diagnostics are not JSON: ${n.stderr}`);
          continue;
        }
        checks++;
        if (JSON.stringify(nd) !== JSON.stringify(w.diagnostics))
          fail(what, `the diagnostics differ:\n  native: ${JSON.stringify(nd)}\n  wasm:   ${JSON.stringify(w.diagnostics)}`);
      }
      if (kind === 'written')
        types = w.types;
    }
    fs.writeFileSync(path.join(tmp, rel), orig);
    for (const fmt of ['text', 'svg']) {
      for (const t of types) {
        const n = native(tmp, ['--explain', t.name, '--format=' + fmt, '-D', 'N=8', rel]);
        const w = run({ path: rel, src: orig, mode: 'explain', type: t.name, format: fmt, defines: ['N=8'] });
        same(`${rel}: --explain ${t.name} --format=${fmt}`, n, w);
      }
      for (const line of fmt === 'svg' ? api.dollarLines(orig) : []) { /* the picture holds the text's numbers */
        const n = native(tmp, ['--explain-access', `${rel}:${line}`, '--thread-map', '--format=' + fmt, '-D', 'N=8']);
        const w = run({ path: rel, src: orig, mode: 'access', line, threadMap: true, format: fmt, defines: ['N=8'] });
        same(`${rel}: --explain-access ${rel}:${line} --format=${fmt}`, n, w);
      }
    }
    console.log(`web_compare: ${rel}: ${types.length} types, ${api.dollarLines(orig).length} lines with $`);
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  console.log(`web_compare: ${checks} comparisons, ${failures} differences`);
  process.exit(failures ? 1 : 0);
});
