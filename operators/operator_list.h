#pragma once
/* The transformation operators (GB_OP_COUNT, 22 in the paper), one X-macro row each:
 *     GB_OPERATOR(code, Name, snake)
 * code is the paper's id (S1..S12, A1..A8, N1..N2), Name the paper's operator name, snake the
 * file and function stem: the row is implemented by operators/<snake>.c, which defines
 *     void gb_op_<snake>_find(GbOpContext *ctx, GbSiteList *out);
 *     bool gb_op_<snake>_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err);
 * (see operators/operator.h). The order is fixed: the rng picks operators by index, so the
 * order is part of reproducibility. Never reorder or insert rows. */
#define GB_OPERATOR_LIST                                                                                               \
    GB_OPERATOR(S1, AddNestedFor, add_nested_for)                                                                      \
    GB_OPERATOR(S2, AddNestedIf, add_nested_if)                                                                        \
    GB_OPERATOR(S3, AddNestedWhile, add_nested_while)                                                                  \
    GB_OPERATOR(S4, AddThread, add_thread)                                                                             \
    GB_OPERATOR(S5, AddTryExcept, add_try_except)                                                                      \
    GB_OPERATOR(S6, CreateFunction, create_function)                                                                   \
    GB_OPERATOR(S7, CreateModuleDependencies, create_module_dependencies)                                              \
    GB_OPERATOR(S8, IntroduceDecorator, introduce_decorator)                                                           \
    GB_OPERATOR(S9, ReplaceNumpy, replace_numpy)                                                                       \
    GB_OPERATOR(S10, TransformAugAssignment, transform_aug_assignment)                                                 \
    GB_OPERATOR(S11, TransformLoopToRecursion, transform_loop_to_recursion)                                            \
    GB_OPERATOR(S12, TransformPrimToCompound, transform_prim_to_compound)                                              \
    GB_OPERATOR(A1, AddBase64, add_base64)                                                                             \
    GB_OPERATOR(A2, AddCrypto, add_crypto)                                                                             \
    GB_OPERATOR(A3, AddDatetime, add_datetime)                                                                         \
    GB_OPERATOR(A4, AddDateutil, add_dateutil)                                                                         \
    GB_OPERATOR(A5, AddHttp, add_http)                                                                                 \
    GB_OPERATOR(A6, AddScipy, add_scipy)                                                                               \
    GB_OPERATOR(A7, AddSklearn, add_sklearn)                                                                           \
    GB_OPERATOR(A8, AddTime, add_time)                                                                                 \
    GB_OPERATOR(N1, RenameVariable, rename_variable)                                                                   \
    GB_OPERATOR(N2, RenameFunction, rename_function)
