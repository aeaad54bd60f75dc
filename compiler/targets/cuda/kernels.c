/* kernels.c: the one writer of CUDA copy kernels (the GPU target's).  Every kernel a #copy
 * needs, whichever target launches it, is written here, to the hoisted
 * code before the top-level item that holds the copy, and written once: a
 * kernel whose text (after its name) another already has is not written
 * again, its launches use the first (kernel_add).
 *   kernel_copy  host code copying between a GPU's layouts (cuda.c):
 *                one thread per element, four rows a thread for pitched
 *                rows, or 32/64-element square tiles through shared
 *                memory when the copy transposes;
 *   kernel_peer  the copy between the GPUs of a team, threads of a
 *                pthd or omp detour or mpi processes (team.c);
 *   kernel_packets  the packing kernel of an all-to-all in packets. */
#include "targets/cuda/kernels.h"
#include "model/launch.h"
#include "print/capture.h"

#include <string.h>

/* the shapes (model/launch.h, launch_numbers): the element kernel's blocks;
 * the transpose, peer and packing kernels' blocks of TILE x ROWS threads,
 * the peer and packing kernels' tiles of TILE x TILE elements */
#define ELEMENT_BLOCK launch_numbers.tile
#define TILE launch_numbers.copy_tile
#define ROWS launch_numbers.copy_rows
#define GRID_YZ launch_numbers.grid_max[1] /* the grid's y and z */

/* The host variables that kernel text k uses (its sizes: [n][m] with n, m
 * locals of the enclosing function or globals) become parameters after
 * pa_dst; *extra receives the matching launch arguments.  NULL after an
 * error. */
static const char *captures(Emitter *e, Node *n, const char *k, const char **extra)
{
  Ctx *ctx = e->ctx;
  Capture *caps;
  int ncaps = capture_find_kernel(ctx, e->scope, n, k, &caps);
  *extra = "";
  if (ncaps <= 0)
    return ncaps < 0 ? NULL : k;
  const char *open = strstr(k, ")\n{");
  Buf params = {.ctx = ctx}, args = {.ctx = ctx};
  for (int i = 0; i < ncaps; i++) {
    if (caps[i].array) {
      diag_error(ctx, n->loc, "'%s', an array in host memory, sizes this #copy: a copy kernel cannot read host "
                 "memory (copy the size into a variable first)", caps[i].name);
      buf_free(&params);
      buf_free(&args);
      return NULL;
    }
    buf_printf(&params, ", %s", caps[i].decl);
    buf_printf(&args, ", %s", caps[i].name);
  }
  char *r = ctx_printf(ctx, "%.*s%s%s", (int)(open - k), k, params.data, open);
  *extra = ctx_strdup(ctx, args.data);
  buf_free(&params);
  buf_free(&args);
  return r;
}

/* offsets of digits given their index variables */
static Poly *digit_offset(Ctx *ctx, CopyDigit *dg, Poly **v, int nd, bool dst)
{
  Poly *sum = poly_const(ctx, 0);
  for (int k = 0; k < nd; k++)
    if (v[k])
      sum = poly_add(ctx, sum, poly_mul(ctx, v[k], dst ? dg[k].d : dg[k].s));
  return sum;
}

/* The transpose kernel's tile edge (launch_numbers.transpose_edge): 64 for
 * elements of at most 8 bytes (the tile, 64 x 65 of them, fits the 48 KB
 * of static shared memory), 32 for larger ones and for types parrayc
 * cannot size (elem_bytes).
 * A 64 x 64 tile keeps twice the bytes in flight per
 * thread: the 32 x 32 tile reached 0.944 of a device-to-device copy at
 * N = 8192 on the H100, the 64 x 64 one 0.965 (doc/performance.md). */
static int tile_edge(const char *elem)
{
  int size = type_elem_bytes(elem);
  return size > 0 && size <= 8 ? launch_numbers.transpose_edge : launch_numbers.transpose_edge_wide;
}

/* The transpose kernel: two digits, A (unit stride in the source) and B
 * (unit stride in the destination), are walked in square tiles staged in
 * shared memory, so that both the reads and the writes are coalesced;
 * the other digits are enumerated by blockIdx.z. */
static const char *tiled_copy_kernel(Emitter *e, const CopyPlan *p, const char *kname, const char *elem,
                                     const char **grid)
{
  Ctx *ctx = e->ctx;
  CopyDigit *dg = p->dg;
  int nd = p->nd, A = p->a, B = p->b, edge = tile_edge(elem);
  Poly *batch = p->batch;
  long long nb, ea, eb;
  poly_is_const(batch, &nb);
  bool guard = !(poly_is_const(dg[A].extent, &ea) && ea % edge == 0 && poly_is_const(dg[B].extent, &eb) &&
                 eb % edge == 0);
  /* the batch digits of blockIdx.z */
  Poly **v = ctx_alloc(ctx, sizeof(Poly *) * nd);
  Poly *z = poly_var(ctx, "pa_z", batch), *place = poly_const(ctx, 1);
  for (int k = nd - 1; k >= 0; k--) {
    if (k == A || k == B)
      continue;
    v[k] = poly_mod(ctx, poly_div(ctx, z, place), dg[k].extent);
    place = poly_mul(ctx, place, dg[k].extent);
  }
  Poly *so = digit_offset(ctx, dg, v, nd, false), *doff = digit_offset(ctx, dg, v, nd, true);
  Poly *a = poly_var(ctx, "pa_a", dg[A].extent), *b = poly_var(ctx, "pa_b", dg[B].extent);
  Poly *sread = poly_add(ctx, a, poly_mul(ctx, b, dg[B].s));      /* dg[A].s == 1 */
  Poly *dwrite = poly_add(ctx, b, poly_mul(ctx, a, dg[A].d));     /* dg[B].d == 1 */
  Buf k = {.ctx = ctx};
  buf_printf(&k, "__global__ void %s(const %s *pa_src, %s *pa_dst)\n{\n", kname, elem, elem);
  buf_printf(&k, "  __shared__ %s pa_tile[%d][%d]; /* padded: no bank conflicts */\n", elem, edge, edge + 1);
  buf_printf(&k, "  const int pa_a0 = blockIdx.x * %d, pa_b0 = blockIdx.y * %d;\n", edge, edge);
  if (nb > 1) {
    buf_puts(&k, "  const int pa_z = blockIdx.z;\n");
    buf_printf(&k, "  pa_src += %s;\n  pa_dst += %s;\n", dollar_poly_whole(e->ctx, so), dollar_poly_whole(e->ctx, doff));
  }
  const char *ga = guard ? ctx_printf(ctx, "if (pa_a < %s && pa_b < %s)\n        ", poly_str(ctx, dg[A].extent),
                                      poly_str(ctx, dg[B].extent))
                         : "";
  /* each thread: edge / ROWS rows of edge / TILE elements */
  for (int pass = 0; pass < 2; pass++) {
    buf_printf(&k, "  #pragma unroll\n  for (int pa_r = 0; pa_r < %d; pa_r += %d)\n", edge, ROWS);
    buf_printf(&k, "    #pragma unroll\n    for (int pa_c = 0; pa_c < %d; pa_c += %d) {\n", edge, TILE);
    buf_puts(&k, "      const int pa_k = threadIdx.y + pa_r, pa_j = threadIdx.x + pa_c;\n");
    if (pass == 0) {
      buf_puts(&k, "      const int pa_a = pa_a0 + pa_j, pa_b = pa_b0 + pa_k;\n");
      buf_printf(&k, "      %spa_tile[pa_k][pa_j] = pa_src[%s];\n    }\n", ga, poly_str(ctx, sread));
      buf_puts(&k, "  __syncthreads();\n");
    } else {
      buf_puts(&k, "      const int pa_a = pa_a0 + pa_k, pa_b = pa_b0 + pa_j;\n");
      buf_printf(&k, "      %spa_dst[%s] = pa_tile[pa_j][pa_k];\n    }\n}\n\n", ga, poly_str(ctx, dwrite));
    }
  }
  *grid = ctx_printf(ctx, "dim3(%s, %s, %lld), dim3(%d, %d)", launch_blocks(ctx, dg[A].extent, edge),
                     launch_blocks(ctx, dg[B].extent, edge), nb, TILE, ROWS);
  char *s = ctx_strdup(ctx, k.data);
  buf_free(&k);
  return s;
}

/* The element kernel: one thread per element, dst[off_D(i)] = src[off_S(i)],
 * correct for every pair of layouts.  With strided views the index is
 * decomposed so that the destination's unit-stride digit is fastest. */
static const char *element_copy_kernel(Emitter *e, const char *kname, const char *elem, Dim *src, Dim *dst,
                                       CopyDigit *dg, int nd, const char **grid)
{
  Ctx *ctx = e->ctx;
  Poly *total = src->extent;
  Poly *i = poly_var(ctx, "pa_i", total);
  Poly *so, *doff;
  if (dg) {
    CopyDigit *sorted = copy_loop_order(ctx, dg, nd);
    Poly **v = ctx_alloc(ctx, sizeof(Poly *) * (nd + 1));
    Poly *place = poly_const(ctx, 1);
    for (int k = nd - 1; k >= 0; k--) {
      v[k] = k ? poly_mod(ctx, poly_div(ctx, i, place), sorted[k].extent) : poly_div(ctx, i, place);
      place = poly_mul(ctx, place, sorted[k].extent);
    }
    so = digit_offset(ctx, sorted, v, nd, false);
    doff = digit_offset(ctx, sorted, v, nd, true);
  } else {
    so = dim_offset(ctx, src, i);
    doff = dim_offset(ctx, dst, i);
  }
  bool wide = !poly_fits_int(total) || !poly_fits_int(so) || !poly_fits_int(doff);
  const char *ity = wide ? "long long" : "int";
  Buf k = {.ctx = ctx};
  buf_printf(&k, "__global__ void %s(const %s *pa_src, %s *pa_dst)\n{\n", kname, elem, elem);
  buf_printf(&k, "  const %s pa_i = %sblockIdx.x * %d + threadIdx.x;\n", ity, wide ? "(long long)" : "", ELEMENT_BLOCK);
  long long v;
  if (!(poly_is_const(total, &v) && v % ELEMENT_BLOCK == 0))
    buf_printf(&k, "  if (pa_i >= %s)\n    return;\n", dollar_poly_whole(e->ctx, total));
  buf_printf(&k, "  pa_dst[%s] = pa_src[%s];\n}\n\n", poly_str(ctx, doff), poly_str(ctx, so));
  *grid = ctx_printf(ctx, "%s, %d", launch_blocks(ctx, total, ELEMENT_BLOCK), ELEMENT_BLOCK);
  char *s = ctx_strdup(ctx, k.data);
  buf_free(&k);
  return s;
}

/* The grid's extent over n elements in blocks of t, at most the grid's y
 * and z limit (the kernels stride past it): C text. */
static const char *blocks_capped(Ctx *ctx, Poly *n, long long t)
{
  long long v, max = GRID_YZ;
  if (poly_is_const(n, &v))
    return ctx_printf(ctx, "%lld", (v + t - 1) / t < max ? (v + t - 1) / t : max);
  const char *s = launch_blocks(ctx, n, t);
  return ctx_printf(ctx, "(unsigned)(%s < %lld ? %s : %lld)", s, max, s, max);
}

/* Pitched rows on one GPU (COPY_ROW_KERNEL: two digits, the inner of unit
 * stride on both sides): blocks of TILE x ROWS threads, a warp along a
 * row, each thread ROW_DEPTH rows ROWS apart whose loads are all issued
 * before its stores; past the grid's height, a loop. One element a thread
 * moved 1.9 TB/s on an H200 (8191 x 8191 floats), four 3.9: a copy
 * engine's cudaMemcpy2D 1.7 (doc/performance.md, run 67). */
#define ROW_DEPTH 4
static const char *rows_copy_kernel(Emitter *e, const CopyPlan *p, const char *kname, const char *elem,
                                    const char **grid)
{
  Ctx *ctx = e->ctx;
  CopyDigit *dg = p->dg;
  Poly *r = poly_var(ctx, "pa_r", dg[0].extent), *j = poly_var(ctx, "pa_j", dg[1].extent);
  Poly *so = poly_add(ctx, poly_mul(ctx, r, dg[0].s), j), *doff = poly_add(ctx, poly_mul(ctx, r, dg[0].d), j);
  const char *ity = poly_fits_int(so) && poly_fits_int(doff) ? "int" : "long long";
  const char *rows = poly_str(ctx, dg[0].extent);
  long long w;
  Buf k = {.ctx = ctx};
  buf_printf(&k, "__global__ void %s(const %s *pa_src, %s *pa_dst)\n{\n", kname, elem, elem);
  buf_printf(&k, "  const int pa_j = blockIdx.x * %d + threadIdx.x;\n", TILE);
  if (!(poly_is_const(dg[1].extent, &w) && w % TILE == 0))
    buf_printf(&k, "  if (pa_j >= %s)\n    return;\n", poly_str(ctx, dg[1].extent));
  buf_printf(&k, "  for (%s pa_r0 = blockIdx.y * %d + threadIdx.y; pa_r0 < %s; pa_r0 += gridDim.y * %d) {\n", ity,
             ROWS * ROW_DEPTH, rows, ROWS * ROW_DEPTH);
  buf_printf(&k, "    %s pa_v[%d];\n", elem, ROW_DEPTH);
  for (int pass = 0; pass < 2; pass++) {
    buf_printf(&k, "    #pragma unroll\n    for (int pa_k = 0; pa_k < %d; pa_k++) {\n", ROW_DEPTH);
    buf_printf(&k, "      const %s pa_r = pa_r0 + %d * pa_k;\n      if (pa_r < %s)\n", ity, ROWS, rows);
    if (pass == 0)
      buf_printf(&k, "        pa_v[pa_k] = pa_src[%s];\n    }\n", poly_str(ctx, so));
    else
      buf_printf(&k, "        pa_dst[%s] = pa_v[pa_k];\n    }\n  }\n}\n\n", poly_str(ctx, doff));
  }
  *grid = ctx_printf(ctx, "dim3(%s, %s), dim3(%d, %d)", launch_blocks(ctx, dg[1].extent, TILE),
                     blocks_capped(ctx, dg[0].extent, ROWS * ROW_DEPTH), TILE, ROWS);
  char *s = ctx_strdup(ctx, k.data);
  buf_free(&k);
  return s;
}

/* A copy kernel written: its text after the name (what it does, for the
 * layouts and element type it copies), its name, and the name it was
 * derived from. */
typedef struct CopyKernel {
  struct CopyKernel *next;
  const char *body, *name, *base;
} CopyKernel;

/* The name of the kernel that body already has, or a new one from base
 * (numbered when another kernel took base); *fresh says which. */
static const char *kernel_for(Emitter *e, const char *base, const char *body, bool *fresh)
{
  int same_base = 0;
  for (CopyKernel *k = e->copy_kernels; k; k = k->next) {
    if (!strcmp(k->body, body)) {
      *fresh = false;
      return k->name;
    }
    same_base += !strcmp(k->base, base);
  }
  CopyKernel *k = ctx_alloc(e->ctx, sizeof *k);
  k->next = e->copy_kernels;
  k->body = body;
  k->base = base;
  k->name = same_base ? ctx_printf(e->ctx, "%s_%d", base, same_base + 1) : base;
  e->copy_kernels = k;
  *fresh = true;
  return k->name;
}

/* Kernel text (starting "__global__ void BASE(") written to e->hoist after
 * comment, unless a kernel with the same text after its name is there
 * already: the name of the kernel that does the work. */
static const char *kernel_add(Emitter *e, Node *n, const char *base, const char *text, const char *comment,
                              bool preload)
{
  size_t head = strlen("__global__ void ") + strlen(base);
  bool fresh;
  const char *kname = kernel_for(e, base, text + head, &fresh);
  if (!fresh)
    return kname;
  Out k = out_new(e->ctx, -1);
  Out *saved = e->out;
  e->out = &k;
  out_gen(e->out, n->loc, "%s\n__global__ void %s%s", comment, kname, text + head);
  /* loaded on each GPU where a distributed block is created, not at its
   * first launch (CUDA's lazy loading would put that in the first copy) */
  if (preload)
    out_gen(e->out, n->loc, "__attribute__((constructor)) static void %s_preload(void)\n{\n"
            "  pa_cuda_preload((const void *)%s);\n}\n\n", kname, kname);
  e->out = saved;
  out_append(&e->hoist, &k);
  out_free(&k);
  return kname;
}

/* The kernel copying src's layout to dst's,
 * unless one copying the same layouts of the same element type is already
 * there; returns its name and launch configuration, and in *extra the
 * launch arguments after the two pointers; NULL after an error. */
const char *kernel_copy(Emitter *e, Node *n, const CopyPlan *p, const char **launch, const char **extra)
{
  Ctx *ctx = e->ctx;
  Dim *src = p->src, *dst = p->dst;
  const char *elem = dst->type->elem;
  const char *base = text_gen_name(ctx, "copy", ctx_printf(ctx, "%s_to_%s", text_dim_cname(ctx, src), text_dim_cname(ctx, dst)), NULL);
  const char *text = p->how == COPY_TRANSPOSE  ? tiled_copy_kernel(e, p, base, elem, launch)
                     : p->how == COPY_ROW_KERNEL ? rows_copy_kernel(e, p, base, elem, launch)
                                                 : element_copy_kernel(e, base, elem, src, dst, p->dg, p->nd, launch);
  text = captures(e, n, text, extra);
  if (!text)
    return NULL;
  return kernel_add(e, n, base, text,
                    ctx_printf(ctx, "/* #copy %s to %s (%s:%d) and every copy between the same layouts */", src->path,
                               dst->path, text_loc_file(ctx, n->loc), text_loc_line(ctx, n->loc)), false);
}


/* The digits of the element at the walked side X's loop variables that
 * statement stmt uses, as declarations at indentation ind: the process
 * digit is the GPU's own (pa_tid); with tiles, digits a and b are pa_a and
 * pa_b and the others come from pa_z, else every local digit from pa_e. */
static void peer_digits(Ctx *ctx, Buf *k, const CopyPlan *p, CopySide *X, const char *ind, const char *stmt)
{
  Poly *place = poly_const(ctx, 1);
  const char *from = p->peer_tiles ? "pa_z" : "pa_e";
  for (int d = X->n - 1; d >= 0; d--) {
    SideDigit *g = &X->dg[d];
    const char *v = g->var->t[0].f[0]->text;
    bool used = text_mentions(stmt, v);
    if (g->proc) {
      if (used)
        buf_printf(k, "%sconst int %s = pa_tid;\n", ind, v);
      continue;
    }
    if (p->peer_tiles && (d == p->a || d == p->b)) {
      if (used)
        buf_printf(k, "%sconst long long %s = %s;\n", ind, v, d == p->a ? "pa_a" : "pa_b");
      continue;
    }
    if (used && poly_is_value(place, 1))
      buf_printf(k, "%sconst long long %s = %s %% %s;\n", ind, v, from, dollar_poly_text(ctx, g->extent));
    else if (used)
      buf_printf(k, "%sconst long long %s = %s / %s %% %s;\n", ind, v, from, dollar_poly_text(ctx, place),
                 dollar_poly_text(ctx, g->extent));
    place = poly_mul(ctx, place, g->extent);
  }
}

/* The tiled body (CopyPlan.peer_tiles): 32 x 32 tiles of digits a and b,
 * read along a and written along b through shared memory; grid-stride
 * over the tiles of b and the batch, which may pass the grid's limits. */
static void peer_tile_body(Ctx *ctx, Buf *k, const CopyPlan *p, CopySide *X, const char *elem, const char *from,
                           const char *to)
{
  const char *ea = dollar_poly_whole(ctx, X->dg[p->a].extent), *eb = dollar_poly_whole(ctx, X->dg[p->b].extent);
  buf_printf(k, "  __shared__ %s pa_tile[%d][%d]; /* padded: no bank conflicts */\n", elem, TILE, TILE + 1);
  buf_printf(k, "  const long long pa_a0 = blockIdx.x * %dLL;\n", TILE);
  if (poly_is_value(p->batch, 1))
    buf_printf(k, "  {\n");
  else
    buf_printf(k, "  for (long long pa_z = blockIdx.z; pa_z < %s; pa_z += gridDim.z)\n", dollar_poly_whole(ctx, p->batch));
  buf_printf(k, "    for (long long pa_b0 = blockIdx.y * %dLL; pa_b0 < %s; pa_b0 += gridDim.y * %dLL) {\n", TILE, eb,
             TILE);
  for (int pass = 0; pass < 2; pass++) {
    buf_printf(k, "      for (int pa_k = threadIdx.y; pa_k < %d; pa_k += %d) {\n", TILE, ROWS);
    buf_printf(k, "        const long long pa_a = pa_a0 + %s, pa_b = pa_b0 + %s;\n", pass ? "pa_k" : "threadIdx.x",
               pass ? "threadIdx.x" : "pa_k");
    buf_printf(k, "        if (pa_a < %s && pa_b < %s) {\n", ea, eb);
    const char *stmt = pass ? ctx_printf(ctx, "%s = pa_tile[threadIdx.x][pa_k];", to)
                            : ctx_printf(ctx, "pa_tile[pa_k][threadIdx.x] = %s;", from);
    peer_digits(ctx, k, p, X, "          ", stmt);
    buf_printf(k, "          %s\n", stmt);
    buf_printf(k, "        }\n      }\n      __syncthreads();\n");
  }
  buf_printf(k, "    }\n");
  if (poly_is_value(p->batch, 1))
    buf_printf(k, "  }\n");
}

/* The launch of the tiled kernel: blocks of TILE x ROWS threads, the
 * grid's y and z capped (the kernel strides past them). */
static const char *peer_tile_launch(Ctx *ctx, const CopyPlan *p, CopySide *X)
{
  Poly *ea = X->dg[p->a].extent;
  long long va, vz, t = TILE, max = GRID_YZ;
  const char *gx = poly_is_const(ea, &va) ? launch_blocks(ctx, ea, t)
                                          : ctx_printf(ctx, "(unsigned)(%s)", launch_blocks(ctx, ea, t));
  const char *gz = poly_is_const(p->batch, &vz)
                       ? ctx_printf(ctx, "%lld", vz < max ? vz : max)
                       : ctx_printf(ctx, "(unsigned)(%s < %lld ? %s : %lld)", dollar_poly_whole(ctx, p->batch), max,
                                    dollar_poly_whole(ctx, p->batch), max);
  return ctx_printf(ctx, "dim3(%s, %s, %s), dim3(%d, %d)", gx, blocks_capped(ctx, X->dg[p->b].extent, TILE), gz, TILE, ROWS);
}

/* The kernel of a copy between GPUs (CopyPlan.peer).  Into a distributed
 * destination it pulls: this GPU's block is filled with elements read
 * from the block that holds each (pa_blocks.p[owner]).  Into one GPU's
 * array it pushes: this GPU's block of the source is written there
 * (pa_blocks.p[0]).  A thread per element, or, where the copy transposes,
 * 32 x 32 tiles (CopyPlan.peer_tiles).  pa_tid is the thread or process
 * the GPU belongs to. */
const char *kernel_peer(Emitter *e, Node *n, const CopyPlan *p, const char **launch, const char **extra)
{
  Ctx *ctx = e->ctx;
  CopySide S = p->side[0], T = p->side[1];
  bool pull = T.procs != NULL;
  CopySide *X = pull ? &T : &S; /* the side whose block this GPU walks */
  const char *elem = p->dst->type->elem;
  enum { THREADS = 256 };
  Poly *i = copy_side_linear(ctx, X);
  const char *kname =
    text_gen_name(ctx, "copy", ctx_printf(ctx, "%s_to_%s", text_dim_cname(ctx, p->src), text_dim_cname(ctx, p->dst)), NULL);
  const char *so = poly_str(ctx, dim_offset(ctx, p->src, i)), *dof = poly_str(ctx, dim_offset(ctx, p->dst, i));
  const char *from = pull ? ctx_printf(ctx, "((const %s *)pa_blocks.p[%s])[%s]", elem,
                                       poly_str(ctx, copy_side_owner(ctx, &S, i, false)), so)
                          : ctx_printf(ctx, "pa_src[%s]", so);
  const char *to = pull ? ctx_printf(ctx, "pa_dst[%s]", dof) : ctx_printf(ctx, "((%s *)pa_blocks.p[0])[%s]", elem, dof);
  Buf k = {.ctx = ctx};
  if (pull)
    buf_printf(&k, "__global__ void %s(%s *pa_dst, pa_cuda_blocks pa_blocks, int pa_tid)\n{\n", kname, elem);
  else
    buf_printf(&k, "__global__ void %s(const %s *pa_src, pa_cuda_blocks pa_blocks, int pa_tid)\n{\n", kname, elem);
  if (p->peer_tiles) {
    peer_tile_body(ctx, &k, p, X, elem, from, to);
  } else {
    buf_printf(&k, "  const long long pa_e = (long long)blockIdx.x * %d + threadIdx.x;\n", THREADS);
    buf_printf(&k, "  if (pa_e >= %s)\n    return;\n", dollar_poly_whole(ctx, X->local));
    const char *stmt = ctx_printf(ctx, "%s = %s;", to, from);
    peer_digits(ctx, &k, p, X, "  ", stmt);
    buf_printf(&k, "  %s\n", stmt);
  }
  buf_puts(&k, "}\n\n");
  const char *text = captures(e, n, ctx_strdup(ctx, k.data), extra);
  buf_free(&k);
  if (!text)
    return NULL;
  const char *how =
    p->peer_tiles ? ctx_printf(ctx, ", in %d x %d tiles through shared memory (it transposes)", TILE, TILE) : "";
  const char *at = ctx_printf(ctx, "#copy %s to %s (%s:%d) and every copy between the same layouts", n->name,
                              n->name2, text_loc_file(ctx, n->loc), text_loc_line(ctx, n->loc));
  if (pull)
    kname = kernel_add(e, n, kname, text,
                       ctx_printf(ctx, "/* %s: each GPU fills its block of %s from the blocks that hold its "
                                  "elements%s */", at, n->name2, how), false);
  else
    kname = kernel_add(e, n, kname, text,
                       ctx_printf(ctx, "/* %s: each GPU writes its block of %s into one GPU's array%s */", at, n->name,
                                  how), false);
  if (p->peer_tiles)
    *launch = peer_tile_launch(ctx, p, X);
  else
    *launch = ctx_printf(ctx, "%s, %d", launch_blocks(ctx, X->local, THREADS), THREADS);
  return kname;
}

/* The packing kernel of an all-to-all in packets (CopyPlan.packets): rows
 * pa_lo .. pa_hi of the rectangle this GPU (pa_tid) sends GPU pa_q, read
 * from its block of the source along digit pk_a and written to pa_out
 * (pa_pitch elements a row) along pk_b, in 32 x 32 tiles through shared
 * memory.  *grid_yz is the launch grid's y and z; its x covers the rows
 * of each step (packets_steps, team.c). */
const char *kernel_packets(Emitter *e, Node *n, const CopyPlan *p, const char **grid_yz, const char **extra)
{
  Ctx *ctx = e->ctx;
  CopySide S = p->side[0];
  const char *elem = p->dst->type->elem;
  Poly *i = copy_side_linear(ctx, &S);
  const char *kname =
    text_gen_name(ctx, "pack", ctx_printf(ctx, "%s_to_%s", text_dim_cname(ctx, p->src), text_dim_cname(ctx, p->dst)), NULL);
  const char *so = poly_str(ctx, dim_offset(ctx, p->src, i));
  const char *eb = dollar_poly_text(ctx, S.dg[p->pk_b].extent);
  Buf k = {.ctx = ctx};
  buf_printf(&k, "__global__ void %s(const %s *pa_src, %s *pa_out, long long pa_pitch, int pa_tid, int pa_q, "
             "long long pa_lo, long long pa_hi)\n{\n", kname, elem, elem);
  buf_printf(&k, "  __shared__ %s pa_tile[%d][%d]; /* padded: no bank conflicts */\n", elem, TILE, TILE + 1);
  buf_printf(&k, "  const long long pa_a0 = pa_lo + blockIdx.x * %dLL;\n", TILE);
  buf_printf(&k, "  for (long long pa_b0 = blockIdx.y * %dLL; pa_b0 < %s; pa_b0 += gridDim.y * %dLL) {\n", TILE, eb,
             TILE);
  for (int pass = 0; pass < 2; pass++) {
    buf_printf(&k, "    for (int pa_k = threadIdx.y; pa_k < %d; pa_k += %d) {\n", TILE, ROWS);
    buf_printf(&k, "      const long long pa_a = pa_a0 + %s, pa_b = pa_b0 + %s;\n", pass ? "pa_k" : "threadIdx.x",
               pass ? "threadIdx.x" : "pa_k");
    buf_printf(&k, "      if (pa_a < pa_hi && pa_b < %s) {\n", eb);
    const char *stmt = pass ? "pa_out[pa_a * pa_pitch + pa_b] = pa_tile[threadIdx.x][pa_k];"
                            : ctx_printf(ctx, "pa_tile[pa_k][threadIdx.x] = pa_src[%s];", so);
    for (int d = 0; d < S.n; d++) {
      SideDigit *g = &S.dg[d];
      const char *v = g->var->t[0].f[0]->text;
      if (!text_mentions(stmt, v))
        continue;
      const char *val = g->proc ? "pa_tid" : d == p->pk_o ? "pa_q" : d == p->pk_a ? "pa_a" : d == p->pk_b ? "pa_b" : "0";
      buf_printf(&k, "        const long long %s = %s;\n", v, val);
    }
    buf_printf(&k, "        %s\n", stmt);
    buf_printf(&k, "      }\n    }\n    __syncthreads();\n");
  }
  buf_printf(&k, "  }\n}\n\n");
  const char *text = captures(e, n, ctx_strdup(ctx, k.data), extra);
  buf_free(&k);
  if (!text)
    return NULL;
  kname = kernel_add(e, n, kname, text,
                     ctx_printf(ctx, "/* #copy %s to %s (%s:%d) and every copy between the same layouts: each GPU "
                                "packs, from its block of %s, the rectangle it sends each GPU, transposed in %d x %d "
                                "tiles through shared memory */", n->name, n->name2, text_loc_file(ctx, n->loc),
                                text_loc_line(ctx, n->loc), n->name, TILE, TILE), true);
  *grid_yz = ctx_printf(ctx, "%s, 1", blocks_capped(ctx, S.dg[p->pk_b].extent, TILE));
  return kname;
}
