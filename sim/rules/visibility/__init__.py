"""The line-of-sight engine (06.01, 13.08-13.11) and its rule.

``sight`` holds the rule as pure scalar predicates (visible, fully visible, hidden, cover,
Lone Operative). Around it, the engine that answers the same questions for every pair of
models at once and keeps them current as models move, each piece tested against the scalar
rule: ``kernels`` (exact segment and footprint tests), ``pairs`` (per-pair pieces and the capsule
stage), ``umbra`` (the "definitely blocked" certificate), ``batch`` (the vectorised stages), ``certs``, ``full`` and ``hull_full``
(sound certificates that settle most pairs without the exact kernels), ``index_pairs`` (how a
pair's line of sight is resolved, in stages), ``index_full`` (its fully visible and cover) and
``index`` (the incremental visibility index: what is kept and read).
"""
