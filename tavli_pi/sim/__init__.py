"""Synthetic camera frames with exact ground truth (demo, tests, benchmarks).

``scene`` describes what lies on the table, ``render`` draws it as a camera
sees it, ``camera.SimCamera`` plays scenes as frames, ``datasets`` makes
seeded random sets. Import the submodules directly; nothing is imported here
so ``import tavli_pi.sim`` stays cheap.
"""

__all__: list[str] = []
