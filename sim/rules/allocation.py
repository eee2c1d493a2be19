"""05.03 Save rolls: allocation groups and a legal allocation order; 05.04 model selection."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence


@dataclass(frozen=True, slots=True)
class TargetModel:
    """What the allocation rules need to know of one model of the target unit."""

    id: str
    W: int
    remaining: int
    Sv: int
    InSv: int | None
    character: bool

    @property
    def wounded(self) -> bool:
        return 0 < self.remaining < self.W


@dataclass(frozen=True, slots=True)
class Group:
    """05.03 An allocation group. ``key`` is the id of its first model (readable in scripts)."""

    key: str
    members: tuple[str, ...]
    character: bool
    W: int
    Sv: int
    InSv: int | None

    def label(self) -> str:
        inv = f" {self.InSv}++" if self.InSv else ""
        kind = "CHARACTER" if self.character else f"{len(self.members)} model(s)"
        return f"{self.key} ({kind}, W{self.W} Sv{self.Sv}+{inv})"


def allocation_groups(models: Sequence[TargetModel]) -> tuple[Group, ...]:
    """05.03 step 1 Create groups: each CHARACTER model is a group on its own; every other model
    is grouped with the others of identical W, Sv and InSv. Groups appear in the unit's listed
    order of their first model. Destroyed models (remaining <= 0) are never grouped."""
    groups: list[list] = []
    index: dict[tuple, int] = {}
    for m in models:
        if m.remaining <= 0:
            continue
        if m.character:
            groups.append([m.id, [m.id], True, m.W, m.Sv, m.InSv])
            continue
        key = (m.W, m.Sv, m.InSv)
        at = index.get(key)
        if at is None:
            index[key] = len(groups)
            groups.append([m.id, [m.id], False, m.W, m.Sv, m.InSv])
        else:
            groups[at][1].append(m.id)
    return tuple(Group(g[0], tuple(g[1]), g[2], g[3], g[4], g[5]) for g in groups)


def _wounded_groups(groups: Sequence[Group], models: Sequence[TargetModel]) -> set[str]:
    hurt = {m.id for m in models if m.wounded}
    if not hurt:  # (the usual case, a unit at full wounds: no group to look through)
        return set()
    return {g.key for g in groups if any(i in hurt for i in g.members)}


def order_problems(groups: Sequence[Group], order: Sequence[str],
                   models: Sequence[TargetModel]) -> list[str]:
    """05.03 step 2 Allocation order: the reasons ``order`` (group keys) is illegal, or [].

    Constraints: every group exactly once; non-CHARACTER groups holding a wounded model come
    before every other non-CHARACTER group (05.03 FAQ: several such groups in any order among
    themselves); no CHARACTER group before a non-CHARACTER group; CHARACTER groups holding a
    wounded model before CHARACTER groups without one."""
    by_key = {g.key: g for g in groups}
    problems = []
    if sorted(order) != sorted(by_key) or len(set(order)) != len(order):
        return [f"the order must list each group once: {sorted(by_key)}, found {list(order)}"]
    wounded = _wounded_groups(groups, models)
    seen_char = False
    seen_unwounded_plain = False
    seen_unwounded_char = False
    for key in order:
        g = by_key[key]
        if g.character:
            seen_char = True
            if key in wounded:
                if seen_unwounded_char:
                    problems.append(f"wounded CHARACTER group {key} must come before unwounded CHARACTER groups")
            else:
                seen_unwounded_char = True
        else:
            if seen_char:
                problems.append(f"non-CHARACTER group {key} must come before every CHARACTER group")
            if key in wounded:
                if seen_unwounded_plain:
                    problems.append(f"group {key} holds a wounded model and must come first")
            else:
                seen_unwounded_plain = True
    return problems


def default_order(groups: Sequence[Group], models: Sequence[TargetModel],
                  preferred: Sequence[str] | None = None) -> tuple[str, ...]:
    """05.03 The default defender's answer (Part A ruling 9): the order the rules force, and
    otherwise the unit's listed order (or ``preferred``, a declared order, where it is legal)."""
    wounded = _wounded_groups(groups, models)
    rank = {k: i for i, k in enumerate(preferred or ())}
    listed = {g.key: i for i, g in enumerate(groups)}
    keys = sorted((g.key for g in groups),
                  key=lambda k: (_is_char(groups, k), k not in wounded,
                                 rank.get(k, len(rank)), listed[k]))
    return tuple(keys)


def preferred_groups(groups: Sequence[Group], models: Sequence[TargetModel],
                     preferred: Sequence[str]) -> tuple[str, ...]:
    """Part A ruling 9: a declared order names models; map each to the key of the group it
    belongs to now. A destroyed model's name still stands for the living group of the same
    W, Sv and InSv (a group's key is its first living model, which changes as models die)."""
    by_id = {m.id: m for m in models}
    out: list[str] = []
    for name in preferred:
        m = by_id.get(name)
        if m is None:
            continue
        for g in groups:
            if name in g.members or (not m.character and not g.character
                                     and (g.W, g.Sv, g.InSv) == (m.W, m.Sv, m.InSv)):
                if g.key not in out:
                    out.append(g.key)
                break
    return tuple(out)


def fit_order(groups: Sequence[Group], models: Sequence[TargetModel], named: Sequence[str],
              default: Sequence[str]) -> tuple[list[str], list[str]]:
    """A scripted allocation order (model ids, Part A ruling 9) fitted to the groups as they
    are now: each name re-keyed onto its group (preferred_groups); if that order is not legal
    now (order_problems), the order the rules force, else the script's where they leave a
    choice, then ``default``'s. Returns (the order, the problems that made it fall back)."""
    keyed = list(preferred_groups(groups, models, named))
    problems = order_problems(groups, keyed, models) if keyed else ["it names no model of this unit"]
    if not problems:
        return keyed, []
    rest = [k for k in default if k not in keyed]
    return list(default_order(groups, models, keyed + rest)), problems


def precision_default(options: Sequence[str], remaining) -> str:
    """24.28 Part A ruling 4, the attacker's default [PRECISION] pick among the visible
    CHARACTER models ``options`` (unit order): the one with the fewest remaining wounds
    (``remaining``: model id -> wounds left), ties by unit order."""
    return min(options, key=lambda c: (remaining[c], options.index(c)))


def _is_char(groups: Sequence[Group], key: str) -> bool:
    return next(g.character for g in groups if g.key == key)


def current_group(order: Sequence[str], alive: dict[str, bool], groups: Sequence[Group],
                  precision: str | None = None) -> str | None:
    """05.04.01 Current allocation group: the first group in the order with a model left;
    [PRECISION] (24.28) overrides it while its group has a model left. ``alive`` maps a model
    id to a truthy value while it lives (its remaining wounds, never below 0, will do)."""
    return first_group_with_models(order, alive, {g.key: g.members for g in groups}, precision)


def first_group_with_models(order: Sequence[str], alive, members: dict[str, Sequence[str]],
                            precision: str | None = None) -> str | None:
    """current_group, given each group's members by key."""
    if precision is not None and any(alive.get(i, False) for i in members.get(precision, ())):
        return precision
    for key in order:
        for i in members[key]:
            if alive.get(i, False):
                return key
    return None


def select_model(members: Sequence[str], remaining: dict[str, int], W: dict[str, int]) -> str | None:
    """05.04 step 1 Select model: in the current group, a model that has lost wounds if there
    is one; otherwise the first model still alive in listed order (the defender's pick)."""
    first = None
    for i in members:
        r = remaining[i]
        if r <= 0:
            continue
        if r < W[i]:
            return i
        if first is None:
            first = i
    return first
