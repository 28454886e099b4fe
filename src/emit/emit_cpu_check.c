/*
 * emit_cpu_check.c - the compile-time check in <prefix>_model.c that the
 * module is compiled for the core it was converted for. The kernels pick
 * their Helium or DSP path from the compiler's feature macros; a module
 * for a Cortex-M55 built without -mcpu=cortex-m55 still works, only
 * slowly, so the build says so (#warning) instead of staying silent.
 *
 * Only compilers targeting Arm warn: a host build of a target's module
 * (tests, simulation) runs the portable path on purpose, and so does a
 * build that defines TA_NO_SIMD.
 */
#include "emit.h"

#include "../config/target.h"
#include "../util/template.h"
#include "escape.h"

#include <string.h>

void ta_emit_cpu_check(const TaEmitInput *in, TaBuf *b)
{
    const char *core = in->plan->target->core;
    if (!core)
        return;
    const char *feature, *missing, *ext, *abi = "";
    if (ta_core_has_helium(core)) {
        /* gcc turns MVE off with the soft-float ABI, whatever -mcpu says. */
        abi = " -mfloat-abi=hard";
        ext = "Helium (MVE)";
        feature = "__ARM_FEATURE_MVE";
        missing = "!(defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1))";
    } else if (ta_core_has_dsp(core)) {
        ext = "DSP";
        feature = "__ARM_FEATURE_DSP";
        missing = "!defined(__ARM_FEATURE_DSP)";
    } else {
        return; /* a portable target: nothing faster to miss */
    }
    TaFields f = ta_fields(in->pool, NULL);
    /* The core name passed target.c's loader; escaped all the same. */
    ta_field(&f, "core", ta_escape_c_comment(in->pool, core));
    ta_field(&f, "ext", ext);
    ta_field(&f, "feature", feature);
    ta_field(&f, "missing", missing);
    ta_field(&f, "prefix", in->prefix);
    ta_field(&f, "flags",
             ta_format(in->pool, "-mcpu=%s%s", ta_escape_c_comment(in->pool, core), abi));
    ta_template(b, &f,
                "/* Converted for $core: the kernels have a $ext path, chosen by\n"
                "   $feature. Compiled for an Arm core without it (flags other than\n"
                "   $flags), they run the slower portable C.\n"
                "   Define TA_NO_SIMD to choose the portable path on purpose. */\n"
                "#if (defined(__arm__) || defined(__thumb__)) && !defined(TA_NO_SIMD)\n"
                "#if $missing\n"
                "#warning \"$prefix module: compiled without $ext, add $flags\"\n"
                "#endif\n#endif\n\n");
}
