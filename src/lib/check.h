/* check.h: how the checks of pala_world_prepare name what they refuse.
 *
 * A check names a field by its row of the key table (keys.c binds each control-file key to
 * a field: the row knows the field's C name, its key, its range and, for a word, its codes
 * and their C names).  So a rule is written once and speaks to both of its readers: a
 * program hears "material 2 (glass): 'alpha = 3': must be between 0 and 1", the reader of
 * a control file "[material glass]: 'fractional_order = 3': must be between 0 and 1".  The
 * fault it records (the part of the world and the row) lets the control-file reader
 * (scene.c) put the file and line of that key in front. */
#ifndef PALA_CHECK_H
#define PALA_CHECK_H
#include "pala/pala.h"
#include "keys.h"
#include <stddef.h>

/* The parts of a world a fault can lie in. */
enum pala_part { PALA_PART_WORLD, PALA_PART_MATERIAL, PALA_PART_PAIR, PALA_PART_TEMPLATE, PALA_PART_GRAIN, PALA_PART_WALL, PALA_PART_FEED };

typedef struct pala_check {
    int keys;          /* the words of messages: 1 those of control files (keys, [material NAME], the
                          keys' words), 0 those of pala.h (fields, "material 2 (glass)", enum constants) */
    char *msg;         /* the message of a refusal goes here (len bytes) */
    size_t len;
    /* the fault of the last refusal */
    int part;          /* enum pala_part */
    int index;         /* the material, the pair (index into w->pairs), the template or the grain */
    int key;           /* enum pala_key: the row of the refused field; -1 if it has none */
    const char *wkey;  /* PALA_PART_WALL: the key of a wall's kind it names (container.h), or NULL;
                          PALA_PART_FEED: the key of the feed's section (feed.h; index: the feed) */
} pala_check;

/* Record the fault (part, index, key) and the message; returns PALA_ERR_INPUT. */
int pala_fault(pala_check *c, int part, int index, int key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
/* The name of key's field in c's words: "alpha" or "fractional_order"; "w.dt" or "dt". */
const char *pala_check_name(const pala_check *c, int key);
/* Value code of word key `key` in c's words ("PALA_TLAW_SPRING" or "spring"), into buf. */
const char *pala_check_word(const pala_check *c, int key, int code, char *buf, size_t len);
/* The part in c's words, into buf: "material 2 (glass)" or "[material glass]", "pair of
 * materials 0 (a) and 1 (b)" or "[pair a b]", "template 3 (g)" or "[grain g]", "grain 7"; ""
 * for the world. */
const char *pala_check_who(const pala_check *c, const pala_world *w, int part, int index, char *buf, size_t len);
/* The field of key (a row bound to a number, numbers or a word) in obj, the struct of the
 * key's section (the world for a top-level key bound to one of its fields): numbers finite
 * and in range (pala_key_in_range), a word one of its codes or, where the key may be left
 * unset and the value was not given (given 0), 0.  Returns PALA_OK or the fault. */
int pala_check_key(pala_check *c, const pala_world *w, int part, int index, int key, const void *obj, int given);
/* The fields of obj, a struct of section kind sect (a pala_material, a pala_pairset), against
 * their rows (pala_check_key).  set >= 0: only the fields of the PALA_PAIR_* bits in it (a
 * pair's), each given.  Returns PALA_OK, or the fault of the first field out. */
int pala_check_fields(pala_check *c, const pala_world *w, int part, int index, int sect, const void *obj, int set);

#endif
