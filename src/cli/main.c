/* genebench: harden Python code benchmarks. This file only dispatches to subcommands. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "gb_config.h"
#include "src/cli/cli.h"
#include "src/cli/commands.h"

typedef struct {
    const char *name;
    const char *help;
    int (*run)(int argc, char **argv);
} GbCommand;

static const GbCommand gb_commands[] = {
#define GB_COMMAND(name, help) {#name, help, gb_cmd_##name},
#include "src/cli/command_list.h"
#undef GB_COMMAND
};

/* Command names are C identifiers in src/cli/command_list.h; on the command line an underscore
 * is written as a hyphen (`inject_bugs` is `genebench inject-bugs`). Both spellings work. */
static bool gb_command_is(const char *arg, const char *name)
{
    for (; *arg && *name; arg++, name++)
        if (*arg != *name && !(*arg == '-' && *name == '_')) return false;
    return *arg == *name;
}

static void usage(FILE *out)
{
    fprintf(out, "usage: genebench <command> [options]\n"
                 "       genebench <command> --help\n\n"
                 "commands:\n");
    for (size_t i = 0; i < sizeof gb_commands / sizeof gb_commands[0]; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s", gb_commands[i].name);
        for (char *p = name; *p; p++)
            if (*p == '_') *p = '-';
        fprintf(out, "  %-12s %s\n", name, gb_commands[i].help);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return GB_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return GB_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("genebench %s\n", GB_VERSION);
        return GB_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof gb_commands / sizeof gb_commands[0]; i++) {
        if (gb_command_is(argv[1], gb_commands[i].name)) return gb_commands[i].run(argc - 1, argv + 1);
    }
    fprintf(stderr, "genebench: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return GB_EXIT_USAGE;
}
