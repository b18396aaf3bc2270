"""A LibCST traversal that rebuilds only what changed.

`node.visit(transformer)` rebuilds and re-validates every node it descends into, changed or not,
which costs about as much as the parse. `walk` calls the same `on_visit` / `on_leave` callbacks in
the same order, visits the fields of each node type in the order LibCST's own traversal does
(recorded once per type from that traversal), does not descend into the node types the caller
names as inert, and rebuilds a node only when one of its children came back different. A node
whose subtree is unchanged comes back as the very same object, which lets the engine reuse the
source text of the statements no rule touched.
"""

from __future__ import annotations

from collections.abc import Collection

import libcst as cst

_FIELDS: dict[type, tuple[str, ...]] = {}
_PENDING: dict[type, set[str]] = {}  # fields not visited so far, which were None when recorded
# The sequence fields LibCST visits with `visit_body_sequence`: a statement emptied by the
# removal of all its children is dropped with them (where `pass` could otherwise be needed).
_BODY_FIELDS = {(cst.Module, "body"), (cst.IndentedBlock, "body")}
_LEAVES: set[type] = {type(None), str, cst.MaybeSentinel}  # field values that are not nodes


class _FieldRecorder(cst.CSTTransformer):
    """Records the fields LibCST's traversal visits for one node, in order, without descending
    into its children."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: list[str] = []
        self._entered = False

    def on_visit(self, node: cst.CSTNode) -> bool:
        entered, self._entered = self._entered, True
        return not entered  # the node itself, not its children

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        self.fields.append(attribute)

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        pass


def _fields(node: cst.CSTNode) -> tuple[str, ...]:
    """The fields LibCST's traversal visits for this node, in its order."""
    kind = type(node)
    fields = _FIELDS.get(kind)
    if fields is not None:
        pending = _PENDING.get(kind)
        if not pending or all(getattr(node, name) is None for name in pending):
            return fields
    return _record(node)


def _record(node: cst.CSTNode) -> tuple[str, ...]:
    """Record the fields of a node type from one of its nodes. A few types visit a field only when
    it is not None (an f-string's format spec): a field that was None and not visited stays
    pending, and the first node where it is set is recorded again and merged in."""
    kind = type(node)
    recorder = _FieldRecorder()
    node.visit(recorder)
    fields = list(_FIELDS.get(kind, ()))
    for index, name in enumerate(recorder.fields):
        if name not in fields:
            after = recorder.fields[index - 1] if index else None
            fields.insert(fields.index(after) + 1 if after is not None else 0, name)
    _FIELDS[kind] = tuple(fields)
    unseen = _PENDING.get(kind, set(node.__dataclass_fields__))
    _PENDING[kind] = {name for name in unseen if name not in fields and getattr(node, name) is None}
    return _FIELDS[kind]


def walk(node: cst.CSTNode, visitor: cst.CSTTransformer, inert: Collection[type] = frozenset()):
    """`node.visit(visitor)` for a transformer, skipping the subtrees of `inert` node types (which
    the visitor must neither change nor need to see)."""
    if not visitor.on_visit(node):
        return visitor.on_leave(node, node)
    changes: dict[str, object] = {}
    for name in _fields(node):
        value = getattr(node, name)
        kind = type(value)
        if kind in inert or kind in _LEAVES:
            continue
        if kind is tuple or kind is list:
            if value:
                new_children = _children(node, name, value, visitor, inert)
                if new_children is not None:
                    changes[name] = new_children
        elif isinstance(value, cst.CSTNode):
            new = walk(value, visitor, inert)
            if new is not value:
                changes[name] = _single(node, name, new)
        else:
            _LEAVES.add(kind)
    updated = node.with_changes(**changes) if changes else node
    return visitor.on_leave(node, updated)


def _single(parent: cst.CSTNode, name: str, new: object) -> object:
    """A field holding one node: what its removal means there, as in LibCST's traversal."""
    if isinstance(new, cst.RemovalSentinel):
        default = parent.__dataclass_fields__[name].default
        if default is None or default is cst.MaybeSentinel.DEFAULT:
            return default
    if isinstance(new, (cst.RemovalSentinel, cst.FlattenSentinel)):
        raise TypeError(
            f"{type(new).__name__} returned for {type(parent).__name__}.{name}, which needs a node"
        )
    return new


def _children(parent, name, children, visitor, inert) -> tuple | None:
    """The new children of a sequence field, or None when every child came back unchanged."""
    results = []
    changed = False
    for child in children:
        new = child if type(child) in inert else walk(child, visitor, inert)
        changed = changed or new is not child
        results.append((child, new))
    if not changed:
        return None
    body = (type(parent), name) in _BODY_FIELDS
    out: list[cst.CSTNode] = []
    for child, new in results:
        if isinstance(new, cst.RemovalSentinel):
            continue
        for item in new if isinstance(new, cst.FlattenSentinel) else (new,):
            # As LibCST does: a statement emptied by removals is dropped, not kept empty.
            if body and not child._is_removable() and item._is_removable():
                continue
            out.append(item)
    return tuple(out)
