// SPDX-License-Identifier: MIT
// Flame graph SVG from folded stacks (flamegraph.h). The stacks are merged into a tree by
// name (the same function at the same position under the same callers is one box); a box's
// width is the pcycles of every stack through it, its children sit on top of it in name
// order from its left edge, and what is left of its width is its own time. Boxes narrower
// than a tenth of a pixel are left out (their time still counts in their parents). The
// picture carries flamegraph_script.c's script (zoom and search in a browser) and the
// layout it reads: each box's name in data-name, the drawing area in the root's
// data-left/data-width; a box too narrow for a label has an empty <text> the script fills
// when a zoom widens it.
#include "flamegraph.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 1024          // frames past this in a line count in the last kept one
#define WIDTH 1200.0            // the picture, in pixels
#define PAD 10.0
#define ROW 16.0
#define TOP 40.0                // the title's band
#define BOTTOM 20.0             // the search result's band

struct fnode {
    char *name;
    uint64_t total;
    struct fnode *child, *next;
};

struct graph {
    struct fnode root;
    unsigned depth;             // deepest stack seen (root = 0)
    FILE *out;
    double scale;               // pixels per pcycle
    uint64_t all;
};

static struct fnode *child_named(struct fnode *n, const char *name, size_t len)
{
    for (struct fnode *c = n->child; c; c = c->next)
        if (strlen(c->name) == len && memcmp(c->name, name, len) == 0)
            return c;
    struct fnode *c = calloc(1, sizeof(*c));
    if (!c || !(c->name = malloc(len + 1))) {
        free(c);
        return NULL;
    }
    memcpy(c->name, name, len);
    c->name[len] = '\0';
    c->next = n->child;
    n->child = c;
    return c;
}

static void free_tree(struct fnode *n)
{
    for (struct fnode *c = n->child, *next; c; c = next) {
        next = c->next;
        free_tree(c);
        free(c->name);
        free(c);
    }
}

int hexsim_folded_line(char *line, unsigned long long *count)
{
    char *sp = strrchr(line, ' ');
    if (!sp || sp == line)
        return -1;
    char *end;
    errno = 0;
    *count = strtoull(sp + 1, &end, 10);
    if (*end || end == sp + 1 || errno)
        return -1;
    *sp = '\0';
    return 0;
}

// Adds one "a;b;c N" line; returns -1 when it is not one.
static int add_line(struct graph *g, char *line)
{
    size_t len = strcspn(line, "\r\n");
    line[len] = '\0';
    if (!len)
        return 0;
    unsigned long long v;
    if (hexsim_folded_line(line, &v))
        return -1;
    struct fnode *n = &g->root;
    n->total += v;
    unsigned depth = 0;
    for (char *s = line; *s && depth < MAX_DEPTH;) {
        size_t k = strcspn(s, ";");
        struct fnode *c = child_named(n, s, k);
        if (!c)
            return -1;
        c->total += v;
        n = c;
        depth++;
        s += k;
        if (*s == ';')
            s++;
    }
    if (depth > g->depth)
        g->depth = depth;
    return 0;
}

// Warm colours (red to yellow) that depend only on the name, so pictures compare.
static void colour(const char *name, unsigned *r, unsigned *gr, unsigned *b)
{
    uint32_t h = 2166136261u;
    for (const char *s = name; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    *r = 205 + (h & 0xff) * 50 / 255;
    *gr = ((h >> 8) & 0xff) * 230 / 255;
    *b = ((h >> 16) & 0xff) * 55 / 255;
}

static void xml_text(FILE *f, const char *s, size_t max)
{
    for (size_t i = 0; s[i] && i < max; i++) {
        switch (s[i]) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(s[i], f); break;
        }
    }
}

static int by_name(const void *a, const void *b)
{
    const struct fnode *x = *(const struct fnode *const *)a, *y = *(const struct fnode *const *)b;
    return strcmp(x->name, y->name);
}

static void draw(struct graph *g, const struct fnode *n, unsigned depth, double x)
{
    double w = (double)n->total * g->scale;
    if (w < 0.1)
        return;
    FILE *f = g->out;
    double y = TOP + ((double)g->depth - depth) * ROW;
    unsigned r, gr, b;
    colour(n->name, &r, &gr, &b);
    fputs("<g class=\"f\" data-name=\"", f);
    xml_text(f, n->name, SIZE_MAX);
    fputs("\"><title>", f);
    xml_text(f, n->name, SIZE_MAX);
    fprintf(f, " (%" PRIu64 " pcycles, %.2f%%)</title>", n->total,
            g->all ? 100.0 * (double)n->total / (double)g->all : 0.0);
    // x and width to a thousandth of a pixel: the script finds a box's callees by their
    // spans, which rounding to tenths could push past the caller's edge
    fprintf(f, "<rect x=\"%.3f\" y=\"%.1f\" width=\"%.3f\" height=\"%.1f\" "
            "fill=\"rgb(%u,%u,%u)\" rx=\"2\" ry=\"2\"/>", x, y, w, ROW - 1, r, gr, b);
    size_t fit = (size_t)(w / 7.0);   // about 7 pixels per character at 12 px
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", x + 3, y + ROW - 4.5);
    if (fit >= 3) {
        size_t len = strlen(n->name);
        xml_text(f, n->name, len <= fit ? len : fit - 2);
        fputs(len <= fit ? "" : "..", f);
    }
    fputs("</text></g>\n", f);
    size_t nc = 0;
    for (const struct fnode *c = n->child; c; c = c->next)
        nc++;
    const struct fnode **kids = nc ? malloc(nc * sizeof(*kids)) : NULL;
    if (!kids)
        return;
    nc = 0;
    for (const struct fnode *c = n->child; c; c = c->next)
        kids[nc++] = c;
    qsort(kids, nc, sizeof(*kids), by_name);
    for (size_t i = 0; i < nc; i++) {
        draw(g, kids[i], depth + 1, x);
        x += (double)kids[i]->total * g->scale;
    }
    free(kids);
}

int hexsim_flamegraph_write(const char *folded_path, const char *svg_path, const char *title,
                            char *msg, size_t msglen)
{
    struct graph g = { .root = { .name = "all" } };
    FILE *in = fopen(folded_path, "r");
    if (!in) {
        snprintf(msg, msglen, "cannot read %s: %s", folded_path, strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    unsigned lineno = 0;
    int rc = 0;
    while (getline(&line, &cap, in) >= 0) {
        lineno++;
        if (add_line(&g, line)) {
            snprintf(msg, msglen, "%s:%u: not a folded stack (\"a;b;c COUNT\")", folded_path,
                     lineno);
            rc = -1;
            break;
        }
    }
    free(line);
    fclose(in);
    FILE *f = rc ? NULL : fopen(svg_path, "w");
    if (!rc && !f) {
        snprintf(msg, msglen, "cannot write %s: %s", svg_path, strerror(errno));
        rc = -1;
    }
    if (f) {
        g.out = f;
        g.all = g.root.total;
        g.scale = g.all ? (WIDTH - 2 * PAD) / (double)g.all : 0.0;
        double height = TOP + (g.depth + 1) * ROW + 2 * PAD + BOTTOM;
        fprintf(f, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
                "<svg version=\"1.1\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                "data-left=\"%.1f\" data-width=\"%.1f\" xmlns=\"http://www.w3.org/2000/svg\">\n",
                WIDTH, height, WIDTH, height, PAD, WIDTH - 2 * PAD);
        fprintf(f, "<style>text { font-family: monospace; font-size: 12px; fill: #000; }\n"
                "g.f, .button { cursor: pointer; }\n.button { fill: #306; }</style>\n"
                "<script type=\"text/ecmascript\"><![CDATA[\n%s]]></script>\n"
                "<rect x=\"0\" y=\"0\" width=\"100%%\" height=\"100%%\" "
                "fill=\"#f8f8f0\"/>\n<text x=\"%.1f\" y=\"24\" text-anchor=\"middle\" "
                "style=\"font-size: 17px\">", hexsim_flamegraph_script, WIDTH / 2);
        xml_text(f, title, SIZE_MAX);
        fprintf(f, " (%" PRIu64 " pcycles)</text>\n", g.all);
        fprintf(f, "<text id=\"fg-unzoom\" class=\"button\" x=\"%.1f\" y=\"24\" "
                "style=\"opacity: 0\">Reset zoom</text>\n"
                "<text id=\"fg-search\" class=\"button\" x=\"%.1f\" y=\"24\" "
                "text-anchor=\"end\">Search</text>\n"
                "<text id=\"fg-matched\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\"></text>\n",
                PAD, WIDTH - PAD, WIDTH - PAD, height - 6);
        draw(&g, &g.root, 0, PAD);
        fputs("</svg>\n", f);
        if (fclose(f) != 0) {
            snprintf(msg, msglen, "cannot write %s: %s", svg_path, strerror(errno));
            rc = -1;
        }
    }
    free_tree(&g.root);
    return rc;
}
