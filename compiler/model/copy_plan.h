/* copy_plan.h: how a #copy moves its elements, decided from the two
 * dimension trees, their memory kinds and the detour it stands in, before
 * any target prints it.  Part of the model: it knows types and offsets,
 * nothing of the printer. */
#ifndef PARRAYC_COPY_PLAN_H
#define PARRAYC_COPY_PLAN_H

#include "parrayc.h"

typedef enum CopyBy {   /* who runs the copy */
  COPY_BY_HOST,         /* the host thread, between host layouts */
  COPY_BY_DEVICE,       /* the host, with GPU memory on a side (the GPU API's copies and kernels) */
  COPY_BY_THREAD,       /* each thread of a pthd, omp or cuda detour, on its own */
  COPY_BY_PROCESSES,    /* the processes of an mpi detour (distributed data, or host data there) */
} CopyBy;

typedef enum CopyHow {  /* the mechanism */
  COPY_BLOCK,           /* both sides contiguous: one block move */
  COPY_ROWS,            /* two digits, the inner contiguous on both sides: pitched rows */
  COPY_ROW_KERNEL,      /* the same on one GPU: a kernel, four rows a thread, not waited for (a
                           copy engine's pitched copy took 2.3 times as long, and 7 us at least) */
  COPY_NEST,            /* strided views that line up: a loop nest over the common digits */
  COPY_ELEMENTS,        /* anything else: one element per logical index, offsets from the types */
  COPY_TRANSPOSE,       /* a digit of unit stride on each side: tiles staged through shared memory */
  COPY_COLLECTIVE,      /* distributed data: buckets per pair of processes, moved by a collective */
} CopyHow;

typedef enum CopyDir {
  COPY_H2H, COPY_H2D, COPY_D2H, COPY_D2D,
  COPY_PEER,            /* between two GPUs' memories (or one's): the runtime tells which */
} CopyDir;
typedef enum Collective { COLL_SCATTER, COLL_GATHER, COLL_ALLTOALL, COLL_BCAST } Collective;

/* One digit of a side's logical index: a process digit (a dimension that
 * references the mpi array) or a local one (a leaf). */
typedef struct SideDigit {
  Dim *d;
  Poly *extent, *place; /* place: weight in the side's linear index */
  bool proc;
  Poly *var;            /* the loop variable */
} SideDigit;

/* One side of a copy among processes. */
typedef struct CopySide {
  Dim *dim;
  const char *ptr;      /* C text of the pointer */
  Type *procs;          /* the mpi array it is distributed over, or NULL */
  SideDigit *dg;
  int n, cap;           /* digits, and room for them in dg */
  Poly *local;          /* elements per process */
} CopySide;

/* Where a copy stands. */
typedef struct CopySite {
  Dim *src, *dst;
  Type *detour;         /* the thread array of the innermost detour, or NULL */
} CopySite;

typedef struct CopyPlan {
  CopyBy by;
  CopyHow how;
  Dim *src, *dst;
  const char *sp, *dp;  /* C text of the two pointers */
  Type *detour;
  CopyDir dir;
  bool check_extent;    /* the extents may differ at run time (poly_extents_may_differ): compare them first */
  CopyDigit *dg;        /* the common digits, outermost first, or NULL when the views do not line up */
  int nd;
  int a, b;             /* COPY_TRANSPOSE: the digits of unit source and destination stride */
  Poly *batch;          /* COPY_TRANSPOSE: the product of the other digits' extents */
  bool staged;          /* a device kernel with a host side: staged through device memory */
  bool process0;        /* COPY_BY_PROCESSES: the destination is process 0's memory */
  Collective coll;      /* COPY_COLLECTIVE */
  bool via_host[2];     /* COPY_COLLECTIVE: the source's, the destination's GPU block moves through host memory */
  bool sync_after;      /* the threads of the detour wait for each other after it (a copy they do together) */
  bool rows;            /* COPY_COLLECTIVE scatter or gather, mpi: each process's part is rows
                         * (dg: rows, width; step, ybase, xbase as part_rows says) */
  Poly *step, *ybase, *xbase;
  Poly *parts;          /* rows, peer: the processes (threads) 0 .. parts - 1 hold a part, the others none (data
                         * over a sub-range of them, or over one axis of a grid); NULL: all of them */
  bool ipc_rows;        /* rows, a GPU side every process has and process 0's host memory: on one node,
                         * process 0 copies every process's rows itself, into (out of) the GPU blocks
                         * mapped across processes (the GPU target's IPC); else via_host as usual */
  bool peer;            /* COPY_COLLECTIVE all-to-all between GPUs: each GPU's kernel reads every GPU's block
                         * (kernel_peer); mpi: when the processes share a node, else via_host */
  bool peer_tiles;      /* peer: the kernel walks 32 x 32 tiles of digits a and b of the walked side (the
                         * distributed destination, else the source): a has unit stride in the source,
                         * b in the destination; batch is the product of the other local digits */
  bool packets;         /* peer, a transposing all-to-all between two distributions (plan_packets): each GPU
                         * transposes its block into one packet per destination GPU with a local kernel
                         * (kernel_packets) and the copy engines move the packets;
                         * pk_a, pk_b, pk_o: the source's digits of the packet's rows (unit source stride),
                         * columns (unit destination stride) and the destination GPU; pk_pitch: the
                         * destination's row pitch; the rectangle from GPU k lands at pk_base +
                         * k * pk_pstride in the destination block */
  bool pk_direct;       /* packets, no transpose: GPU q's rectangle is pk_rows rows pk_spitch apart at
                         * q * pk_sstride of the source block, moved from there (plan_rectangles);
                         * pk_a and pk_b are -1 */
  int pk_a, pk_b, pk_o;
  Poly *pk_rows, *pk_width; /* the rectangle a pair: its rows and the elements of a row */
  Poly *pk_pitch, *pk_base, *pk_pstride, *pk_spitch, *pk_sstride;
  CopySide side[2];     /* COPY_COLLECTIVE: source and destination */
  /* The digits line up only if sizes parrayc keeps symbolic divide (N by
   * 32): this plan holds when all of guard do at run time, fallback (one
   * element per logical index) otherwise. */
  CopyCond *guard;
  int nguard;
  struct CopyPlan *fallback;
} CopyPlan;

bool copy_on_gpu(const Dim *d);
CopyBy copy_by(const Ctx *ctx, const CopySite *site);
/* The plan for a copy at site, sp and dp the pointers' C text; false after
 * reporting why it cannot be done. */
bool copy_plan(Ctx *ctx, Node *n, const CopySite *site, const char *sp, const char *dp, CopyPlan *plan);
/* The guard of a plan as a C condition. */
char *copy_guard_text(Ctx *ctx, const CopyPlan *p);
/* The digits in loop order: larger destination strides outside (a copy). */
CopyDigit *copy_loop_order(Ctx *ctx, const CopyDigit *dg, int nd);

/* Sides of a copy among processes. */
Poly *copy_side_linear(Ctx *ctx, CopySide *s); /* the linear index at s's loop variables */
/* The process that stores element i of side s (0 for an ordinary array,
 * which lives on process 0); own: i is at s's own loop variables. */
Poly *copy_side_owner(Ctx *ctx, CopySide *s, Poly *i, bool own);
bool copy_side_uses_locals(CopySide *s, Poly *p); /* p depends on a local loop variable of s */

#endif
