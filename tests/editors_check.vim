" editors_check.vim: run by tests/editors.sh as
"   vim -N -u NONE -i NONE -es -S tests/editors_check.vim -- FILE.pa...
" with $PA_EDITORS (editors/vim) and $PA_RESULT (where to write one line per
" file: "ok FILE" or "FAIL FILE: why").
let &runtimepath = $PA_EDITORS . ',' . &runtimepath
filetype on
syntax on

function! s:Name(lnum, col) abort
  return synIDattr(synID(a:lnum, a:col, 1), 'name')
endfunction

function! s:Stack(lnum, col) abort
  return map(synstack(a:lnum, a:col), 'synIDattr(v:val, "name")')
endfunction

" The first place outside comments where pattern matches: [line, col] or [0, 0].
function! s:Find(pattern) abort
  call cursor(1, 1)
  return searchpos(a:pattern, 'cW', 0, 0, 's:Name(line("."), col(".")) =~# "Comment"')
endfunction

function! s:Check() abort
  let why = []
  if &filetype !=# 'parray'
    return ['filetype is "' . &filetype . '"']
  endif
  let [l, c] = s:Find('^\s*\zs#\s*parray\s*{')
  if l && s:Name(l, c) !=# 'parrayDirective'
    call add(why, 'line ' . l . ': #parray is ' . s:Name(l, c))
  endif
  let [l, c] = s:Find('^\s*#\s*parray\s*{\s*\zs\%(paged\|pinned\|dmem\|smem\|rmem\)')
  if l && s:Name(l, c) !=# 'parrayMemory'
    call add(why, 'line ' . l . ': memory kind is ' . s:Name(l, c))
  endif
  let [l, c] = s:Find('^\s*#\s*parray\s*{\s*\zs\%(pthd\|omp\|cuda\|mpi\)')
  if l && s:Name(l, c) !=# 'parrayThread'
    call add(why, 'line ' . l . ': thread kind is ' . s:Name(l, c))
  endif
  let [l, c] = s:Find('^\s*#\s*parray\s*{.*\zs#\h\w*')
  if l && s:Name(l, c) !=# 'parrayRef'
    call add(why, 'line ' . l . ': #path in a type is ' . s:Name(l, c))
  endif
  let [l, c] = s:Find('^\s*#\s*\%(create\|insert\|detour\|mainhost\|copy\|destroy\|sync\)')
  if l && s:Name(l, c) !=# 'parrayDirective'
    call add(why, 'line ' . l . ': ' . getline(l) . ' is ' . s:Name(l, c))
  endif
  let [l, c] = s:Find('\$\h')
  if l && (s:Name(l, c) !=# 'parrayDollar' || index(s:Stack(l, c + 1), 'parrayExpr') < 0)
    call add(why, 'line ' . l . ': $...$ is ' . string(s:Stack(l, c + 1)))
  endif
  let [l, c] = s:Find('\$\h\w*\[\zs\$tid')
  if l && index(s:Stack(l, c + 1), 'parrayTid') < 0
    call add(why, 'line ' . l . ': nested $tid$ is ' . string(s:Stack(l, c + 1)))
  endif
  let [l, c] = s:Find('\$\%(dim\|size\)\%(_\d\+\)*(\zs\h\w*_\d')
  if l && s:Name(l, c) !=# 'parrayPath'
    call add(why, 'line ' . l . ': a dimension path is ' . s:Name(l, c))
  endif
  " C stays C: a keyword outside Parray constructs
  let [l, c] = s:Find('^\s*\zsreturn\>')
  if l && s:Name(l, c) !=# 'cStatement'
    call add(why, 'line ' . l . ': return is ' . s:Name(l, c))
  endif
  return why
endfunction

let s:out = []
for s:f in argv()
  execute 'edit ' . fnameescape(s:f)
  let s:why = s:Check()
  call add(s:out, empty(s:why) ? 'ok ' . s:f : 'FAIL ' . s:f . ': ' . join(s:why, '; '))
endfor
call writefile(s:out, $PA_RESULT)
qall!
