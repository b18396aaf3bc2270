"""TF24304 `get-layer-policy`: `tf.keras.mixed_precision.experimental.get_layer_policy(layer)` is
`layer.dtype_policy` from TF 2.4."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import code_for
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.edits import TrackUses
from tf24migrate.rules.names import dotted_name_of_module, normalize

from ._common import (
    EXPERIMENTAL,
    _is_callee,
    exported,
)


class GetLayerPolicy(Rule):
    """`tf.keras.mixed_precision.experimental.get_layer_policy(layer)` is `layer.dtype_policy`
    from TF 2.4.

    TF 2.4 made `Layer.dtype_policy` public and kept `get_layer_policy` only in the experimental
    module, which TF 2.9 removed. The call becomes the property of its argument (in parentheses
    when the argument is not a simple name, attribute, call or subscript). A name imported from the
    experimental module is removed from the import, unless the module's `__all__` lists it (or is
    computed): other modules may import it from this one.

    Before: `from tensorflow.keras import mixed_precision` then `policy = mixed_precision.experimental.get_layer_policy(model.layers[0])`
    After:  `from tensorflow.keras import mixed_precision` then `policy = model.layers[0].dtype_policy`

    Not rewritten, reported: references that are not calls with one argument (for example
    `map(get_layer_policy, layers)`): write `layer.dtype_policy` there by hand.

    Versions: `Layer.dtype_policy` exists since TF 2.4 (tensorflow/python/keras/engine/base_layer.py of the
    tensorflow-cpu 2.4.0 wheel; absent in 2.3.0); `get_layer_policy` is exported in keras 2.8.0 and gone in
    keras 2.9.0 (keras/api/_v2/keras/mixed_precision/).
    """

    code = "TF24304"
    name = "get-layer-policy"
    new_since = "2.4"
    old_removed = "2.9"
    fix = Fix.SAFE
    severity = Severity.ERROR
    triggers = ("get_layer_policy",)
    requires = IMPORTS_TENSORFLOW
    _old = f"{EXPERIMENTAL}.get_layer_policy"
    _message = "`get_layer_policy(layer)` is `layer.dtype_policy` from TF 2.4"

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if ctx.qualified_name(original.func) != self._old:
            return updated
        if (
            len(updated.args) != 1
            or updated.args[0].star
            or (updated.args[0].keyword is not None and updated.args[0].keyword.value != "layer")
        ):
            ctx.report(original, f"{self._message}: rewrite the call by hand.")
            return updated
        layer = updated.args[0].value
        if not isinstance(layer, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)) and not layer.lpar:
            layer = layer.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        replacement = cst.Attribute(layer, cst.Name("dtype_policy"), lpar=updated.lpar, rpar=updated.rpar)
        return ctx.report(original, f"{self._message}.", replacement=replacement) or updated

    def leave_Attribute(
        self, ctx: RuleContext, original: cst.Attribute, updated: cst.Attribute
    ) -> cst.BaseExpression:
        if ctx.qualified_name(original) == self._old and not _is_callee(ctx, original):
            ctx.report(original, f"{self._message}: use the property instead of the function here.")
        return updated

    def leave_Name(self, ctx: RuleContext, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        if (
            ctx.is_reference(original)
            and ctx.qualified_name(original) == self._old
            and not _is_callee(ctx, original)
        ):
            ctx.report(original, f"{self._message}: use the property instead of the function here.")
        return updated

    def leave_ImportFrom(
        self, ctx: RuleContext, original: cst.ImportFrom, updated: cst.ImportFrom
    ) -> cst.BaseSmallStatement | cst.RemovalSentinel:
        if original.relative or isinstance(original.names, cst.ImportStar):
            return updated
        if normalize(dotted_name_of_module(original.module) or "") != EXPERIMENTAL:
            return updated
        removed = set()
        for alias in original.names:
            if dotted_name_of_module(alias.name) != "get_layer_policy":
                continue
            kept = ctx.blocked_reason(alias) or exported(
                ctx, code_for(alias.asname.name) if alias.asname is not None else "get_layer_policy"
            )
            if kept is not None:
                ctx.report(alias, f"{self._message}: the import stays as it is: {kept}; migrate them first.")
                continue
            message = f"{self._message}: the function is not imported any more."
            if (
                ctx.report(alias, message, replacement=cst.RemoveFromParent(), edits=[TrackUses(alias)])
                is not None
            ):
                removed.add(alias)
        if not removed:
            return updated
        assert not isinstance(updated.names, cst.ImportStar)
        kept_names = {dotted_name_of_module(a.name) for a in original.names if a not in removed}
        names = [alias for alias in updated.names if dotted_name_of_module(alias.name) in kept_names]
        if not names:
            return cst.RemoveFromParent()
        if updated.rpar is None:
            names[-1] = names[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return updated.with_changes(names=names)


RULES = (GetLayerPolicy(),)
