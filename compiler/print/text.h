/* text.h: the text machinery below the walk and the backends: the output
 * buffer and its #line tracking, indentation, the one dedent, C string
 * literals and generated names.  Knows the syntax tree (locations,
 * directive indentation) and nothing of types or targets. */
#ifndef PARRAYC_TEXT_H
#define PARRAYC_TEXT_H

#include "parrayc.h"

/* Generated text and what the C compiler will believe is its source line. */
typedef struct Out {
  Buf b;
  int line;           /* source line of the current output line, -1 if unknown */
  int gen_line;       /* the directive whose generated code is being written */
  Ctx *ctx;           /* #line on or off (opt), and the files source lines come from */
} Out;

Out out_new(Ctx *ctx, int line);
/* C text of the source at loc, with #line where the lines drift */
void out_src(Out *o, const char *text, Loc loc);
/* generated code standing for the directive at loc: one #line for all of it */
void out_gen(Out *o, Loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The next line out_gen writes carries its directive's line again (a
 * #line): a line of generated code that names a user's type, whose error
 * must point at the directive, not at a line the code before it pushed
 * it to (the prologue of an outlined body, longer than the body). */
void out_pin(Out *o);
void out_append(Out *dst, Out *src);
void out_free(Out *o);
bool out_at_bol(const Out *o);

/* the indentation of the code that replaces a directive line (its own,
 * or inside an #insert the #insert's and its own: Node.out_indent) */
const char *text_indent_of(Node *n);
char *text_c_string(Ctx *ctx, const char *s);       /* a C string literal of s */
char *text_line_directive(Ctx *ctx, int line);      /* #line of a source line (its file) */
const char *text_loc_file(Ctx *ctx, Loc loc);       /* the file of loc (a header or the input) */
int text_loc_line(Ctx *ctx, Loc loc);               /* loc's line in that file */
bool text_mentions(const char *text, const char *name); /* generated code uses identifier name */
/* "#copy S(src) to D(dst)" for a comment; ".." for the pointers when one would end it */
char *text_copy_title(Ctx *ctx, Node *n, const char *src, const char *dst);
char *text_tidy_body(Ctx *ctx, const char *text);   /* drop the '{' line's rest */
/* Removes indent from the start of lines.  whole: only when every line but
 * preprocessor lines has it, and then at most its width of blanks from each
 * (a body re-indented as a function); otherwise from each line that starts
 * with it (a kernel body). */
char *text_dedent(Ctx *ctx, const char *text, const char *indent, bool whole);

/* The one scheme for generated functions and types: "pa_ROLE_WHAT"; for
 * the directive n it stands for, then its line in its file as messages
 * and comments give it, "_L12" ("_STEM_L12" in an included file STEM.pah),
 * and, inside an #insert, "_in3" unless WHAT (a private type's cname)
 * already carries the instance; n NULL: code several directives share,
 * named after what it does.  "pa_detour_T_L12", "pa_args_T_L12",
 * "pa_kernel_CUDA_in2_L42", "pa_kernel_CUDA_in2_fastsgemm_L23",
 * "pa_copy_A_to_B". */
char *text_gen_name(Ctx *ctx, const char *role, const char *what, Node *n);

/* A C name for node d: its type's C name and its path ("A_0_1"). */
const char *text_dim_cname(Ctx *ctx, Dim *d);

#endif
