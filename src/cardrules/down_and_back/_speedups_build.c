/*
 * The builders of cardrules.down_and_back._speedups: the Combo,
 * SplitOption, Hand and Split objects the speed-ups return, made without
 * calling their classes' constructors (which would check again what the
 * caller already knows), and the two functions that are only builders:
 * hand_of_sorted and split_actions.
 *
 * An object is allocated with its type's tp_alloc and its fields are set
 * through the classes' data descriptors (slots), as object.__setattr__
 * does, so this works on frozen attrs classes too and depends on nothing
 * of how CPython lays out slots.  A Hand is a tuple subclass, filled as a
 * tuple.
 */
#include "_speedups.h"

/* Set an attribute through its class's data descriptor (a slot), as
 * object.__setattr__ does; this also works on frozen attrs classes, whose
 * own __setattr__ is not consulted.  Steals nothing; returns -1 with an
 * exception set on failure. */
static int set_attr(PyObject *obj, PyObject *descr, PyObject *value)
{
    return Py_TYPE(descr)->tp_descr_set(descr, obj, value);
}

/* A new Combo holding strength and the cards as a tuple (steals nothing). */
PyObject *make_combo(long strength, PyObject *cards_tuple)
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

static PyObject *hand_part(PyObject **items, const int *positions, int size)
{
    PyObject *tuple = PyTuple_New(size);
    if (tuple == NULL)
        return NULL;
    for (int i = 0; i < size; i++)
        PyTuple_SET_ITEM(tuple, i, Py_NewRef(items[positions[i]]));
    return tuple;
}

PyObject *make_option(PyObject **items, int n, unsigned down, unsigned back)
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
    if (ensure_configured() < 0)
        return NULL;
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
    if (ensure_configured() < 0)
        return NULL;
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

PyMethodDef build_methods[] = {
    {"split_actions", py_split_actions, METH_O, split_actions_doc},
    {"hand_of_sorted", py_hand_of_sorted, METH_O, hand_of_sorted_doc},
    {NULL, NULL, 0, NULL},
};
