// tests/mnk_plan.cu: samples/mnk_plan.pah, the host's plan of the TF32 kernels' grids, on
// the CPU (no GPU: the multiprocessors' count is given, an H200's 132): the parts of k
// (mnk_span, mnk_live), the cheapest split by the time model (mnk_splits_on; each kernel
// at its own costs, mnk_costs_of), where the parts are added apart (mnk_apart_on,
// mnk_add_lanes), the parts of one wave (the same), the tile width (mnk_tf32_width_on),
// when an operand is copied into padded memory (mnk_repack_pays; C's rows short:
// mnk_short_rows_copy_pays; P alone: mnk_pcopy_pays; which: mnk_copies; both by one
// kernel: mnk_copy_both) and which kernel
// then runs (mnk_ws_runs), where a short k leaves the tensor cores (mnk_shortk_pays), or
// a small product of a longer k (mnk_small_pays_on),
// the thin products' grid, their 4 k (or 4 of the other's rows) at once and where they
// leave the tensor cores (mnk_thin_grid_on, mnk_thin_vector_on, mnk_thin_other_vector_on,
// mnk_thin_other_pairs_on, mnk_thin_pays), the quads' grid and stage (mnk_thin_quads_on,
// mnk_thin_quad_grid, mnk_thin_quad_at), the k each lane adds there
// (mnk_thin_row_walk, mnk_thin_pair_walk), each against the property it promises and the decisions the
// comments quote from measurements. Built by tests/host_cu.sh with nvcc;
// exits 1 on a wrong answer, naming the case.
#include <stdio.h>
static long long time_estimates; /* mnk_time's calls */
#define MNK_TIME_COUNT() (time_estimates++)
#include "mnk_plan.pah"

static int bad;
static void expect(const char *what, long long got, long long want) {
  if (got != want) {
    printf("mnk_plan: %s is %lld, want %lld\n", what, got, want);
    bad++;
  }
}
enum { SMS = 132 };

/* every part an even number of slices, the live parts covering all slices and no more
   than they need, never more parts than asked */
static void parts(void) {
  for (int all = 1; all <= 600; all++)
    for (int p = 1; p <= MNK_MOST_PARTS; p++) {
      const int span = mnk_span(all, p), live = mnk_live(all, p);
      if (span % 2 != 0 || span < 2 || live < 1 || live > p || (long long)live * span < all ||
          (long long)(live - 1) * span >= all) {
        printf("mnk_plan: %d slices in %d parts: span %d, %d live\n", all, p, span, live);
        bad++;
        return;
      }
    }
  expect("mnk_unsplit(288 tiles, 2 parts)", mnk_unsplit(288, 2, SMS), 264);
  expect("mnk_unsplit(288 tiles, 1 part)", mnk_unsplit(288, 1, SMS), 288);
  expect("mnk_unsplit(100 tiles, 4 parts)", mnk_unsplit(100, 4, SMS), 0);
}

/* the split chosen is one whose parts all have slices, and none of those is cheaper */
static void cheapest(void) {
  static const long long shapes[][3] = {{4096, 4096, 4096}, {3000, 3000, 3000}, {129, 129, 129},
                                        {128, 8192, 8192},  {8192, 128, 2048},  {100, 100, 100},
                                        {257, 257, 257},    {2001, 2001, 101},  {16384, 16384, 16384},
                                        {1, 1, 1},          {5, 3, 7},          {300, 1000, 777}};
  for (const auto &s : shapes)
    for (int kernel = 0; kernel < 6; kernel++) {
      /* TF32_MNK's 128 and 256 wide and X3_MNK's, each warp-specialised or reading any layout */
      const int x3 = kernel >= 4, pt = x3 || kernel < 2 ? 128 : 256, ws = kernel % 2;
      const long long tiles = (s[0] + pt - 1) / pt * ((s[1] + 127) / 128), cells = s[0] * s[1];
      const mnk_costs c = mnk_costs_of(x3, pt, ws);
      const int all = (int)((s[2] + 31) / 32), got = mnk_splits_on(tiles, s[2], cells, c, SMS);
      const double t = mnk_time(tiles, got, s[2], cells, c, SMS);
      int ok = got >= 1 && got <= MNK_MOST_PARTS && mnk_live(all, got) == got;
      for (int p = 1; p <= MNK_MOST_PARTS && p <= all; p++)
        ok &= !(mnk_live(all, p) == p && mnk_time(tiles, p, s[2], cells, c, SMS) < t);
      if (!ok) {
        printf("mnk_plan: %lld x %lld x %lld, %s tiles of %d, %s: %d parts is not the cheapest split\n", s[0],
               s[1], s[2], x3 ? "3xTF32" : "TF32", pt, ws ? "warp-specialised" : "any layout", got);
        bad++;
      }
    }
  /* one slice of k cannot be split */
  expect("parts of k = 32", mnk_splits_on(4, 32, 1024, mnk_tf32_costs(256, 1), SMS), 1);
}

/* mnk_fixup's groups: up to 16 parts one group; more, every group with parts, the groups
   covering all parts, and the last block reading no more than 2 sqrt(live) + 1 parts'
   results; a long k of few tiles split in more than 16 parts */
static void groups(void) {
  for (int live = 1; live <= MNK_MOST_PARTS; live++) {
    const int g = mnk_group(live), ng = mnk_groups(live), reads = mnk_fixup_reads(live);
    int root = 1;
    while (root * root < live)
      root++;
    int ok = g >= 1 && ng >= 1 && (long long)g * ng >= live && (long long)(ng - 1) * g < live;
    ok &= live <= 16 ? ng == 1 && reads == live : ng > 1 && reads <= 2 * root + 1;
    ok &= ng <= live && mnk_fixup_counters(live) > (ng > 1 ? ng : 0) && mnk_fixup_counters(live) <= live + 1;
    /* a counter for the groups' sums and one a group; tf32.pah allocates live + 1 a slot */
    if (!ok) {
      printf("mnk_plan: %d parts in groups of %d: %d groups, %d reads\n", live, g, ng, reads);
      bad++;
    }
  }
  expect("groups of 16 parts", mnk_groups(16), 1);
  expect("groups of 17 parts", mnk_groups(17), 4);
  expect("groups of 128 parts", mnk_groups(128), 11);
  const int s = mnk_splits_on(1, 100000, 128 * 128, mnk_tf32_costs(128, 1), SMS);
  if (s <= 16) {
    printf("mnk_plan: 128 x 128 x 100000 split in %d parts, want more than 16\n", s);
    bad++;
  }
}

/* one wave of TF32_MNK's 128-wide tiles: split where the parts' additions cost less than
   the slices they save (run 88, TF32_WS's time with the parts forced: 640 x 480 x 1000
   fastest in 4, 768^3 in 3, 700 x 700 x 2000 in 3, 256^3 and 384^3 unsplit) */
static long long tf32_tiles(long long m, long long n) { return (m + 127) / 128 * ((n + 127) / 128); }
static int tf32_parts(long long m, long long n, long long k) {
  return mnk_splits_on(tf32_tiles(m, n), k, m * n, mnk_tf32_costs(128, 1), SMS);
}
static void single_wave(void) {
  expect("640 x 480 x 1000's 20 tiles", tf32_parts(640, 480, 1000), 4);
  expect("768^3's 36 tiles", tf32_parts(768, 768, 768), 3);
  expect("700 x 700 x 2000's 36 tiles", tf32_parts(700, 700, 2000), 3);
  expect("256^3's 4 tiles", tf32_parts(256, 256, 256), 1);
  expect("384^3's 9 tiles", tf32_parts(384, 384, 384), 1);
  expect("129^3's 4 tiles", tf32_parts(129, 129, 129), 1);
  expect("128 x 8192 x 8192's 64 tiles", tf32_parts(128, 8192, 8192), 2);
}

/* the parts added apart (tf32.pah's MNK_ADD) where they are many and the tiles few, by
   each tile's last part where the tiles are many and the parts few (run 89, the bench's
   time with the parts forced and added each way: 128 x 128 x 100000 in 121 parts 67-71 ->
   57-64 us apart, 256 x 256 x 8192 in 32 36-38 -> 30-31; 1024^3 in 2 31-33 -> 36) */
static int tf32_apart(long long m, long long n, long long k) {
  return mnk_apart_on(tf32_tiles(m, n), tf32_parts(m, n, k), k, m * n, mnk_tf32_costs(128, 1), SMS);
}
static void apart(void) {
  expect("128 x 128 x 100000 added apart", tf32_apart(128, 128, 100000), 1);
  expect("256 x 128 x 50000 added apart", tf32_apart(256, 128, 50000), 1);
  expect("256 x 256 x 8192 added apart", tf32_apart(256, 256, 8192), 1);
  expect("1024^3 added by the last parts", tf32_apart(1024, 1024, 1024), 0);
  expect("768^3 added by the last parts", tf32_apart(768, 768, 768), 0);
  expect("700 x 700 x 2000 added by the last parts", tf32_apart(700, 700, 2000), 0);
  expect("one part is never added", mnk_apart_on(1, 1, 100000, 128 * 128, mnk_tf32_costs(128, 1), SMS), 0);
  /* parts past K's slices are empty: one slice in 3 parts is one live part, which the
     kernels store themselves (run 108: MNK_SPLITS=3 MNK_APART=1 on k of one slice was
     wrong before mnk_apart_can) */
  expect("one slice in 3 parts can be added apart", mnk_apart_can(1, 3, 32, SMS), 0);
  expect("two slices in 3 parts (a part two slices) can be added apart", mnk_apart_can(1, 3, 64, SMS), 0);
  expect("three slices in 3 parts can be added apart", mnk_apart_can(1, 3, 65, SMS), 1);
  expect("whole tiles alone can be added apart", mnk_apart_can(SMS, 3, 4096, SMS), 0);
  for (long long tiles = 1; tiles <= 4 * SMS; tiles *= 2)
    for (int slices = 1; slices <= 300; slices++)
      for (int p = 1; p <= MNK_MOST_PARTS; p++)
        if (mnk_apart_on(tiles, p, 32LL * slices, tiles * 128 * 128, mnk_tf32_costs(64, 1), SMS) &&
            mnk_live(slices, p) < 2) {
          printf("mnk_plan: %d slices in %d parts added apart with one live part\n", slices, p);
          bad++;
        }
  const mnk_costs x3 = mnk_x3_costs(1);
  expect("3xTF32, 128 x 128 x 100000 added apart",
         mnk_apart_on(1, mnk_splits_on(1, 100000, 128 * 128, x3, SMS), 100000, 128 * 128, x3, SMS), 1);
  /* its lanes: 1 to 8, a power of 2, no more than the parts; 8 for one tile's 121 parts */
  for (long long results = 16384; results <= (1LL << 26); results *= 4)
    for (int live = 2; live <= MNK_MOST_PARTS; live++) {
      const int l = mnk_add_lanes(results, live, SMS);
      if (l < 1 || l > 8 || (l & (l - 1)) || (l > 1 && l > live)) {
        printf("mnk_plan: %lld results of %d parts added in %d lanes\n", results, live, l);
        bad++;
        return;
      }
    }
  expect("lanes, 128 x 128 x 100000", mnk_add_lanes(128 * 128, 121, SMS), 8);
  expect("lanes, 1024^3 in 2 parts", mnk_add_lanes(64 * 128 * 128, 2, SMS), 1);
}

/* each kernel planned at its own costs (run 98, one H100, the parts forced 1 to 32): the
   kernels that read any layout, slower a k, split where the warp-specialised ones do not
   (TF32 257^3 tight 26.2 -> 20.2 us in 5 parts apart, 550 x 171 x 287 27.0 -> 20.6; padded,
   unsplit, 19.2 and 19.2), and 3xTF32's many parts are added apart on both kernels
   (464 x 117 x 1859 in 30: tight 37.2 -> 24.1 us, padded 31.8 -> 24.8) */
static int parts_of(int x3, long long m, long long n, long long k, int ws, int *apart) {
  const long long tiles = (m + 127) / 128 * ((n + 127) / 128);
  const mnk_costs c = mnk_costs_of(x3, 128, ws);
  const int s = mnk_splits_on(tiles, k, m * n, c, SMS);
  *apart = mnk_apart_on(tiles, s, k, m * n, c, SMS);
  return s;
}
static void own_costs(void) {
  int apart;
  expect("TF32 257^3, any layout: parts", parts_of(0, 257, 257, 257, 0, &apart), 5);
  expect("TF32 257^3, any layout: apart", apart, 1);
  expect("TF32 257^3, warp-specialised: parts", parts_of(0, 257, 257, 257, 1, &apart), 1);
  expect("TF32 550 x 171 x 287, any layout: parts", parts_of(0, 550, 171, 287, 0, &apart), 5);
  expect("TF32 550 x 171 x 287, any layout: apart", apart, 1);
  expect("TF32 550 x 171 x 287, warp-specialised: parts", parts_of(0, 550, 171, 287, 1, &apart), 1);
  for (int ws = 0; ws < 2; ws++) {
    expect(ws ? "3xTF32 464 x 117 x 1859, warp-specialised: parts of 30 or more"
              : "3xTF32 464 x 117 x 1859, any layout: parts of 30 or more",
           parts_of(1, 464, 117, 1859, ws, &apart) >= 30, 1);
    expect(ws ? "3xTF32 464 x 117 x 1859, warp-specialised: apart" : "3xTF32 464 x 117 x 1859, any layout: apart",
           apart, 1);
  }
}

/* the plan's cost on the host, every call: one time estimate a candidate split (and the
   width's searches, up to three) */
static void estimates(void) {
  time_estimates = 0;
  mnk_splits_on(1, 1000000, 128 * 128, mnk_tf32_costs(128, 1), SMS);
  if (time_estimates > MNK_MOST_PARTS) {
    printf("mnk_plan: the parts of 128 x 128 x 10^6 took %lld time estimates, want %d at most\n", time_estimates,
           MNK_MOST_PARTS);
    bad++;
  }
  time_estimates = 0;
  mnk_tf32_width_on(129, 1, 1000000, SMS);
  if (time_estimates > 3 * MNK_MOST_PARTS + 3) {
    printf("mnk_plan: the width of 129 x 1 x 10^6 took %lld time estimates, want %d at most\n", time_estimates,
           3 * MNK_MOST_PARTS + 3);
    bad++;
  }
  time_estimates = 0;
  expect("width, a dot product of 10^6", mnk_tf32_width_on(1, 1, 1000000, SMS), 64);
  expect("the width of a dot product: no search", time_estimates, 0);
}

static void width(void) {
  expect("width, M = 128 (a 256-wide tile half empty)", mnk_tf32_width_on(128, 8192, 8192, SMS), 128);
  expect("width, 8192^3", mnk_tf32_width_on(8192, 8192, 8192, SMS), 256);
  expect("width, 4096^3", mnk_tf32_width_on(4096, 4096, 4096, SMS), 256);
  expect("width, 129^3 (too few wider tiles)", mnk_tf32_width_on(129, 129, 129, SMS), 64);
  /* run 108 (H100): 64 wide faster than the plan's 128 on these */
  expect("width, 384^3 (9 tiles 128 wide, 18 of 64)", mnk_tf32_width_on(384, 384, 384, SMS), 64);
  expect("width, 512^3", mnk_tf32_width_on(512, 512, 512, SMS), 64);
  expect("width, 768^3", mnk_tf32_width_on(768, 768, 768, SMS), 64);
  expect("width, 1024^3", mnk_tf32_width_on(1024, 1024, 1024, SMS), 64);
  /* run 110 (H100): 128 forced 0.83-0.85 of cuBLAS TF32 on both, the rule's 64 0.94-0.98
     and 0.90-0.97 */
  expect("width, 1000 x 100 x 300", mnk_tf32_width_on(1000, 100, 300, SMS), 64);
  expect("width, 40 x 40 x 16384", mnk_tf32_width_on(40, 40, 16384, SMS), 64);
  /* each width with its parts (run 71: both faster than the other width) */
  expect("width, 8192 x 128 x 2048 (the single wave's 2 parts)", mnk_tf32_width_on(8192, 128, 2048, SMS), 128);
  expect("width, 384 x 3000 x 3000", mnk_tf32_width_on(384, 3000, 3000, SMS), 256);
  /* run 88 (ncu): 72 tiles 256 wide unsplit 48.5 us, 144 tiles 128 wide in 8 parts 51.3 */
  expect("width, 1536^3", mnk_tf32_width_on(1536, 1536, 1536, SMS), 256);
}

/* the width among the widths a program inserted (perf_tf32.pa: 64 and 256): always one
   of them, the one of least time among them, and no search where P fits the narrowest */
static double width_time(long long n, int pt) {
  return mnk_tf32_width_time(n, n, n, pt, SMS);
}
static void width_among(void) {
  static const int sets[] = {64 + 256, 128 + 256, 64 + 128, 256, 64};
  for (int n = 64; n <= 4096; n += 96)
    for (int w : sets) {
      const int got = mnk_tf32_width_among(n, n, n, SMS, w);
      if (!(w & got)) {
        printf("mnk_plan: the width of %d^3 among %d is %d, not one of them\n", n, w, got);
        bad++;
        return;
      }
      /* every narrower width of the set was tried and is slower (a tie keeps the narrower) */
      for (int pt = 64; pt < got; pt *= 2)
        if ((w & pt) && width_time(n, pt) <= width_time(n, got)) {
          printf("mnk_plan: the width of %d^3 among %d is %d, %d is as fast\n", n, w, got, pt);
          bad++;
          return;
        }
      /* no wider width the rule tries (those of the set up to the first that holds P) is faster */
      int below = got;
      for (int pt = got * 2; pt <= 256 && n > below; pt *= 2) {
        if (!(w & pt))
          continue;
        if (width_time(n, pt) < width_time(n, got)) {
          printf("mnk_plan: the width of %d^3 among %d is %d, %d is faster\n", n, w, got, pt);
          bad++;
          return;
        }
        below = pt;
      }
    }
  expect("width of 1024^3 among 64 and 256", mnk_tf32_width_among(1024, 1024, 1024, SMS, 64 + 256), 64);
  expect("width of 2048^3 among 64 and 256", mnk_tf32_width_among(2048, 2048, 2048, SMS, 64 + 256), 256);
  /* 1200^3 takes 128 among all three; without it, the faster of the other two */
  expect("width of 1200^3", mnk_tf32_width_on(1200, 1200, 1200, SMS), 128);
  expect("width of 1200^3 among 64 and 256", mnk_tf32_width_among(1200, 1200, 1200, SMS, 64 + 256),
         width_time(1200, 64) < width_time(1200, 256) ? 64 : 256);
  time_estimates = 0;
  expect("width of 100 x 5000 x 5000 among 128 and 256", mnk_tf32_width_among(100, 5000, 5000, SMS, 128 + 256), 128);
  expect("the width of P inside the narrowest: no search", time_estimates, 0);
}

/* the shapes mnk_repack_pays's comment quotes, measured with and without the copies */
static void repack(void) {
  expect("copies pay at 777^3", mnk_repack_pays(777, 777, 777), 1);
  expect("copies pay at 2047 x 2049 x 2051", mnk_repack_pays(2047, 2049, 2051), 1);
  expect("copies pay at 2001 x 2001 x 101", mnk_repack_pays(2001, 2001, 101), 1);
  expect("copies pay at 8191 x 8191 x 127", mnk_repack_pays(8191, 8191, 127), 1);
  expect("copies pay at 513^3", mnk_repack_pays(513, 513, 513), 0);
  expect("copies pay at 387^3", mnk_repack_pays(387, 387, 387), 0);
  expect("copies pay at 301 x 301 x 5001", mnk_repack_pays(301, 301, 5001), 0);
  /* short k: C's 4e6 elements and more (run 80) */
  expect("copies pay at 8192 x 8192 x 1", mnk_repack_pays(8192, 8192, 1), 1);
  expect("copies pay at 2000 x 3000 x 9", mnk_repack_pays(2000, 3000, 9), 1);
  expect("copies pay at 2048 x 2048 x 3", mnk_repack_pays(2048, 2048, 3), 1);
  expect("copies pay at 1000 x 1000 x 1", mnk_repack_pays(1000, 1000, 1), 0);
  /* run 110: C's rows short and many, the copies small (MNK_REPACK=1 against the plan) */
  expect("B copied at 30000 x 10 x 100", mnk_short_rows_copy_pays(10, 30000 * 10, 100 * 10), 1);
  expect("B copied at 20000 x 50 x 300", mnk_short_rows_copy_pays(50, 20000 * 50, 300 * 50), 1);
  expect("B copied at 30000 x 10 x 1000", mnk_short_rows_copy_pays(10, 30000 * 10, 1000 * 10), 1);
  expect("B copied at 65536 x 7 x 64", mnk_short_rows_copy_pays(7, 65536 * 7, 64 * 7), 1);
  expect("B copied at 10000 x 10 x 100 (C of 10^5)", mnk_short_rows_copy_pays(10, 10000 * 10, 100 * 10), 0);
  expect("B copied at 4096 x 10 x 1000", mnk_short_rows_copy_pays(10, 4096 * 10, 1000 * 10), 0);
  expect("B copied at 3000 x 101 x 200 (rows of 101)", mnk_short_rows_copy_pays(101, 3000 * 101, 200 * 101), 0);
  expect("A copied at 13 x 30000 x 101 (C's rows long)", mnk_short_rows_copy_pays(30000, 13 * 30000, 13 * 101), 0);
  expect("B copied at 100000 x 10 x 10^6 (B of 10^7)", mnk_short_rows_copy_pays(10, 100000 * 10, 1000000LL * 10), 0);
  /* P alone (mnk_pcopy_pays): np x k of P, nq of Q */
  expect("P's copy pays at 127 x 8191 x 8191", mnk_pcopy_pays(127, 8191, 8191), 1);
  expect("P's copy pays at 127 x 4097 x 8191", mnk_pcopy_pays(127, 4097, 8191), 1);
  expect("P's copy pays at 8191 x 127 x 8191 (P large)", mnk_pcopy_pays(8191, 127, 8191), 0);
  expect("P's copy pays at 257^3", mnk_pcopy_pays(257, 257, 257), 0);
  expect("P's copy pays at 129^3", mnk_pcopy_pays(129, 129, 129), 0);
  /* which (mnk_copies(ws, oka, okb, pays, pcopy, rl): bit 0 A, bit 1 B) */
  expect("both mapped: no copy", mnk_copies(1, 1, 1, 1, 1, 1), 0);
  expect("no maps, both pay: both", mnk_copies(1, 0, 0, 1, 0, 1), 3);
  expect("A unmapped, both pay: A", mnk_copies(1, 0, 1, 1, 0, 1), 1);
  expect("both pay, no ws kernel: P alone", mnk_copies(0, 0, 0, 1, 1, 1), 1);
  expect("127 x 8191 x 8191 (P is A): A alone", mnk_copies(1, 0, 0, 0, 1, 1), 1);
  expect("P is B, unmapped: B alone", mnk_copies(1, 0, 0, 0, 1, 0), 2);
  expect("P's copy does not pay: none", mnk_copies(1, 0, 0, 0, 0, 1), 0);
  expect("P mapped, Q not: none (Q's copy never alone)", mnk_copies(1, 1, 0, 0, 1, 1), 0);
  /* the kernel that runs (mnk_ws_runs), whose costs plan the parts: the warp-specialised
     one where both operands have maps or copies, else the one that reads any layout */
  expect("both mapped: ws", mnk_ws_runs(1, 1, 1, mnk_copies(1, 1, 1, 1, 1, 1)), 1);
  expect("no maps, both copied: ws", mnk_ws_runs(1, 0, 0, mnk_copies(1, 0, 0, 1, 0, 1)), 1);
  expect("no maps, copies do not pay: any layout", mnk_ws_runs(1, 0, 0, mnk_copies(1, 0, 0, 0, 0, 1)), 0);
  expect("P unmapped and copied alone, Q mapped: ws", mnk_ws_runs(1, 0, 1, mnk_copies(1, 0, 1, 0, 1, 1)), 1);
  expect("P copied alone, Q unmapped: any layout", mnk_ws_runs(1, 0, 0, mnk_copies(1, 0, 0, 0, 1, 1)), 0);
  expect("ws not allowed: any layout", mnk_ws_runs(0, 1, 1, mnk_copies(0, 1, 1, 1, 1, 1)), 0);
  expect("Q mapped, P not: P (then the ws kernel)", mnk_copies(1, 0, 1, 0, 1, 1), 1);
  expect("copies pay at 127 x 8191 x 8191", mnk_repack_pays(127, 8191, 8191), 0);
  /* one kernel for both copies (mnk_copy_both): both copied, 2M floats at most (run 100:
     1001^3's 2.05M gained, 1000 x 3000 x 777's 3.14M lost) */
  expect("both copied, 385 x 10397 x 63: one kernel", mnk_copy_both(3, 385 * 64 + 63 * 10400), 1);
  expect("both copied, 1001^3: one kernel", mnk_copy_both(3, 2 * 1001 * 1024), 1);
  expect("both copied, 2M floats: one kernel", mnk_copy_both(3, MNK_COPY_BOTH_MAX), 1);
  expect("both copied, past 2M floats: two", mnk_copy_both(3, MNK_COPY_BOTH_MAX + 1), 0);
  expect("both copied, 1000 x 3000 x 777: two", mnk_copy_both(3, 1000 * 800 + 777 * 3008), 0);
  expect("A alone: its #copy", mnk_copy_both(1, 1000), 0);
  expect("B alone: its #copy", mnk_copy_both(2, 1000), 0);
  expect("no copies", mnk_copy_both(0, 0), 0);
}

/* where a short k leaves the tensor cores for shortk.pah's MNK_SHORTK (runs 102, 103):
   TF32 k up to 20 at any size, up to 24 while C has at most 2^24 elements, up to 32
   while it has at most 2^23; 3xTF32 k up to 32 at any size; never past MNK_SHORTK_MAX
   (the kernel's registers) */
static void shortk(void) {
  expect("short k: 2000 x 3000 x 9", mnk_shortk_pays(2000, 3000, 9, 0), 1);
  expect("short k: 8192 x 8192 x 1", mnk_shortk_pays(8192, 8192, 1, 0), 1);
  expect("short k: 8192 x 8192 x 20", mnk_shortk_pays(8192, 8192, 20, 0), 1);
  expect("short k: 4096 x 4096 x 24", mnk_shortk_pays(4096, 4096, 24, 0), 1);
  expect("short k: 4096 x 4096 x 28", mnk_shortk_pays(4096, 4096, 28, 0), 0);
  expect("short k: 4096 x 4096 x 32", mnk_shortk_pays(4096, 4096, 32, 0), 0);
  expect("short k: 3000 x 3000 x 24", mnk_shortk_pays(3000, 3000, 24, 0), 1);
  expect("short k: 2896 x 2896 x 25", mnk_shortk_pays(2896, 2896, 25, 0), 1);
  expect("short k: 2897 x 2896 x 25", mnk_shortk_pays(2897, 2896, 25, 0), 0);
  expect("short k: 2000 x 3000 x 32", mnk_shortk_pays(2000, 3000, 32, 0), 1);
  expect("short k: 724 x 724 x 32", mnk_shortk_pays(724, 724, 32, 0), 1);
  expect("short k: 8192 x 8192 x 24", mnk_shortk_pays(8192, 8192, 24, 0), 0);
  expect("short k: 4097 x 4096 x 21", mnk_shortk_pays(4097, 4096, 21, 0), 0);
  expect("short k: 3xTF32 8192 x 8192 x 32", mnk_shortk_pays(8192, 8192, 32, 1), 1);
  expect("short k: 100 x 100 x 33", mnk_shortk_pays(100, 100, MNK_SHORTK_MAX + 1, 0), 0);
  expect("short k: 3xTF32 100 x 100 x 33", mnk_shortk_pays(100, 100, MNK_SHORTK_MAX + 1, 1), 0);
  for (int x3 = 0; x3 < 2; x3++)
    for (long long m = 1; m <= 1LL << 16; m *= 4)
      for (long long k = 1; k <= 64; k++)
        if (mnk_shortk_pays(m, m, k, x3) && k > MNK_SHORTK_MAX) {
          printf("mnk_plan: %lld x %lld x %lld short, past MNK_SHORTK_MAX\n", m, m, k);
          bad++;
        }
}

/* where a small product of a longer k leaves the tensor cores for shortk.pah's
   shortk_long (run 105), M x N x K with C row-major (N along its lanes): up to 5 of a
   group's chunks of its part of k for TF32, 7 for 3xTF32, 2^25 multiply-adds, one wave
   of blocks (4 groups along k, 64 lanes, one block a multiprocessor where that is a
   wave; else one group, 256 lanes, two blocks; k in parts across blocks where a group
   would have more than 2 chunks, run 106, up to a wave of blocks, run 107); past those
   bounds, up to as many chunks a group as the tensor cores' blocks would walk slices
   where their 128 parts at most leave a long k of few tiles (run 107) */
static void small(void) {
  /* mnk_small_pays_on(NF, NS, K, X3): taken or not, and why */
  static const struct {
    const char *what;
    long long nf, ns, k;
    int x3, pays;
  } cases[] = {
      {"100 x 130 x 77", 130, 100, 77, 0, 1},
      {"10 x 1042 x 158", 1042, 10, 158, 0, 1},
      {"3xTF32 10 x 1042 x 158", 1042, 10, 158, 1, 1},
      {"129^3", 129, 129, 129, 0, 1},
      {"200^3, 2 chunks a group", 200, 200, 200, 0, 1},
      {"16 x 2048 x 256, 2 chunks a group", 2048, 16, 256, 1, 1},
      {"16 x 2048 x 256 column-major, 8 chunks", 16, 2048, 256, 1, 0},
      {"512 x 512 x 128", 512, 512, 128, 0, 1},
      {"700 x 700 x 40", 700, 700, 40, 0, 1},
      {"1000 x 40 x 100", 40, 1000, 100, 0, 1},
      {"64 x 64 x 1024 (2 chunks a group)", 64, 64, 1024, 0, 1},
      {"48 x 48 x 4096 (2 chunks a group)", 48, 48, 4096, 0, 1},
      {"1000 x 100 x 300 (10 chunks a group)", 100, 1000, 300, 0, 0},
      {"100 x 100 x 3000 (5 chunks a group of 5 parts)", 100, 100, 3000, 0, 0},
      {"3xTF32 100 x 100 x 3000", 100, 100, 3000, 1, 1},
      {"32 x 32 x 8192 (2 chunks a group of 32 parts)", 32, 32, 8192, 0, 1},
      {"20 x 20 x 20000 (4 chunks a group of 44 parts)", 20, 20, 20000, 0, 1},
      {"1 x 1 x 10^6 (62 chunks a group, the tensor cores' 245 slices a block)", 1, 1, 1000000, 1, 1},
      {"16 x 16 x 50000 (6 chunks a group, the tensor cores' 13 slices)", 16, 16, 50000, 0, 1},
      {"40 x 40 x 16384 (5 chunks a group, the tensor cores' 4 slices)", 40, 40, 16384, 0, 0},
      {"3xTF32 40 x 40 x 16384 (5 chunks a group of 26 parts)", 40, 40, 16384, 1, 1},
      {"3xTF32 30 x 30 x 30000 (8 chunks a group, the tensor cores' 8 slices)", 30, 30, 30000, 1, 1},
      {"700 x 700 x 100 (past 2^25)", 700, 700, 100, 1, 0},
      {"1000 x 1000 x 40 (500 blocks)", 1000, 1000, 40, 1, 0},
      {"30000 x 10 x 100 (3750 blocks)", 10, 30000, 100, 1, 0},
      /* run 110 (H100, the override against the plan): shortk_long at 30000 x 10 x 100
         0.17-0.21 of cuBLAS TF32 (the tensor cores 0.64-0.71); the tensor cores at
         12 x 12 x 100000 0.55-0.61 (shortk_long 0.74-0.80) */
      {"30000 x 10 x 100", 10, 30000, 100, 0, 0},
      {"12 x 12 x 100000", 12, 12, 100000, 0, 1},
      {"100 x 100 x 32 (short k)", 100, 100, MNK_SHORTK_MAX, 1, 0},
      {"4096^3", 4096, 4096, 4096, 1, 0}};
  for (const auto &c : cases) {
    char what[160];
    snprintf(what, sizeof what, "small: %s", c.what);
    expect(what, mnk_small_pays_on(c.nf, c.ns, c.k, c.x3, SMS), c.pays);
  }
  expect("small: 100 x 130 x 77, 4 groups", mnk_small_groups(130, 100, SMS), MNK_SHORTK_GROUPS);
  expect("small: 512 x 512 x 128, one group", mnk_small_groups(512, 512, SMS), 1);
  expect("small: 64 x 64 x 1024, 4 parts of k", mnk_small_parts(64, 64, 1024, SMS), 4);
  expect("small: 48 x 48 x 4096, 16 parts", mnk_small_parts(48, 48, 4096, SMS), 16);
  expect("small: 32 x 32 x 8192, 32 parts", mnk_small_parts(32, 32, 8192, SMS), 32);
  expect("small: 20 x 20 x 20000, a wave of parts", mnk_small_parts(20, 20, 20000, SMS), SMS / 3);
  expect("small: 1000 x 100 x 300, one group, k whole", mnk_small_parts(100, 1000, 300, SMS), 1);
  expect("small: 128 x 128 x 640, 3 parts", mnk_small_parts(128, 128, 640, SMS), 3);
  expect("small: 200^3, k whole", mnk_small_parts(200, 200, 200, SMS), 1);
  expect("small: C empty, k whole", mnk_small_parts(0, 100, 1000, SMS), 1);
  /* samples/perf_shapes.pa's check reaches shortk_long through these (its comment says so;
     C row-major, N along the lanes) */
  for (int x3 = 0; x3 < 2; x3++) {
    expect("small: perf_shapes' 257 x 129 x 33", mnk_small_pays_on(129, 257, 33, x3, SMS), 1);
    expect("small: perf_shapes' 1000 x 300 x 64", mnk_small_pays_on(300, 1000, 64, x3, SMS), 1);
    expect("small: perf_shapes' 129 x 257 x 65 (shifted)", mnk_small_pays_on(257, 129, 65, x3, SMS), 1);
  }
  expect("small: perf_shapes' 257 x 129 x 33, 4 groups", mnk_small_groups(129, 257, SMS), MNK_SHORTK_GROUPS);
  expect("small: perf_shapes' 1000 x 300 x 64, one group", mnk_small_groups(300, 1000, SMS), 1);
  expect("small: perf_shapes' 9 x 2000 x 300", mnk_small_pays_on(2000, 9, 300, 0, SMS), 1);
  expect("small: perf_shapes' 9 x 2000 x 300, 2 parts", mnk_small_parts(2000, 9, 300, SMS), 2);
  expect("small: perf_shapes' 20 x 20 x 20000", mnk_small_pays_on(20, 20, 20000, 0, SMS), 1);
  expect("small: perf_shapes' 20 x 20 x 20000, parts in groups", mnk_small_parts(20, 20, 20000, SMS) > 16, 1);
  for (long long nf = 1; nf <= 4096; nf = nf * 3 + 1)
    for (long long ns = 1; ns <= 4096; ns = ns * 3 + 1) {
      const int g = mnk_small_groups(nf, ns, SMS);
      for (long long k = 33; k <= 100000; k *= 3) {
        const long long blocks = mnk_small_blocks(nf, ns, g) * mnk_small_parts(nf, ns, k, SMS);
        if (mnk_small_pays_on(nf, ns, k, 1, SMS) && blocks > (g > 1 ? 1 : 2) * SMS) {
          printf("mnk_plan: small %lld x %lld x %lld: %lld blocks of %d groups, past a wave\n", ns, nf, k, blocks, g);
          bad++;
        }
      }
    }
}

/* the thin kernel's grid: every part with k, the parts covering k, one wave of 4 blocks a
   multiprocessor at most (unless a part would be under 8 k a lane, or one part), a
   group's lanes each with 8 k or more; and where it runs (run 84) */
static void thin(void) {
  static const long long shapes[][2] = {{8192, 8192}, {1, 1000000}, {3, 100000}, {4097, 3}, {8192, 1},
                                        {100000, 100}, {64, 100000}, {1, 1},     {5, 7}};
  for (const auto &sh : shapes)
    for (int kfast = 0; kfast < 2; kfast++)
      for (int sms = 0; sms <= SMS; sms += SMS)
        for (int ns = 1; ns <= MNK_THIN_MAX; ns++) {
          const long long w = sh[0], k = sh[1];
          const mnk_thin_grid g = mnk_thin_grid_on(w, k, kfast, ns, sms);
          const long long wblocks = (w + 256 / g.group - 1) / (256 / g.group);
          const int ok = g.parts >= 1 && g.parts <= 128 && (long long)(g.parts - 1) * g.span < k &&
                         (long long)g.parts * g.span >= k && g.blocks == wblocks * g.parts &&
                         (sms > 0 || g.parts == 1) && (g.parts == 1 || g.blocks <= 4LL * sms) &&
                         (kfast || g.group == 1) && g.group >= 1 && g.group <= 256 &&
                         (g.group == 1 || g.group * mnk_thin_klane(ns, k) / 2 < k) &&
                         (g.steps == 8 ? g.group == 1 || g.span >= 64LL * g.group : g.steps == 4 && g.group > 1);
          if (!ok) {
            printf("mnk_plan: thin grid of %lld rows, k = %lld (kfast %d, %d rows, %d sms): group %d, %d parts of %lld, "
                   "%lld blocks, %d steps\n", w, k, kfast, ns, sms, g.group, g.parts, g.span, g.blocks, g.steps);
            bad++;
          }
        }
  expect("thin parts, k = 0 (C = 0)", mnk_thin_grid_on(1000, 0, 1, 2, SMS).parts, 1);
  expect("thin blocks, k = 0", mnk_thin_grid_on(1000, 0, 0, 2, SMS).blocks, 4);
  expect("thin group, a dot product's one row (k = 10^6)", mnk_thin_grid_on(1, 1000000, 1, 2, SMS).group, 256);
  expect("thin group, along the rows", mnk_thin_grid_on(8192, 8192, 0, 2, SMS).group, 1);
  expect("thin group, k = 100", mnk_thin_grid_on(8192, 100, 1, 2, SMS).group, 16);
  expect("thin group, k = 100, one row (32 k a lane)", mnk_thin_grid_on(8192, 100, 1, 1, SMS).group, 4);
  expect("thin group, 8192 rows of k = 8192 (a warp a row)", mnk_thin_grid_on(8192, 8192, 1, 2, SMS).group, 32);
  expect("thin group, 7 rows of k = 8192 (the block)", mnk_thin_grid_on(7, 8192, 1, 2, SMS).group, 256);
  expect("thin parts, 1 x 8192 x 8192 (32 blocks of rows, 512 blocks)", mnk_thin_grid_on(8192, 8192, 0, 2, SMS).parts,
         16);
  expect("thin parts, 8 x 2048 x 2048 (under 2^23 elements: 2 blocks a multiprocessor)",
         mnk_thin_grid_on(2048, 2048, 0, 2, SMS).parts, 2 * SMS / 8);
  expect("thin parts, 8 x 4096 x 4096 (2^24 elements: 4 blocks a multiprocessor)",
         mnk_thin_grid_on(4096, 4096, 0, 2, SMS).parts, 4 * SMS / 16);
  expect("thin blocks, 64 x 2 x 100000 (along k: 4 blocks a multiprocessor)",
         mnk_thin_grid_on(64, 100000, 1, 2, SMS).blocks, 4 * SMS / 8 * 8);
  expect("thin steps, a lane a row", mnk_thin_grid_on(8192, 8192, 0, 2, SMS).steps, 8);
  expect("thin steps, 20000 x 1 x 5000 (156 k a lane)", mnk_thin_grid_on(20000, 5000, 1, 2, SMS).steps, 8);
  expect("thin steps, 100000 x 1 x 100 (7 k a lane)", mnk_thin_grid_on(100000, 100, 1, 2, SMS).steps, 4);
  expect("thin steps, a dot product of 10^6 (31 k a lane)", mnk_thin_grid_on(1, 1000000, 1, 2, SMS).steps, 4);
  /* where it stages the other operand (ns, group, ostep) */
  expect("thin 4 k at once: one row, contiguous along k", mnk_thin_vector_on(1, 1000, 1000, 1, 32, 0), 1);
  expect("thin 4 k at once: k in runs (Fig 18a's strips)", mnk_thin_vector_on(1, 250, 1000, 1, 32, 0), 0);
  expect("thin 4 k at once: k strided", mnk_thin_vector_on(1000, 1000, 1000, 1, 32, 0), 0);
  expect("thin 4 k at once: two rows", mnk_thin_vector_on(1, 1000, 1000, 2, 32, 0), 0);
  expect("thin 4 k at once: staged", mnk_thin_vector_on(1, 1000, 1000, 1, 32, 1), 0);
  expect("thin 4 k at once: a lane a row", mnk_thin_vector_on(1, 1000, 1000, 1, 1, 0), 0);
  expect("thin stages: 3 rows, a lane a row", mnk_thin_stages(3, 1, 1), 1);
  expect("thin stages: 2 rows, a lane a row", mnk_thin_stages(2, 1, 1), 0);
  expect("thin stages: a padded column along k, a warp a row", mnk_thin_stages(1, 32, 32), 1);
  expect("thin stages: a dense column along k", mnk_thin_stages(1, 32, 1), 0);
  expect("thin stages: a padded column, one row a block", mnk_thin_stages(1, 256, 32), 0);
  /* where MNK_THIN runs (ns, nw, nk, kfast, ostep, x3) */
  expect("thin: a dot product", mnk_thin_pays(1, 1, 1000000, 1, 1, 0, 0, 0), 1);
  expect("thin: 64 x 2 x 100000", mnk_thin_pays(2, 64, 100000, 1, 2, 0, 0, 0), 1);
  expect("thin: 3 x 3, padded", mnk_thin_pays(3, 3, 100000, 1, 32, 0, 0, 0), 1);
  expect("thin: 1 x 8192 x 8192 (along the rows)", mnk_thin_pays(1, 8192, 8192, 0, 1, 0, 0, 0), 1);
  /* run 110 (H100): along the rows TF32's tensor cores beat MNK_THIN from two rows,
     3xTF32's up to W K of 2^23 */
  expect("thin: 4 x 8192 x 8192, TF32", mnk_thin_pays(4, 8192, 8192, 0, 1, 0, 0, 0), 0);
  expect("thin: 2 x 1024 x 1024, TF32", mnk_thin_pays(2, 1024, 1024, 0, 1, 0, 0, 0), 0);
  expect("thin: 8 x 4096 x 4096, 3xTF32", mnk_thin_pays(8, 4096, 4096, 0, 1, 1, 0, 0), 1);
  expect("thin: 8 x 8192 x 1024, 3xTF32", mnk_thin_pays(8, 8192, 1024, 0, 1, 1, 0, 0), 1);
  expect("thin: 8 x 4096 x 512, 3xTF32", mnk_thin_pays(8, 4096, 512, 0, 1, 1, 0, 0), 0);
  expect("thin: 8 x 2048 x 2048, 3xTF32", mnk_thin_pays(8, 2048, 2048, 0, 1, 1, 0, 0), 0);
  expect("thin: 8 x 8192 x 8192, TF32", mnk_thin_pays(8, 8192, 8192, 0, 1, 0, 0, 0), 0);
  expect("thin: 8 x 4096 x 512, TF32", mnk_thin_pays(8, 4096, 512, 0, 1, 0, 0, 0), 0);
  expect("thin: 8192 x 1 x 8192 (along k)", mnk_thin_pays(1, 8192, 8192, 1, 1, 0, 0, 0), 1);
  expect("thin: 8192 x 3 x 8192 (along k)", mnk_thin_pays(3, 8192, 8192, 1, 3, 0, 0, 0), 1);
  expect("thin: 8192 x 1 x 8192, B padded, TF32", mnk_thin_pays(1, 8192, 8192, 1, 32, 0, 0, 0), 0);
  expect("thin: 8192 x 1 x 8192, B padded, 3xTF32", mnk_thin_pays(1, 8192, 8192, 1, 32, 1, 0, 0), 1);
  expect("thin: 1024 x 3 x 4096, B padded, TF32", mnk_thin_pays(3, 1024, 4096, 1, 32, 0, 0, 0), 1);
  expect("thin: 8192 x 4 x 4096, B padded, 3xTF32", mnk_thin_pays(4, 8192, 4096, 1, 32, 1, 0, 0), 0);
  expect("thin: 8192 x 4 x 1000", mnk_thin_pays(4, 8192, 1000, 1, 4, 0, 0, 0), 0);
  /* run 111: 4 to 8 rows along k where k is short */
  expect("thin: 30000 x 6 x 100, TF32", mnk_thin_pays(6, 30000, 100, 1, 6, 0, 0, 0), 1);
  expect("thin: 100000 x 4 x 100, 3xTF32", mnk_thin_pays(4, 100000, 100, 1, 4, 1, 0, 0), 1);
  expect("thin: 65536 x 7 x 64, B padded, TF32", mnk_thin_pays(7, 65536, 64, 1, 32, 0, 0, 0), 1);
  expect("thin: 50000 x 8 x 200, 3xTF32", mnk_thin_pays(8, 50000, 200, 1, 8, 1, 0, 0), 1);
  expect("thin: 20000 x 8 x 256, 3xTF32", mnk_thin_pays(8, 20000, 256, 1, 8, 1, 0, 0), 1);
  expect("thin: 50000 x 8 x 200, TF32", mnk_thin_pays(8, 50000, 200, 1, 8, 0, 0, 0), 0);
  expect("thin: 50000 x 8 x 200, B padded, 3xTF32", mnk_thin_pays(8, 50000, 200, 1, 32, 1, 0, 0), 0);
  expect("thin: 8192 x 8 x 1000, 3xTF32", mnk_thin_pays(8, 8192, 1000, 1, 8, 1, 0, 0), 0);
  expect("thin: 4096 x 8 x 4096, TF32", mnk_thin_pays(8, 4096, 4096, 1, 8, 0, 0, 0), 0);
  expect("thin: 1000 x 8 x 100 (a small wide operand)", mnk_thin_pays(8, 1000, 100, 1, 8, 1, 0, 0), 0);
  expect("thin: 2000 x 5 x 100, TF32", mnk_thin_pays(5, 2000, 100, 1, 5, 0, 0, 0), 1);
  expect("thin: 20000 x 4 x 100, TF32", mnk_thin_pays(4, 20000, 100, 1, 4, 0, 0, 0), 1);
  expect("thin k a lane: 2 rows", mnk_thin_klane(2, 100), 8);
  expect("thin k a lane: 4 rows", mnk_thin_klane(4, 100), 32);
  expect("thin group, 50000 x 8 x 16 (2 lanes, not staged)", mnk_thin_grid_on(50000, 16, 1, 8, SMS).group, 2);
  expect("thin group, 30000 x 6 x 100 (4 lanes of 25 k)", mnk_thin_grid_on(30000, 100, 1, 6, SMS).group, 4);
  /* (ns, nk, sstep, srun, ostep, krun, at) */
  expect("thin other rows 4 at once: 8, tight", mnk_thin_other_rows4(8, 4096, 1, 8, 8, 4096, 4096), 1);
  expect("thin other rows 4 at once: 6, tight (24 bytes from k to k)",
         mnk_thin_other_rows4(6, 4096, 1, 6, 6, 4096, 4096), 0);
  expect("thin other rows 4 at once: 8, 32 floats apart", mnk_thin_other_rows4(8, 4096, 1, 8, 32, 4096, 4096), 1);
  expect("thin other rows 4 at once: 8, not aligned", mnk_thin_other_rows4(8, 4096, 1, 8, 8, 4096, 4100), 0);
  expect("thin other rows 4 at once: 8, strided", mnk_thin_other_rows4(8, 4096, 1000, 8, 8, 4096, 4096), 0);
  expect("thin other rows 4 at once: 3", mnk_thin_other_rows4(3, 4096, 1, 3, 4, 4096, 4096), 0);
  expect("thin other rows 4 at once: 8 in runs of 4 (a blocked row)",
         mnk_thin_other_rows4(8, 4096, 1, 4, 8, 4096, 4096), 0);
  expect("thin other rows 4 at once: k in runs of 100 (blocked along k)",
         mnk_thin_other_rows4(8, 4096, 1, 8, 8, 100, 4096), 0);
  expect("thin other rows 4 at once: run unknown ($run$ 0)", mnk_thin_other_rows4(8, 4096, 1, 8, 8, 0, 4096), 0);
  expect("thin other rows 4 at once: one k", mnk_thin_other_rows4(8, 1, 1, 8, 0, 0, 4096), 1);
  expect("thin other 4 at once: along k", mnk_thin_other_vector_on(1, 32, 0), 1);
  expect("thin other 4 at once: staged", mnk_thin_other_vector_on(1, 32, 1), 0);
  expect("thin other 4 at once: a lane a row", mnk_thin_other_vector_on(1, 1, 0), 0);
  expect("thin lane pairs: 8 rows along k", mnk_thin_other_pairs_on(1, 8, 32), 1);
  expect("thin lane pairs: 8 rows, 16 lanes a row (each lane's k doubled)", mnk_thin_other_pairs_on(1, 8, 16), 0);
  expect("thin lane pairs: 8 rows, 64 lanes a row", mnk_thin_other_pairs_on(1, 8, 64), 1);
  expect("thin lane pairs: 4 rows (one load a k already)", mnk_thin_other_pairs_on(1, 4, 32), 0);
  expect("thin lane pairs: 6 rows", mnk_thin_other_pairs_on(1, 6, 32), 0);
  expect("thin lane pairs: not 4 at once", mnk_thin_other_pairs_on(0, 8, 32), 0);
  /* run 111: 4 and 8 rows read 4 at once along a longer k */
  expect("thin: 4096 x 8 x 4096, rows 4 at once, TF32", mnk_thin_pays(8, 4096, 4096, 1, 8, 0, 1, 0), 1);
  expect("thin: 8192 x 4 x 4096, rows 4 at once, TF32", mnk_thin_pays(4, 8192, 4096, 1, 4, 0, 1, 0), 1);
  expect("thin: 8192 x 8 x 1000, rows 4 at once, TF32", mnk_thin_pays(8, 8192, 1000, 1, 8, 0, 1, 0), 0);
  expect("thin: 8192 x 8 x 1000, rows 4 at once, 3xTF32", mnk_thin_pays(8, 8192, 1000, 1, 8, 1, 1, 0), 1);
  expect("thin: 16384 x 8 x 2048, rows 4 at once (2^25)", mnk_thin_pays(8, 16384, 2048, 1, 8, 1, 1, 0), 0);
  expect("thin: 4096 x 8 x 4096, B padded (staged)", mnk_thin_pays(8, 4096, 4096, 1, 32, 1, 1, 0), 0);
  expect("thin: nine rows", mnk_thin_pays(9, 9, 9, 1, 1, 0, 0, 0), 0);
  expect("thin: 100000 x 3 x 5, TF32 (a short k)", mnk_thin_pays(3, 100000, 5, 1, 3, 0, 0, 0), 1);
  expect("thin: 50000 x 8 x 16, 3xTF32 (a short k)", mnk_thin_pays(8, 50000, 16, 1, 8, 1, 0, 0), 1);
  expect("thin: 8192 x 1 x 100", mnk_thin_pays(1, 8192, 100, 1, 1, 0, 0, 0), 1);
}

/* the k that a row's lanes add where they read it 4 k at once (mnk_thin_row_walk): every
   k of the part once, each 4 whole and on 16 bytes, for groups of 1 to 256 lanes, the 4
   alignments of the part's first float and every part of up to 300 k (run 96: a group of
   2 lanes left a k out). The walk's ONE and FOUR count into SEEN (__host__ __device__, as
   the walk calls them; they run on the CPU only) */
enum { WALK_KMAX = 300 };
struct walk_count {
  int *seen, *astray, k0, k1;
  unsigned long long at; /* the address of the part's first float */
  __host__ __device__ void count(int k, int n) const {
    if (k < k0 || k + n > k1 || (n == 4 && (at + 4 * (k - k0)) % 16 != 0))
      ++*astray;
    else
      for (int j = 0; j < n; j++)
        seen[k + j]++;
  }
};
struct walk_one {
  walk_count c;
  __host__ __device__ void operator()(int k) const { c.count(k, 1); }
};
struct walk_four {
  walk_count c;
  __host__ __device__ void operator()(int k) const { c.count(k, 4); }
};
static void row_walk(void) {
  for (int group = 1; group <= 256; group *= 2)
    for (int align = 0; align < 4; align++)
      for (int k0 = 0; k0 < 8; k0++)
        for (int k1 = k0; k1 <= WALK_KMAX; k1++) {
          int seen[WALK_KMAX] = {0}, astray = 0;
          const walk_count c = {seen, &astray, k0, k1, 16 * 1000 + 4 * (unsigned)align};
          for (int lane = 0; lane < group; lane++)
            mnk_thin_row_walk<4>(c.at, k0, k1, lane, group, walk_one{c}, walk_four{c});
          int once = 1;
          for (int k = k0; k < k1; k++)
            once = once && seen[k] == 1;
          if (!once || astray) {
            printf("mnk_plan: a row read 4 k at once, k %d to %d, %d lanes, its first float %d bytes past 16: %s\n", k0,
                   k1, group, 4 * align, astray ? "a k outside the part or a 4 off 16 bytes" : "a k not added once");
            bad++;
            return;
          }
        }
}

/* the k and halves that lane pairs take where they share each k of 8 rows
   (mnk_thin_pair_walk): every k of the part once for each half, for groups of 2 to 256
   lanes and every part of up to 300 k */
struct pair_count {
  int (*seen)[2], *astray, k0, k1;
  __host__ __device__ void operator()(int k, int half) const {
    if (k < k0 || k >= k1 || half < 0 || half > 1)
      ++*astray;
    else
      seen[k][half]++;
  }
};
static void pair_walk(void) {
  for (int group = 2; group <= 256; group *= 2)
    for (int k0 = 0; k0 < 8; k0++)
      for (int k1 = k0; k1 <= WALK_KMAX; k1++) {
        int seen[WALK_KMAX][2] = {{0}}, astray = 0;
        for (int lane = 0; lane < group; lane++)
          mnk_thin_pair_walk<4>(k0, k1, lane, group, pair_count{seen, &astray, k0, k1});
        int once = 1;
        for (int k = k0; k < k1; k++)
          once = once && seen[k][0] == 1 && seen[k][1] == 1;
        if (!once || astray) {
          printf("mnk_plan: lane pairs, k %d to %d, %d lanes: %s\n", k0, k1, group,
                 astray ? "a k outside the part" : "a k and half not taken once");
          bad++;
          return;
        }
      }
}

/* the quads' reads (mnk_thin_quads_on, mnk_thin_quad_grid): where they run; their grid as
   every thin grid (8 lanes a row, 4 loads in flight); their stage (mnk_thin_quad_at,
   mnk_thin_quad_kc): each k's rows inside the stage of thin.pah's 4096 floats, apart from
   every other k's, each 4 on 16 bytes, and the 16 bytes that a group's 8 lanes read at
   once, each at its own 4 k (for each first k the walk's head leaves, each of the 4 k and
   each 4 rows), in 8 different banks' 16 bytes of the 128 that shared memory serves at
   once */
static void quads(void) {
  /* kstep, krun, nk, nw, ns, ostep, rows4 */
  expect("quads: 4096 x 8 x 4096, tight", mnk_thin_quads_on(1, 4096, 4096, 4096, 8, 8, 1), 1);
  expect("quads: 4096 x 6 x 4096, padded", mnk_thin_quads_on(1, 4096, 4096, 4096, 6, 32, 1), 1);
  expect("quads: 50000 x 8 x 300", mnk_thin_quads_on(1, 300, 300, 50000, 8, 8, 1), 1);
  expect("quads: 20000 x 8 x 256, padded", mnk_thin_quads_on(1, 256, 256, 20000, 8, 32, 1), 1);
  expect("quads: 100000 x 8 x 100 (a short k)", mnk_thin_quads_on(1, 100, 100, 100000, 8, 8, 1), 0);
  expect("quads: 8192 x 4 x 300, padded (4 rows from k over 512)", mnk_thin_quads_on(1, 300, 300, 8192, 4, 32, 1), 0);
  expect("quads: k in runs (Fig 18a's strips)", mnk_thin_quads_on(1, 250, 1000, 8192, 8, 8, 1), 0);
  expect("quads: k strided", mnk_thin_quads_on(4096, 4096, 4096, 4096, 8, 8, 1), 0);
  expect("quads: the other's rows one at a time", mnk_thin_quads_on(1, 4096, 4096, 4096, 8, 8, 0), 0);
  expect("quads: 4 rows (lane pairs faster)", mnk_thin_quads_on(1, 4096, 4096, 8192, 4, 4, 1), 0);
  expect("quads: 4 rows, padded", mnk_thin_quads_on(1, 8192, 8192, 4096, 4, 32, 1), 1);
  expect("quads: 500 x 8 x 2101, tight (2^20)", mnk_thin_quads_on(1, 2101, 2101, 500, 8, 8, 1), 0);
  expect("quads: 500 x 8 x 2101, padded", mnk_thin_quads_on(1, 2101, 2101, 500, 8, 32, 1), 1);
  expect("quads: 1000 x 8 x 4096, tight", mnk_thin_quads_on(1, 4096, 4096, 1000, 8, 8, 1), 1);
  expect("quads: 1000 x 8 x 2000, tight (under 2^21)", mnk_thin_quads_on(1, 2000, 2000, 1000, 8, 8, 1), 0);
  /* where they pay against the tensor cores (ns, nw, nk, kfast, ostep, x3, rows4, quads) */
  expect("thin, quads: 16384 x 8 x 2048, TF32 (2^25)", mnk_thin_pays(8, 16384, 2048, 1, 8, 0, 1, 1), 1);
  expect("thin, quads: 8192 x 8 x 8192, TF32", mnk_thin_pays(8, 8192, 8192, 1, 8, 0, 1, 1), 0);
  expect("thin, quads: 8192 x 8 x 8192, 3xTF32", mnk_thin_pays(8, 8192, 8192, 1, 8, 1, 1, 1), 1);
  expect("thin, quads: 8192 x 8 x 1000, TF32", mnk_thin_pays(8, 8192, 1000, 1, 8, 0, 1, 1), 1);
  expect("thin, quads: 8192 x 8 x 1000, padded, TF32", mnk_thin_pays(8, 8192, 1000, 1, 32, 0, 1, 1), 0);
  expect("thin, quads: 8192 x 8 x 1000, padded, 3xTF32", mnk_thin_pays(8, 8192, 1000, 1, 32, 1, 1, 1), 1);
  expect("thin, quads: 4096 x 8 x 4096, padded, TF32", mnk_thin_pays(8, 4096, 4096, 1, 32, 0, 1, 1), 1);
  expect("thin, quads: 500 x 8 x 2101, padded, TF32", mnk_thin_pays(8, 500, 2101, 1, 32, 0, 1, 1), 1);
  expect("thin, quads: 3000 x 4 x 2000, padded, TF32", mnk_thin_pays(4, 3000, 2000, 1, 32, 0, 1, 1), 1);
  expect("thin, quads: 50000 x 8 x 300, TF32", mnk_thin_pays(8, 50000, 300, 1, 8, 0, 1, 1), 1);
  expect("thin, quads: 50000 x 8 x 300, padded, TF32", mnk_thin_pays(8, 50000, 300, 1, 32, 0, 1, 1), 0);
  expect("thin, quads: 20000 x 8 x 256, padded, 3xTF32", mnk_thin_pays(8, 20000, 256, 1, 32, 1, 1, 1), 1);
  expect("thin, quads: 8192 x 4 x 4096, padded, TF32 (2^25)", mnk_thin_pays(4, 8192, 4096, 1, 32, 0, 1, 1), 1);
  static const long long shapes[][2] = {{4096, 4096}, {1000, 4096}, {8192, 8192}, {7, 100000}, {100000, 513}};
  for (const auto &sh : shapes)
    for (int sms = 0; sms <= SMS; sms += SMS) {
      const long long w = sh[0], k = sh[1];
      const mnk_thin_grid g = mnk_thin_quad_grid(w, k, sms, mnk_thin_blocks_sm(w, k, 1));
      const long long wblocks = (w + 256 / MNK_THIN_QUAD_GROUP - 1) / (256 / MNK_THIN_QUAD_GROUP);
      if (g.group != MNK_THIN_QUAD_GROUP || g.steps != 4 || g.parts < 1 || (long long)(g.parts - 1) * g.span >= k ||
          (long long)g.parts * g.span < k || g.blocks != wblocks * g.parts || (sms == 0 && g.parts != 1) ||
          (g.parts > 1 && g.blocks > 4LL * sms)) {
        printf("mnk_plan: the quads' grid of %lld rows, k = %lld (%d sms): group %d, %d parts of %lld, %lld blocks, "
               "%d steps\n", w, k, sms, g.group, g.parts, g.span, g.blocks, g.steps);
        bad++;
      }
    }
  expect("quads' parts, 4096 x 8 x 4096 (128 blocks of rows)", mnk_thin_quad_grid(4096, 4096, SMS, 4).parts, 4);
  for (int sp = 4; sp <= 8; sp += 4) {
    const int kc = mnk_thin_quad_kc(sp, 4096);
    expect("quads' chunk, a multiple of a group's 4 k", kc % (4 * MNK_THIN_QUAD_GROUP), 0);
    expect("quads' chunk inside the stage", mnk_thin_quad_at(kc - 1, sp - 1, sp) < 4096, 1);
    expect("quads' chunk, the most the stage holds", mnk_thin_quad_at(kc + 4 * MNK_THIN_QUAD_GROUP - 1, sp - 1, sp) >= 4096, 1);
    for (int kk = 0; kk < kc; kk++)
      if (mnk_thin_quad_at(kk, 0, sp) % 4 != 0 ||
          (kk > 0 && mnk_thin_quad_at(kk, 0, sp) <= mnk_thin_quad_at(kk - 1, sp - 1, sp))) {
        printf("mnk_plan: the quads' stage, %d floats a k: k %d's rows at %d, off 16 bytes or over k %d's\n", sp, kk,
               mnk_thin_quad_at(kk, 0, sp), kk - 1);
        bad++;
        break;
      }
    for (int head = 0; head < 4; head++)
      for (int i = 0; head + 4 * MNK_THIN_QUAD_GROUP * (i + 1) <= kc; i++)
        for (int j = 0; j < 4; j++)
          for (int q = 0; q < sp; q += 4) {
            int banks = 0; /* the lanes' 16 bytes of 128, one bit each */
            for (int lane = 0; lane < MNK_THIN_QUAD_GROUP; lane++)
              banks |= 1 << mnk_thin_quad_at(head + 4 * (lane + MNK_THIN_QUAD_GROUP * i) + j, q, sp) / 4 % 8;
            if (banks != 0xff) {
              printf("mnk_plan: the quads' stage, %d floats a k, head %d, step %d, k %d of 4, rows %d: lanes share banks\n",
                     sp, head, i, j, q);
              bad++;
              return;
            }
          }
  }
}

int main(void) {
  parts();
  thin();
  quads();
  row_walk();
  pair_walk();
  cheapest();
  groups();
  single_wave();
  apart();
  own_costs();
  estimates();
  width();
  width_among();
  repack();
  shortk();
  small();
  printf("mnk_plan: %s\n", bad ? "WRONG" : "ok");
  return bad != 0;
}
