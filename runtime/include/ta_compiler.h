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
/* A static function inlined whatever the compiler's size estimate: where
   a caller's constant arguments pick the loop it compiles to. */
#define TA_ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define TA_ALIGNED(n)
#define TA_SECTION(name)
#define TA_WEAK
#define TA_USED
#define TA_LIKELY(x) (x)
#define TA_ALWAYS_INLINE static inline
#endif

#endif /* TA_COMPILER_H */
