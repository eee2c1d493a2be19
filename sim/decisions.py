"""Decision requests: a system that needs a player's choice asks, and waits for the answer.

Scenario scripts, the sandbox and the default policies (RULES.md Part A) all answer through
:meth:`sim.battle.Battle.answer`. Kinds:

* ``allocation_order`` (defender, 05.03): a list of group keys;
* ``precision`` (attacker, 24.28): a CHARACTER model id, or "decline";
* ``psychic`` (attacker, 24.29): the list of modifier sources to ignore;
* ``duplicate`` (attacker, 24.02): the label of the one ability copy to use;
* ``lethal_hits`` (attacker, 24.23): "take" or "decline";
* ``stratagem`` (its user, 15): "use"/"decline", or what it is used on (a unit id, "unit: mode",
  "unit -> enemy unit"), or "decline";
* ``weapons`` (the shooter, 04.01): the names of the weapons that fire, when a stratagem makes a
  unit shoot (15.08 Fire Overwatch);
* ``coherency_removal`` (the unit's player, 03.03): the model ids it loses;
* ``charge_targets`` (its user, 15.11): the enemy unit a Heroic Intervention charges (default:
  the closest, Part A ruling 17);
* ``arrival`` (its user, 15.07): where a unit arriving by Rapid Ingress is set up, one of its
  legal spots (default: Part A ruling 27's).
* ``oath`` / ``oath_target`` (an oath rule's player, before the battle: sim.phases.oaths): the
  oath sworn, "<deed> / <quality>" (either part "random"), and the enemy CHARACTER model a
  ``tyrant`` deed names.
* ``dice_pool`` (the unit's player): a die of a rule's pool to stand for one die of a
  roll about to be made for the unit ("use 6", ..., "decline"; sim.systems.dice_pools); a rule's
  dice options (``rule_choice``) name the options activated ("Warp Blades + Martial Excellence",
  "none").

A scenario script answers by kind, once for its whole step (``Scripted``): the answer is fitted
to each request of that kind as it comes (sim.plan.answers.fit_scripted_answer).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class DecisionRequest:
    kind: str
    key: str  # identifies the request within the activation (e.g. "pool 2")
    player: int  # army index of the chooser
    options: list  # what may be chosen (JSON-safe)
    default: object  # the default policy's answer (RULES.md Part A)
    prompt: str = ""
    context: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"kind": self.kind, "key": self.key, "player": self.player,
                "options": self.options, "default": self.default}


@dataclass(frozen=True, slots=True)
class Scripted:
    """A script step's standing answer to every decision of one kind in that step. Pools
    resolved earlier in the step can change what it names (a group's key is its first living
    model; a CHARACTER may have died), so Battle.answer fits it to the request first: see
    sim.plan.answers.fit_scripted_answer."""

    value: object


class Pending:
    """Returned by Battle.decide while a request waits for its answer."""

    __slots__ = ()


PENDING = Pending()


def ask(battle, request: DecisionRequest):
    """Wait (a generator: a command's apply, the battle round, a stratagem's offer) for the
    answer to ``request``; returns it."""
    while True:
        value = battle.decide(request)
        if value is not PENDING:
            return value
        yield
