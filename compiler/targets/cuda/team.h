/* team.h: the GPU side of a team's work (team.c), the GPU target's
 * Backend.team_* and stage_* operations (emit/backend.h says what each
 * does). */
#ifndef PARRAYC_CUDA_TEAM_H
#define PARRAYC_CUDA_TEAM_H

#include "emit/backend.h"

void cuda_team_bind(Emitter *e, Loc loc, const Team *team, Type *t);
void cuda_team_launch(Emitter *e, Node *n, const Team *team, Type *t);
void cuda_team_create(Emitter *e, Node *n, const Team *team, Type *threads, const char *p, const char *bytes);
void cuda_team_copy(Emitter *e, Node *n, const Team *team, const CopyPlan *p);
const char *cuda_team_stage_out(Emitter *e, const char *ptr, const char *bytes, const char *at);
const char *cuda_team_stage_in(Emitter *e, const char *ptr, const char *host, const char *bytes, const char *at);

#endif
