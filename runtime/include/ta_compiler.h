/*
 * ta_compiler.h - the few compiler-specific spellings the runtime and the
 * generated modules need, with portable fallbacks.
 */
#ifndef TA_COMPILER_H
#define TA_COMPILER_H

#if defined(__GNUC__) || defined(__clang__)
#define TA_ALIGNED(n) __attribute__((aligned(n)))
#define TA_SECTION(name) __attribute__((section(name)))
#define TA_WEAK __attribute__((weak))
#define TA_USED __attribute__((used))
#define TA_LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define TA_ALIGNED(n)
#define TA_SECTION(name)
#define TA_WEAK
#define TA_USED
#define TA_LIKELY(x) (x)
#endif

#endif /* TA_COMPILER_H */
