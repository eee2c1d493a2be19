"""The phase tracker: a strip over the table showing where a battle with a mission is (07):
the battle round, whose turn (in the army's colour), the phase and step and who chooses in it,
each player's CP and VP; and, for the orders panel, what the phase still requires.

Read-only: ``tracker_info`` and ``phase_todo`` read the battle's TurnState and the world's
queries; ``draw_tracker`` paints. Nothing here writes a component or submits a command."""

from __future__ import annotations

from dataclasses import dataclass

import esper
import pygame

from sim.names import possessive  # ("Raiders' turn", "Iron Host's turn": one home)
from sim.components import Unit, Wounds
from sim.rules.turn import PHASE_NAMES as NAMES
from sim.phases.state import FightStep, Phase
from sim.rules.turn import PLAYER
from sim.sandbox import style as S
from sim.sandbox.fonts import text
from sim.world import queries as W
from sim.world import rule_reads as RR
from sim.rules.effects import eligibility as EL

TRACKER_H = 36  # pixels: the strip's height
BG = (34, 38, 35)
EDGE = (69, 75, 70)
LABEL = (158, 163, 150)  # "CP", "VP", dividers' text
PHASE_TEXT = (236, 230, 200)


@dataclass(frozen=True, slots=True)
class TrackerInfo:
    """Where the battle is, as plain data (a copy of TurnState's public fields)."""

    round: int
    rounds: int
    active: int
    chooser: int
    phase: str
    step: str | None
    cp: tuple[int, int]
    vp: tuple[int, int]
    over: bool
    result: str | None
    names: tuple[str, str]  # the armies' names
    pre_battle: tuple | None = None  # 26 steps 5-11: (who acts, the step in words): deploy_flow.pre_battle_headline
    rules_deployment: bool = False  # the battle begins with the roles and the deployment (26 steps 5-11)


def tracker_info(battle) -> TrackerInfo | None:
    """The tracker's reading of ``battle`` (None in free play: no mission, no tracker)."""
    ts = battle.turn_state
    if ts is None:
        return None
    names = army_names(battle)
    from sim.sandbox.deploy_flow import pre_battle_headline
    return TrackerInfo(ts.round, ts.mission.rounds, ts.active, ts.chooser, str(ts.phase),
                       None if ts.step is None else str(ts.step), (ts.cp[0], ts.cp[1]),
                       (ts.vp[0], ts.vp[1]), ts.over, ts.result, names, pre_battle_headline(battle),
                       ts.mission.deployment == "rules")


def army_names(battle) -> tuple[str, ...]:
    """How the sandbox calls each side: its army's name (the scenario's), side by side."""
    return tuple(a.name for a in battle.scenario.armies[:2])




def phase_title(info: TrackerInfo) -> str:
    """'Movement phase', 'Fight phase: pile in' (the step), 'End of Turn step'."""
    name = NAMES.get(Phase(info.phase), info.phase)
    if info.phase == Phase.FIGHT and info.step is not None:
        name += f": {info.step}"
    return name


def result_text(info: TrackerInfo) -> str:
    if info.result == "draw":
        return f"the battle is over: a draw, {info.vp[0]}-{info.vp[1]} VP"
    winner = PLAYER.index(info.result) if info.result in PLAYER else None
    if winner is None:
        return "the battle is over"
    return f"the battle is over: won by {info.names[winner]}, {info.vp[winner]}-{info.vp[1 - winner]} VP"


# ============================================================================= drawing
SHORT_PHASE = {"Movement": "Move", "Shooting": "Shoot", "End of turn": "End"}


def _segments(info: TrackerInfo, compact: bool, tight: int = 0) -> list[list[tuple]]:
    """The strip's groups, left to right; each a list of pieces: ('text', str, colour, bold)
    or ('dot', player). ``tight``: the army whose turn it is by its dot alone (800x600: the
    round stays shown); 2: the phase by its short name too (two-digit scores at 800x600)."""
    if info.round == 0 and info.pre_battle:  # (26 steps 5-11: the step and who acts in it)
        head = [("text", "Before the battle" if not compact else "Pre-battle", PHASE_TEXT, True)]
        who, words, short = info.pre_battle
        where = [("dot", who), ("text", words if not compact else short, S.TEXT, True)]
    elif info.round == 0:
        roles = info.rules_deployment
        head = [("text", "Before the battle" if not compact else "Not started", PHASE_TEXT, True)]
        where = [("text", ("Start battle rolls off for the roles, then deployment" if roles else
                           "Start battle rolls off for the first turn") if not compact else "Start: roll-off",
                  LABEL, False)]
    elif info.over:
        head = [("text", f"Round {info.round}/{info.rounds}" if compact else
                 f"Round {info.round} of {info.rounds}", PHASE_TEXT, True)]
        where = [("text", result_text(info) if not compact else "Battle over", S.SELECT, True)]
    else:
        head = [("text", f"R{info.round}/{info.rounds}" if compact else f"Round {info.round} of {info.rounds}",
                 PHASE_TEXT, True)]
        who = info.names[info.active]
        turn = [("dot", info.active)] + ([] if tight else
                                         [("text", who if compact else f"{possessive(who)} turn", S.TEXT, False)])
        phase = phase_title(info)
        if compact:
            phase = phase.replace(" phase", "").replace("End of Turn step", "End of turn")
        if tight == 2:  # (then the phase's short name: "Fight", not "Fight: pile in"; the chooser by its dot)
            phase = SHORT_PHASE.get(phase.split(":")[0], phase.split(":")[0])
        where = turn + [("gap",), ("text", phase, PHASE_TEXT, True)]
        if info.phase == Phase.FIGHT and info.chooser != info.active and tight == 2:
            where += [("gap",), ("dot", info.chooser)]
        elif info.phase == Phase.FIGHT and info.chooser != info.active:
            where += [("gap",), ("dot", info.chooser),
                      ("text", "choice" if compact else f"{possessive(info.names[info.chooser])} choice", S.TEXT, False)]
    score = []
    for label, vals in (("CP", info.cp), ("VP", info.vp)):
        group = [("text", label, LABEL, False)]
        for p in (0, 1):
            group += [("dot", p), ("text", str(vals[p]), S.TEXT, True)]
        score.append(group)
    return [head, where] + score


def _piece_w(piece, size: int, ui: float = 1.0) -> int:
    if piece[0] == "dot":
        return round(14 * ui)
    if piece[0] == "gap":
        return round(6 * ui)
    return text(piece[1], size, piece[2], piece[3]).get_width() + 5


def _width(groups, size: int, ui: float = 1.0) -> int:
    return sum(sum(_piece_w(p, size, ui) for p in g) for g in groups) + round(22 * ui) * (len(groups) - 1)


def draw_tracker(surf, rect: pygame.Rect, info: TrackerInfo | None, colours, ui: float = 1.0) -> list[str]:
    """The strip's groups, each fitted to the room left of the buttons (``rect`` is that room;
    a narrower window gets the compact wording); sizes follow the UI scale ``ui``. Returns what
    it wrote, a string per group (the players' dots as their indexes in brackets: "CP [0] 1 [1] 2")."""
    if info is None or rect.w <= 0:
        return []
    size = round(14 * ui)
    groups = _segments(info, compact=False)
    if _width(groups, size, ui) > rect.w - 16:
        groups = _segments(info, compact=True)
        if _width(groups, size, ui) > rect.w - 16:
            size = round(12 * ui)
    if _width(groups, size, ui) > rect.w - 16:
        size = S.MIN_FONT  # (then the smallest legible text before any group gives way)
    if _width(groups, size, ui) > rect.w - 16:
        groups = _segments(info, compact=True, tight=1)  # (the turn's army by its dot alone)
    if _width(groups, size, ui) > rect.w - 16:
        groups = _segments(info, compact=True, tight=2)  # (and the phase's short name: "Move", "Fight")
    while len(groups) > 2 and _width(groups, size, ui) > rect.w - 16:
        groups = groups[1:]  # (a narrow window: the round, then the turn, give way to CP and VP)
    clip = surf.get_clip()
    surf.set_clip(rect)
    x = rect.x + 10
    cy = rect.centery
    shown = []
    for k, g in enumerate(groups):
        shown.append(" ".join(f"[{p[1]}]" if p[0] == "dot" else p[1] for p in g if p[0] != "gap"))
        if k:
            pygame.draw.line(surf, EDGE, (x + round(7 * ui), rect.y + 8), (x + round(7 * ui), rect.bottom - 8))
            x += round(22 * ui) - 5
        for piece in g:
            if piece[0] == "dot":
                c = colours[piece[1]] if piece[1] < len(colours) else S.TEXT
                r = round(5 * ui)
                pygame.draw.circle(surf, c, (x + round(6 * ui), cy), r)
                pygame.draw.circle(surf, S.shade(c, 0.55), (x + round(6 * ui), cy), r, 1)
                x += round(14 * ui)
            elif piece[0] == "gap":
                x += round(6 * ui)
            else:
                t = text(piece[1], size, piece[2], piece[3])
                surf.blit(t, (x, cy - t.get_height() // 2))
                x += t.get_width() + 5
        x += 5
    surf.set_clip(clip)
    return shown


def draw_strip(surf, rect: pygame.Rect) -> None:
    """The strip's background (the whole width, under the buttons' panel too)."""
    pygame.draw.rect(surf, BG, rect)
    pygame.draw.line(surf, EDGE, (rect.x, rect.bottom - 1), (rect.right, rect.bottom - 1))


# ============================================================================= the phase's needs
def _uid(u: int) -> str:
    return esper.component_for_entity(u, Unit).id


def _own(battle, player: int) -> list[int]:
    return [u for u in W.all_units() if esper.component_for_entity(u, Unit).owner == player
            and not W.unit_destroyed(u) and not W.in_reserves(u)]


def in_reserves(battle) -> list[tuple[str, int]]:
    """(unit id, owner) of every unit in strategic reserves, in army order."""
    battle._enter()
    return [(_uid(u), esper.component_for_entity(u, Unit).owner) for u in W.all_units()
            if W.in_reserves(u) and any(esper.component_for_entity(m, Wounds).remaining > 0
                                        for m in W.unit_models(u, living=False))]


def embarked(battle) -> list[tuple[str, str, int]]:
    """(unit id, transport id, owner) of every living unit embarked in a transport on the
    battlefield, in army order (18.02)."""
    battle._enter()
    out = []
    for u in W.all_units():
        t = W.embarked_in(u)
        if t is not None and W.alive_models(u) and not W.off_table(t):
            out.append((_uid(u), _uid(t), esper.component_for_entity(u, Unit).owner))
    return out


def phase_todo(battle) -> list[tuple[str, bool]]:
    """What the phase still requires (True: must be done before the phase can end) or still
    allows (False), in words, each naming its rule. Empty in free play."""
    ts = battle.turn_state
    if ts is None:
        return []
    if ts.round == 0 and ts.mission.deployment == "rules":
        return [("the battle has not started: Start battle rolls off for the roles, then each player declares "
                 "battle formations and the armies deploy (26 steps 5-8)", True)]
    if ts.round == 0:
        return [("the battle has not started: Start battle rolls off for the first turn (26 step 10)", True)]
    if ts.over:
        return []
    battle._enter()
    out: list[tuple[str, bool]] = []
    me = ts.active
    if ts.in_progress is not None:
        st = W.unit_state(ts.in_progress)
        uid = _uid(ts.in_progress)
        if st.charge_roll is not None and not st.charge_resolved:
            out.append((f"{uid} declared a charge (roll {st.charge_roll}\"): make its charge move or give "
                        f"it up before another unit acts (11.02)", True))
        elif st.move_selected:
            extra = f" (advance roll {st.advance_roll})" if st.advance_roll is not None else ""
            out.append((f"{uid} was selected to {st.move_selected}{extra}: make its move before another "
                        f"unit is selected (09.02)", True))
    if ts.phase == Phase.MOVEMENT:
        idle = [_uid(u) for u in _own(battle, me)
                if W.unit_state(u).move_selected is None and W.unit_state(u).move_type is None]
        if idle:
            out.append((f"not yet selected to move: {', '.join(idle)} - each remains stationary when the "
                        f"phase ends (09.02.01)", False))
        waiting = [uid for uid, owner in in_reserves(battle) if owner == me]
        if waiting:
            when = ("may arrive by an ingress move (20.04)" if ts.round >= 2 else
                    "may arrive from battle round 2 (20.04)")
            out.append((f"in strategic reserves: {', '.join(waiting)} - {when}; still there at the end of "
                        f"round 3, destroyed (20.03)", False))
    elif ts.phase == Phase.SHOOTING:
        can = [_uid(u) for u in _own(battle, me) if not W.unit_state(u).selected_to_shoot
               and (not W.unit_state(u).fell_back or RR.permitting(battle, u, EL.SHOOT))  # (a rule's leave)
               and any(not w.is_melee for m in W.unit_models(u) for w in W.weapons_of(m))]
        if can:
            out.append((f"may still shoot: {', '.join(can)} (10.02)", False))
    elif ts.phase == Phase.CHARGE:
        from sim.commands import DeclareCharge
        if ts.in_progress is None:
            can = [_uid(u) for u in _own(battle, me)
                   if W.unit_state(u).charge_roll is None and battle.check(DeclareCharge(_uid(u))) is None]
            if can:
                out.append((f"may declare a charge: {', '.join(can)} (11.02)", False))
    elif ts.phase == Phase.FIGHT:
        from sim.plan.fight import fight_eligible
        who = battle.scenario.armies[ts.chooser].name
        if ts.step == FightStep.PILE_IN:
            can = [_uid(u) for u in _own(battle, ts.chooser) if not W.unit_state(u).piled_in
                   and (W.unit_engaged(u) or W.unit_state(u).charged)]
            out.append((f"{who} may pile in: {', '.join(can)} (12.03)" if can else
                        f"{who} has no unit to pile in: End phase passes the step on (12.02)", False))
        elif ts.step == FightStep.FIGHT:
            if ts.pending_fights:
                first = _uid(ts.pending_fights[0])
                out.append((f"{first} was engaged by a consolidation: it is selected to fight now (12.08)", True))
            must = [_uid(u) for u in fight_eligible(battle, ts.chooser)]
            if must:
                out.append((f"{who} must select a unit to fight: {', '.join(must)} (12.04); a pass only when "
                            f"all are more than 5\" from every enemy (12.04.01)", True))
        elif ts.step == FightStep.CONSOLIDATE:
            from sim.plan.fight import was_eligible_to_fight
            can = [_uid(u) for u in _own(battle, ts.chooser) if not W.unit_state(u).consolidated
                   and was_eligible_to_fight(battle, u)]
            out.append((f"{who} may consolidate: {', '.join(can)} (12.07)" if can else
                        f"{who} has no unit to consolidate: End phase passes the step on (12.07)", False))
    if not any(req for _t, req in out):
        out.append(("nothing more is required: End phase (E) when done (07.02)", False))
    return out


# ============================================================================= its buttons
# pixels at UI scale 1: the strip's right part, for the buttons' panel: Undo and End phase on one
# row (6 + 62 + 4 + PHASE_W: 212) clear of the panel's scroll bar room (SCROLL_BAR_W px + 2, which
# does not scale) at the smallest scale (style.MIN_SCALE 0.9: 212 + 22 / 0.9 = 236.4 <= 240)
BUTTONS_W = 240
PHASE_W = 140  # End phase, Start battle, Restart (their text: under 100 at every scale)


def build_tracker_buttons(flow, sb) -> None:
    """Undo and End phase (or Start battle before round 1) at the strip's right end."""
    flow.y = 4
    flow.x = 6
    info = tracker_info(sb.battle)
    idle = not (sb.battle.busy or sb.resolving) and sb.mode == "battle"
    # (Undo also takes back a command still resolving, as Ctrl+Z does: shown available then too;
    # greyed with its reason while the computer has the choice, sim.sandbox.undo.undo_refusal)
    why = sb.undo_refusal()
    flow.button("Undo", sb.undo, name="phase:undo", height=26, width=62,
                tip=f"Not now: {why}" if why else
                "take back the last command of this phase, or the one resolving (Ctrl+Z)",
                object_id="#unavailable" if why else None)
    if info is None:
        pass
    elif info.round == 0 and (info.pre_battle or sb.battle.pending is not None):
        pass  # (26 steps 5-11: the orders panel has the step's controls)
    elif info.round == 0:
        flow.button("Start battle  (E)", sb.start_mission, name="phase:start", height=26, width=PHASE_W,
                    object_id="#primary" if idle else "#unavailable",
                    tip="26 steps 10-12: roll off for the first turn; battle round 1 begins")
    elif info.over:
        flow.button("Restart  (Ctrl+R)", sb.restart, name="phase:restart", height=26, width=PHASE_W,
                    tip="a new battle from the scenario as opened")
    else:
        from sim.commands import EndPhase
        theirs = sb.ai_refusal(EndPhase())  # (the computer has the choice: computer.py)
        flow.button("End phase  (E)", sb.end_phase, name="phase:end", height=26, width=PHASE_W,
                    object_id="#primary" if idle and theirs is None else "#unavailable",
                    tip=f"Not now: {theirs}" if theirs else
                    f"end {'this step' if info.phase == Phase.FIGHT else 'the ' + phase_title(info)} "
                    f"(07.02); the rules say if something must be done first")
    flow.finish()
