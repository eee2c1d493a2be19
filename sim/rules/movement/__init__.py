"""The movement engine (03.01-03.04, 09, 11.04, 12.03, 12.08, 21.03) and its rules.

``moves`` holds the small rules of a move (one move a phase, distances moved, advance and
taking-to-the-skies limits). ``legality`` checks a whole move (paths, ends, engagement,
coherency) against an immutable ``index`` of the table's bodies, with ``kernels`` for the
vectorised geometry; ``solvers`` place charge, pile-in and consolidation moves by the rules
(Part A rulings 16-18), each checked by the same legality code.
"""
