/* branches.h: the branches of the program's #if groups that parrayc
 * takes, so that a Parray construct the C preprocessor drops is not
 * translated (#parray of one name under #ifdef and #else chooses a
 * layout). */
#ifndef PARRAYC_BRANCHES_H
#define PARRAYC_BRANCHES_H

#include "parrayc.h"

/* Marks the constructs of the branches not taken (Node.dead) and the
 * conditional lines whose #error makes the C compiler take the same
 * branches (Node.guard), over the whole tree. */
void branches_mark(Ctx *ctx, Node *tree);

#endif
