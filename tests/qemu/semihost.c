/*
 * semihost.c - the semihosting calls behind semihost.h.
 *
 * A call puts the operation number in r0 and a pointer to its argument
 * block in r1, executes `bkpt 0xab` (the M-profile trap) and finds the
 * result in r0. Operation numbers and argument blocks follow Arm's
 * "Semihosting for AArch32 and AArch64" specification.
 */
#include "semihost.h"

#include <string.h>

enum {
    SYS_OPEN = 0x01,
    SYS_CLOSE = 0x02,
    SYS_WRITE0 = 0x04,
    SYS_WRITE = 0x05,
    SYS_READ = 0x06,
    SYS_FLEN = 0x0c,
    SYS_GET_CMDLINE = 0x15,
    SYS_EXIT_EXTENDED = 0x20
};

/* Open modes are indices into the ISO C fopen() mode list. */
enum { MODE_READ_BINARY = 1, MODE_WRITE_BINARY = 5 };

/* Reason code for a normal application exit (ADP_Stopped_ApplicationExit). */
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u

static uintptr_t sh_call(uintptr_t op, const void *arg)
{
    register uintptr_t r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

void ta_semihost_write_str(const char *s)
{
    if (s != NULL && *s != '\0')
        sh_call(SYS_WRITE0, s);
}

/* Writes the decimal digits of `v`, with a '-' in front when `negative`. */
static void write_decimal(unsigned long long v, int negative)
{
    char text[24];
    char *p = text + sizeof text - 1;

    *p = '\0';
    do {
        *--p = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v != 0);
    if (negative)
        *--p = '-';
    ta_semihost_write_str(p);
}

void ta_semihost_write_int(long long value)
{
    if (value < 0)
        write_decimal(0ull - (unsigned long long)value, 1);
    else
        write_decimal((unsigned long long)value, 0);
}

void ta_semihost_write_uint(unsigned long long value)
{
    write_decimal(value, 0);
}

void ta_semihost_write_hex(uint32_t value)
{
    static const char digits[] = "0123456789abcdef";
    char text[11];
    int i;

    text[0] = '0';
    text[1] = 'x';
    for (i = 0; i < 8; i++)
        text[2 + i] = digits[(value >> (28 - 4 * i)) & 0xfu];
    text[10] = '\0';
    ta_semihost_write_str(text);
}

void ta_semihost_exit(int status)
{
    uintptr_t block[2];

    block[0] = ADP_STOPPED_APPLICATION_EXIT;
    block[1] = (uintptr_t)(unsigned)status;
    sh_call(SYS_EXIT_EXTENDED, block);
    for (;;) /* only reached without -semihosting */
        __asm__ volatile("wfi");
}

/* Opens `path` with an fopen()-style mode index; returns the handle or -1. */
static long sh_open(const char *path, uintptr_t mode)
{
    uintptr_t block[3];

    block[0] = (uintptr_t)path;
    block[1] = mode;
    block[2] = strlen(path);
    return (long)(intptr_t)sh_call(SYS_OPEN, block);
}

static void sh_close(long handle)
{
    uintptr_t block[1];

    block[0] = (uintptr_t)handle;
    sh_call(SYS_CLOSE, block);
}

static long sh_flen(long handle)
{
    uintptr_t block[1];

    block[0] = (uintptr_t)handle;
    return (long)(intptr_t)sh_call(SYS_FLEN, block);
}

long ta_semihost_file_size(const char *path)
{
    long handle, size;

    if (path == NULL)
        return TA_SEMIHOST_ERR_ARGUMENT;
    handle = sh_open(path, MODE_READ_BINARY);
    if (handle < 0)
        return TA_SEMIHOST_ERR_OPEN;
    size = sh_flen(handle);
    sh_close(handle);
    return size < 0 ? TA_SEMIHOST_ERR_IO : size;
}

int ta_semihost_read_file(const char *path, void *buf, size_t capacity, size_t *size_out)
{
    uintptr_t block[3];
    long handle, size;
    uintptr_t not_read;

    if (size_out != NULL)
        *size_out = 0;
    if (path == NULL || (buf == NULL && capacity != 0))
        return TA_SEMIHOST_ERR_ARGUMENT;
    handle = sh_open(path, MODE_READ_BINARY);
    if (handle < 0)
        return TA_SEMIHOST_ERR_OPEN;
    size = sh_flen(handle);
    if (size < 0) {
        sh_close(handle);
        return TA_SEMIHOST_ERR_IO;
    }
    if (size_out != NULL)
        *size_out = (size_t)size;
    if ((unsigned long)size > capacity) {
        sh_close(handle);
        return TA_SEMIHOST_ERR_TOO_BIG;
    }
    not_read = 0;
    if (size > 0) {
        block[0] = (uintptr_t)handle;
        block[1] = (uintptr_t)buf;
        block[2] = (uintptr_t)size;
        /* SYS_READ returns the number of bytes it did NOT read. */
        not_read = sh_call(SYS_READ, block);
    }
    sh_close(handle);
    return not_read == 0 ? TA_SEMIHOST_OK : TA_SEMIHOST_ERR_IO;
}

int ta_semihost_write_file(const char *path, const void *buf, size_t size)
{
    uintptr_t block[3];
    long handle;
    uintptr_t not_written;

    if (path == NULL || (buf == NULL && size != 0))
        return TA_SEMIHOST_ERR_ARGUMENT;
    handle = sh_open(path, MODE_WRITE_BINARY);
    if (handle < 0)
        return TA_SEMIHOST_ERR_OPEN;
    not_written = 0;
    if (size > 0) {
        block[0] = (uintptr_t)handle;
        block[1] = (uintptr_t)buf;
        block[2] = size;
        /* SYS_WRITE returns the number of bytes it did NOT write. */
        not_written = sh_call(SYS_WRITE, block);
    }
    sh_close(handle);
    return not_written == 0 ? TA_SEMIHOST_OK : TA_SEMIHOST_ERR_IO;
}

int ta_semihost_cmdline(char *buf, size_t capacity)
{
    uintptr_t block[2];

    if (buf == NULL || capacity == 0)
        return TA_SEMIHOST_ERR_ARGUMENT;
    block[0] = (uintptr_t)buf;
    block[1] = capacity;
    /* On success r0 is 0 and block[1] holds the length without the NUL. */
    if (sh_call(SYS_GET_CMDLINE, block) != 0)
        return TA_SEMIHOST_ERR_IO;
    if (block[1] >= capacity)
        return TA_SEMIHOST_ERR_TOO_BIG;
    buf[block[1]] = '\0';
    return (int)block[1];
}
