/* keydef.h: the row of a control-file key (the key table of keys.c, and the keys a wall
 * kind declares in its file, container.h): its section, name, type, default, unit, range,
 * where its value goes and its doc.  Types only, so that the wall kinds, which the force
 * pass reaches, can declare their keys without the table. */
#ifndef PALA_KEYDEF_H
#define PALA_KEYDEF_H
#include "pala/pala.h"
#include <stddef.h>

enum pala_sect { PALA_S_TOP, PALA_S_MATERIAL, PALA_S_GRAIN, PALA_S_GROUP, PALA_S_PAIR, PALA_S_WALL, PALA_S_OUTLET, PALA_S_MEASURE, PALA_S_N };
enum pala_ktype {
    PALA_K_INT,     /* one integer in [lo, hi] */
    PALA_K_REAL,    /* one real number in [lo, hi] */
    PALA_K_REALS,   /* nmin..nmax reals, each in [lo, hi] */
    PALA_K_WORD,    /* one of `choices` ("a|b|c") */
    PALA_K_NAME,    /* name of a section of kind `ref` */
    PALA_K_ORIENT,  /* a word of `choices` or three reals (a rotation vector) */
    PALA_K_PATH     /* a file name (relative to the control file's folder) */
};

/* How a row stores a value in the struct of its section: at offset `off` as the field's C
 * type says (keys.c takes it from the field itself), or by a setter. */
enum pala_store {
    PALA_ST_NONE,    /* not bound: a test fails on such a row */
    PALA_ST_INT,     /* int: the integer; a word's code; a repeated key: +1 for each line */
    PALA_ST_LONG,    /* long: the integer */
    PALA_ST_REAL,    /* double */
    PALA_ST_REALS,   /* double[nmax] */
    PALA_ST_VEC3,    /* pala_vec3: three reals */
    PALA_ST_TEXT,    /* const char *: the value text (a section name, a path), owned by the scene */
    PALA_ST_SET      /* set(obj, value) converts (box, orientation) */
};

/* A checked value as a setter receives it. */
typedef struct pala_value {
    const char *text;            /* as written, trimmed */
    int code;                    /* a word of the key's choices: its code; else -1 */
    int n;                       /* count of numbers (not a word) */
    double x[8];                 /* the numbers */
} pala_value;

typedef struct pala_keybind {
    int store;                   /* enum pala_store */
    size_t off, size;            /* offset and size of the field in the section's struct */
    void (*set)(void *obj, const pala_value *v);   /* PALA_ST_SET */
    const char *field;           /* the field as C names it ("alpha", "w.dt"), for the
                                    library's messages to programs (check.h); NULL: a setter */
} pala_keybind;

typedef struct pala_keydef {
    int sect;             /* enum pala_sect */
    const char *name;     /* as written in a control file; also PALA_KEY_<name> */
    int type;             /* enum pala_ktype */
    const char *def;      /* default as text; NULL: none (required where used, unless unset) */
    const char *unit;     /* SI unit of the numbers, "-" if none */
    double lo, hi;        /* range of numbers */
    pala_keybind bind;    /* where the value goes (pala_key_store) */
    int nmin, nmax;       /* count of numbers for PALA_K_REALS */
    const char *choices;  /* words for PALA_K_WORD / PALA_K_ORIENT */
    const int *codes;     /* the value stored for each word of choices, in order; ends with -1 */
    const char *cnames;   /* those codes as the C code names them ("PALA_TLAW_REGULARISED,
                             PALA_TLAW_SPRING, ..."), for messages to programs */
    int ref;              /* section kind referenced by PALA_K_NAME */
    int repeat;           /* may appear more than once */
    int pairbit;          /* PALA_S_PAIR: the PALA_PAIR_* bit a given value sets */
    const char *unset;    /* def NULL: what a key not given means, if it is not required
                             ("the top-level tangential_law"); such a key may be 0 */
    int pos;              /* lo 0, a real key: a given number must be > 0 all the same (a key
                             with a default or unset, whose 0 would read as not given);
                             integer keys take their bound lo instead */
    const char *doc;      /* one line for `pala help` and missing-key messages */
} pala_keydef;

/* Rows are written with these (keys.c; the wall kinds' keys in their files):
 * PALA_AT(T, f): bound to field f of struct T, stored as f's type says (a field of another
 * type than those of enum pala_store does not compile); PALA_SET(fn): stored by fn (keys
 * that set several fields or convert); PALA_CODES(a, b, ...): the code stored for each word
 * of choices, in the order of choices, and their C names; PALA_WALL_KEY(name, TYPE,
 * default, unit, lo, hi, binding, extras...): a top-level key of a wall kind, bound to the
 * kind's parameters. */
#define PALA_AT(T, f) {_Generic(((T *)0)->f, int: PALA_ST_INT, long: PALA_ST_LONG, double: PALA_ST_REAL,  \
                                double *: PALA_ST_REALS, pala_vec3: PALA_ST_VEC3, const char *: PALA_ST_TEXT), \
                       offsetof(T, f), sizeof ((T *)0)->f, NULL, #f}
#define PALA_SET(fn) {PALA_ST_SET, 0, 0, fn, NULL}
#define PALA_CODES(...) .codes = (const int[]){__VA_ARGS__, -1}, .cnames = #__VA_ARGS__
#define PALA_WALL_KEY(nm, ty, ...) {PALA_S_TOP, #nm, PALA_K_##ty, __VA_ARGS__}

#endif
