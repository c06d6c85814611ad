/* keys.h: the one table of control-file keys.  It drives the parser, the range checks,
 * `pala help keys`, and the effective control file a run writes (docs/control-file.md
 * is its prose version). */
#ifndef PALA_KEYS_H
#define PALA_KEYS_H

enum pala_sect { PALA_S_TOP, PALA_S_MATERIAL, PALA_S_GRAIN, PALA_S_GROUP, PALA_S_N };
enum pala_ktype {
    PALA_K_INT,     /* one integer in [lo, hi] */
    PALA_K_REAL,    /* one real number in [lo, hi] */
    PALA_K_REALS,   /* nmin..nmax reals, each in [lo, hi] */
    PALA_K_WORD,    /* one of `choices` ("a|b|c") */
    PALA_K_NAME,    /* name of a section of kind `ref` */
    PALA_K_ORIENT,  /* a word of `choices` or three reals (a rotation vector) */
    PALA_K_PATH     /* a file name (relative to the control file's folder) */
};

typedef struct pala_keydef {
    int sect;             /* enum pala_sect */
    const char *name;
    int type;             /* enum pala_ktype */
    const char *def;      /* default as text; NULL: none (required where used) */
    const char *unit;
    double lo, hi;        /* range of numbers */
    int nmin, nmax;       /* count of numbers for PALA_K_REALS */
    const char *choices;  /* words for PALA_K_WORD / PALA_K_ORIENT */
    int ref;              /* section kind referenced by PALA_K_NAME */
    int repeat;           /* may appear more than once */
    const char *doc;
} pala_keydef;

extern const pala_keydef pala_keys[];
extern const int pala_nkeys;
extern const char *const pala_sect_names[PALA_S_N];

#endif
