"""Helpers for the odds tests: a Problem made directly (no battle), and small scenarios."""

from __future__ import annotations

from sim.odds.problem import MemberDice, PoolInput, Problem, UnitView
from sim.rules import pools as PL
from sim.rules.abilities import parse_weapon_abilities
from sim.rules.dice import DiceExpr, parse_dice_expr


def dice(x) -> DiceExpr:
    return parse_dice_expr(x) if isinstance(x, str) else DiceExpr(0, 0, x)


def unit(uid="t", models=((5, 4, 3, None, False),), fnp=None, kw=("INFANTRY",), start=None, mods=None,
         preferred=()) -> UnitView:
    """``models``: (count, T, Sv, W, InSv, character) rows... as (count, W, Sv, InSv, character)
    with T 4 unless the row has a sixth field."""
    ids, W, Sv, InSv, ch, T = [], [], [], [], [], []
    n = 0
    for row in models:
        count, w, sv, inv, char = row[:5]
        t = row[5] if len(row) > 5 else 4
        for _ in range(count):
            n += 1
            ids.append(f"{uid}/{n}")
            W.append(w)
            Sv.append(sv)
            InSv.append(inv)
            ch.append(char)
            T.append(t)
    k = len(ids)
    return UnitView(uid=uid, name=uid, ids=tuple(ids), W=tuple(W), Sv=tuple(Sv), InSv=tuple(InSv),
                    character=tuple(ch), T=tuple(T), bodyguard=(False,) * k,
                    keywords=tuple(frozenset(kw) | ({"CHARACTER"} if c else set()) for c in ch),
                    fnp=(fnp,) * k if not isinstance(fnp, tuple) else fnp,
                    save_mod=tuple(mods) if mods else (0,) * k,
                    start=tuple(start) if start else tuple(W), preferred=tuple(preferred),
                    explodes=(False,) * k, monster_or_vehicle=(False,) * k)


def pool(index=0, target=0, A=10, skill=3, S=4, AP=0, D=1, abilities="", hit_mod=0, wound_mod=0, half=False,
         models=0, visible=(), copies=1) -> PoolInput:
    abil = parse_weapon_abilities(abilities, "gun") if abilities else ()
    applying = abil
    key = PL.effective_key(skill, (), S, AP, dice(D), applying, (("m", hit_mod),) if hit_mod else (),
                           (("m", wound_mod),) if wound_mod else ())
    from sim.rules.abilities import Hook, effects_of
    adds = Hook.ADDS_DICE in effects_of(abil)
    # (a MELTA-style extra damage is given as D directly here)
    member = MemberDice(dice(A), None, abil, half, models, False, adds)
    return PoolInput(index=index, target=target, key=key, members=(member,) * copies, first_abilities=abil,
                     attackers=("a/1",), visible_characters=tuple(visible), weapons=("gun",))


def problem(pools, targets, hazard=0, decisions=(), attacker=None) -> Problem:
    attacker = attacker or unit("a", ((1, 3, 3, None, False),))
    return Problem(attacker, "shoot", tuple(pools), tuple(targets), hazard, False, tuple(decisions), None, "test")
