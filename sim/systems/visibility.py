"""VisibilitySystem: builds the battle's model-by-model visibility, kept up to date as it is read.

Target selection (04.02), [PRECISION] (24.28), benefit of cover (13.08) and the sandbox overlay
all read ``battle.visibility`` (a BattleVisibility); nothing else computes line of sight. After
a move only the rows and columns of the models that moved are recomputed."""

from __future__ import annotations

import functools

import esper
import numpy as np

from sim.components import ModelId, Unit, UnitMember
from sim.rules import abilities as AB
from sim.rules.abilities import Hook
from sim.rules.arrays import tile
from sim.rules.effects import vocabulary as V
from sim.rules.visibility.sight import benefit_of_cover as cover_rule
from sim.rules.visibility.index import ModelEntry, VisibilityIndex
from sim.world import queries as W
from sim.world import resources as R
from sim.world import rule_effects as RE
from sim.world import rule_reads as RX
from sim.plan.common import reach_of



@functools.lru_cache(maxsize=None)
def _cover_answers(stealth: bool, indirect: bool, smoke: bool = False) -> tuple[bool, bool]:
    """13.08 depends on the models' flags only through "every model qualifies": the rule's
    answer for a unit whose models all qualify and for one whose models do not (with neither
    [IGNORES COVER], checked first)."""
    return (cover_rule([True], stealth, indirect, False, smoke),
            cover_rule([False], stealth, indirect, False, smoke))


def _lone_operative(abilities) -> float | None:
    for a in abilities:
        if Hook.DETECTION_LIMIT in a.spec.hooks:
            return float(a.value)
    return None


class BattleVisibility:
    """The battle's view of visibility, backed by a VisibilityIndex over every model."""

    def __init__(self, battle):
        self.battle = battle
        entries = []
        for mid in sorted(battle.models, key=lambda m: esper.component_for_entity(battle.models[m], ModelId).order):
            e = battle.models[mid]
            unit = esper.component_for_entity(W.unit_of(e), Unit)
            entries.append(ModelEntry(mid, W.footprint(e), str(unit.owner), unit.id,
                                      W.model_keywords(e), None, False))
        self.index = VisibilityIndex.built(battle.scenario.terrain, entries)
        # units with a Lone Operative model (24.24): only their removals can change anything
        self._lone_units = [u for u in battle.units.values() if any(W.roster(u).lone_operative)]
        for unit_ent in self._lone_units:
            self._lone_operatives(unit_ent)
        self._set_reach()
        # the rules' TARGET_LIMIT effects (sim.world.rule_reads.target_limit) share 24.24's
        # ranges: the units they limit now, and what that was worked out for
        self.rules = RE.any_rules()
        self._limited: set[int] = set()
        self._limits_key = None
        self._attacked: dict[str, bool] = {}
        self.sync_hidden()
        self.index.visible  # noqa: B018 - computed now, with the world, not on the first query

    # --- keeping it current ---------------------------------------------------------------
    def _set_reach(self) -> None:
        """Each model's reach for the index: its unit's longest ranged weapon among all its
        models, those still to be set up or arrive included (04.02; [INDIRECT FIRE]: no limit;
        no ranged weapon: 0): a bound on the pairs shooting can ask about all battle, set once
        (the rule's reach, sim.plan.common.ranged_reach, only shrinks as models die; a bound
        too long only batches more pairs, never changes an answer). Read from the living
        models alone, it would be 0 for every unit set up after the index is made, by the
        rules' deployment."""
        reach = [0.0] * len(self.index.ids)
        for unit_ent in self.battle.units.values():
            roster = W.roster(unit_ent)
            r = reach_of(w for ws in roster.weapons for w in ws)
            for mid in roster.ids:
                if mid in self.index.row:
                    reach[self.index.row[mid]] = 0.0 if r is None else r
        self.index.set_reach(reach)

    def _lone_operatives(self, unit_ent: int) -> None:
        """24.24 / 24.24.01 Each living model's effective Lone Operative range. In an attached
        unit (leader or support models with a bodyguard) the ability applies only while every
        model left on the battlefield has it, at the highest X among them; so it switches back
        on when only Lone Operatives are left."""
        if not any(W.roster(unit_ent).lone_operative):
            return  # (no model of the unit ever has it: every entry stays "does not apply")
        unit = esper.component_for_entity(unit_ent, Unit)
        attached = len({esper.component_for_entity(m, UnitMember).role for m in unit.models}) > 1
        living = W.unit_models(unit_ent)
        xs = {W.model_id(m): _lone_operative(W.model_abilities(m)) for m in living}
        if attached:
            shared = max(xs.values()) if xs and all(x is not None for x in xs.values()) else None
            xs = {mid: shared for mid in xs}
        for mid, x in xs.items():
            self.index.set_lone_operative(mid, x)

    def moved(self, ents: list[int]) -> None:
        if self._lone_units:
            for unit_ent in sorted({W.unit_of(e) for e in ents if not W.on_table(e)}):
                self._lone_operatives(unit_ent)  # 24.24.01: a removal can switch it back on
        live = [e for e in ents if W.on_table(e)]
        if live:
            # (the spatial index's footprint objects, the same values as W.footprint, which
            # builds a new one; and its distances, the same rows, already measured for these
            # moves: copied, one distance per pair for every rule, measured once)
            sp = W.spatial()
            fps = sp.fps
            self.index.update([W.model_id(e) for e in live], [fps[W.model_row(e)] for e in live],
                              (sp.dist, sp.far))

    def sync_hidden(self) -> None:
        """13.09: a unit that made ranged attacks this turn or last turn cannot be hidden.
        Runs only when a unit's ranged-attack bookkeeping changed (``Changes.shots_changed``)."""
        changes = self.battle.changes
        if not changes.shots_changed:
            return
        noted = changes.take_shot_units()
        units = self.battle.units.items()  # scenario order
        if noted is not None:   # (only the units noted, in scenario order)
            units = [(u.id, e) for u, e in sorted(((esper.component_for_entity(e, Unit), e) for e in noted),
                                                  key=lambda ue: ue[0].order)]
        for uid, e in units:
            st = W.unit_state(e)
            made = st.ranged_attacks_this_turn or st.ranged_attacks_last_turn
            if self._attacked.get(uid) != made:
                self._attacked[uid] = made
                self.index.set_unit_made_ranged_attacks(uid, made)

    # --- queries ----------------------------------------------------------------------------
    def model_visible(self, observer: str, target: str) -> bool:
        """06.01 + 13.09 + 13.10 + 24.24: is model ``target`` visible to model ``observer``."""
        return self.index.is_visible(observer, target)

    def seen_by_any(self, observers, targets) -> list[bool]:
        """06.01 For each of the models ``targets``: is it visible to at least one of the models
        ``observers`` (``model_visible`` of every pair, in one block)."""
        idx = self.index
        if not observers or not targets:
            return [False] * len(targets)
        block = idx.visible_block([idx.row[a] for a in observers], [idx.row[t] for t in targets])
        return block.any(axis=0).tolist()

    def hidden_models(self) -> list[str]:
        """13.09 The models hidden right now (INFANTRY/BEASTS/SWARM within an obscuring terrain
        area whose unit made no ranged attacks this turn or last), in model order."""
        return [mid for mid, h in zip(self.index.ids, self.index.hidden.tolist()) if h]

    def fully_visible(self, observer: str, target: str) -> bool:
        return self.index.is_fully_visible(observer, target)

    def lone_operative_beyond(self, observer: str, target_unit: int) -> bool:
        """24.24: every model of the target unit is a Lone Operative beyond its range."""
        idx = self.index
        r = idx.row[observer]
        cols = W.living(target_unit).index
        return bool(W.index_size(cols)) and bool((idx.dist[r, cols] > idx.lo_x[cols]).all())

    def benefit_of_cover(self, observer: str, target_unit: int, weapon, shooting_type: str) -> bool:
        """13.08 for one attacking model: every model of the target qualifies (in a terrain area
        as INFANTRY/BEASTS/SWARM, or not fully visible because of terrain); Stealth (24.33) and
        indirect shooting (10.07) grant it; [IGNORES COVER] (24.18) removes it."""
        if weapon.has(Hook.DENIES_COVER) and AB.first_with(weapon.abilities, Hook.DENIES_COVER,
                                                           W.unit_keywords(target_unit)):  # 24.01
            return False
        lv, stealth = self._target(target_unit)
        if not lv.slots:
            return False
        flags = self.index.row_cover(self.index.row[observer])[lv.index].tolist()
        return cover_rule(flags, stealth, shooting_type == "indirect" and weapon.has(Hook.INDIRECT), False,
                          self._smoke(target_unit))

    def lone_operative_beyond_rows(self, observers, target_unit: int) -> list[bool]:
        """lone_operative_beyond for several observers at once (their index rows: a
        ``W.Living.index``)."""
        lv = W.living(target_unit)
        idx = self.index
        if not lv.slots:
            return [False] * W.index_size(observers)
        cols = lv.index
        return (W.block(idx.dist, observers, cols) > idx.lo_x[cols]).all(axis=1).tolist()

    def benefit_of_cover_rows(self, observers, target_unit: int, weapon,
                              shooting_type: str) -> list[bool]:
        """benefit_of_cover for several attacking models at once (their index rows: a
        ``W.Living.index``), read as one block of the cover rows; the answer for each is the
        13.08 rule's for its flags."""
        if Hook.DENIES_COVER in weapon.effects and AB.first_with(weapon.abilities, Hook.DENIES_COVER,
                                                                 W.unit_keywords(target_unit)):  # 24.01
            return [False] * W.index_size(observers)
        lv, stealth = self._target(target_unit)
        if not lv.slots:
            return [False] * W.index_size(observers)
        yes, no = _cover_answers(stealth, shooting_type == "indirect" and weapon.has(Hook.INDIRECT),
                                 self._smoke(target_unit))
        if yes == no:  # (Stealth, indirect shooting or Smokescreen: the models' flags change nothing)
            return [yes] * W.index_size(observers)
        every = self.index.cover_every(observers, lv.index).tolist()
        return every if yes else [yes if e else no for e in every]

    def resolve_cover(self, pairs) -> None:
        """13.08 Work out at once what benefit_of_cover_rows will read for these (attacking
        unit, target unit) pairs (entities), every living model of each against every living
        model of the other (VisibilityIndex.resolve_cover): one batch instead of one per
        pair's first read. Changes no answer, only when it is worked out."""
        I, J = [], []
        for unit_ent, target_unit in pairs:
            rows, cols = W.index_rows(W.living(unit_ent).index), W.index_rows(W.living(target_unit).index)
            if len(rows) and len(cols):
                I.append(rows.repeat(len(cols)))
                J.append(tile(cols, len(rows)))
        if I:
            self.index.resolve_cover(np.concatenate(I), np.concatenate(J))

    def _smoke(self, target_unit: int) -> bool:
        """15.10 A Smokescreen covers the unit this phase (TurnState.smoke; never in free play)."""
        ts = self.battle.turn_state
        return ts is not None and target_unit in ts.smoke

    def _target(self, target_unit: int) -> tuple[W.Living, bool]:
        """A unit's living models (their index columns: ``rows``, ``index``; a model's row is
        its ModelId.order) and whether every one has Stealth (24.33)."""
        lv = W.living(target_unit)
        every = lv.memo.get("stealth")  # (depends only on which models live)
        if every is None:
            stealth = W.roster(target_unit).stealth
            every = lv.memo["stealth"] = (bool(lv.slots) and any(stealth)
                                          and all(stealth[i] for i in lv.slots))
        return lv, every

    def refresh(self) -> None:
        """Bring the index up to date with moves, removals and who has shot."""
        changes = self.battle.changes
        if changes.moved_models:
            # (once each: between two reads a model may have moved, piled in and been removed)
            self.moved(list(dict.fromkeys(changes.take_moved())))
        self.sync_hidden()
        if self.rules:
            self.sync_target_limits()

    def sync_target_limits(self) -> None:
        """A rule's TARGET_LIMIT (enemies cannot select the unit as a ranged target unless
        within X") as 24.24's range: each living model of a unit it acts on gets the smaller of
        its Lone Operative range and X. Worked out again when the turn, phase, positions or the
        rules' choices change."""
        if not self._limited and V.TARGET_LIMIT not in RE.kinds_held():
            return  # (no rule of the battle limits a target, and no unit is limited: nothing to sync)
        battle = self.battle
        ts = battle.turn_state
        res = R.current
        key = (None if ts is None else (ts.round, ts.active, str(ts.phase)), W.spatial().version,
               tuple((k, repr(v.get("value"))) for k, v in res.rule_choices.items()))
        if key == self._limits_key:
            return
        self._limits_key = key
        now = {}
        for u in battle.units.values():
            if not W.off_table(u) and not W.unit_destroyed(u):
                x = RX.target_limit(battle, u)
                if x is not None:
                    now[u] = x
        idx = self.index
        for u in sorted(self._limited | set(now)):
            if any(W.roster(u).lone_operative):
                self._lone_operatives(u)
            else:
                for m in W.unit_models(u):
                    idx.set_lone_operative(W.model_id(m), None)
            x = now.get(u)
            if x is not None:
                for m in W.unit_models(u):
                    mid = W.model_id(m)
                    idx.set_lone_operative(mid, min(float(idx.lo_x[idx.row[mid]]), x))
        self._limited = set(now)

    def target_limited(self, unit_ent: int) -> bool:
        """A rule's TARGET_LIMIT acts on the unit now (its models' 24.24 ranges say how far)."""
        return unit_ent in self._limited


class VisibilitySystem(esper.Processor):
    def __init__(self, battle):
        if battle._visibility is None:  # (a fork brings a copy of its original's: Battle.fork)
            battle.visibility = BattleVisibility(battle)

    def process(self, battle) -> None:
        """Nothing to do each tick: Battle.visibility takes in what changed when it is read
        (by target selection, [PRECISION], benefit of cover, a front end's overlay)."""
        return None
