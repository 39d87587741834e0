"""docs/vision.md's module map names every vision module: one place to find where an idea lives."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_vision_module_is_in_the_module_map() -> None:
    doc = (ROOT / "docs" / "vision.md").read_text(encoding="utf-8")
    table = doc[doc.index("### Where each idea lives"):]
    modules = sorted(p.name for p in (ROOT / "tavli_pi" / "vision").glob("*.py") if p.name != "__init__.py")
    missing = [m for m in modules if f"`{m}`" not in table]
    assert not missing, f"add these to the module map in docs/vision.md: {missing}"
