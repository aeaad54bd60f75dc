/* hostc.h: host C that several backends print alike (below them, above the
 * text machinery): the copy loop a thread runs alone, the frame of
 * #mainhost's pa_main, the outlined body of a CPU or MPI detour. */
#ifndef PARRAYC_HOSTC_H
#define PARRAYC_HOSTC_H

#include "emit/backend.h"

const char *hostc_mem_enum(MemKind m); /* "PA_PAGED", ... */
/* a COPY_NEST or COPY_ELEMENTS plan as a loop run by the calling thread,
 * after the extent check where the plan has one; kernel_check, in a
 * kernel: the GPU runtime's check, which traps ('#pragma unroll' for small
 * extents); NULL on the host */
void hostc_copy_loop(Emitter *e, Node *n, const CopyPlan *p, const char *kernel_check);
/* Before a #create or #copy of t: the run-time checks of the extents of t
 * and the types it reaches, outside detours, and inside a host detour for
 * the types its body declares (the others are checked at the launch);
 * nothing inside a kernel. */
void hostc_type_checks(Emitter *e, Node *n, Type *t);
/* Before the launch of dt: the extent checks of its thread array and of
 * the types its body uses that are declared outside it, then the
 * statements hostc_check_at_launch gave it (once each). */
void hostc_launch_checks(Emitter *e, Node *n, Detour *dt);
void hostc_check_at_launch(Emitter *e, Detour *dt, const char *stmt);
/* the span of d for #create n, in 64 bits, after a run-time check of the
 * sizes only the program knows (written before it); C text for a whole
 * argument or index, without outer parentheses */
char *hostc_checked_span(Emitter *e, Node *n, Dim *d);
/* `static int pa_main(int argc, char **argv)` around #mainhost's body */
void hostc_main_head(Emitter *e, Node *n);
void hostc_main_tail(Emitter *e, Node *n);
/* a detour whose $tid$ is the linear index variable tid_var (size: of the
 * backend's struct that embeds it) */
Detour *hostc_detour(Emitter *e, Node *n, Type *t, const char *fname, const char *tid_var, size_t size);
/* the translated body of a detour as the body of its outlined function:
 * tidied and shifted left by the directive's indentation */
char *hostc_outlined(Ctx *ctx, Node *n, Out *body);

/* A loop nest over the elements of a distributed copy's side s: all of
 * them in increasing logical index, or (own) those stored by rank (C
 * text); locals false loops over the process digits only; cond, when not
 * NULL, guards the nest; stmt is the innermost statement. */
void hostc_side_nest(Emitter *e, Node *n, CopySide *s, bool own, bool locals, const char *cond, const char *stmt,
                     const char *rank);

/* "(size_t)SPAN * sizeof(ELEM)": the bytes of d's block, SPAN computed in
 * long long where it is a product of sizes. */
char *hostc_block_bytes(Ctx *ctx, Dim *d);
/* A copy writes every element of every process's block of side s (its
 * local span holds no element outside the copy: no padding, no other
 * chunk; every process holds a part), so a staged block need not be read
 * before it is written. */
bool hostc_written_whole(Ctx *ctx, CopySide *s);
/* The pointers pa_src and pa_dst of a distributed copy (mpi collective,
 * pthd element nest): sp and dp, or, for a side whose GPU block moves
 * through host memory (CopyPlan.via_host), a pinned copy of the block of
 * bytes[k] bytes (the GPU target's Backend.stage_out); stage_close copies
 * the destination's back and frees (Backend.stage_in). */
void hostc_stage_open(Emitter *e, Node *n, const CopyPlan *p, const char *sp, const char *dp, char **bytes);
void hostc_stage_close(Emitter *e, Node *n, const CopyPlan *p, const char *dp, char **bytes);
/* The next line of generated code declares decl: when decl names a
 * program's type, the line carries the directive's #line (out_pin), so
 * that the C compiler's error about it is the directive's, not that of a
 * line of the body the code before it pushed it to. */
void hostc_pin_named(Emitter *e, const char *decl);

#endif
