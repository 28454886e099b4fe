/* views.h - building the public views (tinyaot.h) from graph and plan. */
#ifndef TA_VIEWS_H
#define TA_VIEWS_H

#include "../../include/tinyaot/tinyaot.h"
#include "../plan/plan.h"

void ta_build_views(TaPool *pool, tinyaot_result *res, const TaGraph *g, const TaPlan *plan);
const char *ta_view_kind(const TaTensor *t);

#endif /* TA_VIEWS_H */
