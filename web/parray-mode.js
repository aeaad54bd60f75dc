/* parray-mode.js: Parray's syntax for CodeMirror 5: C (the clike mode's
 * text/x-csrc) with an overlay for what Parray adds, as the Vim syntax
 * (editors/vim/syntax/parray.vim) names it: the directives (#parray,
 * #detour, #copy ... to, #sync_K ...), memory and thread kinds inside
 * #parray {...}, dimension references (#A_1), the $...$ offset expressions
 * with their functions (dim, size, cnt, run) and thread indices ($tid_0$). */
(function (CodeMirror) {
  'use strict';

  var DIRECTIVE = /^#\s*(parray|create|destroy|detour|copy|sync(_\d+)*|mainhost|global|subprog|end|insert)\b/;
  var MEMORY = /^(paged|pinned|dmem|smem|rmem)\b/;
  var THREAD = /^(pthd|omp|cuda|mpi)\b/;

  var overlay = {
    startState: function () { return { decl: false, dollar: 0, copy: false }; },
    copyState: function (s) { return { decl: s.decl, dollar: s.dollar, copy: s.copy }; },
    token: function (stream, state) {
      if (stream.sol()) {
        state.dollar = 0; /* $...$ never spans lines */
        state.copy = false;
      }
      if (stream.sol() || /^\s*$/.test(stream.string.slice(0, stream.pos))) {
        stream.eatSpace();
        var m = stream.match(DIRECTIVE);
        if (m) {
          state.decl = m[1] === 'parray';
          state.copy = m[1] === 'copy';
          return 'parray-directive';
        }
      }
      if (state.decl) {
        if (stream.eat('}')) { state.decl = false; return null; }
        if (stream.match(MEMORY)) return 'parray-memory';
        if (stream.match(THREAD)) return 'parray-thread';
        if (stream.match(/^#[A-Za-z_]\w*/)) return 'parray-ref';
      }
      if (state.copy && stream.match(/^to\b/)) return 'parray-directive';
      if (stream.peek() === '$') {
        var rest = stream.string.slice(stream.pos + 1);
        if (state.dollar > 0 && !/^[A-Za-z_]/.test(rest)) {
          stream.next();
          state.dollar--;
          return 'parray-dollar';
        }
        if (/^[A-Za-z_]/.test(rest)) {
          stream.next();
          state.dollar++;
          if (stream.match(/^(dim|size|cnt|run)(_\d+)*(?=\s*\()/)) return 'parray-dollar parray-func';
          if (stream.match(/^tid(_\d+)*/)) return 'parray-dollar parray-tid';
          if (stream.match(/^[A-Za-z_]\w*/)) return 'parray-dollar parray-path';
          return 'parray-dollar';
        }
      }
      if (state.dollar > 0) {
        if (stream.match(/^(dim|size|cnt|run)(_\d+)*(?=\s*\()/)) return 'parray-in parray-func';
        if (stream.match(/^tid(_\d+)*\b/)) return 'parray-in parray-tid';
        if (stream.match(/^[A-Za-z_]\w*/)) return 'parray-in';
        stream.next();
        return 'parray-in';
      }
      if (stream.match(/^[A-Za-z_]\w*/) || stream.match(/^"([^"\\]|\\.)*"?/) || stream.match(/^\/\/.*/))
        return null;
      stream.next();
      return null;
    }
  };

  CodeMirror.defineMode('parray', function (config) {
    return CodeMirror.overlayMode(CodeMirror.getMode(config, 'text/x-csrc'), overlay);
  });
  CodeMirror.defineMIME('text/x-parray', 'parray');
})(CodeMirror);
