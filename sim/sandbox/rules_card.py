"""The unit card's rules (issue 26): the datasheet abilities, army rules and detachment rules the
engine models (sim.rules.effects) that reach the selected unit, each with where it comes from,
the choice in force when it asks one ("marked Raider Mob", "called in round 2", "not called (1
use left)"), and per grant what it does and whether it acts now, or why not; then the unit's
inert labels (abilities the engine does not model), apart.

Which grants reach the unit and why one does not act now is sim.world.rule_effects'
(``reaching`` and ``explain``); what a grant does in words is sim.rules.effects.words. A grant
that acts only in an attack (melee attacks, attacks at the marked unit) is asked once more with
that attack's facts, so the card can say "acts on melee attacks" instead of "not now".
Hovering a rule with an aura draws its range round its bearers (``AuraRings``); hovering a rule
that reads its army's domain (sim.rules.effects.domain) tints the domain faintly. Reads only."""

from __future__ import annotations

from dataclasses import dataclass, field

import esper
import pygame

from sim.components import Unit
from sim.rules.effects import vocabulary as V
from sim.rules.effects.conditions import why_not
from sim.rules.effects.words import effect_words, grant_words
from sim.sandbox import range_rings as RR
from sim.sandbox import style as S
from sim.world import queries as W
from sim.world import resources as R
from sim.world import rule_effects as RE

ACTS, ATTACK, NOT, OTHERS = "acts", "attack", "not", "others"  # a grant's state on the card
MARK = {ACTS: "acts now", ATTACK: "acts on attacks", NOT: "not now", OTHERS: "acts on others"}
DETAIL_GRANTS = 5  # more grant lines than this (or a short card): one line per rule
AURA = (120, 214, 160)  # an aura's ring


@dataclass
class GrantLine:
    words: str  # what it does, to whom, when (sim.rules.effects.words)
    state: str  # ACTS / ATTACK / NOT / OTHERS
    why: str  # "acts now", "acts on melee attacks", "not now: ..."
    short: str = ""  # what it does, shortly (the card's line; the words in the hover)


@dataclass
class RuleLine:
    key: str
    name: str
    source: str  # "army rule", "datasheet: Champion", "aura of Oath Champion"
    summary: str
    choice: str = ""  # the choice in force, in words ("" when the rule asks none)
    partial: str = ""
    holder: str = ""  # the unit id of the unit holding it
    bearers: tuple = ()
    aura: float = 0.0  # the largest aura range of its grants ("), 0: none
    domain: bool = False  # a grant reads its army's domain (hovering it tints the domain)
    grants: list = field(default_factory=list)

    @property
    def state(self) -> str:
        """The rule's state: it acts now if a grant does, on attacks if one does on those."""
        states = {g.state for g in self.grants}
        for s in (ACTS, ATTACK, NOT):
            if s in states:
                return s
        return OTHERS if states else NOT


def _unit_name(uid) -> str:
    if uid is None or uid is True or uid is False:
        return str(uid)
    for ent in W.all_units():
        u = esper.component_for_entity(ent, Unit)
        if u.id == uid:
            return u.name
    return str(uid)


def _unit_ent(uid):
    for ent in W.all_units():
        if esper.component_for_entity(ent, Unit).id == uid:
            return ent
    return None


def choice_words(rec: V.RuleRecord, owner: int, scope: str = "") -> str:
    """The choice in force for ``owner``'s rule, in words (the battle must be entered); ``scope``:
    the holding unit's id for a datasheet ability (sim.world.rule_effects.scope_of)."""
    c = rec.choice
    if any(g.what.kind == V.GAIN_DICE for g in rec.grants):  # the rule's pool of dice (Miracle dice)
        res = R.current
        pool = [] if res is None else res.dice_pools.get(RE.choice_key(owner, rec.key), [])
        return f"dice in its pool: {', '.join(map(str, sorted(pool, reverse=True))) or 'none'}"
    if c is None:
        return oath_words(rec, owner)
    value = RE.choice_of(owner, rec.key, scope)
    if c.kind == V.DICE_OPTIONS:
        return f"active this round: {', '.join(value)}" if isinstance(value, list) else "none active this round"
    used = RE.uses_of(owner, rec.key, scope)
    left = f" ({max(0, c.uses - used)} use{'s' if c.uses - used != 1 else ''} left)" if c.uses else ""
    if c.kind == V.PICK_ENEMY:
        return f"marked {_unit_name(value)}" if value is not None else "no unit marked yet"
    if c.kind == V.PICK_FRIEND:
        return f"affecting {_unit_name(value)}" if value is not None else "no friendly unit picked yet"
    if c.kind == V.PICK_OPTION and isinstance(value, list):  # (KEPT: every option picked so far)
        return f"{', '.join(value)} chosen"
    if c.kind == V.PICK_OPTION:
        return f"{value} chosen" if value else f"no option chosen yet ({', '.join(c.options)})"
    if c.kind == V.PICK_FRIENDS:  # several friendly units
        return ("picked " + ", ".join(_unit_name(v) for v in value)) if isinstance(value, list) and value \
            else "no friendly units picked"
    res = R.current  # (when and by whom the choice was made: sim.world.resources.rule_choices)
    made = {} if res is None else res.rule_choices.get(RE.choice_key(owner, rec.key, scope), {})
    if value is not None and value is not False:
        rnd = made.get("round")
        return f"called in round {rnd}" if rnd else "called"
    if c.uses and used >= c.uses:
        return "used (no use left)"
    return "not called" + left


def oath_words(rec: V.RuleRecord, owner: int) -> str:
    """The oath an OATH rule's army swore (sim.phases.oaths), in words: "oath: <deed>, <quality>"
    and ", Honoured" once its deed is done ("" for a rule without an oath)."""
    if not any(g.what.kind == V.OATH for g in rec.grants):
        return ""
    from sim.rules.turn import PLAYER
    res = R.current
    oath = None if res is None else res.oaths.get(PLAYER[owner])
    if oath is None:
        return "oath not sworn yet"
    rolled = " (rolled)" if oath["random"] else ""
    return (f"oath: {oath['deed']}, {oath['quality']}{rolled}"
            + (f", Honoured since round {oath['fulfilled']}" if oath.get("fulfilled") is not None else ""))


def _why(reason: str, rec: V.RuleRecord, choice: str) -> str:
    """"not now: <why>", the rule's choice named when that is what is missing."""
    if rec.choice is not None and ("chosen for this rule" in reason or "has been called" in reason
                                   or "is the option chosen" in reason):
        return "not now: " + choice.split(" (")[0]
    return "not now: " + reason.replace(" (not now)", "")


def _state(battle, ent, a: RE.Acting, reason, choice: str) -> GrantLine:
    g, rec = a.grant, a.held.record
    words = grant_words(g)
    short = effect_words(g.what) + (f" ({g.when.attacks})" if g.when.attacks else "")
    if reason is None and RE.spent(battle, a):  # (a limited grant used up within its limit)
        return GrantLine(words, NOT, f"not now: used ({g.when.limit})", short)
    if reason is None:
        return GrantLine(words, ACTS, "acts now", short)
    # an attack's facts: the attack kind the grant asks, against the unit the rule's choice named
    conds = {c[0] for c in g.when.conditions}
    owner = esper.component_for_entity(a.holder, Unit).owner
    picked = RE.choice_of(owner, rec.key, RE.scope_of(rec, a.holder)) if V.TARGET_CHOSEN in conds else None
    other = _unit_ent(picked) if picked is not None else None
    if g.when.attacks or other is not None:
        attack = g.when.attacks
        reason = why_not(g.when, RE.facts(battle, ent, a.held, a.holder, attack, other))
        if reason is None:
            on = f"{attack} attacks" if attack else "attacks"
            at = f" at {_unit_name(picked)}" if other is not None else ""
            return GrantLine(words, ATTACK, f"acts on {on}{at}", short)
    return GrantLine(words, NOT, _why(reason, rec, choice), short)


def _model_names(battle, bearers: tuple) -> str:
    """The names of the bearers' models (their scenario names), once each."""
    names = []
    for us in battle.scenario.units:
        for ms in us.models:
            if ms.id in bearers and ms.name not in names:
                names.append(ms.name)
    return ", ".join(names)


def _source(battle, rec: V.RuleRecord, holder: int, ent: int, bearers: tuple) -> str:
    src = rec.source + (f" ({rec.detachment})" if rec.detachment else "")
    if holder != ent:
        return f"aura of {esper.component_for_entity(holder, Unit).name}"
    if bearers:
        return f"{src}: {_model_names(battle, bearers)}"
    return src


def rule_lines(battle, ent: int) -> list[RuleLine]:
    """The rules reaching unit ``ent`` now, each with its grants' states (module docstring): its
    own rules in the order it holds them (even those whose grants affect others only), then the
    auras of other units reaching it. Reads only."""
    battle._enter()
    if not RE.any_rules():
        return []
    reach = RE.reaching(ent)
    explained = RE.explain(battle, ent)  # (the same grants, in the same order, with why not)
    lines: dict[tuple, RuleLine] = {}

    def line(held, holder) -> RuleLine:
        k = (held.record.key, holder)
        if k not in lines:
            rec = held.record
            h_owner = esper.component_for_entity(holder, Unit).owner
            lines[k] = RuleLine(rec.key, rec.name, _source(battle, rec, holder, ent, held.bearers), rec.summary,
                                choice_words(rec, h_owner, RE.scope_of(rec, holder)), rec.partial,
                                esper.component_for_entity(holder, Unit).id, held.bearers,
                                max((g.range for g in rec.grants), default=0.0),
                                domain=any(c[0] in V.DOMAIN_CONDITIONS for g in rec.grants
                                           for c in g.when.conditions))
        return lines[k]

    for held in RE.held_by(ent):
        line(held, ent)
    for a, (_h, _g, reason) in zip(reach, explained):
        ln = line(a.held, a.holder)
        ln.grants.append(_state(battle, ent, a, reason, ln.choice))
    for held in RE.held_by(ent):  # grants that reach others only (an enemy aura): said, not judged
        ln = lines[(held.record.key, ent)]
        for g in held.record.grants:
            if g.who == V.ENEMY_AURA:
                ln.grants.append(GrantLine(grant_words(g), OTHERS, f"on enemy units within {g.range:g}\"",
                                           effect_words(g.what)))
            elif g.who == V.CHOSEN_FRIEND and ln.choice.startswith("affecting "):
                ln.grants.append(GrantLine(grant_words(g), OTHERS, f"on {ln.choice[len('affecting '):]}",
                                           effect_words(g.what)))
    return list(lines.values())


def labels_of(battle, uid: str) -> list[str]:
    """The unit's inert labels (abilities the engine does not model: the scenario's ``labels``
    of the unit and its models), once each."""
    out: list[str] = []
    for us in battle.scenario.units:
        if us.id != uid:
            continue
        for k in list(us.labels) + [k for ms in us.models for k in ms.labels]:
            if k not in out:
                out.append(k)
    return out


def rule_tip(r: RuleLine) -> str:
    """A rule's hover text: name and source, its summary, each grant with its state."""
    out = [f"<b>{r.name}</b> ({r.source})", r.summary]
    if r.choice:
        out.append(f"choice: {r.choice}")
    for g in r.grants:
        out.append(f"- {g.words}: <i>{g.why}</i>")
    if r.partial:
        out.append(f"left out: {r.partial}")
    if r.aura:
        out.append(f'hover: its aura ({r.aura:g}") on the table')
    elif r.domain:
        out.append("hover: its army's domain on the table")
    return "<br>".join(out)


def _state_id(state: str) -> str:
    return {ACTS: "#good", ATTACK: "#good", NOT: "#muted", OTHERS: "#muted"}[state]


def build_rules(flow, sb, ent: int, uid: str) -> None:
    """The card's Rules section (nothing when the unit holds no rule and has no labels)."""
    lines = rule_lines(sb.battle, ent)
    labels = labels_of(sb.battle, uid)
    if not lines and not labels:
        return
    if lines:
        flow.label("Rules", "#subheading")
        n = sum(len(r.grants) for r in lines)
        tall = flow.outer.rect.h / flow.s >= 300
        detail = tall and n <= DETAIL_GRANTS
        for r in lines:
            flow.newline()
            flow.chip(r.name, rule_tip(r), name=f"rule:{r.key}:{r.holder}")
            if detail:
                head = r.source + (f"  |  {r.choice}" if r.choice else "")
            else:  # (one line: the choice in force, else the source; whether it acts; the rest on hover)
                head = f"{r.choice or r.source}  |  {MARK[r.state]}"
            room = flow.width - (flow.x - flow.PAD) - 4
            flow.inline_label(flow.fit(head, room - 12, 13), _state_id(r.state) if not detail else "#muted",
                              width=room, height=20, size=12)
            flow.newline()
            if detail:
                for g in r.grants:  # (wrapped, not cut: the reason is the point)
                    flow.para(f"{g.short} \u2013 {g.why}", _state_id(g.state), indent=14)
                if r.partial:
                    flow.para(f"({r.partial})", "#muted", indent=14)  # (what the version leaves out)
    if labels:
        flow.label("Not modelled (labels)", "#subheading")
        flow.para(", ".join(labels), "#muted")
    flow.space(2)


def hovered_rule(sb) -> tuple[str, str] | None:
    """(rule key, holder unit id) of the rule chip under the mouse on the card, if any."""
    flow = sb.card_flow
    if flow is None or not flow.outer.rect.collidepoint(sb.mouse):
        return None
    for name, b in sb.names.items():
        if name.startswith("rule:") and b.alive() and b.visible and b.rect.collidepoint(sb.mouse):
            _, key, holder = name.split(":", 2)
            return key, holder
    return None


def aura_rings(battle, scene, cam, key: str, holder: str) -> tuple[list, str]:
    """The rings of a rule's aura round its living bearers (every model of the holding unit when
    the whole unit holds it), with the label; none when the rule has no aura."""
    battle._enter()
    ent = battle.units.get(holder)
    if ent is None:
        return [], ""
    for held in RE.held_by(ent):
        if held.record.key != key:
            continue
        rng = max((g.range for g in held.record.grants), default=0.0)
        if rng <= 0:
            return [], ""
        out = []
        for m in scene.living(holder):
            if not held.bearers or m.id in held.bearers:
                r = RR.grown(cam, m.fp, rng)
                out.append(RR.Ring(m.id, rng, r.centre, r.radius, r.poly))
        return out, f'{held.record.name}: aura {rng:g}"'
    return [], ""


DOMAIN = (196, 150, 220)  # a domain's tint


def domain_areas(battle, key: str, holder: str):
    """The domain a hovered rule reads (its conditions name it) of its holding unit's army, with
    the label; (None, "") when the rule reads none or the battle has no deployment zones."""
    battle._enter()
    ent = battle.units.get(holder)
    if ent is None:
        return None, ""
    for held in RE.held_by(ent):
        if held.record.key != key:
            continue
        if not any(c[0] in V.DOMAIN_CONDITIONS for g in held.record.grants for c in g.when.conditions):
            return None, ""
        d = RE.domain_of(battle, esper.component_for_entity(ent, Unit).owner)
        if d is None:
            return None, ""
        return d, f"{held.record.name}: domain ({', '.join(d.areas)})"
    return None, ""


def _control_key(battle) -> tuple:
    """Who controls what now (the domain changes with it)."""
    ts = battle.turn_state
    return () if ts is None else tuple((k, getattr(c, "controller", c)) for k, c in ts.control.items())


def domain_layer(size, cam, d) -> pygame.Surface:
    """The domain tinted on a layer of the surface's size: No Man's Land (the board less both
    zones) when it is in, then each zone tinted when in, cleared when not."""
    layer = pygame.Surface(size, pygame.SRCALPHA)
    tint = (*DOMAIN, 34)
    if d.no_mans_land:
        W_, H_ = cam.board
        pygame.draw.polygon(layer, tint, [cam.to_screen(x, y) for x, y in ((0, 0), (W_, 0), (W_, H_), (0, H_))])
    for poly, inside in ((d.enemy, d.enemy_zone), (d.own, True)):
        pygame.draw.polygon(layer, tint if inside else (0, 0, 0, 0), [cam.to_screen(x, y) for x, y in poly])
    return layer


class AuraRings:
    """The hovered rule's aura, rendered once per (table state, camera, rule)."""

    def __init__(self):
        self.key = None
        self.rings: list = []
        self.label = ""
        self._layer = None
        self._domain = None  # (the hovered rule's domain, tinted)

    def draw(self, surf, sb, hovered) -> None:
        if hovered is None:
            self.key = None
            return
        cam = sb.camera
        vp = cam.viewport
        key = (sb.scene.version, cam.key, hovered, surf.get_size(), _control_key(sb.battle))
        if key != self.key:
            self.key = key
            self.rings, self.label = aura_rings(sb.battle, sb.scene, cam, *hovered)
            self._layer = RR.union_layer(vp.size, vp.topleft, self.rings, AURA, 22, 200) if self.rings else None
            self._domain = None
            if not self.rings:  # (a rule reading its army's domain)
                d, label = domain_areas(sb.battle, *hovered)
                if d is not None:
                    self._domain, self.label = domain_layer(surf.get_size(), cam, d), label
        if self._domain is not None:
            surf.blit(self._domain, (0, 0))
            self._tag(surf, vp.x + 8, vp.y + 8)
            return
        if self._layer is None:
            return
        surf.blit(self._layer, vp.topleft)
        from sim.sandbox.fonts import text
        top = min(self.rings, key=lambda r: (r.centre[1] - r.radius, r.centre[0]))
        lab = text(self.label, 12, S.TEXT)
        x = min(max(top.centre[0] - lab.get_width() / 2, vp.x + 4), vp.right - lab.get_width() - 4)
        y = min(max(top.centre[1] - top.radius - lab.get_height() - 3, vp.y + 4), vp.bottom - lab.get_height() - 4)
        self._tag(surf, x, y)

    def _tag(self, surf, x, y) -> None:
        """The label on a dark tag at (x, y)."""
        from sim.sandbox.fonts import text
        lab = text(self.label, 12, S.TEXT)
        bg = pygame.Surface((lab.get_width() + 8, lab.get_height() + 2), pygame.SRCALPHA)
        bg.fill((24, 28, 26, 200))
        surf.blit(bg, (x - 4, y - 1))
        surf.blit(lab, (x, y))
