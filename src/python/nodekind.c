#include "src/python/nodekind.h"

#include <assert.h>

static const char *const gb_nodekind__names[GB_NK_COUNT] = {"",
#define GB_NODEKIND(e, name) name,
                                                            GB_NODEKIND_LIST
#undef GB_NODEKIND
};

/* tree-sitter's ts_builtin_sym_error (parser.h, not in the public api.h): the symbol of ERROR nodes. */
#define GB_NODEKIND__SYM_ERROR ((TSSymbol)-1)

GbNodeKind gb_nodekind_of_builtin(TSSymbol symbol)
{
    return symbol == GB_NODEKIND__SYM_ERROR ? GB_NK_ERROR : GB_NK_OTHER;
}

const char *gb_node_kind_name(GbNodeKind k)
{
    assert(k >= 0 && k < GB_NK_COUNT);
    return gb_nodekind__names[k];
}
