"""A battle's esper world and the per-battle resources beside it.

- ``build``: create the world's entities from a validated scenario (sim.battle, once).
- ``queries``: read-only questions about the world (validation, planning, systems, report and
  the sandbox all ask them). Nothing in it changes the world.
- ``mutations``: the few changes to the world that are not one component's field: a model
  destroyed, casualties removed, a model placed. Only systems call them (tests prove the
  sandbox never imports it).
- ``resources``: the per-battle resources the queries read besides the components (the spatial
  index, the casualties awaiting removal); the Battle owns them and installs them with its world.
- ``spatial``: the spatial index (edge-to-edge distances and engagement, kept current).
"""
