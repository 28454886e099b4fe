/*
 * validate_compare.c - one build's outputs against the reference's.
 *
 * Integer and bool outputs are compared byte for byte. Float outputs are
 * compared element by element with the user's tolerance (none: bit for
 * bit), and reported with the largest absolute error, the largest error in
 * units in the last place and the cosine similarity over every run, as
 * stedgeai validate reports its float metrics.
 */
#include "validate.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static bool is_float(const VaTensor *t)
{
    return strcmp(t->dtype, "float32") == 0 || strcmp(t->dtype, "float64") == 0;
}

double va_element_value(const unsigned char *p, const VaTensor *t)
{
    const char *d = t->dtype;
    if (strcmp(d, "float32") == 0) {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    if (strcmp(d, "float64") == 0) {
        double f;
        memcpy(&f, p, 8);
        return f;
    }
    uint64_t u = 0;
    for (size_t b = 0; b < t->itemsize; b++)
        u |= (uint64_t)p[b] << (8 * b);
    bool is_signed = d[0] == 'i';
    if (is_signed && t->itemsize > 0 && t->itemsize < 8 && (u >> (8 * t->itemsize - 1)) & 1u)
        u |= ~0ull << (8 * t->itemsize);
    return is_signed ? (double)(int64_t)u : (double)u;
}

/* Units in the last place between two floats of the tensor's type: the
   distance between their bit patterns on the ordered number line. */
static uint64_t ulps_between(const unsigned char *a, const unsigned char *b, size_t itemsize)
{
    uint64_t ua = 0, ub = 0;
    if (itemsize != 4 && itemsize != 8)
        return 0;
    memcpy(&ua, a, itemsize); /* little-endian host */
    memcpy(&ub, b, itemsize);
    uint64_t sign = 1ull << (8 * itemsize - 1);
    uint64_t ma = ua & (sign - 1), mb = ub & (sign - 1);
    if ((ua & sign) == (ub & sign))
        return ma > mb ? ma - mb : mb - ma;
    return ma + mb; /* across zero: both magnitudes */
}

void va_tolerance_text(const VaTolerance *tol, char *buf, size_t size)
{
    if (tol->abs > 0 && tol->ulps > 0)
        snprintf(buf, size, "absolute %g or %llu ulps", tol->abs, tol->ulps);
    else if (tol->abs > 0)
        snprintf(buf, size, "absolute %g", tol->abs);
    else if (tol->ulps > 0)
        snprintf(buf, size, "%llu ulps", tol->ulps);
    else
        snprintf(buf, size, "none: bit for bit");
}

/* Whether two float elements agree within the tolerance. */
static bool within(const unsigned char *g, const unsigned char *w, const VaTensor *t,
                   const VaTolerance *tol, double diff, uint64_t ulps)
{
    if (memcmp(g, w, t->itemsize) == 0)
        return true;
    double a = va_element_value(g, t), b = va_element_value(w, t);
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b) && (tol->abs > 0 || tol->ulps > 0);
    return (tol->abs > 0 && diff <= tol->abs) || (tol->ulps > 0 && ulps <= tol->ulps);
}

typedef struct Metrics {
    size_t bytes_differ, beyond, elements;
    double largest; /* absolute; for floats the largest absolute error */
    uint64_t max_ulps;
    double dot, norm_got, norm_want;
} Metrics;

static void measure(const unsigned char *g, const unsigned char *w, const VaTensor *t,
                    const VaTolerance *tol, Metrics *m)
{
    for (size_t b = 0; b < t->bytes; b++)
        m->bytes_differ += g[b] != w[b];
    for (size_t e = 0; e < t->bytes; e += t->itemsize) {
        double a = va_element_value(g + e, t), b = va_element_value(w + e, t);
        double diff = fabs(a - b);
        m->elements++;
        if (diff > m->largest || (diff != diff && !(isnan(a) && isnan(b))))
            m->largest = diff;
        if (!is_float(t)) {
            m->beyond += diff != 0;
            continue;
        }
        uint64_t ulps = isnan(a) || isnan(b) ? 0 : ulps_between(g + e, w + e, t->itemsize);
        if (ulps > m->max_ulps)
            m->max_ulps = ulps;
        m->beyond += !within(g + e, w + e, t, tol, diff, ulps);
        m->dot += a * b;
        m->norm_got += a * a;
        m->norm_want += b * b;
    }
}

static double cosine(const Metrics *m)
{
    if (m->norm_got == 0 && m->norm_want == 0)
        return 1.0;
    if (m->norm_got == 0 || m->norm_want == 0)
        return 0.0;
    return m->dot / (sqrt(m->norm_got) * sqrt(m->norm_want));
}

size_t va_beyond(const unsigned char *got, const unsigned char *want, const VaTensor *t,
                 const VaTolerance *tol, double *largest)
{
    Metrics m = {0};
    measure(got, want, t, tol, &m);
    *largest = m.largest;
    return m.beyond;
}

bool va_compare(const char *build, const unsigned char *got, const unsigned char *want,
                const VaTensor *outs, size_t num_out, size_t runs, const VaTolerance *tol,
                char *first_bad, size_t first_bad_size)
{
    size_t record = 0;
    for (size_t k = 0; k < num_out; k++)
        record += outs[k].bytes;
    bool all = true;
    size_t offset = 0;
    for (size_t k = 0; k < num_out; k++) {
        Metrics m = {0};
        for (size_t r = 0; r < runs; r++)
            measure(got + r * record + offset, want + r * record + offset, &outs[k], tol, &m);
        printf("  %s: output %zu '%s' %s[%s]: %zu of %zu bytes differ, largest difference %g",
               build, k, outs[k].name, outs[k].dtype, outs[k].shape, m.bytes_differ,
               outs[k].bytes * runs, m.largest);
        if (is_float(&outs[k])) {
            char text[80];
            va_tolerance_text(tol, text, sizeof text);
            printf("; max abs error %g, max ulp error %llu, cosine similarity %.9f; %zu of %zu "
                   "elements beyond the tolerance (%s)",
                   m.largest, (unsigned long long)m.max_ulps, cosine(&m), m.beyond, m.elements,
                   text);
        }
        printf("\n");
        if (m.beyond && all)
            snprintf(first_bad, first_bad_size, "%s output %zu '%s'", build, k, outs[k].name);
        all = all && m.beyond == 0;
        offset += outs[k].bytes;
    }
    return all;
}
