/* check.c: the words of the checks' messages, taken from the key table (check.h). */
#include "check.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int pala_fault(pala_check *c, int part, int index, int key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, c->len, fmt, ap);
    va_end(ap);
    c->part = part;
    c->index = index;
    c->key = key;
    c->wkey = NULL;
    return PALA_ERR_INPUT;
}

const char *pala_check_name(const pala_check *c, int key)
{
    const pala_keydef *k = &pala_keys[key];
    /* a world's field is "w.dt", as a program that calls its world w writes it */
    return c->keys || !k->bind.field ? k->name : k->bind.field;
}

/* Item i of a list separated by sep, into buf. */
static const char *item(const char *list, const char *sep, int i, char *buf, size_t len)
{
    const char *p = list;
    for (; i > 0 && p; i--) p = strstr(p, sep) ? strstr(p, sep) + strlen(sep) : NULL;
    if (!p) { snprintf(buf, len, "?"); return buf; }
    const char *e = strstr(p, sep);
    snprintf(buf, len, "%.*s", (int)(e ? (size_t)(e - p) : strlen(p)), p);
    return buf;
}

/* The words of key k: the file's ("regularised|spring") or C's ("PALA_TLAW_REGULARISED, ..."). */
static const char *words(const pala_check *c, const pala_keydef *k, const char **sep)
{
    *sep = c->keys ? "|" : ", ";
    return c->keys ? k->choices : k->cnames;
}

const char *pala_check_word(const pala_check *c, int key, int code, char *buf, size_t len)
{
    const pala_keydef *k = &pala_keys[key];
    const char *sep, *list = words(c, k, &sep);
    for (int i = 0; k->codes && k->codes[i] >= 0; i++)
        if (k->codes[i] == code) return item(list, sep, i, buf, len);
    snprintf(buf, len, "%d", code);
    return buf;
}

const char *pala_check_who(const pala_check *c, const pala_world *w, int part, int index, char *buf, size_t len)
{
    const char *nm = "";
    if (part == PALA_PART_MATERIAL) nm = w->mat[index].name;
    if (part == PALA_PART_TEMPLATE) nm = w->tmpl[index].name;
    if (part == PALA_PART_PAIR) {
        const pala_pairset *p = &w->pairs[index];
        if (c->keys) snprintf(buf, len, "[pair %s %s]", w->mat[p->a].name, w->mat[p->b].name);
        else snprintf(buf, len, "pair %d (materials %d and %d)", index, p->a, p->b);
    } else if (part == PALA_PART_MATERIAL || part == PALA_PART_TEMPLATE) {
        const char *kind = part == PALA_PART_MATERIAL ? "material" : c->keys ? "grain" : "template";
        if (c->keys) snprintf(buf, len, "[%s %s]", kind, nm);
        else if (nm[0]) snprintf(buf, len, "%s %d (%s)", kind, index, nm);
        else snprintf(buf, len, "%s %d", kind, index);
    } else if (part == PALA_PART_GRAIN) snprintf(buf, len, "grain %d", w->gid ? w->gid[index] : index);
    else snprintf(buf, len, "%s", "");
    return buf;
}

/* "A, B or C" of key k's words, into buf. */
static const char *all_words(const pala_check *c, const pala_keydef *k, char *buf, size_t len)
{
    const char *sep, *list = words(c, k, &sep);
    int n = 0;
    while (k->codes[n] >= 0) n++;
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; i < n && at < len; i++) {
        char one[64];
        at += (size_t)snprintf(buf + at, len - at, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ", item(list, sep, i, one, sizeof one));
    }
    return buf;
}

int pala_check_key(pala_check *c, const pala_world *w, int part, int index, int key, const void *obj, int given)
{
    const pala_keydef *k = &pala_keys[key];
    const char *f = (const char *)obj + k->bind.off;
    char who[96], pre[100], why[300];
    snprintf(pre, sizeof pre, "%s", pala_check_who(c, w, part, index, who, sizeof who));
    if (pre[0]) strncat(pre, ": ", sizeof pre - strlen(pre) - 1);
    if (k->bind.store == PALA_ST_INT && k->codes) {
        int v = *(const int *)f, ok = !given && k->unset && v == 0;
        for (int i = 0; k->codes[i] >= 0 && !ok; i++) ok = k->codes[i] == v;
        char what[40];   /* "tangential law" */
        snprintf(what, sizeof what, "%s", k->name);
        for (char *u = strchr(what, '_'); u; u = strchr(u, '_')) *u = ' ';
        if (!ok)
            return pala_fault(c, part, index, key, "%s'%s = %d': no such %s (expected %s%s)", pre, pala_check_name(c, key), v, what,
                              all_words(c, k, why, sizeof why), !given && k->unset ? ", or 0 to leave it unset" : "");
        return PALA_OK;
    }
    int n = k->bind.store == PALA_ST_REAL ? 1 : k->bind.store == PALA_ST_VEC3 ? 3 : k->bind.store == PALA_ST_INT ? 1 : 0;
    for (int i = 0; i < n; i++) {
        double v = k->bind.store == PALA_ST_INT ? *(const int *)f : ((const double *)f)[i];
        if (pala_key_in_range(k, v, why, sizeof why)) continue;
        if (n == 3)
            return pala_fault(c, part, index, key, "%s'%s', component %c = %g: %s", pre, pala_check_name(c, key), "xyz"[i], v, why);
        return pala_fault(c, part, index, key, "%s'%s = %g': %s", pre, pala_check_name(c, key), v, why);
    }
    return PALA_OK;
}

int pala_check_fields(pala_check *c, const pala_world *w, int part, int index, int sect, const void *obj, int set)
{
    for (int key = 0; key < pala_nkeys; key++)
        if (pala_keys[key].sect == sect && (set < 0 || (set & pala_keys[key].pairbit)) &&
            pala_check_key(c, w, part, index, key, obj, set >= 0))
            return PALA_ERR_INPUT;
    return PALA_OK;
}
