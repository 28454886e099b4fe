/*
 * semihost.h - direct Arm semihosting calls for bare-metal tests on QEMU.
 *
 * Every function here issues `bkpt 0xab` itself; none of them goes through
 * newlib, so they work before the C library is initialised and inside fault
 * handlers. QEMU must run with `-semihosting` (tests/qemu/run.sh does).
 *
 * Host paths are relative to the working directory QEMU was started in,
 * which run.sh leaves unchanged (the caller's directory).
 */
#ifndef TA_SEMIHOST_H
#define TA_SEMIHOST_H

#include <stddef.h>
#include <stdint.h>

/* Status returned by the file helpers. */
enum {
    TA_SEMIHOST_OK = 0,
    TA_SEMIHOST_ERR_OPEN = -1,    /* the host could not open the file */
    TA_SEMIHOST_ERR_TOO_BIG = -2, /* the file is larger than the buffer */
    TA_SEMIHOST_ERR_IO = -3,      /* a read, write or length query failed */
    TA_SEMIHOST_ERR_ARGUMENT = -4 /* NULL pointer or zero-sized buffer */
};

/* Writes a NUL-terminated string to the host console (SYS_WRITE0). */
void ta_semihost_write_str(const char *s);

/* Writes a signed or unsigned decimal integer, or 0x%08x, to the console. */
void ta_semihost_write_int(long long value);
void ta_semihost_write_uint(unsigned long long value);
void ta_semihost_write_hex(uint32_t value);

/*
 * Ends the emulation with `status` as QEMU's exit status (SYS_EXIT_EXTENDED;
 * the host sees status & 0xff). Does not flush newlib's stdio buffers:
 * return from main, or call exit(), when printf output must appear.
 */
void ta_semihost_exit(int status) __attribute__((noreturn));

/* Size in bytes of a host file, or a negative TA_SEMIHOST_ERR_* value. */
long ta_semihost_file_size(const char *path);

/*
 * Reads a whole host file into `buf` (at most `capacity` bytes). On success
 * returns TA_SEMIHOST_OK and stores the byte count in *size_out. When the
 * file does not fit, returns TA_SEMIHOST_ERR_TOO_BIG and stores the file's
 * size in *size_out. `size_out` may be NULL.
 */
int ta_semihost_read_file(const char *path, void *buf, size_t capacity, size_t *size_out);

/* Creates or truncates a host file and writes `size` bytes to it. */
int ta_semihost_write_file(const char *path, const void *buf, size_t size);

/*
 * Copies the command line QEMU reports (SYS_GET_CMDLINE: the kernel file
 * name, then the words passed with -append, i.e. after `--` in run.sh)
 * into `buf` as a NUL-terminated string. Returns its length or a negative
 * TA_SEMIHOST_ERR_* value.
 */
int ta_semihost_cmdline(char *buf, size_t capacity);

#endif /* TA_SEMIHOST_H */
