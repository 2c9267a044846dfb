#pragma once
/* What every subcommand shares. A command is parse -> load -> run -> write:
 *   parse  one static option table per command (GbCliOption rows) from which gb_cli_parse builds
 *          the getopt_long input, checks every value (ranges, finite numbers, choices) and
 *          gb_cli_usage prints the --help text, exit codes included;
 *   load   gb_cli_read_bench reads a benchmark and prints its diagnostics;
 *   run    gb_cli_pool_new starts the worker pool, gb_cli_signals_start turns Ctrl-C / SIGTERM
 *          into a stop request;
 *   write  gb_cli_refuse_output refuses an output that is one of the inputs, gb_cli_lock takes
 *          the exclusive lock of an output that is written over a long run.
 * Every subcommand accepts -h/--help (its usage on stdout, exit 0); an unknown option or a bad
 * value prints a message naming the option (and the usage) on stderr and gives exit code 2. */
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "src/bench/task_io.h"
#include "src/runner/runner.h"

#define GB_EXIT_OK 0
#define GB_EXIT_FAIL 1
#define GB_EXIT_USAGE 2
/* gb_cli_parse: go on with the command (any other value is the exit code to return). */
#define GB_CLI_CONTINUE (-1)

typedef enum {
    GB_OPT_FLAG,   /* bool, set to true when present */
    GB_OPT_STRING, /* const char *, the argument (borrowed from argv) */
    GB_OPT_LONG,   /* long in [lmin, lmax] */
    GB_OPT_DOUBLE, /* finite double in [dmin, dmax] (nan and inf are refused) */
    GB_OPT_ENUM,   /* int: the index of the argument in choices */
    GB_OPT_LIST,   /* GbCliList: every occurrence is appended (a repeatable option) */
    GB_OPT_PARSE,  /* parse(value, dest, msg, size) converts, or writes a message and returns false */
} GbOptKind;

/* The values of a repeatable option (borrowed from argv; free with gb_cli_list_destroy). */
typedef struct {
    const char **items;
    size_t len, cap;
} GbCliList;
void gb_cli_list_destroy(GbCliList *l);

/* One option: its destination is the field at `offset` of the command's option struct. */
typedef struct {
    const char *name; /* long name without "--"; NULL ends a table */
    char short_name;  /* 0: none */
    GbOptKind kind;
    size_t offset;       /* offsetof(the command's option struct, field) */
    const char *metavar; /* shown in the help: FILE, N, ... (not for flags) */
    const char *help;    /* one or more lines ('\n' separates them) */
    const char *def;     /* the default as text: parsed into the destination before argv, like a
                            value given on the command line, and shown in the help; NULL: none */
    long lmin, lmax;
    double dmin, dmax;
    const char *const *choices; /* GB_OPT_ENUM: NULL-terminated */
    bool (*parse)(const char *value, void *dest, char *msg, size_t msg_size);
} GbCliOption;

/* Row makers for the tables (T is the command's option struct). */
#define GB_CLI_FLAG(NAME, SHORT, T, FIELD, HELP)                                                                       \
    {                                                                                                                  \
        .name = NAME, .short_name = SHORT, .kind = GB_OPT_FLAG, .offset = offsetof(T, FIELD), .help = HELP             \
    }
#define GB_CLI_STRING(NAME, SHORT, T, FIELD, META, DEF, HELP)                                                          \
    {                                                                                                                  \
        .name = NAME, .short_name = SHORT, .kind = GB_OPT_STRING, .offset = offsetof(T, FIELD), .metavar = META,       \
        .def = DEF, .help = HELP                                                                                       \
    }
#define GB_CLI_LONG(NAME, SHORT, T, FIELD, META, MIN, MAX, DEF, HELP)                                                  \
    {                                                                                                                  \
        .name = NAME, .short_name = SHORT, .kind = GB_OPT_LONG, .offset = offsetof(T, FIELD), .metavar = META,         \
        .lmin = MIN, .lmax = MAX, .def = DEF, .help = HELP                                                             \
    }
#define GB_CLI_DOUBLE(NAME, SHORT, T, FIELD, META, MIN, MAX, DEF, HELP)                                                \
    {                                                                                                                  \
        .name = NAME, .short_name = SHORT, .kind = GB_OPT_DOUBLE, .offset = offsetof(T, FIELD), .metavar = META,       \
        .dmin = MIN, .dmax = MAX, .def = DEF, .help = HELP                                                             \
    }
#define GB_CLI_ENUM(NAME, SHORT, T, FIELD, META, CHOICES, DEF, HELP)                                                   \
    {                                                                                                                  \
        .name = NAME, .short_name = SHORT, .kind = GB_OPT_ENUM, .offset = offsetof(T, FIELD), .metavar = META,         \
        .choices = CHOICES, .def = DEF, .help = HELP                                                                   \
    }
#define GB_CLI_LIST(NAME, SHORT, T, FIELD, META, HELP)                                                                 \
    {                                                                                                                  \
        .name = NAME, .short_name = SHORT, .kind = GB_OPT_LIST, .offset = offsetof(T, FIELD), .metavar = META,         \
        .help = HELP                                                                                                   \
    }
#define GB_CLI_PARSE(NAME, SHORT, T, FIELD, META, FN, DEF, HELP)                                                       \
    {                                                                                                                  \
        .name = NAME, .short_name = SHORT, .kind = GB_OPT_PARSE, .offset = offsetof(T, FIELD), .metavar = META,        \
        .parse = FN, .def = DEF, .help = HELP                                                                          \
    }
#define GB_CLI_END                                                                                                     \
    {                                                                                                                  \
        .name = NULL                                                                                                   \
    }

/* The choices of a --from/--to option: the upstream formats' names in the order of
 * src/bench/format_list.h (so the index an GB_OPT_ENUM gives is the GbUpstream constant). */
extern const char *const gb_cli_format_choices[];

/* What an exit code means for one command; a table ends with meaning NULL. */
typedef struct {
    int code;
    const char *meaning;
} GbCliExit;

typedef struct {
    const char *name;           /* as typed: "inject-bugs" */
    const char *synopsis;       /* the usage line after "genebench NAME " */
    const char *about;          /* what the command does; lines end with '\n' */
    const GbCliOption *options; /* ended by GB_CLI_END */
    const GbCliOption *more;    /* a second table (shared with another command) or NULL; its */
    size_t more_offset;         /*   destinations are at more_offset in the same option struct */
    int min_args, max_args;     /* positional arguments; max_args -1: no limit */
    const char *args_error;     /* printed when their number is wrong (NULL: only the usage) */
    const char *footer;         /* printed after the options (NULL: nothing) */
    const GbCliExit *exits;     /* ended by {0, NULL} */
} GbCliCommand;

/* The positional arguments (borrowed from argv). */
typedef struct {
    int count;
    char **items;
} GbCliArgs;

/* Parse argv (argv[0] is the command name) into opts, after setting every default of the
 * tables. Returns GB_CLI_CONTINUE, or the exit code: GB_EXIT_OK after printing --help,
 * GB_EXIT_USAGE after a message. Reorders argv like getopt_long (options may follow the
 * positional arguments). Not thread-safe (getopt state). */
int gb_cli_parse(const GbCliCommand *cmd, int argc, char **argv, void *opts, GbCliArgs *args);
/* The --help text: usage line, about, one line per option (from the tables), exit codes. */
void gb_cli_usage(const GbCliCommand *cmd, FILE *out);

/* True when both paths name the same existing file (same device and inode, symbolic links
 * followed), so a command can refuse to overwrite its own input. */
bool gb_cli_same_file(const char *a, const char *b);
/* When `output` (NULL: nothing to check) is one of the n inputs, print
 * "genebench CMD: refusing to overwrite the input IN with the output OUT" and return true
 * (the caller returns GB_EXIT_USAGE). */
bool gb_cli_refuse_output(const char *cmd, const char *output, const char *const *inputs, size_t n);

/* Write a command's text output: to `output` atomically (temporary file in the same directory,
 * then rename), or to stdout when output is NULL. On failure prints "genebench CMD: MESSAGE" and
 * returns false. */
bool gb_cli_write_output(const char *cmd, const char *output, const GbStr *text);

/* Read a canonical benchmark into b (initialised by the caller), printing every diagnostic
 * line on stderr (each prefixed with `prefix` when not NULL). *bad (may be NULL) is
 * increased by the number of bad lines. Returns false when the file could not be read. */
bool gb_cli_read_bench(const char *path, GbBench *b, const char *prefix, size_t *bad);

/* Start the worker pool; on failure prints "genebench CMD: MESSAGE" and returns NULL. */
GbPool *gb_cli_pool_new(const char *cmd, const GbPoolConfig *cfg);

/* Ctrl-C / SIGTERM: SIGINT and SIGTERM are blocked in the calling thread (and so in every thread
 * and process started after it: the pool's workers and their runs inherit the mask); one thread
 * waits for them, records the signal, sets *stop (when not NULL) and interrupts the pool (when
 * not NULL: the runs in progress end at once). They are caught even when the shell started us
 * with them ignored (a background job), as a handler would. Call start before creating any
 * other thread -- OpenMP keeps its threads, and gb_pool_new starts workers from them -- and stop
 * at the end: it restores the mask and the dispositions. */
typedef struct {
    GbPool *pool;                /* borrowed; may be set after start (before any signal matters) */
    volatile sig_atomic_t *stop; /* borrowed; may be NULL */
    volatile sig_atomic_t signo; /* the signal received, 0: none */
    sigset_t old_mask;
    struct sigaction old_int, old_term;
    bool have_thread;
    pthread_t thread;
} GbCliSignals;
void gb_cli_signals_start(GbCliSignals *s, GbPool *pool, volatile sig_atomic_t *stop);
void gb_cli_signals_stop(GbCliSignals *s);

/* An exclusive lock on OUTPUT.lock (flock), held by a long run that writes OUTPUT, so a second
 * run on the same output refuses instead of moving the first one's results aside. OUTPUT is
 * resolved first (symlinks to it or to a directory on its path): the lock belongs to the file,
 * not to the name it was given by. */
typedef struct {
    int fd;
    char *path; /* owned */
} GbCliLock;
/* Returns false, and prints "genebench CMD: ..." naming the output, when another process holds
 * it or the lock file cannot be created. */
bool gb_cli_lock(GbCliLock *lock, const char *cmd, const char *output);
/* Release and remove the lock file. */
void gb_cli_unlock(GbCliLock *lock);

/* The command line as typed (call before gb_cli_parse reorders argv): prog, then argv[0..argc)
 * each quoted for a POSIX shell when needed. Owned. Recorded in the summaries' provenance. */
char *gb_cli_command_line(const char *prog, int argc, char **argv);
/* The current UTC time as "YYYY-MM-DDTHH:MM:SSZ" into out. */
void gb_cli_utc_date(char out[32]);
