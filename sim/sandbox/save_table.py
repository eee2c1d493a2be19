"""Save the table as a scenario file (TOML): terrain, weapons and every unit with its living
models where they stand now. Wounds already lost are noted in a comment (the scenario format
starts models at full wounds). Reads the world; writes only the returned text."""

from __future__ import annotations

import json

import esper

from sim import world as W
from sim.components import Base, Position, Wounds


def _q(s: str) -> str:
    return json.dumps(s)


def _num(v: float) -> str:
    return f"{round(float(v), 4):g}"


def _pts(pts) -> str:
    return "[" + ", ".join(f"[{_num(x)}, {_num(y)}]" for x, y in pts) + "]"


def table_toml(battle, scene=None) -> str:
    spec = battle.scenario
    battle._enter()
    out = ["# Saved from the sandbox.", "[battle]", f"name = {_q(spec.name + ' (saved table)')}"]
    if spec.description:
        out.append(f"description = {_q(spec.description)}")
    out += [f"seed = {battle.seed}", f"board = [{_num(spec.board[0])}, {_num(spec.board[1])}]", ""]
    for area in spec.terrain:
        out += ["[[terrain]]", f"name = {_q(area.name)}", f"area = {_pts(area.polygon)}",
                "features = [" + ", ".join(
                    f"{{ category = {_q(f.category)}, polygon = {_pts(f.polygon)} }}" for f in area.features) + "]",
                ""]
    for name, w in spec.weapons.items():
        out.append(f"[weapons.{_q(name)}]")
        out.append(f"range = {w.range}" if w.range is not None else 'range = "melee"')
        out.append(f"A = {_dice(w.A)}")
        out.append(f"{'WS' if w.is_melee else 'BS'} = {w.skill}")
        out += [f"S = {w.S}", f"AP = {w.AP}", f"D = {_dice(w.D)}"]
        if w.abilities_text:
            out.append(f"abilities = {_q(w.abilities_text)}")
        out.append("")
    for owner, army in enumerate(spec.armies):
        out += ["[[armies]]", f"name = {_q(army.name)}", f"colour = [{', '.join(str(c) for c in army.colour)}]", ""]
        for us in spec.units:
            if us.owner != owner:
                continue
            ent = battle.units[us.id]
            living = {W.model_id(m): m for m in W.unit_models(ent)}
            if not living:
                out += [f"# unit {us.id} was destroyed", ""]
                continue
            st = W.unit_state(ent)
            out += ["[[armies.units]]", f"id = {_q(us.id)}", f"name = {_q(us.name)}"]
            flags = [f"advanced = {str(st.advanced).lower()}", f"fell_back = {str(st.fell_back).lower()}",
                     f"charged = {str(st.charged).lower()}"]
            out += flags
            if st.moved:
                out.append(f"moved = {_num(st.moved)}")
            if st.ranged_attacks_this_turn or st.ranged_attacks_last_turn:
                out.append("ranged_attacks_last_turn = true")
            out.append("models = [")
            for ms in us.models:
                if ms.id not in living:
                    continue
                m = living[ms.id]
                pos = esper.component_for_entity(m, Position)
                base = esper.component_for_entity(m, Base)
                p = ms.profile
                fields = [f"name = {_q(ms.name)}", f"id = {_q(ms.id)}"]
                if base.shape == "round":
                    fields.append(f"base_mm = {_num(base.length * 25.4)}")
                else:
                    fields.append(f"base = [{_num(base.length * 25.4)}, {_num(base.width * 25.4)}]")
                    fields.append(f"shape = {_q(base.shape)}")
                    if base.angle:
                        fields.append(f"angle = {_num(base.angle)}")
                fields += [f"M = {p.M}", f"T = {p.T}", f"Sv = {p.Sv}", f"W = {p.W}", f"Ld = {p.Ld}", f"OC = {p.OC}"]
                if p.InSv:
                    fields.append(f"InSv = {p.InSv}")
                if ms.role != "bodyguard":
                    fields.append(f"role = {_q(ms.role)}")
                if ms.keywords:
                    fields.append("keywords = [" + ", ".join(_q(k) for k in sorted(ms.keywords)) + "]")
                if ms.abilities:
                    fields.append("abilities = [" + ", ".join(_q(a.label()) for a in ms.abilities) + "]")
                fields.append("weapons = [" + ", ".join(_q(w.name) for w in ms.weapons) + "]")
                fields.append(f"at = [[{_num(pos.x)}, {_num(pos.y)}]]")
                lost = ms.profile.W - esper.component_for_entity(m, Wounds).remaining
                out.append("  { " + ", ".join(fields) + " }," + (f"  # {lost} wounds lost" if lost > 0 else ""))
            out += ["]", ""]
    return "\n".join(out) + "\n"


def _dice(d) -> str:
    s = str(d)
    return s if s.isdigit() else _q(s)
