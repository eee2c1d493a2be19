"""Commands: the only way a battle changes (with decisions). One record per command kind
(sim.commands.base.CommandRecord), in one registry (sim.commands.registry): its data, its JSON
form (the replay log, a scenario script's ``command`` step and the sandbox share it), where a
battle accepts it, its check, its apply and its words in the report.

The kinds: shoot (10.02), fight (12.04), overrun (12.06), move and select to move (09; a move
may embark, 18.02), declare charge and charge move (11), pile in and consolidate (12.03, 12.08),
ingress (20.04), disembark (18.04), start battle, end phase and end turn (07); before battle
round 1, declare formations, deploy and scout move (26 steps 7-11). README, "Adding a command", adds one.
"""

from sim.commands.charge import CHARGE_MOVE, DECLARE_CHARGE, ChargeMove, DeclareCharge, charge_command
from sim.commands.close_in import CONSOLIDATE, PILE_IN, Consolidate, PileIn, consolidate_command, pile_in_command
from sim.commands.deploy import (DECLARE_FORMATIONS, DEPLOY, SCOUT_MOVE, DeclareFormations, Deploy, ScoutMove,
                                 default_deploy, default_scout)
from sim.commands.disembark import DISEMBARK, Disembark, default_disembark, disembark_options
from sim.commands.fight import FIGHT, OVERRUN_FIGHT, Fight, Overrun, overrun_command
from sim.commands.flow import END_PHASE, END_TURN, START_BATTLE, EndPhase, EndTurn, StartBattle
from sim.commands.ingress import INGRESS, Ingress, default_ingress, ingress_candidates, ingress_toward
from sim.commands.move import MOVE, SELECT_TO_MOVE, Move, SelectToMove
from sim.commands.registry import BY_KIND, KINDS, RECORDS, describe, from_dict, shape_problem, to_dict, validate
from sim.commands.shoot import SHOOT, Shoot
from sim.plan.common import Selection

# (the names the rest of the code and the tests have always used)
command_to_dict = to_dict
command_from_dict = from_dict

__all__ = ["BY_KIND", "KINDS", "RECORDS", "describe", "from_dict", "shape_problem", "to_dict", "validate",
           "command_to_dict", "command_from_dict", "Selection", "Shoot", "Fight", "Overrun", "Move",
           "SelectToMove", "DeclareCharge", "ChargeMove", "PileIn", "Consolidate", "Ingress", "StartBattle",
           "EndPhase", "EndTurn", "charge_command", "pile_in_command", "consolidate_command", "overrun_command",
           "default_ingress", "ingress_candidates", "ingress_toward", "SHOOT", "FIGHT", "OVERRUN_FIGHT", "MOVE", "SELECT_TO_MOVE",
           "DECLARE_CHARGE", "CHARGE_MOVE", "PILE_IN", "CONSOLIDATE", "INGRESS", "START_BATTLE", "END_PHASE", "END_TURN",
           "DeclareFormations", "Deploy", "ScoutMove", "DECLARE_FORMATIONS", "DEPLOY", "SCOUT_MOVE",
           "default_deploy", "default_scout", "Disembark", "DISEMBARK", "default_disembark", "disembark_options"]
