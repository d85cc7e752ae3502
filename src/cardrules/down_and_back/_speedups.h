/*
 * What the four source files of cardrules.down_and_back._speedups share.
 *
 *   _speedups_module.c    the module: setup(), the state below, the tables
 *                         and the split plans, the module's init function
 *   _speedups_evaluate.c  the evaluators (evaluate4, strength4, ...,
 *                         split_strengths, best_splits)
 *   _speedups_build.c     the builders: Combo, SplitOption, Hand and Split
 *                         objects made without calling their constructors
 *   _speedups_batch.c     the batch kernel (batch_strengths), with its
 *                         AVX2 loop
 *
 * Everything declared here is internal to the extension: on compilers that
 * know about symbol visibility none of it is exported from the shared
 * object (only PyInit__speedups is).
 */
#ifndef CARDRULES_SPEEDUPS_H
#define CARDRULES_SPEEDUPS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(hidden)
#endif

/* The number of unordered pairs of cards plus one (the pair tables' rows),
 * and the table entry of an invalid hand. */
#define NPAIR 1327
#define INVALID 0xFFFF

typedef struct {
    int ready, configured;
    PyTypeObject *card_type, *combo_type, *option_type, *hand_type, *split_type;
    /* the classes' data descriptors (slots) of the attributes used */
    PyObject *d_col, *d_strength, *d_cards, *d_option_down, *d_option_back;
    PyObject *d_split_down, *d_split_back;
    PyObject *loader;
    PyObject *fb_evaluate4, *fb_evaluate3, *fb_strength4, *fb_strength3;
    PyObject *fb_split_strengths, *fb_best_splits, *fb_split_actions, *fb_hand_of_sorted;
    Py_buffer bufs[5];
    const uint16_t *t4, *t3;
    const int32_t *ids, *rows4, *rows3;
    /* strengths by colex number, built on first batch use: a bytes object
     * holding the 4-card table (and a spare entry), then the 3-card one */
    PyObject *colex;
} State;

/* The one state of the module (in _speedups_module.c), filled by setup(). */
extern State S;

/* The 35 splits of seven cards in itertools.combinations order, and the 21
 * pairs of positions: each split's down hand is pairs DH and DT, its back
 * hand pair BH plus the single position BT.  Filled when the module is
 * imported. */
extern int DOWN[35][4], BACK[35][3], DH[35], DT[35], BH[35], BT[35];
extern int PAIR_I[21], PAIR_J[21];

/* _speedups_module.c: load the pair tables through the loader given to
 * setup(); 0, or -1 with an exception set. */
int load_tables(void);

/* The pair tables, loaded on first use; 0, or -1 with an exception set. */
static inline int ensure_ready(void)
{
    return S.ready ? 0 : load_tables();
}

/* 0 once setup() has been called, else -1 with RuntimeError set. */
static inline int ensure_configured(void)
{
    if (S.configured)
        return 0;
    PyErr_SetString(PyExc_RuntimeError, "cardrules._speedups.setup() was not called");
    return -1;
}

/* _speedups_build.c: a new Combo holding strength and the cards as a tuple,
 * and a new SplitOption of split n of the seven items with the given
 * strengths (both steal nothing; NULL with an exception set on failure). */
PyObject *make_combo(long strength, PyObject *cards_tuple);
PyObject *make_option(PyObject **items, int n, unsigned down, unsigned back);

/* Each file's functions, added to the module by its init function. */
extern PyMethodDef evaluate_methods[], build_methods[], batch_methods[];

/* _speedups_batch.c: prepare the batch kernel (its binomial table, the
 * processor check); returns the name of the vector loop it will use
 * ("avx2") or NULL for none. */
const char *batch_init(void);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#endif
