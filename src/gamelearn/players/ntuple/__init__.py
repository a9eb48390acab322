"""The n-tuple network learner, ``ntuple``: TD(lambda) and temporal coherence learning over
n-tuple features (Lucas 2008; Thill, Koch & Konen 2012), read top to bottom in this package.

- :mod:`.player`: the player, the kind ``ntuple`` registered with its options;
- :mod:`.trainer`: its weights, counters and self-play batches;
- :mod:`.layout`: which squares each tuple reads, per game (the known layouts by name);
- :mod:`.settings`: self-play's settings per game, and the defaults chosen on validation suites;
- :mod:`.bitboards`: Teeko's rules on bitboards, as the kernels play them;
- :mod:`.kernels`: compiled self-play and the TD update (numba);
- :mod:`.connect4`: Connect Four's compiled rules, self-play and values, :mod:`.connect4_search` its search;
- :mod:`.generic`: self-play over any game's own rules, where no compiled rules exist;
- :mod:`.search`, :mod:`.search_kernels`: alpha-beta over the learnt values;
- :mod:`.weights`: the weights as kept in the store.
"""

from __future__ import annotations

from .player import NtuplePlayer

__all__ = ["NtuplePlayer"]
