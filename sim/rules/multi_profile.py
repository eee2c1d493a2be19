"""04.01.03 Multi-profile weapons: a model carrying a weapon with several profiles holds each of
them (WeaponProfile.weapon names the weapon they are profiles of) and, when it selects the
weapon (04.01), picks one profile; that profile is the one Resolve Attacks uses. Different models
of a unit may pick different profiles. Pure functions of a model's loadout (its profiles in
datasheet order, a weapon carried twice listed twice) and the names it selects."""

from __future__ import annotations

from sim.rules.profiles import WeaponProfile


def weapon_name(p: WeaponProfile) -> str:
    """04.01.03 The weapon a profile belongs to: its multi-profile weapon, or itself."""
    return p.weapon or p.name


def copies(loadout, weapon: str) -> int:
    """How many of ``weapon`` the model carries: the most copies of any one of its profiles."""
    counts: dict[str, int] = {}
    for p in loadout:
        if weapon_name(p) == weapon:
            counts[p.name] = counts.get(p.name, 0) + 1
    return max(counts.values(), default=0)


def profiles_of(loadout, weapon: str) -> list[WeaponProfile]:
    """04.01.03 The distinct profiles of ``weapon`` in the loadout, in datasheet order."""
    out: dict[str, WeaponProfile] = {}
    for p in loadout:
        if weapon_name(p) == weapon and p.name not in out:
            out[p.name] = p
    return list(out.values())


def profile_choice_problem(loadout, selected) -> str | None:
    """04.01.03 Why the profile names ``selected`` (one per selection, as a model selects them)
    cannot be picked from ``loadout``, or None: a model picks at most one profile of each
    multi-profile weapon it carries (one per copy carried). Names that are no profile of a
    multi-profile weapon are not this rule's to judge."""
    by_name = {p.name: p for p in loadout}
    picked: dict[str, list[str]] = {}
    for n in selected:
        p = by_name.get(n)
        if p is not None and p.weapon:
            picked.setdefault(p.weapon, []).append(n)
    for weapon, names in picked.items():
        n = copies(loadout, weapon)
        if len(names) > n:
            what = "one profile" if n == 1 else f"{n} profiles (one per copy carried)"
            return (f"selects {', '.join(names)} of the multi-profile weapon {weapon}: "
                    f"pick {what} (04.01.03)")
    return None


def default_profiles(loadout) -> list[WeaponProfile]:
    """04.01.03 The loadout with each multi-profile weapon reduced to its first profile listed
    (one per copy carried): what the default choices select unless a profile is named."""
    return pick_profiles(loadout, _first)


def _first(profiles):
    return profiles[0]


def pick_profiles(loadout, pick) -> list[WeaponProfile]:
    """04.01.03 The loadout with one profile of each multi-profile weapon per copy carried,
    chosen by ``pick`` (a function from the weapon's profiles, in order, to one of them; called
    once per weapon, in the order the weapons are first listed), where the weapon is first
    listed. A weapon with one profile is kept as it is."""
    done: set[str] = set()
    out = []
    for p in loadout:
        if not p.weapon:
            out.append(p)
        elif p.weapon not in done:
            done.add(p.weapon)
            out += [pick(profiles_of(loadout, p.weapon))] * copies(loadout, p.weapon)
    return out
