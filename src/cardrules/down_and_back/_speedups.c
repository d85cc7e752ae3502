/*
 * Optional C speed-ups for the Down and Back evaluators and the reducer's
 * 35 legal splits.
 *
 * Same tables, same results and same errors as the pure-Python code in
 * evaluate.py and game.py: this module only takes the common path (a tuple,
 * a tuple subclass such as cardrules.Hand, or a list of Card objects, no
 * repeated card) and hands everything else to the Python functions given to
 * setup(), which raise the proper errors.  The package works without it;
 * see cardrules/down_and_back/_accel.py.
 *
 * The batch kernel (batch_strengths) serves cardrules.down_and_back.batch:
 * it reads rows of card indices through the buffer protocol (any integer
 * width, signedness, byte order and strides), so it needs no numpy headers,
 * and looks each row up in a table with one entry per hand, indexed by the
 * colex number of the sorted cards, built on first use from the pair
 * tables.  It reports the first bad row and leaves the error to the numpy
 * code, which words it.
 *
 * Attributes are read and written only through the public C API
 * (PyObject_GenericGetAttr / PyObject_GenericSetAttr with the attribute's
 * name), the same path as object.__getattribute__ / object.__setattr__ in
 * Python: nothing here depends on how CPython lays out slots.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

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

static State S;

/* The 35 splits of seven cards in itertools.combinations order, and the 21
 * pairs of positions: each split's down hand is pairs DH and DT, its back
 * hand pair BH plus the single position BT. */
static int DOWN[35][4], BACK[35][3], DH[35], DT[35], BH[35], BT[35];
static int PAIR_I[21], PAIR_J[21];

/* BINOM[k][x] = C(x, k): the colex number of sorted cards a < b < c < d is
 * a + C(b, 2) + C(c, 3) + C(d, 4) (and a + C(b, 2) + C(c, 3) for three). */
static uint32_t BINOM[5][52];
#define HANDS4 270725
#define HANDS3 22100

static int pair_number(int i, int j)
{
    int n = 0;
    for (int a = 0; a < 7; a++)
        for (int b = a + 1; b < 7; b++, n++)
            if (a == i && b == j)
                return n;
    return -1;
}

static void build_plans(void)
{
    for (int x = 0; x < 52; x++) {
        uint32_t c = 1;
        for (int k = 0; k < 5; k++) {
            BINOM[k][x] = x >= k ? c : 0;
            c = c * (uint32_t)(x - k) / (uint32_t)(k + 1);
        }
    }
    int n = 0;
    for (int a = 0; a < 7; a++)
        for (int b = a + 1; b < 7; b++, n++) {
            PAIR_I[n] = a;
            PAIR_J[n] = b;
        }
    n = 0;
    for (int a = 0; a < 7; a++)
        for (int b = a + 1; b < 7; b++)
            for (int c = b + 1; c < 7; c++)
                for (int d = c + 1; d < 7; d++, n++) {
                    int k = 0;
                    DOWN[n][0] = a; DOWN[n][1] = b; DOWN[n][2] = c; DOWN[n][3] = d;
                    for (int x = 0; x < 7; x++)
                        if (x != a && x != b && x != c && x != d)
                            BACK[n][k++] = x;
                    DH[n] = pair_number(a, b);
                    DT[n] = pair_number(c, d);
                    BH[n] = pair_number(BACK[n][0], BACK[n][1]);
                    BT[n] = BACK[n][2];
                }
}

/* Set an attribute through its class's data descriptor (a slot), as
 * object.__setattr__ does; this also works on frozen attrs classes, whose
 * own __setattr__ is not consulted.  Steals nothing; returns -1 with an
 * exception set on failure. */
static int set_attr(PyObject *obj, PyObject *descr, PyObject *value)
{
    return Py_TYPE(descr)->tp_descr_set(descr, obj, value);
}

static int ensure_ready(void)
{
    static const Py_ssize_t sizes[5] = {
        NPAIR * NPAIR * 2, NPAIR * 52 * 2, 52 * 52 * 4, 52 * 52 * 4, 52 * 52 * 4};
    if (S.ready)
        return 0;
    if (!S.configured) {
        PyErr_SetString(PyExc_RuntimeError, "cardrules._speedups.setup() was not called");
        return -1;
    }
    PyObject *tables = PyObject_CallNoArgs(S.loader);
    if (tables == NULL)
        return -1;
    if (!PyTuple_Check(tables) || PyTuple_GET_SIZE(tables) != 5) {
        Py_DECREF(tables);
        PyErr_SetString(PyExc_TypeError, "the table loader must return five buffers");
        return -1;
    }
    for (int i = 0; i < 5; i++) {
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(tables, i), &S.bufs[i], PyBUF_SIMPLE) < 0) {
            for (int j = 0; j < i; j++)
                PyBuffer_Release(&S.bufs[j]);
            Py_DECREF(tables);
            return -1;
        }
        if (S.bufs[i].len != sizes[i]) {
            for (int j = 0; j <= i; j++)
                PyBuffer_Release(&S.bufs[j]);
            Py_DECREF(tables);
            PyErr_SetString(PyExc_ValueError, "a table has the wrong size");
            return -1;
        }
    }
    Py_DECREF(tables);  /* the buffers keep their exporters alive */
    S.t4 = S.bufs[0].buf;
    S.t3 = S.bufs[1].buf;
    S.ids = S.bufs[2].buf;
    S.rows4 = S.bufs[3].buf;
    S.rows3 = S.bufs[4].buf;
    S.ready = 1;
    return 0;
}

/* The items of a tuple (or tuple subclass, such as Hand) or an exact list
 * of length n, or NULL. */
static PyObject **items_of(PyObject *seq, Py_ssize_t n)
{
    if (PyTuple_Check(seq))
        return PyTuple_GET_SIZE(seq) == n ? &PyTuple_GET_ITEM(seq, 0) : NULL;
    if (PyList_CheckExact(seq))
        return PyList_GET_SIZE(seq) == n ? ((PyListObject *)seq)->ob_item : NULL;
    return NULL;
}

/* The index of a Card (its _col attribute), or -1 for anything else. */
static long card_index(PyObject *obj)
{
    if (Py_TYPE(obj) != S.card_type)
        return -1;
    /* The descriptor protocol, as object.__getattribute__ would use it. */
    PyObject *value = Py_TYPE(S.d_col)->tp_descr_get(S.d_col, obj, (PyObject *)S.card_type);
    if (value == NULL) {
        PyErr_Clear();  /* the Python fallback will explain the problem */
        return -1;
    }
    long index = PyLong_CheckExact(value) ? PyLong_AsLong(value) : -1;
    Py_DECREF(value);
    return (index >= 0 && index < 52) ? index : -1;
}

static long strength_of(PyObject *cards, int size)
{
    PyObject **items = items_of(cards, size);
    long c[4];
    if (items == NULL)
        return -1;
    for (int i = 0; i < size; i++)
        if ((c[i] = card_index(items[i])) < 0)
            return -1;
    unsigned s = size == 4
        ? S.t4[S.rows4[c[0] * 52 + c[1]] + S.ids[c[2] * 52 + c[3]]]
        : S.t3[S.rows3[c[0] * 52 + c[1]] + c[2]];
    return s == INVALID ? -1 : (long)s;
}

/* A new Combo holding strength and the cards as a tuple (steals nothing). */
static PyObject *make_combo(long strength, PyObject *cards_tuple)
{
    PyObject *value = PyLong_FromLong(strength);
    if (value == NULL)
        return NULL;
    PyObject *combo = S.combo_type->tp_alloc(S.combo_type, 0);
    if (combo == NULL || set_attr(combo, S.d_strength, value) < 0
            || set_attr(combo, S.d_cards, cards_tuple) < 0)
        Py_CLEAR(combo);
    Py_DECREF(value);
    return combo;
}

static PyObject *evaluate(PyObject *cards, int size, PyObject *fallback)
{
    if (ensure_ready() < 0)
        return NULL;
    long s = strength_of(cards, size);
    if (s < 0)
        return PyObject_CallOneArg(fallback, cards);
    if (PyTuple_Check(cards))
        return make_combo(s, cards);
    PyObject *tuple = PyList_AsTuple(cards);
    if (tuple == NULL)
        return NULL;
    PyObject *combo = make_combo(s, tuple);
    Py_DECREF(tuple);
    return combo;
}

static PyObject *strength(PyObject *cards, int size, PyObject *fallback)
{
    if (ensure_ready() < 0)
        return NULL;
    long s = strength_of(cards, size);
    return s < 0 ? PyObject_CallOneArg(fallback, cards) : PyLong_FromLong(s);
}

PyDoc_STRVAR(evaluate4_doc,
"evaluate4($module, cards, /)\n--\n\n"
"Evaluate a 4-card (\"down\") hand under DB-10 to DB-17 (C speed-up).\n\n"
"The same as the pure-Python :func:`cardrules.down_and_back.evaluate.evaluate4`.\n\n"
">>> from cardrules import parse_cards\n"
">>> evaluate4(parse_cards(\"8S 8H 8D QH\")).description\n"
"'prial of eights'\n");

static PyObject *py_evaluate4(PyObject *Py_UNUSED(module), PyObject *cards)
{
    return evaluate(cards, 4, S.fb_evaluate4);
}

PyDoc_STRVAR(evaluate3_doc,
"evaluate3($module, cards, /)\n--\n\n"
"Evaluate a 3-card (\"back\") hand under DB-20 to DB-25 (C speed-up).\n\n"
"The same as the pure-Python :func:`cardrules.down_and_back.evaluate.evaluate3`.\n\n"
">>> from cardrules import parse_cards\n"
">>> evaluate3(parse_cards(\"JH QH KH\")).description\n"
"'bouncer, king high'\n");

static PyObject *py_evaluate3(PyObject *Py_UNUSED(module), PyObject *cards)
{
    return evaluate(cards, 3, S.fb_evaluate3);
}

PyDoc_STRVAR(strength4_doc,
"strength4($module, cards, /)\n--\n\n"
"The strength of a 4-card hand as a bare int (C speed-up).\n\n"
">>> from cardrules import parse_cards\n"
">>> strength4(parse_cards(\"8S 8H 8D QH\")) >> 12\n"
"6\n");

static PyObject *py_strength4(PyObject *Py_UNUSED(module), PyObject *cards)
{
    return strength(cards, 4, S.fb_strength4);
}

PyDoc_STRVAR(strength3_doc,
"strength3($module, cards, /)\n--\n\n"
"The strength of a 3-card hand as a bare int (C speed-up).\n\n"
">>> from cardrules import parse_cards\n"
">>> strength3(parse_cards(\"2S 2H 2D\")) >> 12\n"
"5\n");

static PyObject *py_strength3(PyObject *Py_UNUSED(module), PyObject *cards)
{
    return strength(cards, 3, S.fb_strength3);
}

/* Strengths of the 35 splits of seven distinct cards; 0 means "not the
 * fast path" (the caller falls back to Python). */
static int score_seven(PyObject *seven, PyObject ***items_out,
                       unsigned down[35], unsigned back[35])
{
    PyObject **items = items_of(seven, 7);
    long c[7];
    uint64_t seen = 0;
    int32_t head4[21], tail4[21], head3[21];
    if (items == NULL)
        return 0;
    for (int i = 0; i < 7; i++) {
        if ((c[i] = card_index(items[i])) < 0)
            return 0;
        if (seen & ((uint64_t)1 << c[i]))
            return 0;
        seen |= (uint64_t)1 << c[i];
    }
    for (int p = 0; p < 21; p++) {
        long at = c[PAIR_I[p]] * 52 + c[PAIR_J[p]];
        head4[p] = S.rows4[at];
        tail4[p] = S.ids[at];
        head3[p] = S.rows3[at];
    }
    for (int n = 0; n < 35; n++) {
        down[n] = S.t4[head4[DH[n]] + tail4[DT[n]]];
        back[n] = S.t3[head3[BH[n]] + c[BT[n]]];
    }
    *items_out = items;
    return 1;
}

PyDoc_STRVAR(split_strengths_doc,
"split_strengths($module, seven, /)\n--\n\n"
"The (down, back) strengths of all 35 splits, in splits() order (C speed-up).\n\n"
">>> from cardrules import parse_cards\n"
">>> len(split_strengths(parse_cards(\"8S 8H 8D QH 5C 6C 7C\")))\n"
"35\n");

static PyObject *py_split_strengths(PyObject *Py_UNUSED(module), PyObject *seven)
{
    PyObject **items;
    unsigned down[35], back[35];
    if (ensure_ready() < 0)
        return NULL;
    if (!score_seven(seven, &items, down, back))
        return PyObject_CallOneArg(S.fb_split_strengths, seven);
    PyObject *out = PyList_New(35);
    if (out == NULL)
        return NULL;
    for (int n = 0; n < 35; n++) {
        PyObject *pair = Py_BuildValue("(II)", down[n], back[n]);
        if (pair == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, n, pair);
    }
    return out;
}

static PyObject *hand_part(PyObject **items, const int *positions, int size)
{
    PyObject *tuple = PyTuple_New(size);
    if (tuple == NULL)
        return NULL;
    for (int i = 0; i < size; i++)
        PyTuple_SET_ITEM(tuple, i, Py_NewRef(items[positions[i]]));
    return tuple;
}

static PyObject *make_option(PyObject **items, int n, unsigned down, unsigned back)
{
    PyObject *down_cards = hand_part(items, DOWN[n], 4);
    PyObject *back_cards = hand_part(items, BACK[n], 3);
    PyObject *down_combo = NULL, *back_combo = NULL, *option = NULL;
    if (down_cards == NULL || back_cards == NULL)
        goto done;
    down_combo = make_combo(down, down_cards);
    back_combo = make_combo(back, back_cards);
    if (down_combo == NULL || back_combo == NULL)
        goto done;
    option = S.option_type->tp_alloc(S.option_type, 0);
    if (option == NULL)
        goto done;
    if (set_attr(option, S.d_option_down, down_combo) < 0
            || set_attr(option, S.d_option_back, back_combo) < 0)
        Py_CLEAR(option);
done:
    Py_XDECREF(down_cards);
    Py_XDECREF(back_cards);
    Py_XDECREF(down_combo);
    Py_XDECREF(back_combo);
    return option;
}

PyDoc_STRVAR(best_splits_doc,
"best_splits($module, seven, /)\n--\n\n"
"The Pareto-optimal splits of seven cards (DB-40, DB-41) (C speed-up).\n\n"
"The same as the pure-Python :func:`cardrules.down_and_back.evaluate.best_splits`.\n\n"
">>> from cardrules import parse_cards\n"
">>> [str(o.back) for o in best_splits(parse_cards(\"8S 8H 8D QH 5C 6C 7C\"))]\n"
"['bouncer, seven high (5C 6C 7C)', 'prial of eights (8S 8H 8D)']\n");

static PyObject *py_best_splits(PyObject *Py_UNUSED(module), PyObject *seven)
{
    PyObject **items;
    unsigned down[35], back[35];
    int kept[35], count = 0;
    if (ensure_ready() < 0)
        return NULL;
    /* Work on a tuple: building the result allocates, and a collection run
     * then could change a list under our feet. */
    PyObject *hand = PyList_CheckExact(seven) ? PyList_AsTuple(seven) : Py_NewRef(seven);
    if (hand == NULL)
        return NULL;
    if (!score_seven(hand, &items, down, back)) {
        Py_DECREF(hand);
        return PyObject_CallOneArg(S.fb_best_splits, seven);
    }
    for (int s = 0; s < 35; s++) {
        int dominated = 0;
        for (int t = 0; t < 35 && !dominated; t++)
            dominated = down[t] >= down[s] && back[t] >= back[s]
                        && (down[t] > down[s] || back[t] > back[s]);
        if (!dominated)
            kept[count++] = s;
    }
    /* strongest down first, then strongest back, then split order (insertion sort) */
    for (int i = 1; i < count; i++) {
        int x = kept[i], j = i - 1;
        while (j >= 0 && (down[kept[j]] < down[x]
                          || (down[kept[j]] == down[x] && back[kept[j]] < back[x]))) {
            kept[j + 1] = kept[j];
            j--;
        }
        kept[j + 1] = x;
    }
    PyObject *out = PyTuple_New(count);
    for (int i = 0; out != NULL && i < count; i++) {
        int n = kept[i];
        PyObject *option = make_option(items, n, down[n], back[n]);
        if (option == NULL)
            Py_CLEAR(out);
        else
            PyTuple_SET_ITEM(out, i, option);
    }
    Py_DECREF(hand);
    return out;
}

/* A new Hand (a tuple subclass) of the given items: what tuple.__new__(Hand,
 * items) makes, without the intermediate tuple. */
static PyObject *new_hand(PyObject **items, const int *positions, int size)
{
    PyObject *hand = S.hand_type->tp_alloc(S.hand_type, size);
    if (hand == NULL)
        return NULL;
    for (int i = 0; i < size; i++)
        PyTuple_SET_ITEM(hand, i, Py_NewRef(items[positions[i]]));
    return hand;
}

PyDoc_STRVAR(hand_of_sorted_doc,
"hand_of_sorted($module, cards, /)\n--\n\n"
"A Hand of the tuple cards taken as they are, like Hand.of_sorted (C speed-up).\n\n"
"No checks: the caller guarantees distinct cards in canonical order.\n\n"
">>> from cardrules import DECK\n"
">>> hand_of_sorted(DECK[:2])\n"
"Hand.parse('AS AH')\n");

static PyObject *py_hand_of_sorted(PyObject *Py_UNUSED(module), PyObject *cards)
{
    if (!S.configured) {
        PyErr_SetString(PyExc_RuntimeError, "cardrules._speedups.setup() was not called");
        return NULL;
    }
    if (!PyTuple_Check(cards))
        return PyObject_CallOneArg(S.fb_hand_of_sorted, cards);
    Py_ssize_t size = PyTuple_GET_SIZE(cards);
    PyObject *hand = S.hand_type->tp_alloc(S.hand_type, size);
    if (hand == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < size; i++)
        PyTuple_SET_ITEM(hand, i, Py_NewRef(PyTuple_GET_ITEM(cards, i)));
    return hand;
}

static PyObject *make_split(PyObject **items, int n)
{
    PyObject *down = new_hand(items, DOWN[n], 4);
    PyObject *back = new_hand(items, BACK[n], 3);
    PyObject *split = NULL;
    if (down != NULL && back != NULL)
        split = S.split_type->tp_alloc(S.split_type, 0);
    if (split != NULL && (set_attr(split, S.d_split_down, down) < 0
                          || set_attr(split, S.d_split_back, back) < 0))
        Py_CLEAR(split);
    Py_XDECREF(down);
    Py_XDECREF(back);
    return split;
}

PyDoc_STRVAR(split_actions_doc,
"split_actions($module, hand, /)\n--\n\n"
"The 35 Split actions of a 7-card Hand, in splits() order (DB-40) (C speed-up).\n\n"
"The same as the pure-Python split_actions of cardrules.down_and_back.game.\n\n"
">>> from cardrules import Hand\n"
">>> str(split_actions(Hand.parse(\"AS 2S 3S 4S 5S 6S 7S\"))[0])\n"
"'split AS 2S 3S 4S / 5S 6S 7S'\n");

static PyObject *py_split_actions(PyObject *Py_UNUSED(module), PyObject *hand)
{
    if (!S.configured) {
        PyErr_SetString(PyExc_RuntimeError, "cardrules._speedups.setup() was not called");
        return NULL;
    }
    /* Only a Hand of seven cards (distinct, in canonical order by construction). */
    if (Py_TYPE(hand) != S.hand_type || PyTuple_GET_SIZE(hand) != 7)
        return PyObject_CallOneArg(S.fb_split_actions, hand);
    PyObject **items = &PyTuple_GET_ITEM(hand, 0);
    for (int i = 0; i < 7; i++)
        if (Py_TYPE(items[i]) != S.card_type)
            return PyObject_CallOneArg(S.fb_split_actions, hand);
    PyObject *out = PyTuple_New(35);
    for (int n = 0; out != NULL && n < 35; n++) {
        PyObject *split = make_split(items, n);
        if (split == NULL)
            Py_CLEAR(out);
        else
            PyTuple_SET_ITEM(out, n, split);
    }
    return out;
}

/* ---- The batch kernel ------------------------------------------------- */

/* The colex tables: the strength of every 4-card and 3-card hand by the
 * colex number of its sorted cards, read from the pair tables (270,725 and
 * 22,100 entries: 541 kB and 44 kB, small enough for the L2 cache, where
 * the 3.5 MB 4-card pair table is not).  Built once, with the GIL held. */
#define COLEX3_AT (HANDS4 + 1)   /* where the 3-card table starts, in entries */

static int ensure_colex(void)
{
    if (S.colex != NULL)
        return 0;
    if (ensure_ready() < 0)
        return -1;
    /* one spare entry after the 4-card table: the AVX2 loop reads 4 bytes at
     * an entry's address */
    PyObject *tables = PyBytes_FromStringAndSize(
        NULL, (COLEX3_AT + HANDS3) * (Py_ssize_t)sizeof(uint16_t));
    if (tables == NULL)
        return -1;
    uint16_t *four = (uint16_t *)PyBytes_AS_STRING(tables), *three = four + COLEX3_AT;
    four[HANDS4] = 0;
    for (int d = 3; d < 52; d++)
        for (int c = 2; c < d; c++)
            for (int b = 1; b < c; b++)
                for (int a = 0; a < b; a++)
                    four[a + BINOM[2][b] + BINOM[3][c] + BINOM[4][d]]
                        = S.t4[S.rows4[a * 52 + b] + S.ids[c * 52 + d]];
    for (int c = 2; c < 52; c++)
        for (int b = 1; b < c; b++)
            for (int a = 0; a < b; a++)
                three[a + BINOM[2][b] + BINOM[3][c]] = S.t3[S.rows3[a * 52 + b] + c];
    S.colex = tables;
    return 0;
}

#define SORT2(x, y) do { uint64_t lo_ = (x) < (y) ? (x) : (y); \
                         (y) = (x) < (y) ? (y) : (x); (x) = lo_; } while (0)

/* The strength of one row by its colex table, or -1 when a card lies
 * outside range(52) or repeats.  The values are checked before the tables
 * are read. */
static inline int32_t row_strength4(uint64_t a, uint64_t b, uint64_t c, uint64_t d,
                                    const uint16_t *colex4)
{
    if ((a > 51) | (b > 51) | (c > 51) | (d > 51))
        return -1;
    SORT2(a, b); SORT2(c, d); SORT2(a, c); SORT2(b, d); SORT2(b, c);
    if ((a == b) | (b == c) | (c == d))
        return -1;
    return colex4[a + BINOM[2][b] + BINOM[3][c] + BINOM[4][d]];
}

static inline int32_t row_strength3(uint64_t a, uint64_t b, uint64_t c,
                                    const uint16_t *colex3)
{
    if ((a > 51) | (b > 51) | (c > 51))
        return -1;
    SORT2(a, b); SORT2(b, c); SORT2(a, b);
    if ((a == b) | (b == c))
        return -1;
    return colex3[a + BINOM[2][b] + BINOM[3][c]];
}

/* A hint to load the cache line at p ahead of its use.  Large batches are
 * read much faster with it: on the virtual machine where this was measured
 * the hardware prefetchers left a plain loop over 5 million int64 rows
 * waiting for memory (about 14 ns a row instead of 5).  It changes no
 * result and never faults. */
#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(p) __builtin_prefetch(p)
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
#include <xmmintrin.h>
#define PREFETCH(p) _mm_prefetch((const char *)(p), _MM_HINT_T0)
#else
#define PREFETCH(p) ((void)(p))
#endif
/* How far ahead, in bytes of rows: 64 cache lines. */
#define AHEAD 4096

/* Where the rows are: row i, column j is at base + i * s0 + j * s1; and
 * the colex table of their hand size. */
typedef struct {
    const char *base;
    Py_ssize_t n, s0, s1;
    const uint16_t *table;
} Rows;

/* Contiguous rows of 4 cards (in integers of any width, in the machine's
 * byte order) also have an AVX2 loop, used where the processor has
 * AVX2 (checked once, at import) and the compiler can build it: eight rows
 * at a time, the same checks, sorting network and colex look-up as
 * row_strength4, in vector registers.  It stops before the first group of
 * eight rows holding a bad row and before the last few rows, and the plain
 * loop goes on from there, so the first bad row is found by row_strength4.
 * It does about half the work of the plain loop per row; on the machine
 * where this was measured a large batch of int64 rows took about a third
 * less time (3.5 ns a row instead of 5.1). */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#define HAVE_AVX2_LOOP 1
#include <immintrin.h>

static int has_avx2;

__attribute__((target("avx2")))
static Py_ssize_t avx2_rows4(const char *base, Py_ssize_t n, int itemsize,
                             const uint16_t *colex4, int32_t *out)
{
    const __m256i twelve64 = _mm256_set1_epi64x(12), twelve32 = _mm256_set1_epi32(12);
    const __m256i high64 = _mm256_set1_epi64x(~(int64_t)63);
    const __m256i high32 = _mm256_set1_epi32(~63);
    const __m256i low_words = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    const __m256i row_order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    const __m256i low16 = _mm256_set1_epi32(0xFFFF);
    const int *b2 = (const int *)BINOM[2], *b3 = (const int *)BINOM[3];
    const int *b4 = (const int *)BINOM[4];
    const Py_ssize_t step = 8 * 4 * (Py_ssize_t)itemsize;  /* bytes of eight rows */
    /* itemsize is 1, 2, 4 or 8 */
    const char *end = base + n * 4 * (Py_ssize_t)itemsize;
    Py_ssize_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const char *p = base + i * 4 * (Py_ssize_t)itemsize;
        for (Py_ssize_t k = 0; k < step; k += 64)
            if (end - p > AHEAD + k)
                PREFETCH(p + AHEAD + k);
        /* q[k]: rows 2k and 2k + 1 as 32-bit ints, one per 128-bit half, once
         * every value is known to lie in range(52) (v | (v + 12) < 64) */
        __m256i q[4], bad = _mm256_setzero_si256();
        if (itemsize == 8) {
            __m256i r[8];
            for (int k = 0; k < 8; k++) {
                r[k] = _mm256_loadu_si256((const __m256i *)(p + 32 * k));
                bad = _mm256_or_si256(bad, _mm256_or_si256(
                    r[k], _mm256_add_epi64(r[k], twelve64)));
            }
            if (!_mm256_testz_si256(bad, high64))
                break;
            for (int k = 0; k < 4; k++)
                q[k] = _mm256_permute2x128_si256(
                    _mm256_permutevar8x32_epi32(r[2 * k], low_words),
                    _mm256_permutevar8x32_epi32(r[2 * k + 1], low_words), 0x20);
        }
        else {
            /* narrower values are widened unsigned: a negative one becomes a
             * large one, refused all the same */
            for (int k = 0; k < 4; k++) {
                const char *two = p + 2 * 4 * itemsize * k;   /* rows 2k, 2k + 1 */
                q[k] = itemsize == 4 ? _mm256_loadu_si256((const __m256i *)two)
                    : itemsize == 2 ? _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)two))
                    : _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)two));
                bad = _mm256_or_si256(bad, _mm256_or_si256(
                    q[k], _mm256_add_epi32(q[k], twelve32)));
            }
            if (!_mm256_testz_si256(bad, high32))
                break;
        }
        /* Transpose: a holds the first card of rows 0 2 4 6 1 3 5 7, b the
         * second, and so on. */
        __m256i t0 = _mm256_unpacklo_epi32(q[0], q[1]), t1 = _mm256_unpackhi_epi32(q[0], q[1]);
        __m256i t2 = _mm256_unpacklo_epi32(q[2], q[3]), t3 = _mm256_unpackhi_epi32(q[2], q[3]);
        __m256i a = _mm256_unpacklo_epi64(t0, t2), b = _mm256_unpackhi_epi64(t0, t2);
        __m256i c = _mm256_unpacklo_epi64(t1, t3), d = _mm256_unpackhi_epi64(t1, t3);
        __m256i lo;
#define VSORT2(x, y) do { lo = _mm256_min_epi32(x, y); y = _mm256_max_epi32(x, y); x = lo; } \
                     while (0)
        VSORT2(a, b); VSORT2(c, d); VSORT2(a, c); VSORT2(b, d); VSORT2(b, c);
#undef VSORT2
        __m256i same = _mm256_or_si256(
            _mm256_or_si256(_mm256_cmpeq_epi32(a, b), _mm256_cmpeq_epi32(b, c)),
            _mm256_cmpeq_epi32(c, d));
        if (!_mm256_testz_si256(same, same))
            break;
        __m256i index = _mm256_add_epi32(
            _mm256_add_epi32(a, _mm256_i32gather_epi32(b2, b, 4)),
            _mm256_add_epi32(_mm256_i32gather_epi32(b3, c, 4), _mm256_i32gather_epi32(b4, d, 4)));
        __m256i strength = _mm256_and_si256(
            _mm256_i32gather_epi32((const int *)colex4, index, 2), low16);
        _mm256_storeu_si256((__m256i *)(out + i),
                            _mm256_permutevar8x32_epi32(strength, row_order));
    }
    return i;
}
#endif

/* The rows of a contiguous 4-card batch that the AVX2 loop did (0 where it
 * is not available, or not allowed: simd is 0); the plain loop does the rest. */
static Py_ssize_t simd_rows4(Rows r, int itemsize, int simd, int32_t *out)
{
#ifdef HAVE_AVX2_LOOP
    if (simd && has_avx2)
        return avx2_rows4(r.base, r.n, itemsize, r.table, out);
#endif
    (void)r; (void)itemsize; (void)simd; (void)out;
    return 0;
}

/* One loop per element type; a negative signed value becomes a huge
 * unsigned one, which the range check refuses.  memcpy reads unaligned
 * elements safely (a plain load on common processors).  NAME##_rows stores
 * the strengths in out and returns the number of the first bad row, or -1;
 * NAME##_run calls it with constant strides for contiguous rows (one
 * prefetch a row) and with the array's own otherwise (one per column, as
 * each column of a Fortran-ordered array is a stream of its own). */
#define DEFINE_LOOPS(NAME, T)                                                   \
static inline uint64_t NAME##_at(const char *p)                                 \
{                                                                               \
    T v;                                                                        \
    memcpy(&v, p, sizeof v);                                                    \
    return (uint64_t)v;                                                         \
}                                                                               \
static inline Py_ssize_t NAME##_rows(Rows r, Py_ssize_t s0, Py_ssize_t s1,      \
                                     int size, int contiguous, int32_t *out)    \
{                                                                               \
    const Py_ssize_t ahead = AHEAD / (size * (Py_ssize_t)sizeof(T));            \
    for (Py_ssize_t i = 0; i < r.n; i++) {                                      \
        const char *p = r.base + i * s0;                                        \
        if (i + ahead < r.n)                                                    \
            for (int j = 0; j < (contiguous ? 1 : size); j++)                   \
                PREFETCH(p + ahead * s0 + j * s1);                              \
        int32_t s = size == 4                                                   \
            ? row_strength4(NAME##_at(p), NAME##_at(p + s1),                    \
                            NAME##_at(p + 2 * s1), NAME##_at(p + 3 * s1),       \
                            r.table)                                            \
            : row_strength3(NAME##_at(p), NAME##_at(p + s1),                    \
                            NAME##_at(p + 2 * s1), r.table);                    \
        if (s < 0)                                                              \
            return i;                                                           \
        out[i] = s;                                                             \
    }                                                                           \
    return -1;                                                                  \
}                                                                               \
static Py_ssize_t NAME##_run(Rows r, int size, int simd, int32_t *out)          \
{                                                                               \
    const Py_ssize_t item = (Py_ssize_t)sizeof(T);                              \
    if (r.s1 == item && r.s0 == size * item && size == 4) {                     \
        Py_ssize_t done = simd_rows4(r, (int)item, simd, out);                  \
        Rows rest = {r.base + done * 4 * item, r.n - done, r.s0, r.s1, r.table}; \
        Py_ssize_t bad = NAME##_rows(rest, 4 * item, item, 4, 1, out + done);   \
        return bad < 0 ? -1 : done + bad;                                       \
    }                                                                           \
    if (r.s1 == item && r.s0 == size * item)                                    \
        return NAME##_rows(r, 3 * item, item, 3, 1, out);                       \
    return size == 4 ? NAME##_rows(r, r.s0, r.s1, 4, 0, out)                    \
                     : NAME##_rows(r, r.s0, r.s1, 3, 0, out);                   \
}

DEFINE_LOOPS(i8, int8_t)
DEFINE_LOOPS(u8, uint8_t)
DEFINE_LOOPS(i16, int16_t)
DEFINE_LOOPS(u16, uint16_t)
DEFINE_LOOPS(i32, int32_t)
DEFINE_LOOPS(u32, uint32_t)
DEFINE_LOOPS(i64, int64_t)
DEFINE_LOOPS(u64, uint64_t)

/* The other byte order than the machine's: one element at a time, byte by
 * byte, most significant first. */
static uint64_t swapped_at(const char *p, int itemsize, int is_signed)
{
    const uint16_t probe = 1;
    const int little = *(const unsigned char *)&probe == 1;  /* so the data is big-endian */
    uint64_t v = 0;
    for (int k = 0; k < itemsize; k++)
        v = (v << 8) | (unsigned char)p[little ? k : itemsize - 1 - k];
    if (is_signed && itemsize < 8 && (v >> (8 * itemsize - 1)) & 1)
        v |= ~(uint64_t)0 << (8 * itemsize);   /* sign-extend */
    return v;
}

static Py_ssize_t swapped_rows(Rows r, int size, int itemsize, int is_signed, int32_t *out)
{
    for (Py_ssize_t i = 0; i < r.n; i++) {
        const char *p = r.base + i * r.s0;
        uint64_t v[4];
        for (int j = 0; j < size; j++)
            v[j] = swapped_at(p + j * r.s1, itemsize, is_signed);
        int32_t s = size == 4 ? row_strength4(v[0], v[1], v[2], v[3], r.table)
                              : row_strength3(v[0], v[1], v[2], r.table);
        if (s < 0)
            return i;
        out[i] = s;
    }
    return -1;
}

/* From a struct-module format of one integer ("l", "<Q", ">h", ...): its
 * signedness, and whether its byte order is not the machine's; -1 for
 * anything else. */
static int parse_format(const char *format, int *is_signed, int *swapped)
{
    const uint16_t probe = 1;
    const int little = *(const unsigned char *)&probe == 1;
    *swapped = 0;
    if (format == NULL)
        format = "B";
    switch (*format) {
    case '@': case '=':
        format++;
        break;
    case '<':
        *swapped = !little;
        format++;
        break;
    case '>': case '!':
        *swapped = little;
        format++;
        break;
    }
    if (format[0] == '\0' || format[1] != '\0' || strchr("bBhHiIlLqQnN", format[0]) == NULL)
        return -1;
    *is_signed = strchr("bhilqn", format[0]) != NULL;
    return 0;
}

static Py_ssize_t run_rows(Rows r, int size, int itemsize, int is_signed, int swapped,
                           int simd, int32_t *out)
{
    if (swapped && itemsize > 1)
        return swapped_rows(r, size, itemsize, is_signed, out);
    switch (itemsize * (is_signed ? -1 : 1)) {
    case -1: return i8_run(r, size, simd, out);
    case 1: return u8_run(r, size, simd, out);
    case -2: return i16_run(r, size, simd, out);
    case 2: return u16_run(r, size, simd, out);
    case -4: return i32_run(r, size, simd, out);
    case 4: return u32_run(r, size, simd, out);
    case -8: return i64_run(r, size, simd, out);
    default: return u64_run(r, size, simd, out);
    }
}

PyDoc_STRVAR(batch_strengths_doc,
"batch_strengths($module, rows, size, out, simd=True, /)\n--\n\n"
"Strengths of many hands of ``size`` (3 or 4) cards, into ``out``.\n\n"
"``rows`` exports a buffer of shape (N, size) of integers of any width,\n"
"signedness, byte order and strides; ``out`` a writable contiguous buffer\n"
"of N 4-byte ints.  Returns -1 when every row is a valid hand, else the\n"
"number of the first row that holds an index outside range(52) or a card\n"
"twice (``out`` is then filled only up to that row).  The GIL is released\n"
"while the rows are read.  With ``simd`` false the AVX2 loop is not used\n"
"(for tests; see BATCH_SIMD).  The checks and error messages are\n"
"cardrules.down_and_back.batch's.\n\n"
">>> from array import array\n"
">>> out = array('i', [0])\n"
">>> batch_strengths(memoryview(array('b', [0, 1, 2, 3])).cast('b', (1, 4)), 4, out)\n"
"-1\n"
">>> out[0] >> 12   # four aces: a quad\n"
"7\n");

static PyObject *py_batch_strengths(PyObject *Py_UNUSED(module), PyObject *const *args,
                                    Py_ssize_t nargs)
{
    if (nargs != 3 && nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "batch_strengths() takes three or four arguments");
        return NULL;
    }
    int simd = nargs == 4 ? PyObject_IsTrue(args[3]) : 1;
    if (simd < 0)
        return NULL;
    long size = PyLong_AsLong(args[1]);
    if (size == -1 && PyErr_Occurred())
        return NULL;
    if (size != 3 && size != 4) {
        PyErr_SetString(PyExc_ValueError, "batch_strengths() takes hands of 3 or 4 cards");
        return NULL;
    }
    Py_buffer in, out;
    if (PyObject_GetBuffer(args[0], &in, PyBUF_RECORDS_RO) < 0)
        return NULL;
    if (PyObject_GetBuffer(args[2], &out, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&in);
        return NULL;
    }
    int is_signed, swapped;
    const char *problem = NULL;
    if (in.ndim != 2 || in.shape[1] != size)
        problem = "rows must have shape (N, size)";
    else if (parse_format(in.format, &is_signed, &swapped) < 0
             || (in.itemsize != 1 && in.itemsize != 2 && in.itemsize != 4 && in.itemsize != 8))
        problem = "rows must hold integers";
    else if (out.itemsize != 4 || out.len != in.shape[0] * 4)
        problem = "out must hold one 4-byte int per row";
    if (problem != NULL || ensure_colex() < 0) {
        PyBuffer_Release(&in);
        PyBuffer_Release(&out);
        if (problem != NULL)
            PyErr_SetString(PyExc_ValueError, problem);
        return NULL;
    }
    /* Hold the tables while the GIL is released: a new setup() (a reloaded
     * package) in another thread only drops S's reference. */
    PyObject *tables = Py_NewRef(S.colex);
    const uint16_t *four = (const uint16_t *)PyBytes_AS_STRING(tables);
    Rows r = {in.buf, in.shape[0], in.strides[0], in.strides[1],
              size == 4 ? four : four + COLEX3_AT};
    int itemsize = (int)in.itemsize;
    Py_ssize_t bad;
    Py_BEGIN_ALLOW_THREADS
    bad = run_rows(r, (int)size, itemsize, is_signed, swapped, simd, out.buf);
    Py_END_ALLOW_THREADS
    Py_DECREF(tables);
    PyBuffer_Release(&in);
    PyBuffer_Release(&out);
    return PyLong_FromSsize_t(bad);
}

static void release(void)
{
    if (S.ready)
        for (int i = 0; i < 5; i++)
            PyBuffer_Release(&S.bufs[i]);
    Py_CLEAR(S.colex);
    Py_CLEAR(S.card_type);
    Py_CLEAR(S.combo_type);
    Py_CLEAR(S.option_type);
    Py_CLEAR(S.hand_type);
    Py_CLEAR(S.split_type);
    Py_CLEAR(S.d_col);
    Py_CLEAR(S.d_strength);
    Py_CLEAR(S.d_cards);
    Py_CLEAR(S.d_option_down);
    Py_CLEAR(S.d_option_back);
    Py_CLEAR(S.d_split_down);
    Py_CLEAR(S.d_split_back);
    Py_CLEAR(S.loader);
    Py_CLEAR(S.fb_evaluate4);
    Py_CLEAR(S.fb_evaluate3);
    Py_CLEAR(S.fb_strength4);
    Py_CLEAR(S.fb_strength3);
    Py_CLEAR(S.fb_split_strengths);
    Py_CLEAR(S.fb_best_splits);
    Py_CLEAR(S.fb_split_actions);
    Py_CLEAR(S.fb_hand_of_sorted);
    S.ready = S.configured = 0;
}

PyDoc_STRVAR(setup_doc,
"setup($module, card_type, combo_type, option_type, hand_type, split_type, loader,\n"
"      fallbacks, /)\n--\n\n"
"Connect the speed-ups to the package's classes (Card, Combo, SplitOption,\n"
"Hand, Split), table loader and Python fallbacks (evaluate4, evaluate3,\n"
"strength4, strength3, split_strengths, best_splits, split_actions,\n"
"Hand.of_sorted).  Called\n"
"once by cardrules.down_and_back._accel.");

/* The class's data descriptor (a slot) for attribute ``name``, or NULL with
 * TypeError set.  Reading and writing through it is what
 * object.__getattribute__ and object.__setattr__ do. */
static PyObject *slot_descriptor(PyObject *type, const char *name)
{
    PyObject *descr = PyObject_GetAttrString(type, name);
    if (descr == NULL || Py_TYPE(descr)->tp_descr_get == NULL
            || Py_TYPE(descr)->tp_descr_set == NULL) {
        Py_XDECREF(descr);
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s.%s is not a slot",
                     ((PyTypeObject *)type)->tp_name, name);
        return NULL;
    }
    return descr;
}

static PyObject *py_setup(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "setup() takes seven arguments");
        return NULL;
    }
    for (int i = 0; i < 5; i++)
        if (!PyType_Check(args[i])) {
            PyErr_SetString(PyExc_TypeError,
                            "setup() needs the Card, Combo, SplitOption, Hand and Split types");
            return NULL;
        }
    PyObject *fallbacks = args[6];
    if (!PyTuple_Check(fallbacks) || PyTuple_GET_SIZE(fallbacks) != 8
            || !PyCallable_Check(args[5])) {
        PyErr_SetString(PyExc_TypeError, "setup() needs a loader and eight fallbacks");
        return NULL;
    }
    PyTypeObject *hand = (PyTypeObject *)args[3];
    if (!PyType_IsSubtype(hand, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "setup() needs Hand to be a tuple subclass");
        return NULL;
    }
    /* One at a time, stopping at the first failure with its error set. */
    static const int owner[7] = {0, 1, 1, 2, 2, 4, 4};
    static const char *const name[7] = {"_col", "_strength", "_cards", "down", "back",
                                         "down", "back"};
    PyObject *found[7] = {NULL};
    for (int i = 0; i < 7; i++)
        if ((found[i] = slot_descriptor(args[owner[i]], name[i])) == NULL) {
            for (int j = 0; j < i; j++)
                Py_DECREF(found[j]);
            return NULL;
        }
    release();  /* a second setup (a reloaded package) replaces the first */
    S.d_col = found[0];
    S.d_strength = found[1];
    S.d_cards = found[2];
    S.d_option_down = found[3];
    S.d_option_back = found[4];
    S.d_split_down = found[5];
    S.d_split_back = found[6];
    S.card_type = (PyTypeObject *)Py_NewRef(args[0]);
    S.combo_type = (PyTypeObject *)Py_NewRef(args[1]);
    S.option_type = (PyTypeObject *)Py_NewRef(args[2]);
    S.hand_type = (PyTypeObject *)Py_NewRef(args[3]);
    S.split_type = (PyTypeObject *)Py_NewRef(args[4]);
    S.loader = Py_NewRef(args[5]);
    S.fb_evaluate4 = Py_NewRef(PyTuple_GET_ITEM(fallbacks, 0));
    S.fb_evaluate3 = Py_NewRef(PyTuple_GET_ITEM(fallbacks, 1));
    S.fb_strength4 = Py_NewRef(PyTuple_GET_ITEM(fallbacks, 2));
    S.fb_strength3 = Py_NewRef(PyTuple_GET_ITEM(fallbacks, 3));
    S.fb_split_strengths = Py_NewRef(PyTuple_GET_ITEM(fallbacks, 4));
    S.fb_best_splits = Py_NewRef(PyTuple_GET_ITEM(fallbacks, 5));
    S.fb_split_actions = Py_NewRef(PyTuple_GET_ITEM(fallbacks, 6));
    S.fb_hand_of_sorted = Py_NewRef(PyTuple_GET_ITEM(fallbacks, 7));
    S.configured = 1;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"setup", (PyCFunction)(void (*)(void))py_setup, METH_FASTCALL, setup_doc},
    {"evaluate4", py_evaluate4, METH_O, evaluate4_doc},
    {"evaluate3", py_evaluate3, METH_O, evaluate3_doc},
    {"strength4", py_strength4, METH_O, strength4_doc},
    {"strength3", py_strength3, METH_O, strength3_doc},
    {"split_strengths", py_split_strengths, METH_O, split_strengths_doc},
    {"best_splits", py_best_splits, METH_O, best_splits_doc},
    {"split_actions", py_split_actions, METH_O, split_actions_doc},
    {"hand_of_sorted", py_hand_of_sorted, METH_O, hand_of_sorted_doc},
    {"batch_strengths", (PyCFunction)(void (*)(void))py_batch_strengths, METH_FASTCALL,
     batch_strengths_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "cardrules.down_and_back._speedups",
    "Optional C speed-ups for the Down and Back evaluators and legal splits.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__speedups(void)
{
    build_plans();
#ifdef HAVE_AVX2_LOOP
    __builtin_cpu_init();
    has_avx2 = __builtin_cpu_supports("avx2");
#endif
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    /* The vector loop batch_strengths uses for contiguous 4-card rows, or None. */
    const char *simd_name = NULL;
#ifdef HAVE_AVX2_LOOP
    if (has_avx2)
        simd_name = "avx2";
#endif
    PyObject *simd = simd_name ? PyUnicode_FromString(simd_name) : Py_NewRef(Py_None);
    if (simd == NULL || PyModule_AddObjectRef(m, "BATCH_SIMD", simd) < 0) {
        Py_XDECREF(simd);
        Py_DECREF(m);
        return NULL;
    }
    Py_DECREF(simd);
    return m;
}
