/* sizes.h: plain C, included by layout.pah (a dependency, not spliced) */
#define ROWS 4
#define COLS 6
