/*
 * cli_options.c - what `tinyaot validate` and `tinyaot profile` read from
 * their command lines the same way (validate.h): `--KEY VALUE` and
 * `--KEY=VALUE`, and the configuration those keys make, read as convert
 * reads it; and JSON strings for their --format json.
 */
#include "validate.h"

#include <stdlib.h>
#include <string.h>

#include "../src/config/config.h"

int va_option_value(int argc, char **argv, int *i, const char *option, const char *command,
                    char **owned, int *num_owned, const char **key, const char **value)
{
    const char *eq = strchr(option, '=');
    *key = option;
    if (eq) {
        char *copy = va_format("%s", option);
        if (!copy)
            return 3;
        copy[eq - option] = '\0';
        *key = copy;
        *value = copy + (eq - option) + 1;
        owned[(*num_owned)++] = copy;
        return 0;
    }
    if (*i + 1 < argc) {
        *value = argv[++*i];
        return 0;
    }
    fprintf(stderr, "tinyaot: --%s needs a value (tinyaot %s --help lists the options and keys)\n",
            option, command);
    return 2;
}

static void discard(void *user, int level, const char *line)
{
    (void)user;
    (void)level;
    (void)line;
}

VaConfigPaths va_read_config(const char *config, const tinyaot_option *options, size_t n)
{
    VaConfigPaths out = {0};
    TaPool pool = {0};
    TaDiag diag = {.pool = &pool, .sink = discard};
    const char **keys = calloc(n + 1, sizeof *keys);
    const char **values = calloc(n + 1, sizeof *values);
    if (keys && values) {
        for (size_t i = 0; i < n; i++) {
            keys[i] = options[i].key;
            values[i] = options[i].value;
        }
        TaConfig *c = ta_config_load_ex(&pool, &diag, config, keys, values, (int)n, false);
        if (c && c->model_path)
            out.model = va_format("%s", c->model_path);
        if (c && c->platform_name)
            out.platform = va_format("%s", c->platform_name);
        if (c && c->module_path)
            out.module = va_format("%s", c->module_path);
    }
    free(keys);
    free(values);
    ta_pool_free(&pool);
    return out;
}

void va_free_config_paths(VaConfigPaths *p)
{
    free(p->model);
    free(p->platform);
    free(p->module);
    *p = (VaConfigPaths){0};
}

void va_json_string(FILE *out, const char *s)
{
    if (!s) {
        fputs("null", out);
        return;
    }
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}
