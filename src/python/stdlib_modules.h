#pragma once
/* The fixed list of Python 3.11 standard-library module names compiled into the binary
 * (sys.stdlib_module_names). Used by C5 so that the classification of library calls never
 * depends on what is installed. Thread-safe. */
#include <stdbool.h>
#include <stddef.h>

/* True when the top-level component of the dotted module name name[0..len) ("os" of
 * "os.path") is a standard-library module. */
bool gb_stdlib_module(const char *name, size_t len);
