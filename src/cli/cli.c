#include "src/cli/cli.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/base/util.h"
#include "src/bench/format_list.h"

#define GB_UPSTREAM_FORMAT(ID, snake, layout, rules, purpose, command) #snake,
const char *const gb_cli_format_choices[] = {GB_UPSTREAM_FORMAT_LIST NULL};
#undef GB_UPSTREAM_FORMAT

/* ---- Values ---- */

static bool gb_cli__long(const char *who, const char *opt, const char *value, long min, long max, long *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (errno || !end || *end || end == value || v < min || v > max) {
        fprintf(stderr, "%s: %s expects an integer in [%ld, %ld], got '%s'\n", who, opt, min, max, value);
        return false;
    }
    *out = v;
    return true;
}

static bool gb_cli__double(const char *who, const char *opt, const char *value, double min, double max, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(value, &end);
    /* isfinite: strtod accepts "nan" and "inf", and a NaN passes every range comparison. */
    if (errno || !end || *end || end == value || !isfinite(v) || v < min || v > max) {
        fprintf(stderr, "%s: %s expects a number in [%g, %g], got '%s'\n", who, opt, min, max, value);
        return false;
    }
    *out = v;
    return true;
}

void gb_cli_list_destroy(GbCliList *l)
{
    free(l->items);
    memset(l, 0, sizeof *l);
}

/* Store one value of row o into its destination; prints a message naming the option on error. */
static bool gb_cli__set(const char *cmd, const GbCliOption *o, void *base, const char *value)
{
    char who[64], opt[80];
    snprintf(who, sizeof who, "genebench %s", cmd);
    snprintf(opt, sizeof opt, "--%s", o->name);
    void *dest = (char *)base + o->offset;
    switch (o->kind) {
    case GB_OPT_FLAG:
        *(bool *)dest = true;
        return true;
    case GB_OPT_STRING:
        *(const char **)dest = value;
        return true;
    case GB_OPT_LONG:
        return gb_cli__long(who, opt, value, o->lmin, o->lmax, (long *)dest);
    case GB_OPT_DOUBLE:
        return gb_cli__double(who, opt, value, o->dmin, o->dmax, (double *)dest);
    case GB_OPT_ENUM:
        for (int i = 0; o->choices[i]; i++) {
            if (strcmp(value, o->choices[i]) == 0) {
                *(int *)dest = i;
                return true;
            }
        }
        fprintf(stderr, "%s: %s must be one of", who, opt);
        for (int i = 0; o->choices[i]; i++) fprintf(stderr, "%s %s", i ? "," : "", o->choices[i]);
        fprintf(stderr, ", not '%s'\n", value);
        return false;
    case GB_OPT_LIST: {
        GbCliList *l = dest;
        if (l->len == l->cap) {
            l->cap = l->cap ? 2 * l->cap : 4;
            l->items = gb_realloc(l->items, l->cap * sizeof *l->items);
        }
        l->items[l->len++] = value;
        return true;
    }
    case GB_OPT_PARSE: {
        char msg[256] = "";
        if (o->parse(value, dest, msg, sizeof msg)) return true;
        fprintf(stderr, "%s: %s %s, got '%s'\n", who, opt, msg[0] ? msg : "has a bad value", value);
        return false;
    }
    }
    return false;
}

/* ---- Parsing ---- */

/* Both tables as one list of (row, struct offset). */
typedef struct {
    const GbCliOption *row;
    size_t base;
} GbCliRow;

static size_t gb_cli__rows(const GbCliCommand *cmd, GbCliRow *rows, size_t cap)
{
    size_t n = 0;
    for (const GbCliOption *o = cmd->options; o && o->name; o++)
        if (n < cap) rows[n++] = (GbCliRow){o, 0};
    for (const GbCliOption *o = cmd->more; o && o->name; o++)
        if (n < cap) rows[n++] = (GbCliRow){o, cmd->more_offset};
    assert(n < cap); /* raise GB_CLI_MAX_ROWS */
    return n;
}

#define GB_CLI_MAX_ROWS 64
#define GB_CLI_HELP_VAL 1000 /* getopt value of --help; row i has 256 + i unless it has a letter */

int gb_cli_parse(const GbCliCommand *cmd, int argc, char **argv, void *opts, GbCliArgs *args)
{
    GbCliRow rows[GB_CLI_MAX_ROWS];
    size_t n = gb_cli__rows(cmd, rows, GB_CLI_MAX_ROWS);
    struct option longopts[GB_CLI_MAX_ROWS + 2];
    char shorts[3 * GB_CLI_MAX_ROWS + 4];
    size_t ns = 0;
    shorts[ns++] = ':'; /* a missing value returns ':' (not '?'), so the message can say so */
    shorts[ns++] = 'h';
    for (size_t i = 0; i < n; i++) {
        const GbCliOption *o = rows[i].row;
        bool has_arg = o->kind != GB_OPT_FLAG;
        longopts[i] = (struct option){o->name, has_arg ? required_argument : no_argument, NULL,
                                      o->short_name ? o->short_name : (int)(256 + i)};
        if (o->short_name) {
            shorts[ns++] = o->short_name;
            if (has_arg) shorts[ns++] = ':';
        }
        /* The default, set exactly as if it were given: a bad default is a bug in the table. */
        if (o->def) {
            bool ok = gb_cli__set(cmd->name, o, (char *)opts + rows[i].base, o->def);
            assert(ok);
            (void)ok;
        }
    }
    shorts[ns] = '\0';
    longopts[n] = (struct option){"help", no_argument, NULL, GB_CLI_HELP_VAL};
    longopts[n + 1] = (struct option){NULL, 0, NULL, 0};

    /* The one optind convention: 0 makes GNU getopt start over at argv[1] (argv[0] is the
     * command name) and forget the state of an earlier parse. */
    optind = 0;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
        if (c == 'h' || c == GB_CLI_HELP_VAL) {
            gb_cli_usage(cmd, stdout);
            return GB_EXIT_OK;
        }
        if (c == '?' || c == ':') {
            /* Name the option as typed: "--name" (without "=value"), or "-x" for a letter.
             * optopt is 0 for an unknown long option, else the option's getopt value. */
            char name[96];
            const char *typed = argv[optind - 1];
            if (optopt == 0)
                snprintf(name, sizeof name, "%.*s", (int)strcspn(typed, "="), typed);
            else if (optopt >= 256 && (size_t)(optopt - 256) < n)
                snprintf(name, sizeof name, "--%s", rows[optopt - 256].row->name);
            else if (strncmp(typed, "--", 2) == 0)
                snprintf(name, sizeof name, "%.*s", (int)strcspn(typed, "="), typed);
            else
                snprintf(name, sizeof name, "-%c", optopt);
            const char *what = name;
            if (c == ':')
                fprintf(stderr, "genebench %s: option '%s' needs a value\n", cmd->name, what);
            else
                fprintf(stderr, "genebench %s: unknown option '%s'\n", cmd->name, what);
            gb_cli_usage(cmd, stderr);
            return GB_EXIT_USAGE;
        }
        size_t i = n;
        if (c >= 256) {
            i = (size_t)(c - 256);
        } else {
            for (size_t k = 0; k < n; k++)
                if (rows[k].row->short_name == c) i = k;
        }
        assert(i < n);
        if (!gb_cli__set(cmd->name, rows[i].row, (char *)opts + rows[i].base, optarg)) return GB_EXIT_USAGE;
    }
    int count = argc - optind;
    if (count < cmd->min_args || (cmd->max_args >= 0 && count > cmd->max_args)) {
        if (cmd->args_error) fprintf(stderr, "genebench %s: %s\n", cmd->name, cmd->args_error);
        gb_cli_usage(cmd, stderr);
        return GB_EXIT_USAGE;
    }
    args->count = count;
    args->items = argv + optind;
    return GB_CLI_CONTINUE;
}

/* ---- Help ---- */

static void gb_cli__help_row(FILE *out, const GbCliOption *o)
{
    char head[96], meta[96];
    const char *m = o->metavar;
    if (o->kind == GB_OPT_ENUM && !m) {
        size_t k = 0;
        meta[0] = '\0';
        for (int i = 0; o->choices[i]; i++)
            k += (size_t)snprintf(meta + k, k < sizeof meta ? sizeof meta - k : 0, "%s%s", i ? "|" : "", o->choices[i]);
        m = meta;
    }
    if (o->kind == GB_OPT_FLAG) m = NULL;
    if (o->short_name)
        snprintf(head, sizeof head, "-%c, --%s%s%s", o->short_name, o->name, m ? " " : "", m ? m : "");
    else
        snprintf(head, sizeof head, "    --%s%s%s", o->name, m ? " " : "", m ? m : "");
    const int col = 26;
    fprintf(out, "  %-*s", col - 2, head);
    if ((int)strlen(head) > col - 3) fprintf(out, "\n%*s", col, "");
    /* The help text, continuation lines indented to the column; the default at the end. */
    for (const char *p = o->help; *p;) {
        size_t len = strcspn(p, "\n");
        fprintf(out, "%.*s", (int)len, p);
        p += len;
        if (*p == '\n') {
            p++;
            if (*p) fprintf(out, "\n%*s", col, "");
        }
    }
    if (o->def) fprintf(out, " (default %s)", o->def);
    if (o->kind == GB_OPT_LONG) {
        if (o->lmax == LONG_MAX)
            fprintf(out, " [>= %ld]", o->lmin);
        else
            fprintf(out, " [%ld..%ld]", o->lmin, o->lmax);
    } else if (o->kind == GB_OPT_DOUBLE) {
        fprintf(out, " [%g..%g]", o->dmin, o->dmax);
    } else if (o->kind == GB_OPT_LIST) {
        fprintf(out, " (repeatable)");
    }
    fprintf(out, "\n");
}

void gb_cli_usage(const GbCliCommand *cmd, FILE *out)
{
    fprintf(out, "usage: genebench %s %s\n", cmd->name, cmd->synopsis);
    if (cmd->about) fputs(cmd->about, out);
    fprintf(out, "\noptions:\n");
    GbCliRow rows[GB_CLI_MAX_ROWS];
    size_t n = gb_cli__rows(cmd, rows, GB_CLI_MAX_ROWS);
    for (size_t i = 0; i < n; i++) gb_cli__help_row(out, rows[i].row);
    fprintf(out, "  %-24s%s\n", "-h, --help", "show this help");
    if (cmd->footer) fprintf(out, "\n%s", cmd->footer);
    fprintf(out, "\nexit status:\n");
    for (const GbCliExit *e = cmd->exits; e && e->meaning; e++) fprintf(out, "  %-4d %s\n", e->code, e->meaning);
}

/* ---- Files ---- */

bool gb_cli_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) != 0 || stat(b, &sb) != 0) return false;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

bool gb_cli_refuse_output(const char *cmd, const char *output, const char *const *inputs, size_t n)
{
    if (!output) return false;
    for (size_t i = 0; i < n; i++) {
        if (inputs[i] && gb_cli_same_file(inputs[i], output)) {
            fprintf(stderr, "genebench %s: refusing to overwrite the input %s with the output %s\n", cmd, inputs[i],
                    output);
            return true;
        }
    }
    return false;
}

bool gb_cli_write_output(const char *cmd, const char *output, const GbStr *text)
{
    if (!output) {
        fwrite(text->data ? text->data : "", 1, text->len, stdout);
        return true;
    }
    GbError err;
    if (gb_write_file_atomic(output, text->data ? text->data : "", text->len, &err)) return true;
    fprintf(stderr, "genebench %s: %s\n", cmd, err.msg);
    return false;
}

bool gb_cli_read_bench(const char *path, GbBench *b, const char *prefix, size_t *bad)
{
    GbDiag d;
    gb_diag_init(&d);
    bool ok = gb_bench_read(path, b, &d);
    for (size_t i = 0; i < d.messages.len; i++)
        fprintf(stderr, "%s%s%s\n", prefix ? prefix : "", prefix ? ": " : "", d.messages.items[i]);
    if (bad) *bad += d.messages.len;
    gb_diag_destroy(&d);
    return ok;
}

GbPool *gb_cli_pool_new(const char *cmd, const GbPoolConfig *cfg)
{
    GbError err = {{0}};
    GbPool *pool = gb_pool_new(cfg, &err);
    if (!pool) fprintf(stderr, "genebench %s: %s\n", cmd, err.msg);
    return pool;
}

/* ---- Signals ---- */

static void gb_cli__signal_set(sigset_t *set)
{
    sigemptyset(set);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGUSR2); /* wakes the thread at the end */
}

static void *gb_cli__signal_thread(void *arg)
{
    GbCliSignals *s = arg;
    sigset_t set;
    gb_cli__signal_set(&set);
    int sig = 0;
    if (sigwait(&set, &sig) == 0 && sig != SIGUSR2) {
        s->signo = sig;
        if (s->stop) *s->stop = 1;
        if (s->pool) gb_pool_interrupt(s->pool);
    }
    return NULL;
}

/* Never runs (the signals are blocked); it only replaces SIG_IGN, which would drop them. */
static void gb_cli__no_op(int sig)
{
    (void)sig;
}

void gb_cli_signals_start(GbCliSignals *s, GbPool *pool, volatile sig_atomic_t *stop)
{
    s->pool = pool;
    s->stop = stop;
    s->signo = 0;
    sigset_t set;
    gb_cli__signal_set(&set);
    pthread_sigmask(SIG_BLOCK, &set, &s->old_mask);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = gb_cli__no_op;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &s->old_int);
    sigaction(SIGTERM, &sa, &s->old_term);
    s->have_thread = pthread_create(&s->thread, NULL, gb_cli__signal_thread, s) == 0;
}

void gb_cli_signals_stop(GbCliSignals *s)
{
    if (s->have_thread) {
        pthread_kill(s->thread, SIGUSR2);
        pthread_join(s->thread, NULL);
        s->have_thread = false;
    }
    sigaction(SIGINT, &s->old_int, NULL);
    sigaction(SIGTERM, &s->old_term, NULL);
    pthread_sigmask(SIG_SETMASK, &s->old_mask, NULL);
}

/* ---- Output lock ---- */

/* The file output names, as one path however it is reached (a symlink to it, also to an output
 * not written yet; a directory reached through a symlink): its lock must be the same for every
 * name of it. Owned. */
static char *gb_cli__lock_target(const char *output)
{
    char *path = gb_strdup(output);
    for (int hop = 0; hop < 40; hop++) {
        char *real = realpath(path, NULL); /* an existing output (or symlink to one) */
        if (real) {
            char *t = gb_strdup(real);
            free(real);
            free(path);
            return t;
        }
        /* realpath needs the end of the chain to exist: follow a dangling symlink by hand */
        char link[PATH_MAX];
        ssize_t n = readlink(path, link, sizeof link - 1);
        if (n <= 0) break;
        link[n] = '\0';
        const char *slash = strrchr(path, '/');
        char *next =
            link[0] == '/' || !slash ? gb_strdup(link) : gb_asprintf("%.*s/%s", (int)(slash - path), path, link);
        free(path);
        path = next;
    }
    const char *slash = strrchr(path, '/');
    char *dir = slash ? gb_strndup(path, (size_t)(slash - path) + (slash == path)) : gb_strdup(".");
    const char *base = slash ? slash + 1 : path;
    char *rdir = realpath(dir, NULL);
    char *t = rdir ? gb_asprintf("%s%s%s", rdir, strcmp(rdir, "/") == 0 ? "" : "/", base) : gb_strdup(path);
    free(rdir);
    free(dir);
    free(path);
    return t;
}

bool gb_cli_lock(GbCliLock *lock, const char *cmd, const char *output)
{
    char *target = gb_cli__lock_target(output);
    lock->path = gb_asprintf("%s.lock", target);
    free(target);
    for (int attempt = 0; attempt < 100; attempt++) {
        lock->fd = open(lock->path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (lock->fd < 0) {
            fprintf(stderr, "genebench %s: cannot create the lock file %s: %s\n", cmd, lock->path, strerror(errno));
            break;
        }
        if (flock(lock->fd, LOCK_EX | LOCK_NB) != 0) {
            if (errno == EWOULDBLOCK) {
                char pid[32] = "";
                ssize_t k = pread(lock->fd, pid, sizeof pid - 1, 0);
                pid[k > 0 ? k : 0] = '\0';
                pid[strcspn(pid, "\n")] = '\0';
                char who[64] = "";
                if (pid[0]) snprintf(who, sizeof who, " (process %s)", pid);
                fprintf(stderr,
                        "genebench %s: another run%s is writing %s (it holds %s); wait for it to end or choose "
                        "another output\n",
                        cmd, who, output, lock->path);
            } else {
                fprintf(stderr, "genebench %s: cannot lock %s: %s\n", cmd, lock->path, strerror(errno));
            }
            close(lock->fd);
            break;
        }
        /* The holder before us may have removed the file between our open and flock: then we
         * hold a lock nobody else can see, and must lock the file that is there now. */
        struct stat a, b;
        if (fstat(lock->fd, &a) == 0 && stat(lock->path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
            char pid[32];
            int len = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
            if (ftruncate(lock->fd, 0) == 0 && pwrite(lock->fd, pid, (size_t)len, 0) < 0) {
                /* the pid is only a hint in the message of a second run */
            }
            return true;
        }
        close(lock->fd);
    }
    free(lock->path);
    lock->path = NULL;
    lock->fd = -1;
    return false;
}

void gb_cli_unlock(GbCliLock *lock)
{
    if (lock->fd >= 0) {
        unlink(lock->path); /* while still locked: a waiting run then re-checks (see gb_cli_lock) */
        close(lock->fd);
    }
    free(lock->path);
    lock->path = NULL;
    lock->fd = -1;
}

char *gb_cli_command_line(const char *prog, int argc, char **argv)
{
    GbStr s;
    gb_str_init(&s);
    gb_str_append(&s, prog);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        bool plain =
            *a && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=,@+%") == strlen(a);
        if (plain) {
            gb_str_appendf(&s, " %s", a);
            continue;
        }
        gb_str_append(&s, " '");
        for (const char *c = a; *c; c++) gb_str_append(&s, *c == '\'' ? "'\\''" : (char[2]){*c, 0});
        gb_str_append(&s, "'");
    }
    return gb_str_take(&s);
}

void gb_cli_utc_date(char out[32])
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
