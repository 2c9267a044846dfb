/* Development aid for tests/bench/tokenize_compare.sh: prints the tokens of fitness/tokenize.c
 * for each input file, one token per line, each file followed by a line "\x01" (and with
 * --lines, the token count of every physical line instead). Not part of the test suite. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/tokenize.h"
#include "src/base/util.h"

static void print_tok(void *ctx, const char *tok, size_t len)
{
    (void)ctx;
    fwrite(tok, 1, len, stdout);
    fputc('\n', stdout);
}

int main(int argc, char **argv)
{
    GbTokenizer tk;
    gb_tokenizer_init(&tk);
    int lines = 0, rc = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--lines") == 0) {
            lines = 1;
            continue;
        }
        GbError err;
        size_t n;
        char *src = gb_read_file(argv[i], &n, &err);
        if (!src) {
            fprintf(stderr, "%s\n", err.msg);
            rc = 1;
            continue;
        }
        if (lines) {
            size_t a = 0;
            for (size_t b = 0; b <= n; b++) {
                if (b == n || src[b] == '\n') {
                    printf("%zu\n", gb_word_tokenize(&tk, src + a, b - a, NULL, NULL));
                    a = b + 1;
                }
            }
        } else {
            gb_word_tokenize(&tk, src, n, print_tok, NULL);
        }
        fputs("\x01\n", stdout);
        free(src);
    }
    gb_tokenizer_destroy(&tk);
    return rc;
}
