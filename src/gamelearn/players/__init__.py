"""The players layer: random, human, search, MCTS, perfect play and the learners.

Players import the rules and the solver, never the store: a learner's knowledge is a value it holds
in memory (:mod:`.knowledge`), kept by the play layer's keeper.
"""
