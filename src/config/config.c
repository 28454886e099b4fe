/*
 * config.c - YAML + command-line keys -> TaConfig.
 *
 * Command-line keys are merged into the YAML tree first (a key given on
 * the command line replaces the same key from the file), then the whole
 * tree is checked in one walk. Every problem is reported with the key's
 * dotted path and, for the file, its line; unknown keys get a suggestion.
 */
#include "config.h"

#include "../../include/tinyaot/tinyaot.h"
#include "custom_operators.h"
#include "firmware_board.h"
#include "planner_names.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *const memory_names[TA_MEM_COUNT] = {"ITCM",  "DTCM", "SRAM",
                                                       "PSRAM", "MRAM", "DRAM"};
static const char *const memory_lower[TA_MEM_COUNT] = {"itcm",  "dtcm", "sram",
                                                       "psram", "mram", "dram"};

const char *ta_memory_name(int memory)
{
    return memory >= 0 && memory < TA_MEM_COUNT ? memory_names[memory] : "?";
}

const char *ta_memory_lower(int memory)
{
    return memory >= 0 && memory < TA_MEM_COUNT ? memory_lower[memory] : "?";
}

int ta_memory_parse(const char *name)
{
    for (int i = 0; i < TA_MEM_COUNT; i++)
        if (strcmp(name, memory_names[i]) == 0)
            return i;
    return -1;
}

static int edit_distance(const char *a, const char *b)
{
    size_t n = strlen(b);
    if (n > 63)
        return 99;
    int row[64];
    for (size_t j = 0; j <= n; j++)
        row[j] = (int)j;
    for (size_t i = 1; a[i - 1]; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= n; j++) {
            int up = row[j];
            int cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            int best = diag + cost;
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[n];
}

const char *ta_suggest(const char *word, const char *const *candidates, int count)
{
    const char *best = NULL;
    int best_d = 3;
    for (int i = 0; i < count; i++) {
        int dist = edit_distance(word, candidates[i]);
        if (dist < best_d) {
            best_d = dist;
            best = candidates[i];
        }
    }
    return best;
}

typedef struct Loader {
    TaPool *pool;
    TaDiag *d;
    TaConfig *cfg;
    const char *config_dir; /* folder of the --config file; NULL: the working directory */
} Loader;

#define WHERE(node) ta_node_where(L->pool, node)

/* Every key a configuration may set: the loader accepts exactly these
   (each map's allowed keys are derived from this table) and the help
   prints them, so the two cannot drift apart. "[]" stands for any element
   of a list. */
static const tinyaot_config_key config_keys[] = {
    {"model.path", "path", "required",
     "the .tflite file (relative in a --config file: from that file's folder)"},
    {"model.subgraph", "integer", "0", "the subgraph to convert"},
    {"model.name", "text", "model",
     "the model's name, recorded in the header (<PREFIX>_MODEL_NAME), views and reports"},
    {"model.description", "text", "empty",
     "a description of the model, recorded like model.name (<PREFIX>_MODEL_DESCRIPTION)"},
    {"model.version", "text", "the schema version the file records",
     "the model's version, recorded like model.name (<PREFIX>_MODEL_VERSION)"},
    {"module.path", "path", "required (convert)",
     "the module directory to write, or an archive of it: a .zip (files under <module.name>/) "
     "or a .pack (module.type cmsis_pack); relative in a --config file: from its folder"},
    {"module.name", "C identifier", "the prefix", "name of the CMake / make / Zephyr library"},
    {"module.prefix", "C identifier", "model",
     "prefix of every generated symbol and file (<prefix>_model_run)"},
    {"module.type", "cmake|zephyr|make|cmsis_pack|firmware", "cmake",
     "build files: all get CMakeLists.txt and <name>.mk; zephyr adds zephyr/module.yml; "
     "cmsis_pack adds tinyaot.<name>.pdsc (a CMSIS-Pack); firmware adds firmware/, a "
     "bare-metal application for the board (mps3_an547, mps2_an386) that runs the test case"},
    {"module.schedule", "calls|static|table", "calls",
     "straight-line calls (static is helia-aot's name for them), or a table calling the"
     " operator callback around each operator"},
    {"module.input_rows", "whole|push", "whole",
     "push: the application hands the model its input rows as they arrive "
     "(<prefix>_model_push_rows); the input is then a row buffer of the first row chain, "
     "not a whole tensor (docs/row-streaming.md)"},
    {"platform.name", "target name or YAML path", "host",
     "the target's memories (tinyaot platforms lists the built-in ones)"},
    {"memory.planner", "greedy|greedy_by_size|hill_climb|exact", "exact",
     "scratch offset planner; exact is proven minimal or says it is not (README: Planners and "
     "transforms)"},
    {"memory.planner_options", "map", "none", "options of the selected planner"},
    {"memory.planner_options.iterations", "integer", "1000", "hill_climb: swaps tried"},
    {"memory.planner_options.seed", "integer", "0", "hill_climb: seed of the swap sequence"},
    {"memory.planner_options.max_stall_iterations", "integer", "0",
     "hill_climb: stop after this many swaps without a smaller arena (0: never)"},
    {"memory.planner_options.node_limit", "integer", "200000",
     "exact: search nodes before it keeps its best plan unproven"},
    {"memory.dump_residency_json", "bool", "false", "write <prefix>_residency.json"},
    {"memory.allocate_arenas", "bool", "true",
     "false: the application supplies every arena buffer"},
    {"memory.output_over_input", "bool", "true",
     "let an output start below its input where the kernel reads ahead of its writes"},
    {"memory.row_streaming", "auto|off|least_ram", "auto",
     "run chains of convolutions and pools row by row, each intermediate in a small row buffer: "
     "auto where the arena shrinks for at most 10% more instructions, least_ram wherever it can, "
     "off never (docs/row-streaming.md)"},
    {"memory.row_streaming_loops", "bool", "true",
     "a row chain's module code runs its repeating steps as loops; false: a table of every step "
     "(more flash, the same outputs)"},
    {"memory.row_streaming_test_shortfall", "integer (rows)", "0",
     "testing only (needs TINYAOT_TESTING=1): row buffers this many rows shorter than the schedule "
     "needs (the conversion must reject it; with memory.row_streaming_test_unchecked, scheduled "
     "losing the rows that do not fit, to be run)"},
    {"memory.row_streaming_test_share_all", "bool", "false",
     "testing only (needs TINYAOT_TESTING=1): every row buffer of a chain shares the largest's "
     "bytes, live or not (the conversion must reject it)"},
    {"memory.row_streaming_test_share_early", "bool", "false",
     "testing only (needs TINYAOT_TESTING=1): row buffers share bytes as though each row were "
     "free one step before its last read (the conversion must reject it)"},
    {"memory.row_streaming_test_unchecked", "bool", "false",
     "testing only (needs TINYAOT_TESTING=1): a row chain whose band reads a row no longer there "
     "is a warning, not an error, so its wrong module can be run (wrong results)"},
    {"memory.keep_inputs", "bool", "false",
     "true: a run leaves every model input as it was (no tensor reuses its bytes)"},
    {"memory.overlap_test_shortfall", "integer (bytes)", "0",
     "testing only (needs TINYAOT_TESTING=1): place overlapping outputs this much closer than "
     "proven safe (wrong results)"},
    {"memory.overlap_test_direction", "auto|below|above", "auto",
     "testing only (needs TINYAOT_TESTING=1): outputs of kernels that can walk backwards go only "
     "below (or above) their "
     "inputs instead of where the arena is smallest"},
    {"memory.auto_hydrate_constants", "bool", "-", "deprecated: accepted, changes nothing, warns"},
    {"memory.tensors", "list of rules", "none", "tensor placement rules, first match wins"},
    {"memory.tensors[].type", "constant|persistent|scratch", "any kind",
     "the kind of tensor the rule matches"},
    {"memory.tensors[].id", "id or list of ids", "any id",
     "the tensors the rule matches: ids as the residency report and analyze --tensors list them; "
     "a model tensor's id also matches the constants made from it (op4.weights_interleaved)"},
    {"memory.tensors[].name", "name pattern or list", "any name",
     "tensors whose model name matches (exact, or a glob: \"*conv*weights*\"), with the "
     "constants made from them; with id, either may match"},
    {"memory.tensors[].attributes.memory", "memory name", "-",
     "where the tensors live (staged constants: where their bytes are stored)"},
    {"memory.tensors[].attributes.constant_destination_memory", "memory name", "-",
     "constants copied into this memory at init and read there"},
    {"memory.constraints", "list", "none",
     "per-memory limits; an explicit list is the complete set of usable memories"},
    {"memory.constraints[].name", "memory name", "required", "the memory the entry limits"},
    {"memory.constraints[].max_size", "integer (bytes)", "capacity",
     "most bytes the module may use in that memory"},
    {"memory.constraints[].arena_alignment", "power of two <= 4096", "max(16, min_alignment)",
     "alignment of every arena and tensor in that memory"},
    {"operators", "list of rules", "none", "operator rules, first match wins"},
    {"operators[].type", "operator type", "any type", "the operator type the rule matches"},
    {"operators[].id", "index or list", "any operator", "model operator indices the rule matches"},
    {"operators[].attributes.code_placement", "memory name", "-",
     "memory holding the operator's code (needs a code_section)"},
    {"operators[].attributes.scratch_placement", "memory name", "-",
     "memory of the operator's own scratch buffers"},
    {"custom_operators", "list", "none",
     "the user's own operators: kernel files copied into the module (docs/custom-operators.md)"},
    {"custom_operators[].code", "custom code", "required",
     "the model's custom_code, matched by its canonical key (upper case, '-' and ' ' as '_')"},
    {"custom_operators[].function", "C identifier", "required",
     "the kernel: int function(const ta_custom_call_t *call) (runtime/include/ta_custom.h)"},
    {"custom_operators[].sources", "list of paths", "required",
     ".c files of the kernel, copied to custom/ (relative: from the config's folder)"},
    {"custom_operators[].headers", "list of paths", "none",
     ".h files copied to custom/; the operator's code includes each"},
    {"custom_operators[].outputs", "list", "required", "one entry per output of the operator"},
    {"custom_operators[].outputs[].shape", "same_as_input_<N> or list", "required",
     "the shape the model's output tensor must have"},
    {"custom_operators[].outputs[].dtype", "same_as_input_<N> or dtype", "required",
     "the dtype the model's output tensor must have"},
    {"custom_operators[].scratch_bytes", "integer (bytes)", "0",
     "scratch passed to the kernel, planned like every scratch tensor"},
    {"transforms", "list, or map of name: bool", "all but PRUNE_IDENTITY_OPS",
     "graph transforms: a list is the exact set, a map turns single ones on or off"},
    {"weights.format", "auto|packed|table|huffman|sparse|dense", "auto",
     "stored form of compressed weights (TFLite INT4): packed keeps them packed and runs kernels "
     "that read them in place, dense expands them to int8 at conversion (the int8 kernels), auto "
     "keeps them packed where the packed kernel pays (CONV_2D, FULLY_CONNECTED); table stores "
     "every weight tensor whose values fit as indices into tables, decoded before its operator; "
     "auto does so for TFLM_DECODE weights and clustered ones (at most 16 values); sparse stores "
     "int8 FULLY_CONNECTED and 1x1 CONV_2D weights without their zeros wherever that is smaller, "
     "auto where the sparse kernel is faster (SPARSE_WEIGHTS); huffman stores every int8 weight "
     "tensor as Huffman codes where smaller, auto TFLM_DECODE weights where smallest"},
    {"weights.dense", "name pattern, id, or a list", "none",
     "weight tensors stored dense whatever weights.format says: model names (exact or a glob) "
     "or ids as analyze --tensors lists them"},
    {"documentation.html", "bool", "false",
     "write <prefix>_documentation.html: operators, I/O, regions and a picture of the plan"},
    {"test.enabled", "bool", "false",
     "write <prefix>_test_case.c/.h: a stimulus, expected outputs, <prefix>_test_case_run()"},
    {"test.tolerance", "number >= 0", "0",
     "largest accepted difference per output element (quantized steps; floats: absolute)"},
    {"test.max_loop_iterations", "integer >= 1", "1000000",
     "the test case's expected outputs: more WHILE iterations in one run is an error"},
    {"test.inputs", "list of paths", "generated stimulus",
     "raw bytes per model input (N runs back to back); relative: from the config's folder"},
    {"test.outputs", "list of paths", "computed on the host",
     "raw expected bytes per model output, for the same runs as test.inputs"},
};

const tinyaot_config_key *tinyaot_config_keys(size_t *count)
{
    if (count)
        *count = TA_COUNT_OF(config_keys);
    return config_keys;
}

/* "memory.tensors[3].attributes" -> "memory.tensors[].attributes": the
   table's spelling of a path. */
static const char *path_pattern(TaPool *pool, const char *path)
{
    char *out = ta_alloc(pool, strlen(path) + 1);
    size_t n = 0;
    for (const char *p = path; *p; p++) {
        out[n++] = *p;
        if (*p == '[') {
            while (p[1] && p[1] != ']')
                p++;
        }
    }
    out[n] = '\0';
    return out;
}

/* The keys a map at `pattern` may hold, from the table: the next segment
   of every key below it (up to a '.' or a '['), each once, into `out`
   (room for every key of the table). */
static int allowed_children(TaPool *pool, const char *pattern, const char **out)
{
    size_t plen = strlen(pattern);
    int n = 0;
    for (size_t i = 0; i < TA_COUNT_OF(config_keys); i++) {
        const char *k = config_keys[i].key;
        if (plen && (strncmp(k, pattern, plen) != 0 || k[plen] != '.'))
            continue;
        const char *seg = plen ? k + plen + 1 : k;
        size_t len = strcspn(seg, ".[");
        bool seen = false;
        for (int j = 0; j < n && !seen; j++)
            seen = strlen(out[j]) == len && strncmp(out[j], seg, len) == 0;
        if (!seen)
            out[n++] = ta_strndup(pool, seg, len);
    }
    return n;
}

/* "memory.dump_residency_jsn": the dotted key down a chain of one-key maps
   (what a command-line key becomes), for the message and the suggestion. */
static const char *full_key(TaPool *pool, const char *path, const char *key, const TaNode *v)
{
    const char *k = *path ? ta_format(pool, "%s.%s", path, key) : key;
    while (v->kind == TA_NODE_MAP && v->count == 1) {
        k = ta_format(pool, "%s.%s", k, v->keys[0]);
        v = v->items[0];
    }
    return k;
}

/* How far segment `given` is from the table's segment `known`: 0 equal,
   1 a prefix of it ("mem" for "memory"), 1 + edits for a near miss, -1
   for neither. */
static int segment_cost(TaPool *pool, const char *given, size_t glen, const char *known,
                        size_t klen)
{
    if (glen == klen && strncmp(given, known, glen) == 0)
        return 0;
    if (glen >= 2 && glen < klen && strncmp(given, known, glen) == 0)
        return 1;
    int d = edit_distance(ta_strndup(pool, given, glen), ta_strndup(pool, known, klen));
    return d <= 2 && (size_t)d * 3 < klen + 1 ? 1 + d : -1;
}

/* Cost of matching the last `count` segments of `key` (a table pattern)
   against the last `count` segments of `known`, or -1. */
static int tail_cost(TaPool *pool, const char *const *gseg, const size_t *glen, int gn,
                     const char *known)
{
    const char *kseg[16];
    size_t klen[16];
    int kn = 0;
    for (const char *p = known; kn < 16;) {
        size_t len = strcspn(p, ".");
        kseg[kn] = p;
        klen[kn++] = len;
        if (!p[len])
            break;
        p += len + 1;
    }
    if (gn > kn)
        return -1;
    int total = 0;
    for (int i = 0; i < gn; i++) {
        int c = segment_cost(pool, gseg[i], glen[i], kseg[kn - gn + i], klen[kn - gn + i]);
        if (c < 0)
            return -1;
        total += c;
    }
    /* Missing leading segments ("planner" for memory.planner) cost more
       than any near miss of a complete key. */
    return total + (kn - gn) * 10;
}

/* Names other tools and habits give these keys (helia-aot, vela, stedgeai,
   QEMU): an unknown key equal to one (ignoring case) is pointed at ours. */
static const struct {
    const char *given, *key;
} key_synonyms[] = {
    {"target", "platform.name"},
    {"board", "platform.name"},
    {"platform.target", "platform.name"},
    {"platform.board", "platform.name"},
    {"machine", "platform.name"},
    {"platform.machine", "platform.name"},
    {"model.file", "model.path"},
    {"model.tflite", "model.path"},
    {"input", "model.path"},
    {"tflite", "model.path"},
    {"module.output", "module.path"},
    {"module.output_dir", "module.path"},
    {"module.dir", "module.path"},
    {"module.directory", "module.path"},
    {"output", "module.path"},
    {"output_dir", "module.path"},
    {"out", "module.path"},
    {"prefix", "module.prefix"},
    {"memory.budget", "memory.constraints"},
    {"memory.budgets", "memory.constraints"},
    {"memory.limit", "memory.constraints"},
    {"memory.limits", "memory.constraints"},
    {"memory.max_size", "memory.constraints"},
    {"memory.size", "memory.constraints"},
    {"memory.placement", "memory.tensors"},
    {"memory.rules", "memory.tensors"},
    {"planner", "memory.planner"},
};

static const char *synonym_of(const char *key)
{
    for (size_t i = 0; i < TA_COUNT_OF(key_synonyms); i++) {
        const char *a = key, *b = key_synonyms[i].given;
        while (*a && tolower((unsigned char)*a) == *b)
            a++, b++;
        if (!*a && !*b)
            return key_synonyms[i].key;
    }
    return NULL;
}

/* "did you mean" for an unknown key in table spelling: the closest keys
   by whole-key edit distance, else segment by segment, where a segment
   may be a prefix or a near miss of the table's and leading segments may
   be missing. Up to three equally close keys, joined by " or ", or NULL. */
static const char *suggest_key(TaPool *pool, const char *key)
{
    const char *synonym = synonym_of(key);
    if (synonym)
        return ta_format(pool, "'%s'", synonym);
    const char *gseg[16];
    size_t glen[16];
    int gn = 0;
    for (const char *p = key; gn < 16;) {
        size_t len = strcspn(p, ".");
        gseg[gn] = p;
        glen[gn++] = len;
        if (!p[len])
            break;
        p += len + 1;
    }
    int best = -1, num_best = 0;
    const char *names[3];
    for (size_t i = 0; i < TA_COUNT_OF(config_keys); i++) {
        const char *known = config_keys[i].key;
        int d = edit_distance(key, known);
        int cost = d < 3 ? d : tail_cost(pool, gseg, glen, gn, known);
        if (cost < 0 || (best >= 0 && cost > best))
            continue;
        if (cost < best || best < 0) {
            best = cost;
            num_best = 0;
        }
        if (num_best < 3)
            names[num_best++] = known;
    }
    if (num_best == 0)
        return NULL;
    TaBuf b = {0};
    for (int i = 0; i < num_best; i++)
        ta_buf_printf(&b, "%s'%s'", i ? " or " : "", names[i]);
    const char *out = ta_strdup(pool, b.data);
    ta_buf_free(&b);
    return out;
}

/* Reports keys of `map` that the table does not allow below `path`;
   returns false if any. */
static bool check_keys(Loader *L, const TaNode *map, const char *path)
{
    const char *pattern = path_pattern(L->pool, path);
    const char *allowed[TA_COUNT_OF(config_keys)];
    int count = allowed_children(L->pool, pattern, allowed);
    bool ok = true;
    for (int i = 0; i < map->count; i++) {
        bool known = false;
        for (int k = 0; k < count && !known; k++)
            known = strcmp(map->keys[i], allowed[k]) == 0;
        if (known)
            continue;
        const char *key = full_key(L->pool, path, map->keys[i], map->items[i]);
        const char *hint = suggest_key(L->pool, path_pattern(L->pool, key));
        if (!hint && (hint = ta_suggest(map->keys[i], allowed, count)))
            hint = ta_format(L->pool, "'%s'", hint);
        const char *where = map->key_lines[i] > 0
                                ? ta_format(L->pool, "%s:%d", map->origin, map->key_lines[i])
                                : map->items[i]->origin;
        ta_error(L->d, "%s: unknown key '%s'%s%s%s", where, key, hint ? " (did you mean " : "",
                 hint ? hint : "", hint ? "?)" : "");
        ok = false;
    }
    return ok;
}

/* A section given one value ("--platform mps3_an547", "model: x.tflite"):
   the key that takes it. */
static const char *section_value_key(const char *path)
{
    static const char *const keys[][2] = {
        {"platform", "platform.name"}, {"model", "model.path"}, {"module", "module.path"}};
    for (size_t i = 0; i < TA_COUNT_OF(keys); i++)
        if (strcmp(path, keys[i][0]) == 0)
            return keys[i][1];
    return NULL;
}

static bool expect_map(Loader *L, const TaNode *n, const char *path)
{
    if (n->kind == TA_NODE_MAP)
        return true;
    const char *key = n->kind == TA_NODE_SCALAR ? section_value_key(path) : NULL;
    if (key && n->line <= 0)
        ta_error(L->d, "%s: %s: expected a mapping of keys to values (did you mean --%s %s?)",
                 WHERE(n), path, key, n->scalar);
    else if (key)
        ta_error(L->d, "%s: %s: expected a mapping of keys to values (did you mean %s: %s?)",
                 WHERE(n), path, key, n->scalar);
    else
        ta_error(L->d, "%s: %s: expected a mapping of keys to values", WHERE(n), path);
    return false;
}

static bool get_string(Loader *L, const TaNode *n, const char *path, const char **out)
{
    if (n->kind != TA_NODE_SCALAR) {
        ta_error(L->d, "%s: %s: expected a string", WHERE(n), path);
        return false;
    }
    *out = n->scalar;
    return true;
}

/* Free text recorded in the module (model.name, ...): any string up to
   TA_TEXT_MAX bytes; emitters escape it for each file's syntax. */
#define TA_TEXT_MAX 1024
static bool get_text(Loader *L, const TaNode *n, const char *path, const char **out)
{
    if (!get_string(L, n, path, out))
        return false;
    if (strlen(*out) <= TA_TEXT_MAX)
        return true;
    ta_error(L->d, "%s: %s: %zu bytes is longer than the %d allowed", WHERE(n), path, strlen(*out),
             TA_TEXT_MAX);
    return false;
}

static bool get_bool(Loader *L, const TaNode *n, const char *path, bool *out)
{
    if (ta_scalar_bool(n, out))
        return true;
    ta_error(L->d, "%s: %s: expected true or false, got '%s'", WHERE(n), path,
             n->kind == TA_NODE_SCALAR ? n->scalar : "a collection");
    return false;
}

static bool get_uint(Loader *L, const TaNode *n, const char *path, uint64_t *out)
{
    int64_t v;
    if (ta_scalar_int(n, &v) && v >= 0) {
        *out = (uint64_t)v;
        return true;
    }
    if (ta_scalar_has_leading_zero(n))
        ta_error(L->d,
                 "%s: %s: '%s' has a leading zero; integers are decimal (or 0x hex), "
                 "so write it without the zero",
                 WHERE(n), path, n->scalar);
    else
        ta_error(L->d, "%s: %s: expected a non-negative integer, got '%s'", WHERE(n), path,
                 n->kind == TA_NODE_SCALAR ? n->scalar : "a collection");
    return false;
}

static bool get_choice(Loader *L, const TaNode *n, const char *path, const char *const *choices,
                       int count, const char **out)
{
    if (!get_string(L, n, path, out))
        return false;
    for (int i = 0; i < count; i++)
        if (strcmp(*out, choices[i]) == 0)
            return true;
    TaBuf b = {0};
    for (int i = 0; i < count; i++)
        ta_buf_printf(&b, "%s%s", i ? ", " : "", choices[i]);
    ta_error(L->d, "%s: %s: '%s' is not one of: %s", WHERE(n), path, *out, b.data);
    ta_buf_free(&b);
    return false;
}

static bool get_memory(Loader *L, const TaNode *n, const char *path, const char **out)
{
    return get_choice(L, n, path, memory_names, TA_MEM_COUNT, out);
}

/* Why `prefix` cannot prefix every generated C symbol, or NULL. Generated
   names are <prefix>_... and <PREFIX>_...; the runtime owns ta_, TA_, syn_
   and SYN_, and C reserves leading underscores and its keywords. */
static const char *prefix_problem(const char *prefix)
{
    static const char *const keywords[] = {
        "auto",    "break",  "case",     "char",   "const",    "continue", "default",
        "do",      "double", "else",     "enum",   "extern",   "float",    "for",
        "goto",    "if",     "inline",   "int",    "long",     "register", "restrict",
        "return",  "short",  "signed",   "sizeof", "static",   "struct",   "switch",
        "typedef", "union",  "unsigned", "void",   "volatile", "while"};
    static const char *const runtime[] = {"ta", "syn"};
    if (prefix[0] == '_')
        return "identifiers that begin with an underscore are reserved for the C implementation";
    for (size_t i = 0; i < TA_COUNT_OF(keywords); i++)
        if (strcmp(prefix, keywords[i]) == 0)
            return "it is a C keyword";
    for (size_t i = 0; i < TA_COUNT_OF(runtime); i++) {
        size_t n = strlen(runtime[i]);
        bool same = true;
        for (size_t k = 0; k < n && same; k++)
            same = tolower((unsigned char)prefix[k]) == runtime[i][k];
        if (same && (prefix[n] == '\0' || prefix[n] == '_'))
            return "the runtime's own names begin with ta_, TA_, syn_ and SYN_";
    }
    return NULL;
}

/* "out/kws/" -> "out/kws"; NULL after reporting a path that cannot be a
   module directory. */
static const char *module_dir_path(Loader *L, const TaNode *v, const char *path)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        n--;
    const char *p = ta_strndup(L->pool, path, n);
    const char *base = ta_basename(p);
    if (n == 0 || strcmp(p, "/") == 0 || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
        ta_error(L->d,
                 "%s: module.path: '%s' does not name a directory tinyaot can create "
                 "(give a new or tinyaot-written directory, e.g. out/model)",
                 WHERE(v), path);
        return NULL;
    }
    if (strlen(base) > 200) {
        ta_error(L->d, "%s: module.path: the last component of '%s' is longer than 200 bytes",
                 WHERE(v), path);
        return NULL;
    }
    return p;
}

/* module.path "out/kws.zip" or "out/kws.pack" names an archive; with a
   trailing slash it is a directory whatever its name. */
static TaModuleArchive archive_kind(const char *path)
{
    size_t n = strlen(path);
    if (n > 4 && strcmp(path + n - 4, ".zip") == 0)
        return TA_ARCHIVE_ZIP;
    if (n > 5 && strcmp(path + n - 5, ".pack") == 0)
        return TA_ARCHIVE_PACK;
    return TA_ARCHIVE_NONE;
}

/* A relative path written in the --config file names a file beside it,
   wherever tinyaot runs; one from the command line is relative to the
   working directory. Nodes from the file carry its line numbers. */
static const char *from_config_dir(Loader *L, const TaNode *v, const char *path)
{
    if (!L->config_dir || v->line <= 0 || path[0] == '/' || path[0] == '\0')
        return path;
    return ta_path_join(L->pool, L->config_dir, path);
}

static bool is_identifier(const char *s)
{
    if (!(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return false;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_'))
            return false;
    return true;
}

/* ---- sections ----------------------------------------------------------- */

static void load_model(Loader *L, const TaNode *n)
{
    if (!expect_map(L, n, "model"))
        return;
    check_keys(L, n, "model");
    const TaNode *v;
    if ((v = ta_node_map_get(n, "path")) && get_string(L, v, "model.path", &L->cfg->model_path))
        L->cfg->model_path = from_config_dir(L, v, L->cfg->model_path);
    if ((v = ta_node_map_get(n, "subgraph"))) {
        uint64_t s;
        if (get_uint(L, v, "model.subgraph", &s)) {
            if (s > 1000000)
                ta_error(L->d, "%s: model.subgraph: %llu is out of range", WHERE(v),
                         (unsigned long long)s);
            L->cfg->model_subgraph = (int)(s > 1000000 ? 0 : s);
        }
    }
    if ((v = ta_node_map_get(n, "name")))
        get_text(L, v, "model.name", &L->cfg->model_name);
    if ((v = ta_node_map_get(n, "description")))
        get_text(L, v, "model.description", &L->cfg->model_description);
    if ((v = ta_node_map_get(n, "version")))
        get_text(L, v, "model.version", &L->cfg->model_version);
}

static void load_module(Loader *L, const TaNode *n)
{
    static const char *const types[] = {"cmake", "zephyr", "make", "cmsis_pack", "firmware"};
    static const char *const schedules[] = {"calls", "static", "table"};
    if (!expect_map(L, n, "module"))
        return;
    check_keys(L, n, "module");
    TaConfig *c = L->cfg;
    const TaNode *v;
    const char *dir;
    if ((v = ta_node_map_get(n, "path")) && get_string(L, v, "module.path", &c->module_path) &&
        (dir = module_dir_path(L, v, c->module_path))) {
        c->archive = archive_kind(c->module_path);
        c->module_path = from_config_dir(L, v, dir);
        c->module_path_where = WHERE(v);
    }
    if ((v = ta_node_map_get(n, "name")) && get_string(L, v, "module.name", &c->module_name) &&
        !is_identifier(c->module_name))
        ta_error(L->d, "%s: module.name: '%s' is not a C identifier", WHERE(v), c->module_name);
    if ((v = ta_node_map_get(n, "prefix")) &&
        get_string(L, v, "module.prefix", &c->module_prefix)) {
        const char *why;
        if (!is_identifier(c->module_prefix))
            ta_error(L->d, "%s: module.prefix: '%s' is not a C identifier", WHERE(v),
                     c->module_prefix);
        else if ((why = prefix_problem(c->module_prefix)))
            ta_error(L->d, "%s: module.prefix: '%s' cannot prefix the generated symbols: %s",
                     WHERE(v), c->module_prefix, why);
    }
    if ((v = ta_node_map_get(n, "type")))
        get_choice(L, v, "module.type", types, 5, &c->module_type);
    if ((v = ta_node_map_get(n, "schedule")))
        get_choice(L, v, "module.schedule", schedules, 3, &c->module_schedule);
    if ((v = ta_node_map_get(n, "input_rows"))) {
        static const char *const input_rows[] = {"whole", "push"};
        const char *choice = "whole";
        get_choice(L, v, "module.input_rows", input_rows, 2, &choice);
        c->push_input_rows = strcmp(choice, "push") == 0;
    }
    /* helia-aot's "static" is what tinyaot calls "calls": one schedule. */
    if (strcmp(c->module_schedule, "static") == 0)
        c->module_schedule = "calls";
}

static void load_platform(Loader *L, const TaNode *n)
{
    if (!expect_map(L, n, "platform"))
        return;
    check_keys(L, n, "platform");
    const TaNode *v = ta_node_map_get(n, "name");
    const char *name;
    /* A name with a '/' or ending in .yaml is a target file (target.c). */
    if (v && get_string(L, v, "platform.name", &name)) {
        size_t len = strlen(name);
        bool is_path = strchr(name, '/') || (len > 5 && strcmp(name + len - 5, ".yaml") == 0);
        L->cfg->platform_name = is_path ? from_config_dir(L, v, name) : name;
    }
}

/* `id:` (`name:`) is one id (pattern) or a list; numbers are kept as
   their text. */
static bool load_ids(Loader *L, const TaNode *n, const char *path, const char ***out, int *count)
{
    if (n->kind == TA_NODE_SCALAR) {
        *out = ta_alloc(L->pool, sizeof(char *));
        (*out)[0] = n->scalar;
        *count = 1;
        return true;
    }
    if (n->kind != TA_NODE_SEQUENCE) {
        ta_error(L->d, "%s: %s: expected one value or a list", WHERE(n), path);
        return false;
    }
    *out = ta_alloc_array(L->pool, (size_t)n->count + 1, sizeof(char *));
    for (int i = 0; i < n->count; i++)
        if (!get_string(L, n->items[i], path, &(*out)[i]))
            return false;
    *count = n->count;
    return true;
}

/* weights: the stored form of compressed weights (passes/int4_weights.c). */
static void load_weights(Loader *L, const TaNode *n)
{
    static const char *const formats[] = {"auto", "packed", "table", "sparse", "dense", "huffman"};
    if (!expect_map(L, n, "weights"))
        return;
    check_keys(L, n, "weights");
    const TaNode *v;
    if ((v = ta_node_map_get(n, "format")))
        get_choice(L, v, "weights.format", formats, 6, &L->cfg->weights_format);
    if ((v = ta_node_map_get(n, "dense")))
        load_ids(L, v, "weights.dense", &L->cfg->weights_dense, &L->cfg->num_weights_dense);
}

static void load_rules(Loader *L, const TaNode *n, const char *list_path, bool operator_rules,
                       TaVec *out)
{
    if (n->kind != TA_NODE_SEQUENCE) {
        ta_error(L->d, "%s: %s: expected a list of rules", WHERE(n), list_path);
        return;
    }
    for (int i = 0; i < n->count; i++) {
        const TaNode *e = n->items[i];
        const char *path = ta_format(L->pool, "%s[%d]", list_path, i);
        if (!expect_map(L, e, path) || !check_keys(L, e, path))
            continue;
        TaRule *rule = ta_alloc(L->pool, sizeof *rule);
        rule->index = i;
        rule->where = WHERE(e);
        const TaNode *v;
        if ((v = ta_node_map_get(e, "type")))
            get_string(L, v, ta_format(L->pool, "%s.type", path), &rule->type);
        if ((v = ta_node_map_get(e, "id")))
            load_ids(L, v, ta_format(L->pool, "%s.id", path), &rule->ids, &rule->num_ids);
        if ((v = ta_node_map_get(e, "name")))
            load_ids(L, v, ta_format(L->pool, "%s.name", path), &rule->names, &rule->num_names);
        const TaNode *attrs = ta_node_map_get(e, "attributes");
        if (!attrs) {
            ta_error(L->d, "%s: %s: a rule needs 'attributes'", WHERE(e), path);
            continue;
        }
        const char *apath = ta_format(L->pool, "%s.attributes", path);
        if (!expect_map(L, attrs, apath) || !check_keys(L, attrs, apath))
            continue;
        if (operator_rules) {
            if ((v = ta_node_map_get(attrs, "code_placement")))
                get_memory(L, v, ta_format(L->pool, "%s.code_placement", apath),
                           &rule->code_placement);
            if ((v = ta_node_map_get(attrs, "scratch_placement")))
                get_memory(L, v, ta_format(L->pool, "%s.scratch_placement", apath),
                           &rule->scratch_placement);
        } else {
            if ((v = ta_node_map_get(attrs, "memory")))
                get_memory(L, v, ta_format(L->pool, "%s.memory", apath), &rule->memory);
            if ((v = ta_node_map_get(attrs, "constant_destination_memory")))
                get_memory(L, v, ta_format(L->pool, "%s.constant_destination_memory", apath),
                           &rule->constant_destination_memory);
        }
        ta_vec_push(L->pool, out, rule);
    }
}

static void load_constraints(Loader *L, const TaNode *n)
{
    if (n->kind != TA_NODE_SEQUENCE) {
        ta_error(L->d, "%s: memory.constraints: expected a list", WHERE(n));
        return;
    }
    L->cfg->has_constraints = true;
    for (int i = 0; i < n->count; i++) {
        const TaNode *e = n->items[i];
        const char *path = ta_format(L->pool, "memory.constraints[%d]", i);
        if (!expect_map(L, e, path) || !check_keys(L, e, path))
            continue;
        TaConstraint *c = ta_alloc(L->pool, sizeof *c);
        c->where = WHERE(e);
        const TaNode *v = ta_node_map_get(e, "name");
        if (!v) {
            ta_error(L->d, "%s: %s: a constraint needs 'name'", WHERE(e), path);
            continue;
        }
        if (!get_memory(L, v, ta_format(L->pool, "%s.name", path), &c->name))
            continue;
        for (int k = 0; k < L->cfg->constraints.len; k++) {
            TaConstraint *prev = L->cfg->constraints.items[k];
            if (strcmp(prev->name, c->name) == 0)
                ta_error(L->d, "%s: %s: memory %s is already constrained at %s", WHERE(e), path,
                         c->name, prev->where);
        }
        if ((v = ta_node_map_get(e, "max_size")))
            c->has_max_size = get_uint(L, v, ta_format(L->pool, "%s.max_size", path), &c->max_size);
        if ((v = ta_node_map_get(e, "arena_alignment")) &&
            (c->has_alignment = get_uint(L, v, ta_format(L->pool, "%s.arena_alignment", path),
                                         &c->arena_alignment))) {
            uint64_t a = c->arena_alignment;
            if (a == 0 || (a & (a - 1)) || a > 4096)
                ta_error(L->d, "%s: %s.arena_alignment: %llu is not a power of two up to 4096",
                         WHERE(v), path, (unsigned long long)a);
        }
        ta_vec_push(L->pool, &L->cfg->constraints, c);
    }
}

/* After memory.planner: each key must be one the selected planner reads. */
static void load_planner_options(Loader *L, const TaNode *n)
{
    if (!expect_map(L, n, "memory.planner_options") || !check_keys(L, n, "memory.planner_options"))
        return;
    int planner = ta_planner_parse(L->cfg->memory_planner);
    for (int i = 0; i < n->count; i++) {
        const char *path = ta_format(L->pool, "memory.planner_options.%s", n->keys[i]);
        int option = ta_planner_option_parse(n->keys[i]);
        TA_ASSERT(option >= 0); /* check_keys knows the same keys */
        if (planner >= 0 && !ta_planner_takes((TaPlannerKind)planner, (TaPlannerOption)option)) {
            TaBuf takes = {0};
            for (int k = 0; k < TA_PLANNER_OPTIONS; k++)
                if (ta_planner_takes((TaPlannerKind)planner, (TaPlannerOption)k))
                    ta_buf_printf(&takes, "%s%s", takes.len ? ", " : "",
                                  ta_planner_option_name((TaPlannerOption)k));
            ta_error(L->d, "%s: %s: memory.planner %s does not read '%s' (its options: %s)",
                     WHERE(n->items[i]), path, L->cfg->memory_planner, n->keys[i],
                     takes.len ? takes.data : "none");
            ta_buf_free(&takes);
            continue;
        }
        TaPlannerOptionSetting *s = ta_alloc(L->pool, sizeof *s);
        s->name = n->keys[i];
        if (get_uint(L, n->items[i], path, &s->value))
            ta_vec_push(L->pool, &L->cfg->planner_options, s);
    }
}

/* Keys that exist only for tinyaot's own tests (they break the plan's
   guarantees on purpose) need the testing switch, TINYAOT_TESTING=1, so
   that none sits unnoticed in a user's configuration. */
static bool testing_allowed(Loader *L, const TaNode *v, const char *key)
{
    const char *on = getenv("TINYAOT_TESTING");
    if (on && strcmp(on, "1") == 0)
        return true;
    ta_error(L->d,
             "%s: %s is for tinyaot's own tests only (it can make wrong results); remove it, or "
             "set TINYAOT_TESTING=1 in the environment to use it",
             WHERE(v), key);
    return false;
}

static void load_memory(Loader *L, const TaNode *n)
{
    if (!expect_map(L, n, "memory"))
        return;
    check_keys(L, n, "memory");
    TaConfig *c = L->cfg;
    const TaNode *v;
    if ((v = ta_node_map_get(n, "planner"))) {
        const char *names[TA_PLANNERS];
        for (int i = 0; i < TA_PLANNERS; i++)
            names[i] = ta_planner_name((TaPlannerKind)i);
        get_choice(L, v, "memory.planner", names, TA_PLANNERS, &c->memory_planner);
    }
    if ((v = ta_node_map_get(n, "planner_options")))
        load_planner_options(L, v);
    if ((v = ta_node_map_get(n, "dump_residency_json")))
        get_bool(L, v, "memory.dump_residency_json", &c->dump_residency_json);
    if ((v = ta_node_map_get(n, "allocate_arenas")))
        get_bool(L, v, "memory.allocate_arenas", &c->allocate_arenas);
    if ((v = ta_node_map_get(n, "output_over_input")))
        get_bool(L, v, "memory.output_over_input", &c->output_over_input);
    if ((v = ta_node_map_get(n, "keep_inputs")))
        get_bool(L, v, "memory.keep_inputs", &c->keep_inputs);
    if ((v = ta_node_map_get(n, "row_streaming"))) {
        static const char *const modes[] = {"auto", "off", "least_ram"};
        get_choice(L, v, "memory.row_streaming", modes, 3, &c->row_streaming);
    }
    if ((v = ta_node_map_get(n, "row_streaming_loops")))
        get_bool(L, v, "memory.row_streaming_loops", &c->row_streaming_loops);
    if ((v = ta_node_map_get(n, "row_streaming_test_shortfall")) &&
        testing_allowed(L, v, "memory.row_streaming_test_shortfall"))
        get_uint(L, v, "memory.row_streaming_test_shortfall", &c->row_streaming_test_shortfall);
    if ((v = ta_node_map_get(n, "row_streaming_test_share_all")) &&
        testing_allowed(L, v, "memory.row_streaming_test_share_all"))
        get_bool(L, v, "memory.row_streaming_test_share_all", &c->row_streaming_test_share_all);
    if ((v = ta_node_map_get(n, "row_streaming_test_share_early")) &&
        testing_allowed(L, v, "memory.row_streaming_test_share_early"))
        get_bool(L, v, "memory.row_streaming_test_share_early", &c->row_streaming_test_share_early);
    if ((v = ta_node_map_get(n, "row_streaming_test_unchecked")) &&
        testing_allowed(L, v, "memory.row_streaming_test_unchecked"))
        get_bool(L, v, "memory.row_streaming_test_unchecked", &c->row_streaming_test_unchecked);
    if ((v = ta_node_map_get(n, "overlap_test_shortfall")) &&
        testing_allowed(L, v, "memory.overlap_test_shortfall"))
        get_uint(L, v, "memory.overlap_test_shortfall", &c->overlap_test_shortfall);
    if ((v = ta_node_map_get(n, "overlap_test_direction")) &&
        testing_allowed(L, v, "memory.overlap_test_direction")) {
        static const char *const directions[] = {"auto", "below", "above"};
        get_choice(L, v, "memory.overlap_test_direction", directions, 3,
                   &c->overlap_test_direction);
    }
    if ((v = ta_node_map_get(n, "auto_hydrate_constants"))) {
        bool ignored;
        if (get_bool(L, v, "memory.auto_hydrate_constants", &ignored)) {
            c->auto_hydrate_constants_given = true;
            ta_warn(L->d,
                    "%s: memory.auto_hydrate_constants is deprecated and changes nothing: "
                    "model_init always hydrates staged constants",
                    WHERE(v));
        }
    }
    if ((v = ta_node_map_get(n, "tensors")))
        load_rules(L, v, "memory.tensors", false, &c->tensor_rules);
    if ((v = ta_node_map_get(n, "constraints")))
        load_constraints(L, v);
}

static void load_transforms(Loader *L, const TaNode *n)
{
    TaConfig *c = L->cfg;
    if (n->kind == TA_NODE_SEQUENCE) {
        c->transforms_exact = true;
        for (int i = 0; i < n->count; i++) {
            TaTransformSetting *s = ta_alloc(L->pool, sizeof *s);
            s->enabled = true;
            if (get_string(L, n->items[i], ta_format(L->pool, "transforms[%d]", i), &s->name))
                ta_vec_push(L->pool, &c->transforms, s);
        }
        return;
    }
    if (!expect_map(L, n, "transforms"))
        return;
    for (int i = 0; i < n->count; i++) {
        TaTransformSetting *s = ta_alloc(L->pool, sizeof *s);
        s->name = n->keys[i];
        if (get_bool(L, n->items[i], ta_format(L->pool, "transforms.%s", s->name), &s->enabled))
            ta_vec_push(L->pool, &c->transforms, s);
    }
}

static void load_documentation(Loader *L, const TaNode *n)
{
    if (!expect_map(L, n, "documentation"))
        return;
    check_keys(L, n, "documentation");
    const TaNode *v = ta_node_map_get(n, "html");
    if (v)
        get_bool(L, v, "documentation.html", &L->cfg->documentation_html);
}

/* A list of files (a single path is a list of one), each resolved like
   model.path. */
static void load_test_files(Loader *L, const TaNode *n, const char *key, TaVec *out)
{
    if (n->kind == TA_NODE_SCALAR) {
        ta_vec_push(L->pool, out, (void *)from_config_dir(L, n, n->scalar));
        return;
    }
    if (n->kind != TA_NODE_SEQUENCE) {
        ta_error(L->d, "%s: %s: expected a list of file paths", WHERE(n), key);
        return;
    }
    for (int i = 0; i < n->count; i++) {
        const char *path;
        if (get_string(L, n->items[i], ta_format(L->pool, "%s[%d]", key, i), &path))
            ta_vec_push(L->pool, out, (void *)from_config_dir(L, n->items[i], path));
    }
}

static void load_test(Loader *L, const TaNode *n)
{
    if (!expect_map(L, n, "test"))
        return;
    check_keys(L, n, "test");
    const TaNode *v;
    if ((v = ta_node_map_get(n, "enabled")))
        get_bool(L, v, "test.enabled", &L->cfg->test_enabled);
    /* ta_scalar_double refuses nan and infinities. */
    if ((v = ta_node_map_get(n, "tolerance")) &&
        (!ta_scalar_double(v, &L->cfg->test_tolerance) || L->cfg->test_tolerance < 0))
        ta_error(L->d, "%s: test.tolerance: expected a finite non-negative number, got '%s'",
                 WHERE(v), v->kind == TA_NODE_SCALAR ? v->scalar : "a collection");
    if ((v = ta_node_map_get(n, "max_loop_iterations")) &&
        get_uint(L, v, "test.max_loop_iterations", &L->cfg->test_max_loop_iterations) &&
        L->cfg->test_max_loop_iterations == 0)
        ta_error(L->d, "%s: test.max_loop_iterations: expected at least 1, got 0", WHERE(v));
    if ((v = ta_node_map_get(n, "inputs")))
        load_test_files(L, v, "test.inputs", &L->cfg->test_inputs);
    if ((v = ta_node_map_get(n, "outputs")))
        load_test_files(L, v, "test.outputs", &L->cfg->test_outputs);
}

static void load_custom_operators(Loader *L, const TaNode *n)
{
    if (n->kind != TA_NODE_SEQUENCE) {
        ta_error(L->d, "%s: custom_operators: expected a list", WHERE(n));
        return;
    }
    bool ok = true;
    for (int i = 0; i < n->count; i++) {
        const TaNode *e = n->items[i];
        const char *path = ta_format(L->pool, "custom_operators[%d]", i);
        if (!expect_map(L, e, path) || !check_keys(L, e, path)) {
            ok = false;
            continue;
        }
        const TaNode *outs = ta_node_map_get(e, "outputs");
        for (int k = 0; outs && outs->kind == TA_NODE_SEQUENCE && k < outs->count; k++) {
            const char *opath = ta_format(L->pool, "%s.outputs[%d]", path, k);
            ok = expect_map(L, outs->items[k], opath) && check_keys(L, outs->items[k], opath) && ok;
        }
        if (!ok)
            continue;
        TaCustomOperator *op = ta_custom_operator_load(L->pool, L->d, e, path, L->config_dir);
        if (op)
            ta_vec_push(L->pool, &L->cfg->custom_operators, op);
        ok = op != NULL;
    }
    if (ok)
        ta_custom_operators_check(L->d, &L->cfg->custom_operators);
}

/* Puts `value` at dotted `key` in the tree, creating maps on the way. */
static bool set_dotted(Loader *L, TaNode *root, const char *key, TaNode *value)
{
    TaNode *map = root;
    const char *p = key;
    for (;;) {
        const char *dot = strchr(p, '.');
        size_t n = dot ? (size_t)(dot - p) : strlen(p);
        if (n == 0) {
            ta_error(L->d, "command line: --%s: empty key segment", key);
            return false;
        }
        char *part = ta_strndup(L->pool, p, n);
        if (!dot) {
            ta_node_map_set(L->pool, map, part, value);
            return true;
        }
        TaNode *next = ta_node_map_get(map, part);
        if (!next) {
            next = ta_node_new(L->pool, TA_NODE_MAP, value->origin, 0);
            ta_node_map_set(L->pool, map, part, next);
        } else if (next->kind != TA_NODE_MAP) {
            ta_error(L->d, "command line: --%s: '%s' does not take sub-keys", key,
                     ta_strndup(L->pool, key, (size_t)(dot - key)));
            return false;
        }
        map = next;
        p = dot + 1;
    }
}

/* The node at root.section.key, or NULL. */
static const TaNode *node_at(const TaNode *root, const char *section, const char *key)
{
    const TaNode *s = ta_node_map_get(root, section);
    return s && s->kind == TA_NODE_MAP ? ta_node_map_get(s, key) : NULL;
}

/* module.type firmware: a board the application is written for, and the
   built-in test case it runs (implied; refused when switched off). */
static void check_firmware(Loader *L, const TaNode *root)
{
    TaConfig *c = L->cfg;
    if (strcmp(c->module_type, "firmware") != 0)
        return;
    const TaNode *type = node_at(root, "module", "type");
    const char *where = type ? WHERE(type) : "module.type";
    if (!ta_firmware_board(c->platform_name))
        ta_error(L->d,
                 "%s: module.type firmware: platform.name '%s' has no firmware board; "
                 "supported: %s (or use module.type cmake and your board's own start-up)",
                 where, c->platform_name, ta_firmware_board_list());
    const TaNode *enabled = node_at(root, "test", "enabled");
    if (enabled && !c->test_enabled)
        ta_error(L->d,
                 "%s: test.enabled: false, but module.type firmware runs the built-in test "
                 "case; leave test.enabled out (firmware turns it on) or set it to true",
                 WHERE(enabled));
    c->test_enabled = true;
}

TaConfig *ta_config_load(TaPool *pool, TaDiag *d, const char *config_path, const char *const *keys,
                         const char *const *values, int count)
{
    return ta_config_load_ex(pool, d, config_path, keys, values, count, true);
}

TaConfig *ta_config_load_ex(TaPool *pool, TaDiag *d, const char *config_path,
                            const char *const *keys, const char *const *values, int count,
                            bool need_module_path)
{
    Loader L = {.pool = pool, .d = d};
    if (config_path) {
        const char *dir = ta_dirname(pool, config_path);
        L.config_dir = strcmp(dir, ".") == 0 ? NULL : dir;
    }
    int errors_before = d->errors;
    TaNode *root = config_path ? ta_yaml_load_file(pool, d, config_path)
                               : ta_node_new(pool, TA_NODE_MAP, "command line", 0);
    if (!root)
        return NULL;
    if (root->kind != TA_NODE_MAP) {
        ta_error(d, "%s: the configuration must be a mapping of keys", ta_node_where(pool, root));
        return NULL;
    }
    for (int i = 0; i < count; i++) {
        const char *origin = ta_format(pool, "command line (--%s)", keys[i]);
        TaNode *v = ta_yaml_parse(pool, d, origin, values[i], strlen(values[i]), false);
        if (v)
            set_dotted(&L, root, keys[i], v);
    }
    if (d->errors > errors_before)
        return NULL;

    TaConfig *c = ta_alloc(pool, sizeof *c);
    L.cfg = c;
    c->config_path = config_path;
    c->module_prefix = "model";
    c->module_type = "cmake";
    c->test_max_loop_iterations = 1000000;
    c->module_schedule = "calls";
    c->platform_name = "host";
    c->memory_planner = ta_planner_name(TA_PLANNER_EXACT);
    c->allocate_arenas = true;
    c->model_name = "model";
    c->model_description = "";
    c->output_over_input = true;
    c->overlap_test_direction = "auto";
    c->row_streaming = "auto";
    c->row_streaming_loops = true;
    c->weights_format = "auto";

    check_keys(&L, root, "");
    const TaNode *v;
    if ((v = ta_node_map_get(root, "model")))
        load_model(&L, v);
    if ((v = ta_node_map_get(root, "module")))
        load_module(&L, v);
    if ((v = ta_node_map_get(root, "platform")))
        load_platform(&L, v);
    if ((v = ta_node_map_get(root, "memory")))
        load_memory(&L, v);
    if ((v = ta_node_map_get(root, "operators")))
        load_rules(&L, v, "operators", true, &c->operator_rules);
    if ((v = ta_node_map_get(root, "custom_operators")))
        load_custom_operators(&L, v);
    if ((v = ta_node_map_get(root, "transforms")))
        load_transforms(&L, v);
    if ((v = ta_node_map_get(root, "weights")))
        load_weights(&L, v);
    if ((v = ta_node_map_get(root, "documentation")))
        load_documentation(&L, v);
    if ((v = ta_node_map_get(root, "test")))
        load_test(&L, v);

    /* "--model x.tflite" was already named with its fix: one line, not two. */
    const TaNode *model = ta_node_map_get(root, "model"), *module = ta_node_map_get(root, "module");
    if (!c->model_path && (!model || model->kind == TA_NODE_MAP))
        ta_error(d, "model.path is required (e.g. --model.path model.tflite)");
    if (!c->module_path && need_module_path && (!module || module->kind == TA_NODE_MAP))
        ta_error(d, "module.path is required (e.g. --module.path out/model)");
    if (!c->module_name)
        c->module_name = c->module_prefix;
    check_firmware(&L, root);
    /* A .pack is a CMSIS-Pack: its manifest comes with module.type cmsis_pack. */
    if (c->archive == TA_ARCHIVE_PACK && strcmp(c->module_type, "cmsis_pack") != 0)
        ta_error(d,
                 "%s: module.path '%s' ends in .pack, which needs module.type: cmsis_pack "
                 "(module.type is %s; use a directory or a .zip for other types)",
                 c->module_path_where, c->module_path, c->module_type);
    return d->errors > errors_before ? NULL : c;
}
