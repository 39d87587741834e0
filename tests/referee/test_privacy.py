"""Only the Referee class touches its underscore names: its parts (sync, the roll question, offers,
the clock keeper, the unseen dance) and the app act on it through its public names (the Protocols the
parts type their referee with), so each part depends on what it says it uses and nothing else."""

from __future__ import annotations

import ast
from pathlib import Path

import tavli_pi

ROOT = Path(tavli_pi.__file__).resolve().parent
REFEREE = ROOT / "referee" / "referee.py"

#: what other modules call a referee (``ref._x``, ``self.ref._x``, ``referee._x``, ``self._referee._x``)
REFEREE_NAMES = frozenset({"ref", "referee", "_referee"})


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def referee_privates() -> frozenset[str]:
    """The underscore names the Referee class defines: its methods and the attributes it sets on self."""
    tree = ast.parse(REFEREE.read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Referee")
    names = set()
    for node in ast.walk(cls):
        if isinstance(node, ast.FunctionDef) and _private(node.name):
            names.add(node.name)
        elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and _private(node.attr)
              and isinstance(node.value, ast.Name) and node.value.id == "self"):
            names.add(node.attr)
    return frozenset(names)


def private_uses(tree: ast.AST, privates: frozenset[str]) -> list[str]:
    """``line: expression`` of each access in ``tree`` to an underscore name of a referee: any on an
    object called as a referee is (``ref``, ``referee``, ``self.ref``, ...), and one the Referee class
    defines on anything but ``self``/``cls`` (a referee called otherwise: ``table._frames``)."""
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not _private(node.attr):
            continue
        owner = node.value
        called = owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) else ""
        if called in REFEREE_NAMES or (node.attr in privates and called not in ("self", "cls")):
            out.append(f"{node.lineno}: {ast.unparse(node)}")
    return out


def _outside_the_class(path: Path) -> ast.AST:
    """The module's code, without the Referee class itself (its own methods use its own names)."""
    tree = ast.parse(path.read_text())
    if path == REFEREE:
        tree.body = [n for n in tree.body if not (isinstance(n, ast.ClassDef) and n.name == "Referee")]
    return tree


def test_the_scan_finds_a_part_reaching_into_the_referee() -> None:
    privates = referee_privates()
    assert {"_frames", "_now", "_watch", "_try_judge", "_unread_roll"} <= privates
    source = """
class Part:
    def act(self, ref):
        ref._frames.clear()
        self.ref._frame_dt
        table._watch.rearm()
        self._own = ref.frames
        self.ref.frames.extend(ref.blind)
        ref.__class__
"""
    assert sorted(private_uses(ast.parse(source), privates)) == [
        "4: ref._frames", "5: self.ref._frame_dt", "6: table._watch"]


def test_no_module_but_the_referee_class_touches_its_underscore_names() -> None:
    privates = referee_privates()
    modules = sorted(ROOT.rglob("*.py"))
    assert REFEREE in modules and ROOT / "app.py" in modules and ROOT / "referee" / "sync.py" in modules
    found = {str(p.relative_to(ROOT)): uses for p in modules if (uses := private_uses(_outside_the_class(p), privates))}
    assert found == {}
