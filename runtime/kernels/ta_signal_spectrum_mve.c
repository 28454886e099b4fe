/* ta_signal_spectrum_mve.c - FFT auto-scale's passes with Helium; see the
 * header. Compiles to nothing on other cores. */
#include "ta_signal_spectrum_mve.h"

#if defined(TA_SIGNAL_SPECTRUM_MVE)
#include <arm_mve.h>

void ta_signal_extremes_s16_mve(const int16_t *input, int32_t count, int32_t *hi, int32_t *lo)
{
    int16x8_t vhi = vdupq_n_s16(0), vlo = vdupq_n_s16(0);
    for (int32_t i = 0; i < count; i += 8) {
        const mve_pred16_t p = vctp16q((uint32_t)(count - i));
        const int16x8_t v = vldrhq_z_s16(input + i, p);
        vhi = vmaxq_m_s16(vhi, vhi, v, p);
        vlo = vminq_m_s16(vlo, vlo, v, p);
    }
    *hi = vmaxvq_s16(0, vhi);
    *lo = vminvq_s16(0, vlo);
}

void ta_signal_shift_left_s16_mve(const int16_t *input, int16_t *output, int32_t count,
                                  int32_t bits)
{
    for (int32_t i = 0; i < count; i += 8) {
        const mve_pred16_t p = vctp16q((uint32_t)(count - i));
        vstrhq_p_s16(output + i, vshlq_r_s16(vldrhq_z_s16(input + i, p), bits), p);
    }
}
#endif
