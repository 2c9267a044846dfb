#pragma once
/* Declarations of every subcommand entry point (generated from src/cli/command_list.h).
 * Each returns the process exit status: 0 success, 1 some task failed, 2 usage error. */
#define GB_COMMAND(name, help) int gb_cmd_##name(int argc, char **argv);
#include "src/cli/command_list.h"
#undef GB_COMMAND
