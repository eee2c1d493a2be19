"""12.04 The Fight step's order: Fights First combats, then the remaining combats, players
alternating, starting with the player whose turn it is (RULES §9, §23). Who is eligible to
fight is sim.plan.fight's (12.04, 12.08)."""

from __future__ import annotations

from sim.phases.state import FightStep
from sim.plan.fight import fight_eligible, fights_first
from sim.world import queries as W


def start_fight_step(battle) -> None:
    """12.04 The Fight step begins: who is engaged now is remembered (eligibility), step 1
    (Fights First combats) starts with the player whose turn it is."""
    ts = battle.turn_state
    ts.step = FightStep.FIGHT
    ts.engaged_at_fight_step = {u for u in W.all_units()
                                if not W.unit_destroyed(u) and W.unit_engaged(u)}
    ts.fights_first_step = True
    ts.fight_passes = 0
    ts.chooser = ts.active
    ts.eligible_this_phase = set(fight_eligible(battle, 0)) | set(fight_eligible(battle, 1))


def normalise_picker(battle, after_fight: bool = False) -> None:
    """12.04 Whose pick it is now (whose_pick, from the player to pick). Step 1: the player to
    pick with an eligible Fights First unit picks; if neither has one, step 2 begins and the same
    player picks; otherwise the other player picks. Step 2 alike with any eligible unit; when no
    eligible unit remains the Fight step ends (the Consolidate step begins, the active player
    first). Step 3: after a fight in step 2, a Fights First unit that has become eligible sends
    the sequence back to step 1."""
    ts = battle.turn_state
    picker, ts.fights_first_step = whose_pick(battle, ts.chooser, ts.fights_first_step, after_fight)
    if picker is None:
        ts.step = FightStep.CONSOLIDATE
        ts.chooser = ts.active
    else:
        ts.chooser = picker


def whose_pick(battle, chooser: int, fights_first_step: bool, after_fight: bool = False) -> tuple[int | None, bool]:
    """12.04 Who picks when ``chooser`` is the player to pick (the other player when ``chooser``
    cannot), and whether the sequence is then in step 1 (Fights First combats): as
    normalise_picker says. None when no eligible unit remains (the Fight step ends)."""
    eligible = {p: fight_eligible(battle, p) for p in (0, 1)}
    ff = {p: [u for u in eligible[p] if fights_first(u, battle)] for p in (0, 1)}
    if after_fight and not fights_first_step and (ff[0] or ff[1]):
        fights_first_step = True
    if fights_first_step:
        if ff[chooser]:
            return chooser, True
        if ff[1 - chooser]:
            return 1 - chooser, True
        fights_first_step = False  # the same player picks first in step 2
    if eligible[chooser]:
        return chooser, False
    if eligible[1 - chooser]:
        return 1 - chooser, False
    return None, False


def pick_after_pass(battle, player: int) -> int | None:
    """12.04.01 Who picks after ``player`` passes: the other player; or ``player`` again when the
    other player has eligible units but cannot pick (12.04 step 1: none of them Fights First,
    while ``player`` still has a Fights First unit), so the pass changes nothing; None when the
    other player has no eligible unit (the pass ends the Fight step)."""
    if not fight_eligible(battle, 1 - player):
        return None
    return whose_pick(battle, 1 - player, battle.turn_state.fights_first_step)[0]
