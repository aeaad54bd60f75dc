/* parrayc-api.js: the playground's calls into parrayc_web.js (parrayc in
 * WebAssembly, web/parrayc_web.c), shared by the page (window.ParrayApi) and
 * the tests under node (require).  Nothing here knows the page. */
(function (root) {
  'use strict';

  var MODE = { translate: 0, explain: 1, access: 2 };
  var FLAG = { noLine: 1, threadMap: 2, noWarnings: 4 };

  /* A request: {path, src, mode ('translate', 'explain', 'access'), type,
   * format ('text', 'svg'), defines (['N=8']), line, noLine, threadMap}.
   * The answer: parrayc_web.c's JSON object, parsed. */
  function compiler(Module) {
    return function run(req) {
      var flags = (req.noLine ? FLAG.noLine : 0) | (req.threadMap ? FLAG.threadMap : 0);
      var p = Module.ccall('parrayc_web', 'number',
        ['string', 'string', 'number', 'string', 'string', 'string', 'number', 'number'],
        [req.path || 'playground.pa', req.src, MODE[req.mode || 'translate'], req.type || '',
         req.format || '', (req.defines || []).join('\n'), req.line || 0, flags]);
      var text = Module.UTF8ToString(p);
      Module._parrayc_web_free(p);
      return JSON.parse(text);
    };
  }

  /* The thread arrays' kind as the target: every `#parray {KIND` of a thread
   * array becomes `#parray {kind` ('' or 'as written': the text as it is).
   * The memory kinds (paged, dmem...) stay: a cuda array with paged data is
   * an error the student then reads. */
  function retarget(src, kind) {
    if (!kind || kind === 'written')
      return src;
    return src.replace(/(#[ \t]*parray[ \t]*\{[ \t]*)(pthd|omp|cuda|mpi)\b/g, '$1' + kind);
  }

  /* The lines of the program that hold a `$...$`: where --explain-access
   * has something to say. */
  function dollarLines(src) {
    var out = [];
    src.split('\n').forEach(function (l, i) {
      if (l.indexOf('$') >= 0 && !/^\s*\/\//.test(l))
        out.push(i + 1);
    });
    return out;
  }

  /* UTF-8 text <-> base64url, for the program in the page's address. */
  function toBase64(text) {
    var bytes = new TextEncoder().encode(text), s = '';
    for (var i = 0; i < bytes.length; i++)
      s += String.fromCharCode(bytes[i]);
    return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }
  function fromBase64(b64) {
    var s = atob(b64.replace(/-/g, '+').replace(/_/g, '/'));
    var bytes = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++)
      bytes[i] = s.charCodeAt(i);
    return new TextDecoder().decode(bytes);
  }

  var api = { compiler: compiler, retarget: retarget, dollarLines: dollarLines,
              toBase64: toBase64, fromBase64: fromBase64 };
  if (typeof module !== 'undefined' && module.exports)
    module.exports = api;
  else
    root.ParrayApi = api;
})(this);
