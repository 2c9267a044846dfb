/* genebench version: the versions of genebench and of its libraries. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "gb_config.h"
#include "src/cli/cli.h"
#include "src/cli/commands.h"

static const GbCliOption gb_version__options[] = {GB_CLI_END};

static const GbCliExit gb_version__exits[] = {
    {0, "printed"},
    {2, "usage error (any option or argument)"},
    {0, NULL},
};

static const GbCliCommand gb_version__cmd = {
    .name = "version",
    .synopsis = "",
    .about = "  Print the versions of genebench and its libraries.\n",
    .options = gb_version__options,
    .min_args = 0,
    .max_args = 0,
    .exits = gb_version__exits,
};

int gb_cmd_version(int argc, char **argv)
{
    char dummy;
    GbCliArgs args;
    int rc = gb_cli_parse(&gb_version__cmd, argc, argv, &dummy, &args);
    if (rc != GB_CLI_CONTINUE) return rc;
    printf("genebench %s\n", GB_VERSION);
    printf("tree-sitter ABI %d, tree-sitter-python 0.23.6\n", TREE_SITTER_LANGUAGE_VERSION);
    printf("jansson %s\n", JANSSON_VERSION);
    printf("default python %s\n", GB_DEFAULT_PYTHON);
    return GB_EXIT_OK;
}
