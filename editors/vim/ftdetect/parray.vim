" Parray programs (.pa) and Parray headers (.pah)
autocmd BufRead,BufNewFile *.pa,*.pah set filetype=parray
