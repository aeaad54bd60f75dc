/* team.c: the GPU side of a team's work, written once for the threads of
 * a pthd or omp detour and the processes of an mpi one (SPEC 6.5): each
 * member binding a GPU, the reservation of what copies between their GPUs
 * need, staging GPU blocks through host memory, and the all-to-alls
 * between their GPUs (peer kernels over peer access or CUDA IPC, NCCL,
 * packets moved by the copy engines).  The thread target describes its
 * team (Team, emit/backend.h: who am I, how many, how members share a
 * pointer, the copy through the host); nothing here names it. */
#include "ctext.h"
#include "emit/hostc.h"
#include "model/launch.h"
#include "targets/cuda/kernels.h"
#include "targets/cuda/team.h"

#include <string.h>

/* ---- binding, reservation, staging ---- */

void cuda_team_bind(Emitter *e, Loc loc, const Team *team, Type *t)
{
  Ctx *ctx = e->ctx;
  const char *file = text_c_string(ctx, text_loc_file(ctx, loc));
  int line = text_loc_line(ctx, loc);
  const char *at = ctx_printf(ctx, "%s, %d", file, line);
  if (!team->processes) {
    out_gen(e->out, loc, "  pa_cuda_bind(%s, %s);\n", team->gpu_index(e, t, NULL, NULL, NULL, at), at);
    return;
  }
  out_gen(e->out, loc, "  /* the body does GPU work: the process's GPU is its rank among the processes of its node that "
          "see the same GPUs, mod their number */\n");
  out_gen(e->out, loc, "  const char *pa_no_gpu;\n");
  out_gen(e->out, loc, "  int pa_gpus = pa_cuda_gpu_count(&pa_no_gpu);\n");
  out_gen(e->out, loc, "  pa_cuda_bind(%s, %s);\n",
          team->gpu_index(e, t, "pa_gpus", "pa_cuda_visible_set()", "pa_no_gpu", at), at);
}

void cuda_team_launch(Emitter *e, Node *n, const Team *team, Type *t)
{
  Ctx *ctx = e->ctx;
  out_gen(e->out, n->loc, "%spa_cuda_gpus_for(%s, %s, %s);\n", text_indent_of(n), team->count(e, t),
          text_c_string(ctx, t->name), backend_at(e, n));
}

const char *cuda_team_stage_out(Emitter *e, const char *ptr, const char *bytes, const char *at)
{
  return ctx_printf(e->ctx, "pa_cuda_stage_out(%s, %s, %s)", ptr, bytes, at);
}

const char *cuda_team_stage_in(Emitter *e, const char *ptr, const char *host, const char *bytes, const char *at)
{
  return ctx_printf(e->ctx, "pa_cuda_stage_in(%s, %s, %s, %s);", ptr, host, bytes, at);
}

/* Each process exports its GPU block at ptr (CUDA IPC) and all gather the
 * exports: pa_all, freed by the caller (pa_free_host). */
static void ipc_gather(Emitter *e, Node *n, const Team *team, const char *ptr, const char *in, const char *at)
{
  out_gen(e->out, n->loc, "%spa_cuda_ipc pa_mine = pa_cuda_ipc_export(%s, %s);\n", in, ptr, at);
  out_gen(e->out, n->loc, "%spa_cuda_ipc *pa_all = (pa_cuda_ipc *)%s;\n", in, team->share(e, "pa_mine", at));
}

/* dmem distributed over a team (Backend.create_shared), made by every
 * member together, now rather than at the first copy: the buffers of a
 * packet all-to-all, and what lets each member's GPU reach the others'
 * blocks: threads, peer access between their GPUs; processes, the other
 * processes' blocks mapped by CUDA IPC, and on process 0 also on the GPUs
 * that hold them (its copies from and to host memory). */
void cuda_team_create(Emitter *e, Node *n, const Team *team, Type *threads, const char *p, const char *bytes)
{
  const char *in = text_indent_of(n);
  const char *at = backend_at(e, n);
  const char *all = team->count(e, threads);
  const char *reserve = ctx_printf(e->ctx, "pa_cuda_packets_reserve(%s, %s, %s, %d, %s);", all, team->me, bytes,
                                   !team->processes, at);
  if (!team->processes) {
    out_gen(e->out, n->loc, "%s%s /* peer access, buffers: now, not at the first copy */\n", in, reserve);
    return;
  }
  out_gen(e->out, n->loc, "%s{ /* the other processes' blocks of %s mapped, and buffers made: now, not at the first "
          "copy */\n", in, n->name);
  const char *in1 = ctx_printf(e->ctx, "%s  ", in);
  out_gen(e->out, n->loc, "%s%s\n", in1, reserve);
  ipc_gather(e, n, team, p, in1, at);
  out_gen(e->out, n->loc, "%sif (%s && pa_cuda_ipc_usable(pa_all, %s)) {\n", in1, team->one_node, all);
  out_gen(e->out, n->loc, "%s  pa_cuda_ipc_open(pa_all, %s, %s, %s, %s);\n", in1, all, team->me, p, at);
  out_gen(e->out, n->loc, "%s  if (%s == 0) /* its scatters and gathers: by the GPU that holds each block */\n",
          in1, team->me);
  out_gen(e->out, n->loc, "%s    pa_cuda_ipc_on_owners(pa_all, %s, 0, %s);\n", in1, all, at);
  out_gen(e->out, n->loc, "%s}\n", in1);
  out_gen(e->out, n->loc, "%spa_free_host(PA_PAGED, pa_all);\n", in1);
  out_gen(e->out, n->loc, "%s}\n", in);
}

/* ---- packets ---- */

/* The steps of an all-to-all in packets (CopyPlan.packets), after
 * packets_begin's pa_pk and the destination's blocks in pa_blocks,
 * for this GPU's thread or process me: pack and send each step
 * (pa_cuda_packets_step), then wait for every packet to land. */
static void packets_steps(Emitter *e, Node *n, const CopyPlan *p, const char *kname, const char *grid_yz,
                          const char *extra, const char *me, const char *at, const char *in)
{
  out_gen(e->out, n->loc, "%sfor (int pa_s = 0; pa_s < pa_pk.steps; pa_s++) {\n", in);
  out_gen(e->out, n->loc, "%s  const pa_cuda_step pa_st = pa_cuda_packets_step(&pa_pk, &pa_blocks, pa_s);\n", in);
  int t = launch_numbers.copy_tile;
  out_gen(e->out, n->loc, "%s  %s<<<dim3((unsigned)((pa_st.hi - pa_st.lo + %d) / %d), %s), dim3(%d, %d), 0, "
          "pa_pk.stream>>>(%s, (%s *)pa_st.out, pa_st.pitch, %s, pa_st.q, pa_st.lo, pa_st.hi%s);\n", in, kname,
          t - 1, t, grid_yz, t, launch_numbers.copy_rows, p->sp, p->dst->type->elem, me, extra);
  out_gen(e->out, n->loc, "%s  pa_cuda_packets_sent(&pa_pk, pa_s, %s);\n", in, at);
  out_gen(e->out, n->loc, "%s}\n", in);
  out_gen(e->out, n->loc, "%spa_cuda_packets_end(&pa_pk, \"%s\", %s);\n", in, kname, at);
}

static const char *packets_how(const CopyPlan *p)
{
  return p->pk_direct ? "of rectangles as they lie, by the copy engines (this GPU's own by a kernel)"
                      : "in packets: each GPU packs what it sends each GPU and the copy engines move it";
}

static const char *packets_direct(Emitter *e, const CopyPlan *p, const char *me, const char *nprocs, const char *at)
{
  Ctx *ctx = e->ctx;
  Poly *base = poly_add(ctx, p->pk_base, poly_mul(ctx, p->pk_pstride, poly_sym(ctx, me)));
  return ctx_printf(ctx, "pa_cuda_packets_direct(%s, %s, %s, %s, %s, %s, sizeof(%s), &pa_blocks, %s, %s, %s, %s);",
                    nprocs, me, dollar_poly_whole(ctx, p->pk_rows), dollar_poly_whole(ctx, p->pk_width),
                    dollar_poly_whole(ctx, p->pk_pitch), dollar_poly_whole(ctx, base), p->dst->type->elem, p->sp,
                    dollar_poly_whole(ctx, p->pk_spitch), dollar_poly_whole(ctx, p->pk_sstride), at);
}

static const char *packets_begin(Emitter *e, const CopyPlan *p, const char *me, const char *nprocs, const char *at)
{
  Ctx *ctx = e->ctx;
  if (p->pk_direct)
    return ctx_printf(ctx, "pa_cuda_packets_ready(%s); /* this GPU's stream done with the blocks */", at);
  Poly *base = poly_add(ctx, p->pk_base, poly_mul(ctx, p->pk_pstride, poly_sym(ctx, me)));
  return ctx_printf(ctx, "pa_cuda_packets pa_pk = pa_cuda_packets_begin(%s, %s, %s, %s, %s, %s, sizeof(%s), %s);",
                    nprocs, me, dollar_poly_whole(ctx, p->pk_rows), dollar_poly_whole(ctx, p->pk_width),
                    dollar_poly_whole(ctx, p->pk_pitch), dollar_poly_whole(ctx, base), p->dst->type->elem, at);
}

/* ---- the all-to-alls between the team's GPUs ---- */

/* The launch of a peer copy's kernel at indentation in, guarded when only
 * the members 0 .. parts - 1 hold a block of the walked side
 * (CopyPlan.parts): the others have nothing to fill (read). */
static void holders_launch(Emitter *e, Node *n, const Team *team, const CopyPlan *p, const char *in,
                           const char *kname, const char *launch, const char *args)
{
  if (p->parts) {
    out_gen(e->out, n->loc, "%sif (%s < %s) /* the %s that hold a block */\n", in, team->me,
            poly_str(e->ctx, p->parts), team->members);
    in = ctx_printf(e->ctx, "%s  ", in);
  }
  out_gen(e->out, n->loc, "%s%s<<<%s>>>(%s);\n", in, kname, launch, args);
}

/* pa_blocks, the GPU blocks at ptr of the `all` members (one GPU's array
 * when !every) as this member's GPU reaches them, opened at indentation in;
 * returns the indentation of the code that uses them.  Threads share an
 * address space: their pointers are handed round and their GPUs reach
 * each other by peer access (pa_cuda_team_blocks).  Processes map each
 * other's blocks by CUDA IPC where the runtime finds they can
 * (pa_gpu_transport: on one node, every block exportable), alike on every
 * process: the branch through CUDA IPC opens here, and ipc_close closes it
 * with the branch through NCCL or the host. */
static const char *blocks_open(Emitter *e, Node *n, const Team *team, const char *ptr, bool every, const char *all,
                               const char *in, const char *at)
{
  if (!every) { /* one GPU's array: one block */
    out_gen(e->out, n->loc, "%sconst void *pa_one = %s;\n", in, ptr);
    out_gen(e->out, n->loc, "%spa_cuda_blocks pa_blocks = pa_cuda_team_blocks(&pa_one, 1, %s);\n", in, at);
    return in;
  }
  if (!team->processes) {
    out_gen(e->out, n->loc, "%spa_cuda_blocks pa_blocks = pa_cuda_team_blocks(%s, %s, %s);\n", in,
            team->share(e, ptr, at), all, at);
    return in;
  }
  ipc_gather(e, n, team, ptr, in, at);
  out_gen(e->out, n->loc, "%sconst pa_via pa_way = pa_gpu_transport(pa_all, %s, 0, %s);\n", in, all, at);
  out_gen(e->out, n->loc, "%sif (pa_way == PA_VIA_IPC) {\n", in);
  out_gen(e->out, n->loc, "%s  pa_cuda_blocks pa_blocks = pa_cuda_ipc_open(pa_all, %s, %s, %s, %s);\n", in, all,
          team->me, ptr, at);
  return ctx_printf(e->ctx, "%s  ", in);
}

/* The close of blocks_open's branch through CUDA IPC (processes), at
 * indentation in, and the branch through NCCL or the host (pa_xchg.cu):
 * the first copy of the peer kernel kname runs it over marked blocks to
 * map which element comes from where (pa_gpu_xchg_probe), then the runtime
 * moves the elements packed on the GPU, pair by pair.  The sizes the
 * kernel captures and the guard of its launch (the processes that hold a
 * block) key the map: one kernel serves every copy between the same
 * layouts, and copies whose destinations have other holders map
 * differently.  Past what the map holds, the collective through the host
 * (Team.host_copy). */
static void ipc_close(Emitter *e, Node *n, const Team *team, const CopyPlan *p, const char *kname,
                      const char *launch, const char *extra, const char *in, const char *at)
{
  Ctx *ctx = e->ctx;
  const char *elem = p->dst->type->elem;
  out_gen(e->out, n->loc, "%s  %s /* no block changes while another process reads it */\n", in, team->wait(e, at));
  Buf key = {.ctx = ctx};
  for (const char *s = extra; s && *s;) {
    s += strspn(s, ", ");
    size_t len = strcspn(s, ",");
    if (len)
      buf_printf(&key, "%s(long long)%.*s", key.len ? ", " : "", (int)len, s);
    s += len;
  }
  if (p->parts) /* the launch's guard, below */
    buf_printf(&key, "%s%s", key.len ? ", " : "", poly_str(ctx, p->parts));
  out_gen(e->out, n->loc, "%s} else { /* through NCCL or the host: each pair's elements packed on the GPU */\n", in);
  if (key.len)
    out_gen(e->out, n->loc, "%s  const long long pa_key[] = {%s}; /* beside the kernel, what decides the map */\n", in,
            key.data);
  out_gen(e->out, n->loc, "%s  pa_gpu_xchg *pa_n = pa_gpu_xchg_begin((const void *)%s, %s, %s, %s, %s, sizeof(%s), %s, "
          "pa_way, %s);\n", in, kname, p->sp, hostc_block_bytes(ctx, p->src), p->dp, hostc_block_bytes(ctx, p->dst),
          elem, key.len ? "pa_key, (int)(sizeof pa_key / sizeof *pa_key)" : "PA_NULL, 0", at);
  buf_free(&key);
  out_gen(e->out, n->loc, "%s  if (pa_n) {\n", in);
  out_gen(e->out, n->loc, "%s    pa_cuda_blocks pa_blocks;\n", in);
  out_gen(e->out, n->loc, "%s    void *pa_probe;\n", in);
  out_gen(e->out, n->loc, "%s    while (pa_gpu_xchg_probe(pa_n, &pa_blocks, &pa_probe)) { /* the first copy: where "
          "each element comes from */\n", in);
  /* as through CUDA IPC: a process past the holders of the destination has no block to fill */
  holders_launch(e, n, team, p, ctx_printf(ctx, "%s      ", in), kname, launch,
                 ctx_printf(ctx, "(%s *)pa_probe, pa_blocks, %s%s", elem, team->me, extra));
  out_gen(e->out, n->loc, "%s      pa_cuda_check_launch(\"%s\", %s);\n", in, kname, at);
  out_gen(e->out, n->loc, "%s    }\n", in);
  out_gen(e->out, n->loc, "%s    pa_gpu_xchg_run(pa_n);\n", in);
  out_gen(e->out, n->loc, "%s  } else { /* more processes or elements than the map holds */\n", in);
  Node inner = *n;
  inner.out_indent = ctx_printf(ctx, "%s    ", in);
  CopyPlan staged = *p;
  staged.check_extent = false;
  team->host_copy(e, &inner, &staged);
  out_gen(e->out, n->loc, "%s  }\n", in);
  out_gen(e->out, n->loc, "%s}\n", in);
  out_gen(e->out, n->loc, "%spa_free_host(PA_PAGED, pa_all);\n", in);
}

/* An all-to-all between the team's GPUs (CopyPlan.peer), or a copy
 * between one GPU's array and the blocks of all (threads): each member's
 * GPU reaches the blocks of the others (blocks_open) and runs the peer
 * kernel over them (kernels.c), or sends its packets into the
 * destination's blocks (CopyPlan.packets): packed by a kernel, unless the
 * rectangles are the source's own (pk_direct), and moved by the copy
 * engines, the GPU's own packet by a kernel (pa_cuda_packets_begin,
 * packets_steps; pa_cuda_packets_direct).  Processes that cannot map each
 * other's blocks go through NCCL or the host (ipc_close), on the map the
 * peer kernel draws. */
static void alltoall(Emitter *e, Node *n, const Team *team, const CopyPlan *p)
{
  Ctx *ctx = e->ctx;
  const char *in = text_indent_of(n), *at = backend_at(e, n);
  const CopySide *S = &p->side[0], *T = &p->side[1];
  Type *t = (T->procs ? T : S)->procs;
  const char *me = team->me, *all = team->count(e, t);
  bool every = S->procs && T->procs, pack = p->packets && !p->pk_direct;
  const char *kname = NULL, *launch = NULL, *extra = NULL, *pkname = NULL, *grid_yz = NULL, *pk_extra = NULL;
  if ((!p->packets || team->processes) && !(kname = kernel_peer(e, n, p, &launch, &extra)))
    return;
  if (pack && !(pkname = kernel_packets(e, n, p, &grid_yz, &pk_extra)))
    return;
  if (p->check_extent)
    out_gen(e->out, n->loc, "%s%s(%s, %s, %s);\n", in, team->check_extent, poly_str(ctx, p->src->extent),
            poly_str(ctx, p->dst->extent), at);
  const char *what = p->packets ? ctx_printf(ctx, "all-to-all %s", packets_how(p))
                     : every    ? "all-to-all"
                     : S->procs ? "each GPU writes its part"
                                : "each GPU reads its part";
  out_gen(e->out, n->loc, "%s{ /* %s over the GPUs of the %s of %s: %s */\n", in, text_copy_title(ctx, n, p->sp, p->dp),
          team->members, t->name, what);
  const char *in1 = ctx_printf(ctx, "%s  ", in);
  if (p->packets)
    out_gen(e->out, n->loc, "%s%s\n", in1, packets_begin(e, p, me, all, at));
  /* the blocks reached: the destination's for packets; for the peer
   * kernel, the source's, or one GPU's array (a scatter's source, a
   * gather's destination) */
  const char *ptr = p->packets || !T->procs ? p->dp : p->sp;
  const char *bin = blocks_open(e, n, team, ptr, every, all, in1, at);
  if (pack) {
    packets_steps(e, n, p, pkname, grid_yz, pk_extra, me, at, bin);
  } else if (p->packets) {
    out_gen(e->out, n->loc, "%s%s\n", bin, packets_direct(e, p, me, all, at));
  } else {
    /* the kernel walks this member's block, of the destination unless that is one GPU's array */
    holders_launch(e, n, team, p, bin, kname, launch,
                   ctx_printf(ctx, "%s, pa_blocks, %s%s", T->procs ? p->dp : p->sp, me, extra));
    out_gen(e->out, n->loc, "%spa_cuda_check_launch(\"%s\", %s);\n", bin, kname, at);
  }
  if (team->processes)
    ipc_close(e, n, team, p, kname, launch, extra, in1, at);
  out_gen(e->out, n->loc, "%s}\n", in);
}

/* Rows between process 0's host memory and every process's GPU block
 * (CopyPlan.ipc_rows): on one node, process 0 maps the blocks (CUDA IPC)
 * and copies them all itself; otherwise through the host
 * (Team.host_rows).  Every process takes the same branch; the others wait
 * until process 0 is done with their blocks. */
static void ipc_rows(Emitter *e, Node *n, const Team *team, const CopyPlan *p)
{
  Ctx *ctx = e->ctx;
  const char *in = text_indent_of(n);
  const char *in1 = ctx_printf(ctx, "%s  ", in);
  const char *at = backend_at(e, n);
  bool gather = p->coll == COLL_GATHER;
  const char *xp = gather ? p->sp : p->dp, *hp = gather ? p->dp : p->sp;
  const CopyDigit *dg = p->dg;
  Poly *hpitch = gather ? dg[0].d : dg[0].s, *lpitch = gather ? dg[0].s : dg[0].d;
  /* the host pointer is cast to void *: its offset added first, in elements */
  const char *host = poly_is_value(p->ybase, 0) ? util_text_operand(ctx, hp)
                                                : ctx_printf(ctx, "(%s + %s)", ctext_sum_operand(ctx, hp),
                                                             poly_str(ctx, p->ybase));
  /* the processes that hold a part: all, or the first parts */
  const char *blocks = p->parts ? poly_str(ctx, p->parts) : team->count(e, p->detour);
  ipc_gather(e, n, team, xp, in1, at);
  out_gen(e->out, n->loc, "%sif (pa_gpu_transport(pa_all, %s, 1, %s) == PA_VIA_IPC) {\n", in1, blocks, at);
  out_gen(e->out, n->loc, "%s  if (%s == 0) {\n", in1, team->me);
  out_gen(e->out, n->loc, "%s    pa_cuda_ipc_rows(%d, (void *)%s, %s, %s, %s, %s, pa_all, %s, 0, %s, %s, %s, "
          "sizeof(%s), %s);\n", in1, !gather, host, poly_str(ctx, dg[0].extent), poly_str(ctx, dg[1].extent),
          poly_str(ctx, hpitch), p->coll == COLL_BCAST ? "0" : poly_str(ctx, p->step), blocks, xp,
          poly_str(ctx, p->xbase), poly_str(ctx, lpitch), p->dst->type->elem, at);
  out_gen(e->out, n->loc, "%s  }\n", in1);
  out_gen(e->out, n->loc, "%s  %s /* every block written (read) before its process goes on */\n", in1,
          team->wait(e, at));
  out_gen(e->out, n->loc, "%s} else {\n", in1);
  Node inner = *n;
  inner.out_indent = ctx_printf(ctx, "%s  ", in);
  team->host_rows(e, &inner, p);
  out_gen(e->out, n->loc, "%s}\n", in1);
  out_gen(e->out, n->loc, "%spa_free_host(PA_PAGED, pa_all);\n", in1);
}

void cuda_team_copy(Emitter *e, Node *n, const Team *team, const CopyPlan *p)
{
  if (p->ipc_rows)
    ipc_rows(e, n, team, p);
  else
    alltoall(e, n, team, p);
}
