"""A turn of the compiled ``trustme_1981`` kernel: peeks, claims at the turn start, the roll and the move, briefcases,
Hot Tips, Wild Goose Chase sends, Trust Me cards, Bamboozled rolls, challenges and their roll-offs (the engine's
``TrustMe1981State._apply_*`` of the same names)."""

from __future__ import annotations

from numba import njit

from trustme_analysis.games.board1981.kernel.basics import (
    area_has_open_case, claimed_by, count, end_turn, has_challenge_target, has_looked, look, move_slot, start_turn,
    trust_deck_total,
)
from trustme_analysis.games.board1981.kernel.investing import start_investing
from trustme_analysis.games.board1981.kernel.layout import (
    BAMBOOZLE_ROLL, C_BAMBOOZLED_ESCAPED, C_CARDS_BAMBOOZLED, C_CARDS_CHALLENGE, C_CARDS_MOVE, C_CHALLENGES_LOST,
    C_CHALLENGES_MADE, C_CHALLENGES_WON, C_CLAIMS_KNOWN, C_CLAIMS_LOOKED, C_CLAIMS_LOST, C_CLAIMS_TAKEN,
    C_CLAIMS_UNSEEN, C_DEFENCES_LOST, C_DEFENCES_WON, C_HOT_TIPS, C_LOOKS, C_PEEKS, C_WGC_RECEIVED, C_WGC_SENT, CARD,
    CH_CHALLENGER, CH_DEFENDER, CH_FIRST_ROLL, CH_TIES, CHALLENGE_CHOICE, CLAIM, CLAIM_KNEW, DECIDER, DECK,
    FIRST_PLAYER, HOT_TIP_CHOICE, K_COMPANY, K_HOT_TIP, K_PROPERTY, MAY_CLAIM, MOVE, NUM_SENDS, PEEK_IDX, PHASE, POS,
    PROPERTY_CHOICE, R_A_CLAIM_LOOKED, R_A_CLAIM_UNSEEN, R_A_DECLINE, R_A_FIRST_CASE, R_A_FIRST_CHALLENGE,
    R_A_FIRST_SEND, R_A_INVEST_NOW, R_A_LOOK, R_COMPANY, R_ESCAPES, R_HOT_TIP_AREA, R_KIND, R_MAX_ROLL_OFF_TIES,
    R_MOVE_COUNT, R_N, R_NUM_PROPS, R_PROPERTY_FIRST_SPACE, R_ROLL_OFF_TIE, R_SPACE_PROPERTY, R_TRUST_DECK,
    R_WILD_GOOSE_CHASE, REC_PENDING_CHALLENGE, REMOVED, ROLL, ROLL_FACE, ROLL_OFF_CHALLENGER, ROLL_OFF_DEFENDER, SEND,
    SEND_OCCUPIED, SEND_PLAIN, SENDS, TIE_CHALLENGER, TIE_REROLL, tie_module,
)

# ---------------------------------------------------------------------------------------------- turn structure

@njit(cache=True, inline="always")
def apply_peek(st, r, action):
    p = st[DECIDER]
    if action != r[R_A_DECLINE]:
        look(st, p, action - r[R_A_FIRST_CASE])
        count(st, C_PEEKS, p, 1)
    st[PEEK_IDX] += 1
    if st[PEEK_IDX] == r[R_N]:
        start_turn(st, r, st[FIRST_PLAYER])
    else:
        st[DECIDER] = (st[FIRST_PLAYER] + st[PEEK_IDX]) % r[R_N]


@njit(cache=True, inline="always")
def claim(st, p, q, counter):
    """Player ``p`` places a claim marker on ``q`` by a claim action (records: which action, and known or not)."""
    st[CLAIM + p] = q
    st[CLAIM_KNEW + p] = has_looked(st, p, q)
    count(st, counter, p, 1)
    count(st, C_CLAIMS_KNOWN, p, has_looked(st, p, q))


@njit(cache=True, inline="always")
def apply_turn_start(st, r, action):
    p = st[DECIDER]
    right = st[MAY_CLAIM + p]
    st[MAY_CLAIM + p] = -1
    if action == r[R_A_CLAIM_LOOKED]:
        claim(st, p, right, C_CLAIMS_LOOKED)
        st[PHASE] = ROLL
    elif action == r[R_A_INVEST_NOW]:
        start_investing(st, r, p)
    else:
        st[PHASE] = ROLL


@njit(cache=True, inline="always")
def apply_roll(st, r, face):
    p = st[DECIDER]
    if face == 1:
        st[PHASE] = CARD
        return
    st[ROLL_FACE] = face
    if r[r[R_MOVE_COUNT] + move_slot(st, r, p)] > 0:
        st[PHASE] = MOVE
    else:
        end_turn(st, r)


@njit(cache=True, inline="always")
def apply_move(st, r, dest):
    p = st[DECIDER]
    n = r[R_N]
    st[POS + p] = dest
    kind = r[r[R_KIND] + dest]
    if kind == K_COMPANY:
        if st[CLAIM + p] >= 0:
            start_investing(st, r, p)
        else:
            end_turn(st, r)
        return
    # Occupants are sent on a Wild Goose Chase one by one, in turn order from the mover's left.
    k = 0
    for i in range(1, n):
        o = (p + i) % n
        if st[POS + o] == dest:
            st[SENDS + 3 * k] = p
            st[SENDS + 3 * k + 1] = o
            st[SENDS + 3 * k + 2] = SEND_OCCUPIED
            k += 1
    if k > 0:
        st[NUM_SENDS] = k
        st[PHASE] = SEND
        st[DECIDER] = p
        return
    if kind == K_PROPERTY:
        arrive_at_property(st, r, p, r[r[R_SPACE_PROPERTY] + dest])
    elif kind == K_HOT_TIP and area_has_open_case(st, r, r[r[R_HOT_TIP_AREA] + dest]):
        st[PHASE] = HOT_TIP_CHOICE
    else:
        end_turn(st, r)


@njit(cache=True, inline="always")
def arrive_at_property(st, r, p, q):
    if st[REMOVED + q] != 0 or claimed_by(st, r, q) >= 0:
        end_turn(st, r)
    else:
        st[PHASE] = PROPERTY_CHOICE
        st[DECIDER] = p


@njit(cache=True, inline="always")
def apply_property_choice(st, r, action):
    p = st[DECIDER]
    q = r[r[R_SPACE_PROPERTY] + st[POS + p]]
    if action == r[R_A_LOOK]:
        look(st, p, q)
        st[MAY_CLAIM + p] = q
        count(st, C_LOOKS, p, 1)
        end_turn(st, r)
    elif action == r[R_A_CLAIM_UNSEEN]:
        claim(st, p, q, C_CLAIMS_UNSEEN)
        st[PHASE] = ROLL
    else:
        end_turn(st, r)


@njit(cache=True, inline="always")
def apply_hot_tip(st, r, action):
    p = st[DECIDER]
    if action != r[R_A_DECLINE]:
        look(st, p, action - r[R_A_FIRST_CASE])
        count(st, C_HOT_TIPS, p, 1)
    end_turn(st, r)


@njit(cache=True, inline="always")
def apply_send(st, r, action):
    sender = st[SENDS]
    target = st[SENDS + 1]
    reason = st[SENDS + 2]
    # Pop the queue's head.
    st[NUM_SENDS] -= 1
    for i in range(3 * st[NUM_SENDS]):
        st[SENDS + i] = st[SENDS + 3 + i]
    st[POS + target] = r[r[R_WILD_GOOSE_CHASE] + action - r[R_A_FIRST_SEND]]
    count(st, C_WGC_RECEIVED, target, 1)
    if sender != target:
        count(st, C_WGC_SENT, sender, 1)
    if st[REC_PENDING_CHALLENGE]:
        # The send that follows a challenge is made by its winner.
        challenger = st[CH_CHALLENGER]
        defender = st[CH_DEFENDER]
        if sender == challenger:
            count(st, C_CHALLENGES_WON, challenger, 1)
            count(st, C_DEFENCES_LOST, defender, 1)
        else:
            count(st, C_CHALLENGES_LOST, challenger, 1)
            count(st, C_DEFENCES_WON, defender, 1)
        st[REC_PENDING_CHALLENGE] = 0
    if reason == SEND_OCCUPIED and st[CLAIM + target] >= 0:
        q = st[CLAIM + target]
        st[CLAIM + target] = -1
        count(st, C_CLAIMS_LOST, target, 1)
        if st[CLAIM + sender] < 0:  # rule a): the opponent's claim becomes yours
            st[CLAIM + sender] = q
            st[CLAIM_KNEW + sender] = 0
            count(st, C_CLAIMS_TAKEN, sender, 1)
        # rule b): the opponent's marker is removed, yours stays
    if st[NUM_SENDS] > 0:
        st[DECIDER] = st[SENDS]
    else:
        end_turn(st, r)


@njit(cache=True, inline="always")
def apply_card(st, r, card):
    p = st[DECIDER]
    if trust_deck_total(st, r) == 0:
        for c in range(r[R_NUM_PROPS] + 2):
            st[DECK + c] = r[r[R_TRUST_DECK] + c]
    st[DECK + card] -= 1
    if card < r[R_NUM_PROPS]:
        count(st, C_CARDS_MOVE, p, 1)
        if st[REMOVED + card] != 0:
            end_turn(st, r)
            return
        st[POS + p] = r[r[R_PROPERTY_FIRST_SPACE] + card]
        arrive_at_property(st, r, p, card)
    elif card == r[R_NUM_PROPS]:
        count(st, C_CARDS_BAMBOOZLED, p, 1)
        st[PHASE] = BAMBOOZLE_ROLL
    else:
        count(st, C_CARDS_CHALLENGE, p, 1)
        if st[CLAIM + p] >= 0:
            # "If you already have a claim when you draw this card, go straight to the Trust Me Investment Company."
            st[POS + p] = r[R_COMPANY]
            start_investing(st, r, p)
        elif has_challenge_target(st, r, p):
            st[PHASE] = CHALLENGE_CHOICE
        else:
            end_turn(st, r)


@njit(cache=True, inline="always")
def apply_bamboozle_roll(st, r, face):
    p = st[DECIDER]
    if r[r[R_ESCAPES] + face]:
        count(st, C_BAMBOOZLED_ESCAPED, p, 1)
        end_turn(st, r)
        return
    if st[CLAIM + p] >= 0:
        count(st, C_CLAIMS_LOST, p, 1)
        st[CLAIM + p] = -1
    st[SENDS] = p
    st[SENDS + 1] = p
    st[SENDS + 2] = SEND_PLAIN
    st[NUM_SENDS] = 1
    st[PHASE] = SEND


@njit(cache=True, inline="always")
def apply_challenge(st, r, action):
    p = st[DECIDER]
    if action == r[R_A_DECLINE]:
        end_turn(st, r)
        return
    st[CH_CHALLENGER] = p
    st[CH_DEFENDER] = action - r[R_A_FIRST_CHALLENGE]
    st[CH_FIRST_ROLL] = 0
    st[CH_TIES] = 0
    count(st, C_CHALLENGES_MADE, p, 1)
    st[REC_PENDING_CHALLENGE] = 1
    st[PHASE] = ROLL_OFF_CHALLENGER


@njit(cache=True, inline="always")
def apply_roll_off(st, r, face):
    challenger = st[CH_CHALLENGER]
    defender = st[CH_DEFENDER]
    if st[PHASE] == ROLL_OFF_CHALLENGER:
        st[CH_FIRST_ROLL] = face
        st[PHASE] = ROLL_OFF_DEFENDER
        return
    first = st[CH_FIRST_ROLL]
    if first == face:
        st[CH_TIES] += 1
        if r[R_ROLL_OFF_TIE] == TIE_REROLL and st[CH_TIES] < r[R_MAX_ROLL_OFF_TIES]:
            st[CH_FIRST_ROLL] = 0
            st[PHASE] = ROLL_OFF_CHALLENGER
            return
        # After too many rerolled ties the defender keeps the claim.
        challenger_wins = r[R_ROLL_OFF_TIE] == TIE_CHALLENGER
    else:
        challenger_wins = first > face
    if challenger_wins:
        q = st[CLAIM + defender]
        st[CLAIM + defender] = -1
        st[CLAIM + challenger] = q
        st[CLAIM_KNEW + challenger] = 0
        count(st, C_CLAIMS_TAKEN, challenger, 1)
        count(st, C_CLAIMS_LOST, defender, 1)
        sender, target = challenger, defender
    else:
        sender, target = defender, challenger
    st[SENDS] = sender
    st[SENDS + 1] = target
    st[SENDS + 2] = SEND_PLAIN
    st[NUM_SENDS] = 1
    st[DECIDER] = sender
    st[PHASE] = SEND


tie_module(__name__)
