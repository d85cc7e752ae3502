/*
 * The evaluators of cardrules.down_and_back._speedups: evaluate4,
 * evaluate3, strength4, strength3, split_strengths and best_splits.
 *
 * Each takes the common path (a tuple, a tuple subclass such as
 * cardrules.Hand, or a list of Card objects, no repeated card), reads the
 * pair tables loaded by _speedups_module.c, and passes anything else to
 * the Python function of the same name, which gives the result or raises
 * the error.  The result objects are made by _speedups_build.c.
 */
#include "_speedups.h"

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

/* The index of a Card (its pair_column attribute), or -1 for anything else. */
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
"The same as the pure-Python :func:`cardrules.down_and_back.combos.evaluate4`.\n\n"
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
"The same as the pure-Python :func:`cardrules.down_and_back.combos.evaluate3`.\n\n"
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

PyDoc_STRVAR(best_splits_doc,
"best_splits($module, seven, /)\n--\n\n"
"The Pareto-optimal splits of seven cards (DB-40, DB-41) (C speed-up).\n\n"
"The same as the pure-Python :func:`cardrules.down_and_back.combos.best_splits`.\n\n"
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


PyMethodDef evaluate_methods[] = {
    {"evaluate4", py_evaluate4, METH_O, evaluate4_doc},
    {"evaluate3", py_evaluate3, METH_O, evaluate3_doc},
    {"strength4", py_strength4, METH_O, strength4_doc},
    {"strength3", py_strength3, METH_O, strength3_doc},
    {"split_strengths", py_split_strengths, METH_O, split_strengths_doc},
    {"best_splits", py_best_splits, METH_O, best_splits_doc},
    {NULL, NULL, 0, NULL},
};
