/* diff_escape.c: writing untrusted strings (file names, libpng messages)
 * into JSON, XML and URLs. */
#include <stdio.h>
#include <string.h>

#include "diff_internal.h"

/* Length of the valid UTF-8 sequence at s, or 0 if invalid. Rejects
 * overlong forms and surrogates, as JSON and XML parsers do. */
static size_t utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    if (c < 0x80)
        return 1;
    size_t n;
    unsigned min;
    if ((c & 0xe0) == 0xc0) {
        n = 2;
        min = 0x80;
        c &= 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
        n = 3;
        min = 0x800;
        c &= 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
        n = 4;
        min = 0x10000;
        c &= 0x07;
    } else {
        return 0;
    }
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        c = c << 6 | (s[i] & 0x3f);
    }
    if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
        return 0;
    return n;
}

static const char replacement[] = "\xef\xbf\xbd";

void gt_diff_json_str(FILE *f, const char *s)
{
    if (!s) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        size_t n = utf8_len(p);
        if (n == 0) {
            fputs(replacement, f);
            p++;
        } else if (n > 1) {
            fwrite(p, 1, n, f);
            p += n;
        } else {
            unsigned char c = *p++;
            if (c == '"' || c == '\\')
                fprintf(f, "\\%c", c);
            else if (c == '\n')
                fputs("\\n", f);
            else if (c == '\t')
                fputs("\\t", f);
            else if (c < 0x20 || c == 0x7f)
                fprintf(f, "\\u%04x", c);
            else
                fputc(c, f);
        }
    }
    fputc('"', f);
}

void gt_diff_xml_str(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        size_t n = utf8_len(p);
        if (n == 0) {
            fputs(replacement, f);
            p++;
            continue;
        }
        if (n > 1) {
            fwrite(p, 1, n, f);
            p += n;
            continue;
        }
        unsigned char c = *p++;
        switch (c) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        case '\n': fputs("&#10;", f); break;
        case '\t': fputc('\t', f); break;
        default:
            /* XML 1.0 forbids most control characters, even escaped. */
            if (c < 0x20 || c == 0x7f)
                fputs(replacement, f);
            else
                fputc(c, f);
        }
    }
}

void diff_url_path(FILE *f, const char *s)
{
    static const char keep[] = "-._~/";
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr(keep, *p))
            fputc(*p, f);
        else
            fprintf(f, "%%%02X", *p);
    }
}
