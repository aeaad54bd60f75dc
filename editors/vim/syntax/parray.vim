" Vim syntax file
" Language:    Parray: C with #parray array types, thread arrays, $...$ offsets
" Files:       *.pa, *.pah (see ../ftdetect/parray.vim)
" Install:     copy editors/vim/ into ~/.vim/ (or add it to 'runtimepath')
if exists("b:current_syntax")
  finish
endif
runtime! syntax/c.vim
unlet! b:current_syntax

" directives: #parray, #create, ..., #sync_K, #end
syn match parrayDirective "^\s*#\s*\%(parray\|create\|destroy\|detour\|copy\|sync\%(_\d\+\)*\|mainhost\|global\|subprog\|end\|insert\)\>"
" the type a directive names: #create M(x), #detour CUDA(...), #insert SGEMM(...)
syn match parrayTypeName "\%(^\s*#\s*\%(create\|destroy\|copy\|detour\|subprog\|insert\)\s\+\)\@<=\h\w*"
syn match parrayKeyword "\%(^\s*#\s*copy\>.*)\s*\)\@<=to\>"

" #parray { words [dims] } NAME: memory and thread kinds, #paths, the name
syn region parrayTypeDecl matchgroup=parrayDirective start="^\s*#\s*parray\s*{" end="}" contains=parrayMemory,parrayThread,parrayRef,cNumber,cType,cComment,cCommentL,parrayParams keepend
syn region parrayParams contained start="(" end=")" contains=cType,cStorageClass,cComment
syn keyword parrayMemory contained paged pinned dmem smem rmem
syn keyword parrayThread contained pthd omp cuda mpi
syn match parrayRef contained "#\h\w*"
syn match parrayTypeName "\%(}\s*\)\@<=\h\w*\ze\s*\%(\/[/*].*\)\=$"

" $...$ offset expressions, nested ($A[$tid_0$][0]$: a '$' before a name opens,
" any other closes): dim, size, cnt, run, tid, paths
syn region parrayExpr matchgroup=parrayDollar start="\$\ze[A-Za-z_]" end="\$\%([A-Za-z_]\)\@!" contains=parrayExpr,parrayFunc,parrayPath,parrayTid,cNumber,cOperator oneline
" (the last defined wins where several match: paths first)
syn match parrayPath contained "\%(\$\)\@<=\h\w*\|\<\h\w*\%(_\d\+\)\+\>"
syn match parrayFunc contained "\<\%(dim\|size\|cnt\|run\)\%(_\d\+\)*\ze\s*("
syn match parrayTid contained "\<tid\%(_\d\+\)*\>"

" C's blocks and parentheses take every group but those listed: not ours
syn cluster parrayContained contains=parrayParams,parrayMemory,parrayThread,parrayRef,parrayFunc,parrayTid,parrayPath
syn cluster cParenGroup add=@parrayContained
syn cluster cPreProcGroup add=@parrayContained
syn cluster cMultiGroup add=@parrayContained

hi def link parrayDirective PreProc
hi def link parrayKeyword   PreProc
hi def link parrayMemory    StorageClass
hi def link parrayThread    Structure
hi def link parrayTypeName  Type
hi def link parrayRef       Identifier
hi def link parrayPath      Identifier
hi def link parrayDollar    Special
hi def link parrayFunc      Function
hi def link parrayTid       Constant

let b:current_syntax = "parray"
