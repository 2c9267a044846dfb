#pragma once
/* Simple, sound type inference for Python values of one module, for operators whose safety
 * depends on a value's type (TransformAugAssignment, ReplaceNumpy, ...).
 *
 * A type is a set of possible classes (GB_TY_* bits). Inference is flow-insensitive: the type
 * of a variable is the union over every binding of it in the module (all scopes that refer to
 * the same variable, including global/nonlocal writers), computed as a least fixpoint. Anything
 * not understood (parameters, imports, calls of unknown functions, attributes, tuple unpacking,
 * star imports, names the tests may touch, ...) is GB_TY_UNKNOWN. Only exact builtins count:
 * `len(x)` is an int only when `len` resolves to the builtin.
 *
 * A GbTypes belongs to the caller; it is a snapshot of one module's source. */
#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "operators/operator.h"

enum {
    GB_TY_INT = 1u << 0,
    GB_TY_FLOAT = 1u << 1,
    GB_TY_BOOL = 1u << 2,
    GB_TY_STR = 1u << 3,
    GB_TY_BYTES = 1u << 4,
    GB_TY_NONE = 1u << 5,
    GB_TY_TUPLE = 1u << 6,
    GB_TY_LIST = 1u << 7,
    GB_TY_DICT = 1u << 8,
    GB_TY_SET = 1u << 9,
    GB_TY_UNKNOWN = 1u << 15
};
/* Immutable scalars: for these `x op= y` and `x = x op y` are the same operation. */
#define GB_TY_SCALAR (GB_TY_INT | GB_TY_FLOAT | GB_TY_BOOL | GB_TY_STR | GB_TY_BYTES)
#define GB_TY_NUMBER (GB_TY_INT | GB_TY_FLOAT | GB_TY_BOOL)

typedef struct {
    char *name;   /* owned */
    int scope;    /* defining scope */
    unsigned type;
} GbTypedVar;

typedef struct {
    GbOpContext *ctx;
    size_t module;
    GbArray(GbTypedVar) vars;
} GbTypes;

/* Infer the types of every variable of a module (the context's current source). */
void gb_types_init(GbTypes *t, GbOpContext *ctx, size_t module);
void gb_types_destroy(GbTypes *t);
/* Type of an expression node of that module. 0 means "no value" (e.g. only unreachable). */
unsigned gb_types_expr(const GbTypes *t, TSNode expr);
/* Type of the variable `name` as seen from scope. */
unsigned gb_types_var(const GbTypes *t, int scope, const char *name);
/* Result type of `a op b` for single-class operand types a and b (one GB_TY_* bit each), or 0
 * when Python raises TypeError for that combination. op is the operator text ("+", "//", ...). */
unsigned gb_types_binop(const char *op, unsigned a, unsigned b);
