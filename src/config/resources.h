/*
 * resources.h - files built into tinyaot: the runtime sources copied into
 * every module and the built-in target descriptions. Generated at build
 * time by tools/embed.c; paths are relative to the repository root
 * ("runtime/kernels/ta_softmax.c", "targets/host.yaml").
 */
#ifndef TA_RESOURCES_H
#define TA_RESOURCES_H

#include <stddef.h>

typedef struct TaResource {
    const char *path;
    const unsigned char *data; /* followed by a NUL byte, not counted in size */
    size_t size;
} TaResource;

extern const TaResource ta_resources[];
extern const size_t ta_num_resources;

const TaResource *ta_resource_find(const char *path);

#endif /* TA_RESOURCES_H */
