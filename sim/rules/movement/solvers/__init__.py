"""Part A rulings 16-18: deterministic placement solvers for headless play.

Each solver is a pure function of the table (bodies, terrain, board) that returns the base-
centre paths of a legal move of one unit (checked by ``sim.rules.movement.legality.check_move``
plus the move type's own conditions) or says why there is none:

* ``charge``: 11.04 charge moves (ruling 17);
* ``pile_in``: 12.03 pile-in and 12.08 consolidation moves (ruling 18).

Coherency removals (ruling 29) are ``sim.rules.coherency.coherency_removals``.
"""

from sim.rules.movement.solvers.place import Solution

__all__ = ["Solution"]
