"""The referee's whole state as bytes, so that a restarted table carries on in the exact phase.

The match log stores one snapshot with the last event of every committed batch
(:meth:`~tavli_pi.record.store.MatchLog.append_many`); ``tavli-pi run`` restores
the newest one after a crash. The referee is a pure state machine of plain
objects (positions, settings, dice watches, the clock's reserves), so the
snapshot is a pickle of it. A pickle can name any callable, so loading goes
through an unpickler that admits only the game's own value classes (the
referee's, the rules', vision's observation types), a few builtin containers
and numpy's array reconstruction: a crafted log cannot run code through it.

>>> from tavli_pi.referee.referee import Referee
>>> ref = Referee()
>>> restored = loads(dumps(ref))
>>> restored.state == ref.state
True
>>> loads(b"not a snapshot")
Traceback (most recent call last):
...
tavli_pi.errors.SnapshotError: the referee snapshot is not one this tavli-pi wrote (bad header)
"""

from __future__ import annotations

import builtins
import hashlib
import io
import pickle
from typing import TYPE_CHECKING, Any

from tavli_pi.errors import SnapshotError

if TYPE_CHECKING:
    from tavli_pi.referee.referee import Referee

__all__ = ["dumps", "loads", "restore_slots", "FORMAT"]

#: bumped whenever the referee's attributes change incompatibly
FORMAT = b"tavli-pi referee snapshot 1\n"
_DIGEST = 16  # bytes of BLAKE2b over the pickle: a torn or altered blob is refused, not half-loaded

#: modules whose *classes* (never functions) a snapshot may name
_MODULES = ("tavli_pi.referee.", "tavli_pi.rules.", "tavli_pi.vision.observation")
_BUILTINS = frozenset({"set", "frozenset", "tuple", "list", "dict", "bytes", "bytearray", "complex",
                       "slice", "range", "object"})
_NUMPY = frozenset({("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
                    ("numpy", "ndarray"), ("numpy", "dtype"), ("numpy.core.multiarray", "scalar"),
                    ("numpy._core.multiarray", "scalar")})
_OTHER = frozenset({("collections", "deque"), ("collections", "OrderedDict"), ("copyreg", "_reconstructor")})


def restore_slots(obj: object, state: object, **added: object) -> None:
    """``__setstate__`` of a slotted part of the referee: ``added`` are the fields added since the first
    snapshot format, with the values a new part starts with (an older snapshot lacks them); then every
    slot the snapshot holds. A slotted object pickles as ``(None, {slot: value})``."""
    slots = state[1] if isinstance(state, tuple) else state
    for name, value in {**added, **(slots or {})}.items():  # type: ignore[dict-item]
        setattr(obj, name, value)


def dumps(referee: Referee) -> bytes:
    """The referee as a self-checking blob (format line, digest, pickle)."""
    body = pickle.dumps(referee, protocol=pickle.HIGHEST_PROTOCOL)
    return FORMAT + hashlib.blake2b(body, digest_size=_DIGEST).digest() + body


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if module == "builtins" and name in _BUILTINS:
            return getattr(builtins, name)
        if (module, name) in _NUMPY or (module, name) in _OTHER:
            return super().find_class(module, name)
        if module.startswith(_MODULES) or module == _MODULES[-1]:
            obj = super().find_class(module, name)
            if isinstance(obj, type):
                return obj
        raise SnapshotError(f"the referee snapshot names {module}.{name}, which a snapshot may not "
                            "hold; the log was not written by tavli-pi: restore it from a backup")


def loads(blob: bytes) -> Referee:
    """The referee stored by :func:`dumps`; :class:`SnapshotError` for anything else."""
    from tavli_pi.referee.referee import Referee

    if not blob.startswith(FORMAT):
        raise SnapshotError("the referee snapshot is not one this tavli-pi wrote (bad header)")
    digest, body = blob[len(FORMAT):len(FORMAT) + _DIGEST], blob[len(FORMAT) + _DIGEST:]
    if hashlib.blake2b(body, digest_size=_DIGEST).digest() != digest:
        raise SnapshotError("the referee snapshot is damaged (checksum mismatch)")
    try:
        obj = _Unpickler(io.BytesIO(body)).load()
    except SnapshotError:
        raise
    except Exception as exc:  # noqa: BLE001 - any unpickling failure means: not resumable from here
        raise SnapshotError(f"the referee snapshot cannot be read by this tavli-pi ({type(exc).__name__}: "
                            f"{exc})") from exc
    if not isinstance(obj, Referee):
        raise SnapshotError(f"the referee snapshot holds a {type(obj).__name__}, not a referee")
    return obj
