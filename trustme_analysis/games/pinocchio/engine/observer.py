"""What one player observes: the perfect-recall information state string and the current-position tensor.

Follows OpenSpiel's ``make_py_observer`` pattern: one flat float tensor with named views in ``dict``, rewritten in
place by :meth:`PinocchioObserver.set_from`. With ``perfect_recall`` the observer gives the information state string
(the player's whole observed history); otherwise a string and a tensor of the current position as the player sees it.

The public part (``public_info``) is what every player sees alike, so it is the same for every player: no seat
marker, and under simultaneous voting no vote until all are cast. The private part (``PrivateInfoType.SINGLE_PLAYER``)
adds the seat, its hand, the face-down Character of its own tale and its own vote still hidden from the others.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.games.pinocchio.engine.rules import Rules
from trustme_analysis.games.pinocchio.engine.state import PHASE_NAMES

_NUM_PHASES = len(PHASE_NAMES)


class PinocchioObserver:
    """Observer for ``trustme_pinocchio``.

    Args:
        iig_obs_type: which information to include (pyspiel's IIGObservationType).
        rules (trustme_analysis.games.pinocchio.engine.rules.Rules): the variant.
    """

    def __init__(self, iig_obs_type: pyspiel.IIGObservationType, rules: Rules):
        n, V = rules.players, rules.values
        self.perfect_recall = iig_obs_type.perfect_recall
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = iig_obs_type.public_info
        pieces: list[tuple[str, tuple[int, ...]]] = [("player", (n,))] if self.private or self.perfect_recall else []
        if self.private and not self.perfect_recall:
            pieces += [("hand", (V,)), ("tale_hidden", (V,)), ("my_vote", (2,))]
        if self.public and not self.perfect_recall:
            pieces += [
                ("phase", (_NUM_PHASES,)),
                ("active", (n,)),
                ("hand_sizes", (n,)),
                ("park", (V,)),
                ("reputations", (n, V)),
                ("tickets", (n, V)),
                ("stacks", (V,)),
                ("deck_size", (1,)),
                ("discard", (V,)),
                ("runouts", (1,)),
                ("coin_used", (n,)),
                ("bonus", (1,)),
                ("tale_park", (V,)),
                ("votes", (n, 2)),
                ("majority", (2,)),
            ]
        size = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        index = 0
        for name, shape in pieces:
            k = int(np.prod(shape))
            self.dict[name] = self.tensor[index:index + k].reshape(shape)
            index += k

    def set_from(self, state: Any, player: int) -> None:
        """Write ``state`` as ``player`` sees it into ``tensor`` (in place)."""
        self.tensor.fill(0)
        d = self.dict
        if "player" in d:
            d["player"][player] = 1
        if "hand" not in d and "phase" not in d:
            return
        o = state.observation_parts(player)
        if "hand" in d:
            d["hand"][:] = o["hand"]
            if o["tale_hidden"]:
                d["tale_hidden"][o["tale_hidden"] - 1] = 1
            if o["my_vote"] is not None:
                d["my_vote"][0 if o["my_vote"] else 1] = 1
        if "phase" in d:
            d["phase"][o["phase"]] = 1
            d["active"][o["active"]] = 1
            d["hand_sizes"][:] = o["hand_sizes"]
            d["park"][:] = o["park"]
            d["reputations"][:] = o["reputations"]
            d["tickets"][:] = o["tickets"]
            d["stacks"][:] = o["stacks"]
            d["deck_size"][0] = o["deck_size"]
            d["discard"][:] = o["discard"]
            d["runouts"][0] = o["runouts"]
            d["coin_used"][:] = o["coin_used"]
            d["bonus"][0] = o["bonus"]
            if o["tale_park"]:
                d["tale_park"][o["tale_park"] - 1] = 1
            for p, v in enumerate(o["votes"]):
                if v is not None:
                    d["votes"][p, 0 if v else 1] = 1
            if o["majority"] is not None:
                d["majority"][0 if o["majority"] else 1] = 1

    def string_from(self, state: Any, player: int) -> str:
        """The information state string (perfect recall) or the current position as ``player`` sees it."""
        if self.perfect_recall:
            return state.information_string(player)
        o = state.observation_parts(player)
        parts = [f"p{player}"] if self.private else []
        parts += [f"phase{o['phase']}", f"active{o['active']}"]
        if self.private:
            parts.append("hand" + "".join(str(n) for n in o["hand"]))
            if o["tale_hidden"]:
                parts.append(f"hidden{o['tale_hidden']}")
            if o["my_vote"] is not None:
                parts.append("myvote" + "TF"[not o["my_vote"]])
        if self.public:
            parts += [
                "sizes" + "/".join(str(n) for n in o["hand_sizes"]),
                "park" + "".join(str(n) for n in o["park"]),
                "rep" + "/".join("".join(str(n) for n in r) for r in o["reputations"]),
                "tix" + "/".join("".join(str(n) for n in t) for t in o["tickets"]),
                "stacks" + "".join(str(n) for n in o["stacks"]),
                f"deck{o['deck_size']}",
                "disc" + "".join(str(n) for n in o["discard"]),
                f"runouts{o['runouts']}",
                "coins" + "".join("1" if c else "0" for c in o["coin_used"]),
                f"bonus{int(o['bonus'])}",
                f"tale{o['tale_park']}",
                "votes" + "".join("-" if v is None else "TF"[not v] for v in o["votes"]),
                "maj" + ("-" if o["majority"] is None else "TF"[not o["majority"]]),
            ]
        return " ".join(parts)
