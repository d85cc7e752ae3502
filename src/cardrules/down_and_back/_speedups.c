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
 * Attributes are read and written only through the public C API
 * (PyObject_GenericGetAttr / PyObject_GenericSetAttr with the attribute's
 * name), the same path as object.__getattribute__ / object.__setattr__ in
 * Python: nothing here depends on how CPython lays out slots.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

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
} State;

static State S;

/* The 35 splits of seven cards in itertools.combinations order, and the 21
 * pairs of positions: each split's down hand is pairs DH and DT, its back
 * hand pair BH plus the single position BT. */
static int DOWN[35][4], BACK[35][3], DH[35], DT[35], BH[35], BT[35];
static int PAIR_I[21], PAIR_J[21];

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

static void release(void)
{
    if (S.ready)
        for (int i = 0; i < 5; i++)
            PyBuffer_Release(&S.bufs[i]);
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
    return PyModule_Create(&module);
}
