"""The training tables: hash table, growth, regret matching, discounting, stored policy lookup."""

import numpy as np

from trustme_analysis.train import tables as T


def test_insert_find_and_growth_keep_every_value():
    tab = T.Tables.empty(16)
    keys = [int(T.slot_key(np.int64(k), np.int64(a))) for k in range(200) for a in range(3)]
    assert len(set(keys)) == len(keys) and T.EMPTY not in keys
    for n, key in enumerate(keys):
        tab.ensure_room(1)
        i = T.insert(tab.keys, tab.used, np.int64(key))
        tab.regret[i] = n
        tab.avg[i] = 2 * n
    assert tab.size == len(keys) and tab.capacity >= len(keys) / T.MAX_LOAD
    for n, key in enumerate(keys):
        i = T.find(tab.keys, np.int64(key))
        assert i >= 0 and tab.regret[i] == n and tab.avg[i] == 2 * n
    assert T.find(tab.keys, np.int64(12345)) == -1
    # inserting a present key changes nothing
    before = tab.size
    T.insert(tab.keys, tab.used, np.int64(keys[7]))
    assert tab.size == before


def test_regret_matching_and_average():
    regret = np.array([2.0, -1.0, 6.0, 0.0])
    out = np.zeros(4)
    T.regret_matching(regret, np.arange(4), 4, out)
    assert np.allclose(out, [0.25, 0.0, 0.75, 0.0])
    T.regret_matching(-np.abs(regret), np.arange(4), 4, out)
    assert np.allclose(out, 0.25)
    keys = np.array([T.slot_key(np.int64(9), np.int64(a)) for a in (3, 5)], np.int64)
    table = T.policy_table(keys, np.array([1.0, 3.0]))
    row = np.array([T.slot_key(np.int64(9), np.int64(a)) for a in (3, 5, 7)], np.int64)
    probs = np.zeros(3)
    assert T.average_row(table[0], table[1], row, 3, probs)
    assert np.allclose(probs, [0.25, 0.75, 0.0])
    other = np.array([T.slot_key(np.int64(10), np.int64(a)) for a in (3, 5, 7)], np.int64)
    assert not T.average_row(table[0], table[1], other, 3, probs)
    assert np.allclose(probs, 1 / 3)


def test_discount_scales_by_sign():
    tab = T.Tables.empty(16)
    for a, r in enumerate((4.0, -4.0)):
        i = T.insert(tab.keys, tab.used, T.slot_key(np.int64(1), np.int64(a)))
        tab.regret[i] = r
        tab.avg[i] = 8.0
    pos, neg, avg = T.dcfr_factors(1, 1.5, 0.0, 2.0)
    assert (pos, neg, avg) == (0.5, 0.5, 0.25)
    tab.discount(0.5, 0.25, 0.125)
    used = tab.keys != T.EMPTY
    assert sorted(tab.regret[used]) == [-1.0, 2.0] and np.all(tab.avg[used] == 1.0)
