/* javac and java in the sandbox (java.h). */
#include "src/eval/java.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#define GB_JAVA_VM_FLAGS(P)                                                                                            \
    P "-Xmx512m", P "-Xss64m", P "-XX:+UseSerialGC", P "-XX:TieredStopAtLevel=1", P "-XX:CICompilerCount=1",           \
        P "-Xshare:auto", P "-XX:-UsePerfData", P "-XX:ReservedCodeCacheSize=64m",                                     \
        P "-XX:CompressedClassSpaceSize=64m", P "-XX:MaxMetaspaceSize=256m"

static const char *const gb_java__env[] = {"MALLOC_ARENA_MAX=2", NULL};

static bool gb_java__tools_ok(const char *home)
{
    char *javac = gb_asprintf("%s/bin/javac", home), *java = gb_asprintf("%s/bin/java", home);
    bool ok = access(javac, X_OK) == 0 && access(java, X_OK) == 0;
    free(javac);
    free(java);
    return ok;
}

static int gb_java__cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char *gb_java_home_find(const char *given, GbError *err)
{
    if (given) {
        if (gb_java__tools_ok(given)) return gb_strdup(given);
        gb_error_set(err, "%s: no executable bin/javac and bin/java there (--java-home)", given);
        return NULL;
    }
    struct utsname u;
    const char *arch = "amd64";
    if (uname(&u) == 0 && strcmp(u.machine, "aarch64") == 0) arch = "arm64";
    char *deb = gb_asprintf("/usr/lib/jvm/java-17-openjdk-%s", arch);
    if (gb_java__tools_ok(deb)) return deb;
    free(deb);
    DIR *d = opendir("/usr/lib/jvm");
    GbArray(char *) names = {0};
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        if (e->d_name[0] != '.') gb_array_push(&names, gb_asprintf("/usr/lib/jvm/%s", e->d_name));
    if (d) closedir(d);
    if (names.len) qsort(names.items, names.len, sizeof *names.items, gb_java__cmp);
    char *found = NULL;
    for (size_t i = 0; i < names.len; i++) {
        if (!found && gb_java__tools_ok(names.items[i]))
            found = names.items[i];
        else
            free(names.items[i]);
    }
    gb_array_free(&names);
    if (!found)
        gb_error_set(err,
                     "no JDK found (no /usr/lib/jvm/java-17-openjdk-%s/bin/javac): install openjdk-17-jdk-headless "
                     "(src/setup.sh does) or give --java-home",
                     arch);
    return found;
}

/* The first lines of s (owned), at most max bytes. */
static char *gb_java__head(const char *s, size_t max_lines, size_t max)
{
    size_t n = 0, lines = 0;
    while (s[n] && n < max) {
        if (s[n] == '\n' && ++lines == max_lines) break;
        n++;
    }
    return gb_asprintf("%.*s%s", (int)n, s, s[n] && s[n] != '\n' ? "..." : "");
}

/* s quoted, newlines escaped, at most 120 bytes (owned). */
static char *gb_java__excerpt(const char *s)
{
    GbStr o;
    gb_str_init(&o);
    gb_str_append(&o, "'");
    size_t i = 0;
    for (; s[i] && i < 120; i++) gb_str_append(&o, s[i] == '\n' ? "\\n" : (char[]){s[i], 0});
    gb_str_append(&o, s[i] ? "...'" : "'");
    return gb_str_take(&o);
}

bool gb_java_score(GbPool *pool, const GbJavaConfig *cfg, const GbTask *task, const char *code, const char *cls,
                   GbRunResult *out, GbError *err)
{
    char *javac = gb_asprintf("%s/bin/javac", cfg->java_home), *java = gb_asprintf("%s/bin/java", cfg->java_home);
    char *file = gb_asprintf("%s.java", cls);
    const char *cargv[] = {
        javac, GB_JAVA_VM_FLAGS("-J"), "-proc:none", "-encoding", "UTF-8", "-nowarn", "-d", ".", file, NULL};
    GbRunFile src = {file, (char *)code, strlen(code)};
    GbExecSpec cs = {.argv = cargv,
                     .env = gb_java__env,
                     .files = &src,
                     .nfiles = 1,
                     .timeout_s = cfg->compile_timeout_s,
                     .cpu_s = cfg->compile_timeout_s,
                     .mem_mb = cfg->mem_mb,
                     .collect_suffix = ".class",
                     .exec_nothing = true,
                     .view = true};
    GbRunFiles classes = {0};
    bool ok = gb_pool_exec(pool, &cs, out, &classes, err);
    if (!ok) goto done;
    if (out->status != GB_RUN_PASS) {
        if (out->status == GB_RUN_FAIL && !strcmp(out->exc_type ? out->exc_type : "", "ExitStatus")) {
            free(out->exc_type);
            free(out->exc_message);
            out->exc_type = gb_strdup("CompileError");
            out->exc_message = gb_java__head(*out->err ? out->err : out->out, 6, 600);
        }
        out->failed_test = gb_strdup("compile");
        goto done;
    }
    gb_run_result_destroy(out);
    gb_run_result_init(out);
    out->status = GB_RUN_PASS;
    const char *jflags[] = {GB_JAVA_VM_FLAGS("")};
    size_t nflags = sizeof jflags / sizeof *jflags;
    const char **rargv = gb_calloc(nflags + 5, sizeof *rargv);
    size_t a = 0;
    rargv[a++] = java;
    for (size_t i = 0; i < nflags; i++) rargv[a++] = jflags[i];
    rargv[a++] = "-cp";
    rargv[a++] = ".";
    rargv[a++] = cls;
    rargv[a] = NULL;
    for (size_t k = 0; k < task->cases.len; k++) {
        const GbStdioCase *c = &task->cases.items[k];
        const char *want = c->stdout_text ? c->stdout_text : "";
        size_t cap = 2 * strlen(want) + 4096;
        GbExecSpec rs = {.argv = rargv,
                         .env = gb_java__env,
                         .files = classes.items,
                         .nfiles = classes.len,
                         .stdin_text = c->stdin_text,
                         .timeout_s = cfg->run_timeout_s,
                         .cpu_s = cfg->run_timeout_s,
                         .mem_mb = cfg->mem_mb,
                         .out_cap = cap,
                         .exec_nothing = true,
                         .view = true}; /* the Java runtime only: no interpreter, no shell */
        GbRunResult one;
        ok = gb_pool_exec(pool, &rs, &one, NULL, err);
        if (!ok) {
            gb_run_result_destroy(&one);
            out->status = GB_RUN_ERROR;
            break;
        }
        out->tests_run++;
        out->wall_s += one.wall_s;
        bool passed = one.status == GB_RUN_PASS;
        gb_stdio_judge(&one, want, gb_java__excerpt);
        if (!passed && one.status == GB_RUN_FAIL && one.err && *one.err) {
            char *head = gb_java__head(one.err, 4, 400);
            char *msg = gb_asprintf("%s: %s", one.exc_message ? one.exc_message : "", head);
            free(one.exc_message);
            one.exc_message = msg;
            free(head);
        }
        if (one.status != GB_RUN_PASS) {
            int run = out->tests_run;
            double wall = out->wall_s;
            gb_run_result_destroy(out);
            *out = one;
            out->tests_run = run;
            out->wall_s = wall;
            free(out->failed_test);
            out->failed_test = gb_asprintf("case %zu", k);
            gb_array_push(&out->failed_tests, gb_asprintf("%zu", k));
            break;
        }
        gb_run_result_destroy(&one);
    }
    if (ok && task->cases.len == 0) {
        out->status = GB_RUN_FAIL;
        out->exc_message = gb_strdup("the task has no stdio cases");
    }
    free(rargv);
done:
    if (!out->out) out->out = gb_strdup("");
    if (!out->err) out->err = gb_strdup("");
    gb_run_files_destroy(&classes);
    free(javac);
    free(java);
    free(file);
    return ok;
}
