#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "gb_config.h"
#include "src/cli/cli.h"
#include "src/cli/commands.h"

int gb_cmd_version(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--help") == 0) {
        printf("usage: genebench version\n  Print the versions of genebench and its libraries.\n");
        return GB_EXIT_OK;
    }
    if (argc > 1) {
        fprintf(stderr, "usage: genebench version\n");
        return GB_EXIT_USAGE;
    }
    printf("genebench %s\n", GB_VERSION);
    printf("tree-sitter ABI %d, tree-sitter-python 0.23.6\n", TREE_SITTER_LANGUAGE_VERSION);
    printf("jansson %s\n", JANSSON_VERSION);
    printf("default python %s\n", GB_DEFAULT_PYTHON);
    return GB_EXIT_OK;
}
