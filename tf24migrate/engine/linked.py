"""Fixes that are only right together: an import a fix changes, and every use of its name.

Moving `from tensorflow.keras.mixed_precision import experimental as mp` to the stable module
changes what every `mp.X` means: it is right only when each use through `mp` is migrated by an
applied fix, or stays valid. The transformer tracks the uses of such a name (`Linked`); when one is
left as it was (its rule only reports it, a suppression comment or a shim keeps it), the import's
fix is blocked and the engine runs the rules again without it. Rules link other fixes the same
way, by a key of their own (`ctx.block` / `ctx.blocked_reason`).
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from tf24migrate.rules.calls import code_for
from tf24migrate.rules.names import Binding


class Linked:
    """The uses of tracked imported names, and which of them applied fixes migrated or kept."""

    def __init__(self) -> None:
        # By id: a `Binding` is a mutable dataclass, so it has no hash; the dict holds it alive.
        self.tracked: dict[int, Binding] = {}  # id(binding) -> binding
        self._uses: dict[int, list[tuple[cst.Name, cst.CSTNode | None]]] = {}
        self._migrated: set[cst.Name] = set()  # the Name nodes inside applied fixes
        self.kept: set[cst.Name] = set()  # uses that stay valid as they are

    def track(self, binding: Binding) -> None:
        self.tracked[id(binding)] = binding

    def use(self, binding: Binding, name: cst.Name, parent: cst.CSTNode | None) -> None:
        if id(binding) in self.tracked:
            self._uses.setdefault(id(binding), []).append((name, parent))

    def migrated(self, node: cst.CSTNode) -> None:
        """Record that an applied fix replaced `node` (an original node) and what it holds."""
        if not self.tracked:
            return
        stack = [node]
        while stack:
            current = stack.pop()
            if type(current) is cst.Name:
                self._migrated.add(current)
            stack.extend(current.children)

    def blocked(self) -> Iterator[tuple[cst.CSTNode, str]]:
        """(import alias, why) for each tracked name with a use neither migrated nor kept."""
        for key, binding in self.tracked.items():
            left = [
                code_for(parent) if isinstance(parent, cst.Attribute) and parent.value is name else name.value
                for name, parent in self._uses.get(key, ())
                if name not in self._migrated and name not in self.kept
            ]
            if left and binding.node is not None:
                shown = ", ".join(f"`{use}`" for use in dict.fromkeys(left))
                yield binding.node, f"`{binding.name}` has uses that are not migrated ({shown})"
