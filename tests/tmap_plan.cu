// tests/tmap_plan.cu: the host side of the Hopper kernels' copies, on the CPU (no GPU, no
// driver call): samples/hopper.pah's axis_of reads an index of a layout from its offsets
// (or takes its blocks from the type's $run$: both ways must agree), tile_plan_of turns
// two indices into the tensor map the copy engine would get (stacking blocks into one 2-D
// map where they lie apart), one_box_tiles / tile_store_ok pick the producer's copy
// loop and the stores of C, and band_tile_of orders the kernels' tiles. Each case is a
// layout of samples/perf_tf32.pa or perf_shapes.pa, its offsets written out here as the
// types give them. Built by tests/host_cu.sh with nvcc; exits 1 on a wrong answer,
// naming the case.
#include <stdio.h>
#include <stdlib.h>
#include "hopper.pah"

static int bad;
static void expect(const char *what, long long got, long long want) {
  if (got != want) {
    printf("tmap_plan: %s is %lld, want %lld\n", what, got, want);
    bad++;
  }
}
/* the axis as the sample reads it, the index's $run$ told (RUN, nothing walked), and
   the same axis walked from the offsets (RUN 0): the two must agree */
template <class Off> static tile_axis axis_told(const char *what, long long n, long long s0, long long run, Off off) {
  const tile_axis told = axis_of(n, s0, run, off), walked = axis_of(n, s0, 0, off);
  char w[96];
  const long long got[4] = {told.n, told.r, told.s, told.S}, want[4] = {walked.n, walked.r, walked.s, walked.S};
  for (int k = 0; k < 4; k++) {
    snprintf(w, sizeof w, "%s: field %d told against walked", what, k);
    expect(w, got[k], want[k]);
  }
  return told;
}
/* a float matrix's base, on 16 bytes as cudaMalloc's are */
static const float *const base = (const float *)(size_t)0x100000;

/* row-major N x N with leading dimension LD: P's map (rows by 32 k, tiles of 256 rows) */
static void strided(void) {
  const long long n = 1000, ld = 1024;
  const tile_axis rows = axis_told("row-major rows", n, ld, n, [&](long long i) { return i * ld; });
  const tile_axis cols = axis_told("row-major columns", n, 1, n, [&](long long j) { return j; });
  expect("row-major rows: block", rows.r, n);
  expect("row-major rows: step", rows.s, ld);
  expect("row-major columns: step", cols.s, 1);
  tile_plan pl;
  expect("row-major: planned", tile_plan_of(&pl, base, rows, cols, 256, 256, 128), 1);
  expect("row-major: rank", pl.rank, 2);
  expect("row-major: columns", (long long)pl.dims[0], n);
  expect("row-major: row stride in bytes", (long long)pl.strides[0], ld * 4);
  expect("row-major: box rows", pl.box[1], 256);
  expect("row-major: boxes", pl.g.boxes, 1);
  expect("row-major: C stored by the copy engine", tile_store_ok(pl.g), 1);
  /* odd leading dimension: rows 3108 bytes apart, which the copy engine cannot step */
  const tile_axis odd = axis_of(777, 777, 0, [&](long long i) { return i * 777; });
  expect("ld 777: planned", tile_plan_of(&pl, base, odd, cols, 256, 256, 128), 0);
  /* a base off 16 bytes */
  expect("base + 1: planned", tile_plan_of(&pl, base + 1, rows, cols, 256, 256, 128), 0);
}

/* Fig 18a at N: [4][N][N/4] read as [N][(4)(N/4)], columns cut into strips of N/4 (PAD
   floats between strips: then they are not a whole number of rows apart) */
static void fig18a(long long n, int one_box, long long pad = 0) {
  const long long w = n / 4;
  const tile_axis rows = axis_told("Fig 18a rows", n, w, n, [&](long long i) { return i * w; });
  const tile_axis cols =
      axis_told("Fig 18a columns", n, 1, w, [&](long long j) { return j / w * (n * w + pad) + j % w; });
  expect("Fig 18a columns: block", cols.r, w);
  expect("Fig 18a columns: block stride", cols.S, n * w + pad);
  tile_plan pl;
  expect("Fig 18a: planned", tile_plan_of(&pl, base, rows, cols, 256, 256, 128), w % 32 == 0);
  if (w % 32)
    return;
  /* stacked where a tile of 256 rows stays inside the strip's N rows */
  const int stacked = n % 256 == 0 && pad == 0;
  expect("Fig 18a: stacked", pl.g.stacked, stacked);
  expect("Fig 18a: rank", pl.rank, stacked ? 2 : 3);
  if (stacked) {
    expect("Fig 18a: map rows", (long long)pl.dims[1], 4 * n);
    expect("Fig 18a: a strip's rows on", pl.g.cstep, n);
    expect("Fig 18a: row blocks' step", pl.g.rstep, 0);
  } else {
    expect("Fig 18a: strips", (long long)pl.dims[2], 4);
    expect("Fig 18a: strip stride in bytes", (long long)pl.strides[1], (n * w + pad) * 4);
  }
  expect("Fig 18a: columns cut", pl.g.cols_cut, 1);
  /* Q's map of the same layout (32 k by 32 columns): its 128 columns in one strip? */
  tile_plan q;
  tile_plan_of(&q, base, rows, cols, 32, 256, 128);
  /* also C's map (boxes of 32 rows): they cover a P tile's 256 rows, past N where N is
     not a multiple, and a stacked map would store those into the next strip (run 68,
     N = 640: Fig 18a wrong) */
  expect("Fig 18a: Q and C stacked", q.g.stacked, stacked);
  expect("Fig 18a: one thread copies", one_box_tiles(pl.g, q.g), one_box);
}

/* Fig 18b at N: [2][2][N/2][N/2] read as [(2)(N/2)][(2)(N/2)], both indices in 2 blocks */
static void fig18b(long long n, int boxes) {
  const long long h = n / 2;
  const tile_axis rows = axis_told("Fig 18b rows", n, h, h, [&](long long i) { return i / h * 2 * h * h + i % h * h; });
  const tile_axis cols = axis_told("Fig 18b columns", n, 1, h, [&](long long j) { return j / h * h * h + j % h; });
  expect("Fig 18b rows: block", rows.r, h);
  expect("Fig 18b rows: block stride", rows.S, 2 * h * h);
  tile_plan pl;
  expect("Fig 18b: planned", tile_plan_of(&pl, base, rows, cols, 256, 256, 128), 1);
  /* stacked, [rb][cb][r][c]: block (rb, cb)'s rows 2 h rb + h cb on, where a tile of 256
     rows stays inside a block; else 4-D, a tile crossing blocks in boxes */
  const int stacked = h % 256 == 0;
  expect("Fig 18b: stacked", pl.g.stacked, stacked);
  expect("Fig 18b: rank", pl.rank, stacked ? 2 : 4);
  expect("Fig 18b: boxes of a tile", pl.g.boxes, boxes);
  expect("Fig 18b: box rows", pl.g.box_rows, 256 / boxes);
  if (stacked) {
    expect("Fig 18b: map rows", (long long)pl.dims[1], 4 * h);
    expect("Fig 18b: a row block's step", pl.g.rstep, 2 * h);
    expect("Fig 18b: a column block's step", pl.g.cstep, h);
  }
  tile_plan c;
  tile_plan_of(&c, base, rows, cols, 32, 256, 128);
  expect("Fig 18b: C stacked", c.g.stacked, n % 256 == 0);
  expect("Fig 18b: C stored by the copy engine", tile_store_ok(c.g), 1);
}

/* stacked only where the matrix is whole tiles of the caller's largest (WHOLE_ROWS x
   WHOLE_COLS): Fig 18a at N = 640 read in tiles of 128 rows is whole 128 x 128 tiles, not
   whole 256 x 128 ones (a 256-row tile would reach past a strip into the next) */
static void whole_tiles(void) {
  const long long n = 640, w = n / 4;
  const tile_axis rows = axis_of(n, w, n, [&](long long i) { return i * w; });
  const tile_axis cols = axis_of(n, 1, w, [&](long long j) { return j / w * (n * w) + j % w; });
  tile_plan pl;
  tile_plan_of(&pl, base, rows, cols, 128, 128, 128);
  expect("N = 640, whole 128 x 128 tiles: stacked", pl.g.stacked, 1);
  tile_plan_of(&pl, base, rows, cols, 128, 256, 128);
  expect("N = 640, whole 256 x 128 tiles: stacked", pl.g.stacked, 0);
}

/* blocks that would share a map's rows are not stacked: steps of 1 and 2 rows for blocks
   of 4 rows (an index cut into 4 blocks of rows a row apart, another into 2) */
static void not_stacked(void) {
  expect("steps 1, 2 of 4-row blocks", stacks_apart(1, 4, 2, 2, 4), 0);
  expect("steps 8, 4 of 4-row blocks", stacks_apart(8, 2, 4, 2, 4), 1);
  expect("steps 4, 8 of 4-row blocks, 3 row blocks", stacks_apart(4, 3, 8, 2, 4), 0);
  expect("steps 4, 12 of 4-row blocks, 3 row blocks", stacks_apart(4, 3, 12, 2, 4), 1);
  expect("one block", stacks_apart(0, 1, 0, 1, 4), 1);
  expect("strips 3 rows apart of 4 rows", stacks_apart(0, 1, 3, 4, 4), 0);
}

/* padded storage [M][ldc] viewed [M][N]: C's rows must end on 16 bytes for the stores */
static void padded_c(long long n, int ok) {
  const long long ldc = (n + 31) / 32 * 32;
  const tile_axis rows = axis_of(5, ldc, 0, [&](long long i) { return i * ldc; });
  const tile_axis cols = axis_of(n, 1, 0, [&](long long j) { return j; });
  tile_plan pl;
  expect("padded C: planned", tile_plan_of(&pl, base, rows, cols, 32, 256, 128), 1);
  char what[64];
  snprintf(what, sizeof what, "padded C, N = %lld: stored by the copy engine", n);
  expect(what, tile_store_ok(pl.g), ok);
}

/* offsets no term of the form (i / R) S + (i % R) s gives */
static void not_blocked(void) {
  const tile_axis sq = axis_of(100, 1, 0, [&](long long i) { return i * i; });
  expect("i^2: block", sq.r, 0);
  tile_plan pl;
  const tile_axis cols = axis_of(100, 1, 0, [&](long long j) { return j; });
  expect("i^2: planned", tile_plan_of(&pl, base, sq, cols, 256, 256, 128), 0);
  /* blocks of 4 columns, then a stride that breaks the pattern at the third block */
  const tile_axis broken = axis_of(12, 1, 0, [&](long long j) { return j < 8 ? j / 4 * 100 + j % 4 : 999 + j; });
  expect("broken blocks: block", broken.r, 0);
}

/* band_tile_of, the kernels' tile order: each of GP x GQ tiles taken by one block, the
   first band's blocks down its first column, and a wave of WAVE blocks inside the first
   band's rows and its first columns */
static void bands(int gp, int gq, int band, int wave) {
  char w[96];
  int *seen = (int *)calloc((size_t)gp * gq, sizeof(int)), top = 0, right = 0;
  for (int bid = 0; bid < gp * gq; bid++) {
    const band_tile t = band_tile_of(bid, gp, gq, band);
    snprintf(w, sizeof w, "bands %d x %d of %d: block %d inside", gp, gq, band, bid);
    expect(w, t.p >= 0 && t.p < gp && t.q >= 0 && t.q < gq, 1);
    if (t.p >= 0 && t.p < gp && t.q >= 0 && t.q < gq)
      seen[t.p * gq + t.q]++;
    if (bid < wave)
      top = t.p > top ? t.p : top, right = t.q > right ? t.q : right;
  }
  for (int i = 0; i < gp * gq; i++) {
    snprintf(w, sizeof w, "bands %d x %d of %d: tile %d taken", gp, gq, band, i);
    expect(w, seen[i], 1);
  }
  const int rows = gp < band ? gp : band;
  snprintf(w, sizeof w, "bands %d x %d of %d: block 1's row", gp, gq, band);
  expect(w, band_tile_of(1, gp, gq, band).p, rows > 1);
  snprintf(w, sizeof w, "bands %d x %d of %d: a wave's rows", gp, gq, band);
  expect(w, top, wave < rows * gq ? (wave < rows ? wave - 1 : rows - 1) : top);
  snprintf(w, sizeof w, "bands %d x %d of %d: a wave's columns", gp, gq, band);
  expect(w, right, wave <= rows * gq ? (wave - 1) / rows : right);
  free(seen);
}

int main(void) {
  bands(64, 128, 4, 132); /* 16384^3, tiles of 256 x 128, 132 multiprocessors */
  bands(20, 40, 4, 132);  /* 5000^3 */
  bands(22, 33, 4, 132);  /* a last band of 2 rows */
  bands(3, 5, 16, 132);   /* one band, shorter than its height */
  bands(1, 1, 4, 1);
  bands(97, 7, 16, 100);
  strided();
  fig18a(1024, 1);
  fig18a(384, 0); /* strips of 96: Q's 128 columns cross a strip */
  fig18a(320, 0); /* strips of 80: a 32-deep slice crosses a strip */
  fig18a(640, 0); /* strips of 160; C's boxes past row 640 */
  fig18a(1024, 1, 8); /* strips 8 floats apart from each other: 3-D */
  fig18b(4096, 1);
  fig18b(640, 4); /* blocks of 320 rows: boxes of 64 */
  padded_c(1000, 1);
  padded_c(3, 0);
  padded_c(130, 0);
  padded_c(1, 0);
  not_blocked();
  whole_tiles();
  not_stacked();
  printf("tmap_plan: %s\n", bad ? "WRONG" : "ok");
  return bad != 0;
}
