/* Build-time tool: turn a text file into a C source defining
 *   const char NAME[] = "...";  const unsigned long NAME_len = N;
 * Usage: embed_text NAME INPUT OUTPUT. Built natively by meson (src/meson.build) so that
 * the build needs neither xxd nor a Python on PATH. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: embed_text NAME INPUT OUTPUT\n");
        return 2;
    }
    FILE *in = fopen(argv[2], "rb");
    if (!in) {
        perror(argv[2]);
        return 1;
    }
    FILE *out = fopen(argv[3], "wb");
    if (!out) {
        perror(argv[3]);
        fclose(in);
        return 1;
    }
    fprintf(out, "/* Generated from %s by embed_text; do not edit. */\n", argv[2]);
    fprintf(out, "const char %s[] =\n\"", argv[1]);
    unsigned long n = 0;
    int c;
    int col = 0;
    while ((c = fgetc(in)) != EOF) {
        n++;
        if (c == '\n') {
            fputs("\\n\"\n\"", out);
            col = 0;
            continue;
        }
        if (c == '\\' || c == '"') {
            fprintf(out, "\\%c", c);
        } else if (c == '?') {
            fputs("\\?", out); /* no trigraphs */
        } else if (c >= 32 && c < 127) {
            fputc(c, out);
        } else {
            fprintf(out, "\\%03o", (unsigned)c);
        }
        if (++col > 200) {
            fputs("\"\n\"", out);
            col = 0;
        }
    }
    fprintf(out, "\";\nconst unsigned long %s_len = %luUL;\n", argv[1], n);
    int bad = ferror(in) || ferror(out);
    fclose(in);
    if (fclose(out) != 0) bad = 1;
    return bad ? 1 : 0;
}
