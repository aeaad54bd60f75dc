/* playground.js: the page (index.html): CodeMirror for the program, parrayc
 * in WebAssembly (parrayc_web.js, through parrayc-api.js) for the generated
 * code, the diagnostics and the pictures, the program in the address.
 * window.paPlayground is the page's state, for the browser test
 * (tests/web_browser.py). */
(function () {
  'use strict';
  var $ = function (id) { return document.getElementById(id); };
  var api = window.ParrayApi;
  var pg = window.paPlayground = {
    path: 'samples/playground.pa', /* the name parrayc sees: headers are included next to it */
    run: null, types: [], translation: null, layout: null, access: null,
    typeShown: null, updates: 0, errors: []
  };

  function pageError(msg) {
    pg.errors.push(String(msg));
    var box = $('page-error');
    box.hidden = false;
    box.textContent = 'The page failed: ' + pg.errors.join('\n');
  }
  window.addEventListener('error', function (e) { pageError(e.message + ' (' + e.filename + ':' + e.lineno + ')'); });
  window.addEventListener('unhandledrejection', function (e) { pageError(e.reason); });

  var editor = CodeMirror($('editor'), {
    mode: 'text/x-parray', lineNumbers: true, indentUnit: 2, tabSize: 8, styleActiveLine: true
  });
  var code = CodeMirror($('code'), { mode: 'text/x-csrc', readOnly: true, lineNumbers: true });
  pg.editor = editor;
  pg.code = code;

  /* ---- the examples: the tutorial's steps, the paper's figures, the rest ---- */
  /* the first line of the program's header comment (not a test tag) */
  function firstComment(fs, path) {
    var lines = fs.readFile('/' + path, { encoding: 'utf8' }).split('\n').slice(0, 4);
    var head = lines.filter(function (l) { return /^\s*(\/\/|\/\*)/.test(l) && !/parrayc-(sample|test):/.test(l); })[0];
    return (head || '').replace(/^\s*\/\/\s*|^\s*\/\*\s*|\s*\*\/$/g, '').slice(0, 70);
  }
  function fillExamples(fs) {
    var groups = [['The tutorial (doc/tutorial.md)', 'samples/tutorial', /^step.*\.pa$/],
                  ["The paper's figures", 'samples', /fig.*\.pa$/],
                  ['Other samples', 'samples', /^(?!.*fig).*\.pa$/],
                  ['Programs of several files', 'samples/multi', /\.pa$/]];
    groups.forEach(function (g) {
      var og = document.createElement('optgroup');
      og.label = g[0];
      fs.readdir('/' + g[1]).filter(function (n) { return g[2].test(n); }).sort().forEach(function (n) {
        var o = document.createElement('option');
        o.value = g[1] + '/' + n;
        o.textContent = n + ': ' + firstComment(fs, o.value);
        og.appendChild(o);
      });
      $('example').appendChild(og);
    });
  }
  function loadExample(path) {
    pg.path = path;
    pg.typeShown = null;
    editor.setValue(pg.fs.readFile('/' + path, { encoding: 'utf8' }));
    editor.setCursor(0, 0);
    $('example').value = path;
    $('defines').value = smallSizes();
    update();
  }

  /* The program's own sizes, unless its first type is then too large to
   * draw: then the smallest N of 8, 16, 32, 64 that draws it and leaves
   * no type empty (N/16 tiles need N = 16), as the tutorial's pictures
   * are drawn with N = 8. */
  function smallSizes() {
    pg.types = request({ mode: 'translate' }).types;
    if (!pg.types.length || !/#\s*define\s+N\s/.test(editor.getValue()))
      return '';
    var first = pg.types[0].name;
    if (!/too many to draw/.test(firstError(request({ mode: 'explain', type: first, format: 'svg' }))))
      return '';
    for (var n = 8; n <= 64; n *= 2) {
      var d = ['N=' + n];
      var ok = request({ mode: 'explain', type: first, format: 'svg', defines: d }).status === 0 &&
               pg.types.every(function (t) {
                 var r = request({ mode: 'explain', type: t.name, format: 'text', defines: d });
                 return r.status !== 0 || r.output.indexOf('(= 0)') < 0;
               });
      if (ok)
        return d[0];
    }
    return '';
  }
  pg.load = loadExample;

  /* ---- the program in the address: #src=BASE64&path=...&target=...&D=... ---- */
  function saveHash() {
    var h = 'src=' + api.toBase64(editor.getValue()) + '&path=' + encodeURIComponent(pg.path) +
            '&target=' + $('target').value + '&D=' + encodeURIComponent($('defines').value);
    history.replaceState(null, '', '#' + h);
  }
  function loadHash() {
    var h = {};
    location.hash.slice(1).split('&').forEach(function (kv) {
      var i = kv.indexOf('=');
      if (i > 0)
        h[kv.slice(0, i)] = kv.slice(i + 1);
    });
    if (!h.src)
      return false;
    pg.path = h.path ? decodeURIComponent(h.path) : pg.path;
    if (h.target)
      $('target').value = h.target;
    if (h.D !== undefined)
      $('defines').value = decodeURIComponent(h.D);
    editor.setValue(api.fromBase64(h.src));
    $('example').value = '';
    return true;
  }

  /* ---- one request ---- */
  function request(extra) {
    var req = { path: pg.path, src: api.retarget(editor.getValue(), $('target').value) };
    for (var k in extra)
      req[k] = extra[k];
    return pg.run(req);
  }
  function defines() {
    return $('defines').value.split(/\s+/).filter(function (w) { return w; }).map(function (w) {
      return w.replace(/^-D/, '');
    });
  }
  function firstError(r) {
    var d = r.diagnostics.filter(function (x) { return x.kind === 'error'; })[0] || r.diagnostics[0];
    if (!d)
      return 'nothing to show';
    var c = d.locations[0] && d.locations[0].caret;
    return (c ? c.file + ':' + c.line + ': ' : '') + d.message;
  }

  /* ---- the translation and its diagnostics ---- */
  var marks = [];
  function showDiagnostics(list) {
    marks.forEach(function (m) { m.clear ? m.clear() : editor.removeLineClass(m.line, 'background', m.cls); });
    marks = [];
    var ul = $('diagnostics');
    ul.textContent = '';
    var errors = 0, warnings = 0;
    function one(d) {
      var c = d.locations[0] && d.locations[0].caret;
      var li = document.createElement('li');
      li.className = 'pa-' + d.kind;
      li.textContent = (c ? c.file + ':' + c.line + ':' + c.column + ': ' : '') + d.kind + ': ' + d.message;
      if (c && c.file === pg.path) {
        li.dataset.line = c.line;
        li.onclick = function () { editor.setCursor(c.line - 1, Math.max(0, c.column - 1)); editor.focus(); };
        var w = document.createElement('div');
        w.className = 'pa-diag-widget pa-' + d.kind;
        w.dataset.line = c.line;
        w.textContent = (c.column ? '\u2191 col ' + c.column + ': ' : '') + d.kind + ': ' + d.message;
        marks.push(editor.addLineWidget(c.line - 1, w, { noHScroll: true }));
        if (d.kind !== 'note') {
          var cls = 'pa-line-' + d.kind;
          editor.addLineClass(c.line - 1, 'background', cls);
          marks.push({ line: c.line - 1, cls: cls });
        }
      }
      ul.appendChild(li);
    }
    list.forEach(function (d) {
      errors += d.kind === 'error';
      warnings += d.kind === 'warning';
      one(d);
      d.children.forEach(one);
    });
    $('diag-count').textContent = errors + ' error' + (errors === 1 ? '' : 's') + ', ' + warnings + ' warning' +
                                  (warnings === 1 ? '' : 's');
  }
  function translate() {
    var t0 = performance.now();
    var r = request({ mode: 'translate' });
    pg.translation = r;
    pg.types = r.types;
    var scroll = code.getScrollInfo();
    code.setOption('mode', r.cuda ? 'text/x-c++src' : 'text/x-csrc');
    code.setValue(r.output);
    code.scrollTo(scroll.left, scroll.top);
    var base = pg.path.replace(/^.*\//, '').replace(/\.pa$/, '');
    $('file-name').textContent = pg.path;
    $('out-name').textContent = base + (r.cuda ? '.cu' : '.c');
    $('backends').textContent = r.status ? 'none written: see the diagnostics'
                                         : '(back ends: C' + (r.backends ? ' ' + r.backends.trim() : '') + ')';
    showDiagnostics(r.diagnostics);
    var st = $('status');
    st.className = r.status ? 'pa-bad' : '';
    st.textContent = r.status ? 'errors: no translation' : 'translated in ' + Math.round(performance.now() - t0) + ' ms';
  }

  /* ---- the pictures ---- */
  function wordAt(pos) {
    var line = editor.getLine(pos.line), a = pos.ch, b = pos.ch;
    while (a > 0 && /\w/.test(line[a - 1]))
      a--;
    while (b < line.length && /\w/.test(line[b]))
      b++;
    return line.slice(a, b);
  }
  /* A declared type or a path in one (A, A_0_1), else null. */
  function typePath(word) {
    for (var i = 0; i < pg.types.length; i++) {
      var n = pg.types[i].name;
      if (word === n || (word.indexOf(n + '_') === 0 && /^(_\d+)+$/.test(word.slice(n.length))))
        return word;
    }
    return null;
  }
  function showPicture(box, r, none) {
    $(box.id + '-info').textContent = '';
    if (r.status || !r.output) {
      box.innerHTML = '';
      var p = document.createElement('div');
      p.className = 'pa-none';
      p.textContent = none || firstError(r);
      box.appendChild(p);
      return;
    }
    box.innerHTML = r.output;
  }
  function explainType(name) {
    pg.typeShown = name;
    $('type-name').textContent = name;
    var req = { mode: 'explain', type: name, defines: defines() };
    req.format = 'svg';
    pg.layout = request(req);
    showPicture($('layout'), pg.layout);
    req.format = 'text';
    var text = request(req);
    $('layout-text').textContent = text.status ? firstError(text) : text.output;
  }
  function explainAccess(line) {
    $('access-line').textContent = line;
    var src = editor.getLine(line - 1) || '';
    if (src.indexOf('$') < 0) {
      pg.access = null;
      showPicture($('access'), { status: 1, output: '' }, 'line ' + line + ' has no $T[...]$: put the cursor on an ' +
                  'access inside a detour');
      $('access-text').textContent = '';
      $('access-notes').textContent = '';
      return;
    }
    var req = { mode: 'access', line: line, threadMap: true, defines: defines(), format: 'svg' };
    pg.access = request(req);
    showPicture($('access'), pg.access);
    req.format = 'text';
    var text = request(req);
    $('access-text').textContent = text.status ? firstError(text) : text.output;
    /* what the picture leaves to the text: the verdicts, the loops swept
     * or taken as 0, what is not predicted */
    $('access-notes').textContent = text.status ? '' : text.output.split('\n').filter(function (l) {
      return /global memory:|shared memory:|the map (sweeps|takes)|taken as 0|not predicted|not in a cuda/.test(l);
    }).map(function (l) { return l.trim(); }).join('\n');
  }
  function pictures() {
    if (pg.translation.status)
      return; /* the pictures of the last good program stay */
    var t = typePath(wordAt(editor.getCursor()));
    if (!t && pg.typeShown && typePath(pg.typeShown))
      t = pg.typeShown;
    if (!t && pg.types.length)
      t = pg.types[0].name;
    if (t)
      explainType(t);
    explainAccess(editor.getCursor().line + 1);
  }

  function update() {
    if (!pg.run)
      return;
    translate();
    pictures();
    saveHash();
    pg.updates++;
  }
  pg.update = update;

  /* typing: the whole update once it pauses; moving: the pictures only */
  var timer = null, pendingUpdate = false;
  function later(f, ms) {
    clearTimeout(timer);
    timer = setTimeout(function () { timer = null; pendingUpdate = false; f(); }, ms);
  }
  editor.on('change', function () { pendingUpdate = true; later(update, 250); });
  editor.on('cursorActivity', function () {
    if (!pg.run || pendingUpdate || !pg.translation)
      return;
    later(function () { pictures(); pg.updates++; }, 120);
  });
  $('target').onchange = update;
  $('defines').onchange = update;
  $('example').onchange = function () {
    if (this.value)
      loadExample(this.value);
  };
  $('link').onclick = function () {
    saveHash();
    var done = function () { $('status').textContent = 'link copied'; };
    if (navigator.clipboard)
      navigator.clipboard.writeText(location.href).then(done, function () { prompt('The link:', location.href); });
    else
      prompt('The link:', location.href);
  };
  $('help').onclick = function (e) { e.preventDefault(); $('help-box').hidden = false; };
  $('help-close').onclick = function () { $('help-box').hidden = true; };
  /* hover: the cell's index path, offset and owner */
  ['layout', 'access'].forEach(function (id) {
    $(id).addEventListener('mouseover', function (e) {
      var cell = e.target.closest && e.target.closest('[data-info]');
      if (cell)
        $(id + '-info').textContent = cell.getAttribute('data-info');
    });
  });
  window.addEventListener('hashchange', function () {
    if (loadHash())
      update();
  });

  createParrayc().then(function (M) {
    pg.fs = M.FS;
    pg.run = api.compiler(M);
    fillExamples(M.FS);
    if (loadHash())
      update();
    else
      loadExample('samples/tutorial/step2_pthreads.pa');
    pg.ready = true;
  }, pageError);
})();
