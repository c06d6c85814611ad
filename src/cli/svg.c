/* svg.c: line plots as SVG (svg.h). */
#include "svg.h"
#include <math.h>
#include <string.h>

const char *pala_svg_colour(int i)
{
    static const char *const c[10] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                      "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};
    return c[((i % 10) + 10) % 10];
}

/* The length of the valid UTF-8 sequence at s (1 to 4), or 0 if it is not one: no
 * overlong form, no surrogate, nothing above U+10FFFF (RFC 3629, section 4). */
static int utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    int n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80) return 0;
    if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) || (c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] > 0x8f)) return 0;
    return n;
}

/* Text for an XML document: the markup characters escaped, and what XML 1.0 does not
 * allow in a document (control characters, bytes that are not UTF-8) replaced by U+FFFD,
 * so that any name a control file or trajectory holds gives a file every parser opens. */
void pala_svg_text(FILE *f, const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    while (*u) {
        int n = utf8_len(u);
        if (*u == '&') fputs("&amp;", f);
        else if (*u == '<') fputs("&lt;", f);
        else if (*u == '>') fputs("&gt;", f);
        else if (*u == '"') fputs("&quot;", f);
        else if (!n || (*u < 0x20 && *u != '\t' && *u != '\n')) fputs("\xef\xbf\xbd", f);
        else fwrite(u, 1, (size_t)n, f);
        u += n ? n : 1;
    }
}

/* The ticks k st of [a, b] (a 1-2-5 step st), at most PALA_SVG_MAXTICKS of them: counted
 * by an integer, so a step below the values' resolution (times a few ulps apart at a
 * large magnitude) cannot stall the loop. */
enum { PALA_SVG_MAXTICKS = 64 };
static int ticks(double a, double b, double st, double *v)
{
    if (!(st > 0) || !isfinite(a) || !isfinite(b) || !isfinite(st)) return 0;
    double k0 = ceil(a / st - 1e-9), k1 = floor(b / st + 1e-9);
    int n = 0;
    for (double k = k0; k <= k1 && n < PALA_SVG_MAXTICKS; k++) {
        double x = k * st;
        if (n == 0 || x > v[n - 1]) v[n++] = x;   /* distinct values only */
        if (k + 1 == k) break;                     /* k beyond 2^53 */
    }
    return n;
}

/* a step of 1, 2 or 5 times a power of ten, about span/n */
static double nice_step(double span, int n)
{
    double raw = span / n, p = pow(10, floor(log10(raw))), m = raw / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

void pala_svg_range(double *lo, double *hi, int log, int zero)
{
    double a = *lo, b = *hi;
    if (!isfinite(a) || !isfinite(b) || a > b) { a = log ? 1e-16 : 0; b = log ? 1 : 1; }
    if (log) {
        if (a <= 0) a = b * 1e-6;
        double la = floor(log10(a)), lb = ceil(log10(b));
        if (lb <= la) lb = la + 1;
        *lo = pow(10, la);
        *hi = pow(10, lb);
        return;
    }
    if (zero) { if (a > 0) a = 0; if (b < 0) b = 0; }
    if (b - a <= 1e-300 * (fabs(a) + fabs(b)) || b == a) { double d = a != 0 ? fabs(a) * 0.1 : 1; a -= d; b += d; }
    double st = nice_step(b - a, 6);
    *lo = floor(a / st + 1e-9) * st;
    *hi = ceil(b / st - 1e-9) * st;
}

static double px(const pala_svg_plot *p, double x) { return p->left + (x - p->x0) / (p->x1 - p->x0) * (p->W - p->left - p->right); }
static double py(const pala_svg_plot *p, double y)
{
    double h = p->H - p->top - p->bottom;
    if (p->ylog) return p->top + h - (log10(y) - log10(p->y0)) / (log10(p->y1) - log10(p->y0)) * h;
    return p->top + h - (y - p->y0) / (p->y1 - p->y0) * h;
}

/* An axis [*a, *b] of positive width: finite ends (else [0, 1]); equal ends 1 apart, as
 * always, or 1e-9 of their magnitude where 1 is below its resolution (at 1e20). */
static void span(double *a, double *b, int log)
{
    if (!isfinite(*a) || !isfinite(*b) || (log && !(*a > 0))) { *a = log ? 1e-16 : 0; *b = 1; }
    if (!(*b > *a)) *b = *a + 1;
    if (!(*b > *a)) *b = *a + fabs(*a) * 1e-9;
    if (!isfinite(*b)) { *b = *a; *a -= fabs(*a) * 1e-9; }
}

/* a tick label: %g, with -0 as 0 */
static void label(char *buf, size_t n, double v, double step)
{
    if (fabs(v) < 1e-9 * step) v = 0;
    snprintf(buf, n, "%g", v);
}

void pala_svg_begin(pala_svg_plot *p, FILE *f, double W, double H, double x0, double x1, double y0, double y1,
                    int ylog, const char *title, const char *xlabel, const char *ylabel)
{
    memset(p, 0, sizeof *p);
    p->f = f; p->W = W; p->H = H;
    p->left = 86; p->right = 200;   /* the legend goes right of the frame */ p->top = 48; p->bottom = 58;
    p->x0 = x0; p->x1 = x1; p->y0 = y0; p->y1 = y1; p->ylog = ylog;
    span(&p->x0, &p->x1, 0);
    span(&p->y0, &p->y1, ylog);
    double sy = 1;
    double fx0 = p->left, fx1 = W - p->right, fy0 = p->top, fy1 = H - p->bottom;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" viewBox=\"0 0 %g %g\" "
               "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"13\">\n", W, H, W, H);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(f, "<defs><clipPath id=\"frame\"><rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\"/></clipPath></defs>\n", fx0, fy0, fx1 - fx0, fy1 - fy0);
    fprintf(f, "<text x=\"%g\" y=\"28\" font-size=\"16\" font-weight=\"bold\" text-anchor=\"middle\">", (fx0 + fx1) / 2);
    pala_svg_text(f, title);
    fprintf(f, "</text>\n");
    /* x ticks and grid */
    double st = nice_step(p->x1 - p->x0, 6);
    char b[64];
    fprintf(f, "<g stroke=\"#e4e4e4\" stroke-width=\"1\">\n");
    double xt[PALA_SVG_MAXTICKS], yt[PALA_SVG_MAXTICKS];
    int nx = ticks(p->x0, p->x1, st, xt), ny = 0;
    for (int i = 0; i < nx; i++)
        fprintf(f, "<line x1=\"%.2f\" y1=\"%g\" x2=\"%.2f\" y2=\"%g\"/>\n", px(p, xt[i]), fy0, px(p, xt[i]), fy1);
    if (ylog) {
        for (double e = floor(log10(p->y0)); e <= log10(p->y1) + 1e-9; e++)
            fprintf(f, "<line x1=\"%g\" y1=\"%.2f\" x2=\"%g\" y2=\"%.2f\"/>\n", fx0, py(p, pow(10, e)), fx1, py(p, pow(10, e)));
    } else {
        sy = nice_step(p->y1 - p->y0, 6);
        ny = ticks(p->y0, p->y1, sy, yt);
        for (int i = 0; i < ny; i++)
            fprintf(f, "<line x1=\"%g\" y1=\"%.2f\" x2=\"%g\" y2=\"%.2f\"/>\n", fx0, py(p, yt[i]), fx1, py(p, yt[i]));
    }
    fprintf(f, "</g>\n<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"none\" stroke=\"#333\" stroke-width=\"1.2\"/>\n",
            fx0, fy0, fx1 - fx0, fy1 - fy0);
    fprintf(f, "<g stroke=\"#333\" stroke-width=\"1.2\">\n");
    for (int i = 0; i < nx; i++)
        fprintf(f, "<line x1=\"%.2f\" y1=\"%g\" x2=\"%.2f\" y2=\"%g\"/>\n", px(p, xt[i]), fy1, px(p, xt[i]), fy1 + 5);
    if (ylog) {
        int span = (int)lround(log10(p->y1) - log10(p->y0));
        for (double e = floor(log10(p->y0)); e <= log10(p->y1) + 1e-9; e++) {
            fprintf(f, "<line x1=\"%g\" y1=\"%.2f\" x2=\"%g\" y2=\"%.2f\"/>\n", fx0 - 5, py(p, pow(10, e)), fx0, py(p, pow(10, e)));
            for (int m = 2; m <= 9 && span <= 8; m++) {   /* minor ticks */
                double v = m * pow(10, e);
                if (v < p->y1) fprintf(f, "<line x1=\"%g\" y1=\"%.2f\" x2=\"%g\" y2=\"%.2f\" stroke-width=\"0.8\"/>\n", fx0 - 3, py(p, v), fx0, py(p, v));
            }
        }
    } else {
        for (int i = 0; i < ny; i++)
            fprintf(f, "<line x1=\"%g\" y1=\"%.2f\" x2=\"%g\" y2=\"%.2f\"/>\n", fx0 - 5, py(p, yt[i]), fx0, py(p, yt[i]));
    }
    fprintf(f, "</g>\n<g fill=\"#222\">\n");
    for (int i = 0; i < nx; i++) {
        label(b, sizeof b, xt[i], st);
        fprintf(f, "<text x=\"%.2f\" y=\"%g\" text-anchor=\"middle\">%s</text>\n", px(p, xt[i]), fy1 + 20, b);
    }
    if (ylog) {
        int span = (int)lround(log10(p->y1) - log10(p->y0)), every = span > 12 ? 3 : span > 7 ? 2 : 1;
        for (double e = floor(log10(p->y0)); e <= log10(p->y1) + 1e-9; e++) {
            if (((long)e % every + every) % every) continue;
            fprintf(f, "<text x=\"%g\" y=\"%.2f\" text-anchor=\"end\">10<tspan dy=\"-6\" font-size=\"10\">%ld</tspan></text>\n",
                    fx0 - 8, py(p, pow(10, e)) + 5, (long)e);
        }
    } else {
        for (int i = 0; i < ny; i++) {
            label(b, sizeof b, yt[i], sy);
            fprintf(f, "<text x=\"%g\" y=\"%.2f\" text-anchor=\"end\">%s</text>\n", fx0 - 8, py(p, yt[i]) + 4.5, b);
        }
    }
    fprintf(f, "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">", (fx0 + fx1) / 2, H - 14);
    pala_svg_text(f, xlabel);
    fprintf(f, "</text>\n<text transform=\"translate(18 %g) rotate(-90)\" text-anchor=\"middle\">", (fy0 + fy1) / 2);
    pala_svg_text(f, ylabel);
    fprintf(f, "</text>\n</g>\n");
}

void pala_svg_line(pala_svg_plot *p, int n, const double *x, const double *y, const char *colour, double width,
                   const char *dash, int marker)
{
    FILE *f = p->f;
    fprintf(f, "<g clip-path=\"url(#frame)\" fill=\"none\" stroke=\"%s\" stroke-width=\"%g\" stroke-linejoin=\"round\"%s%s%s>\n",
            colour, width, dash ? " stroke-dasharray=\"" : "", dash ? dash : "", dash ? "\"" : "");
    int open = 0;
    for (int i = 0; i < n; i++) {
        int ok = isfinite(x[i]) && isfinite(y[i]) && (!p->ylog || y[i] > 0);
        if (!ok) { if (open) fprintf(f, "\"/>\n"); open = 0; continue; }
        if (!open) { fprintf(f, "<polyline points=\""); open = 1; }
        fprintf(f, "%.2f,%.2f ", px(p, x[i]), py(p, y[i]));
    }
    if (open) fprintf(f, "\"/>\n");
    if (marker)
        for (int i = 0; i < n; i++)
            if (isfinite(x[i]) && isfinite(y[i]) && (!p->ylog || y[i] > 0))
                fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"3\" fill=\"%s\" stroke=\"white\" stroke-width=\"0.8\"/>\n", px(p, x[i]), py(p, y[i]), colour);
    fprintf(f, "</g>\n");
}

void pala_svg_segment(pala_svg_plot *p, double xa, double ya, double xb, double yb, const char *colour, const char *dash)
{
    if (p->ylog && (ya <= 0 || yb <= 0)) return;
    fprintf(p->f, "<line clip-path=\"url(#frame)\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" stroke-width=\"1.5\"%s%s%s/>\n",
            px(p, xa), py(p, ya), px(p, xb), py(p, yb), colour, dash ? " stroke-dasharray=\"" : "", dash ? dash : "", dash ? "\"" : "");
}

void pala_svg_legend(pala_svg_plot *p, const char *label_, const char *colour, const char *dash)
{
    double x = p->W - p->right + 16, y = p->top + 10 + 21 * p->nlegend;
    fprintf(p->f, "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"%s\" stroke-width=\"2.2\"%s%s%s/>\n", x, y - 4, x + 26, y - 4, colour,
            dash ? " stroke-dasharray=\"" : "", dash ? dash : "", dash ? "\"" : "");
    fprintf(p->f, "<text x=\"%g\" y=\"%g\">", x + 34, y + 1);
    pala_svg_text(p->f, label_);
    fprintf(p->f, "</text>\n");
    p->nlegend++;
}

void pala_svg_note(pala_svg_plot *p, const char *text)
{
    fprintf(p->f, "<text x=\"%g\" y=\"%g\" font-size=\"12\" fill=\"#444\" text-anchor=\"middle\">", (p->left + p->W - p->right) / 2, p->top - 8);
    pala_svg_text(p->f, text);
    fprintf(p->f, "</text>\n");
}

void pala_svg_end(pala_svg_plot *p) { fprintf(p->f, "</svg>\n"); }
