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

#include "../util/template.h"
#include "escape.h"

#include <string.h>

static bool one_of(const char *core, const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(core, names[i]) == 0)
            return true;
    return false;
}

void ta_emit_cpu_check(const TaEmitInput *in, TaBuf *b)
{
    static const char *const helium[] = {"cortex-m52", "cortex-m55", "cortex-m85"};
    static const char *const dsp[] = {"cortex-m4", "cortex-m7", "cortex-m33", "cortex-m35p"};
    const char *core = in->plan->target->core;
    if (!core)
        return;
    const char *feature, *missing, *ext, *abi = "";
    if (one_of(core, helium, TA_COUNT_OF(helium))) {
        /* gcc turns MVE off with the soft-float ABI, whatever -mcpu says. */
        abi = " -mfloat-abi=hard";
        ext = "Helium (MVE)";
        feature = "__ARM_FEATURE_MVE";
        missing = "!(defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1))";
    } else if (one_of(core, dsp, TA_COUNT_OF(dsp))) {
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
