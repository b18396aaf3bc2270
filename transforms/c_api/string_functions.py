"""TF24701 `c-api-string-functions`: `TF_StringEncode`, `TF_StringDecode` and `TF_StringEncodedSize` were removed from the C API in TF 2.4."""

from __future__ import annotations

import re

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import Rule
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.needles import Pattern

from .._text import is_prose, literal_value

_LAYOUT = (
    "was removed from the TensorFlow C API in 2.4: use the `TF_TString_*` functions.\nA TF_STRING "
    "tensor now holds an array of `TF_TString` (`tensorflow/core/platform/ctstring.h`)"
)


REMOVED_STRING_FUNCTIONS = {
    "TF_StringEncode": f"`TF_StringEncode` {_LAYOUT}; write element i with `TF_TString_Init(&s[i])` then "
    "`TF_TString_Copy(&s[i], src, src_len)`, and free it with `TF_TString_Dealloc(&s[i])`.",
    "TF_StringDecode": f"`TF_StringDecode` {_LAYOUT}; read element i with `TF_TString_GetDataPointer(&s[i])` "
    "and `TF_TString_GetSize(&s[i])`.",
    "TF_StringEncodedSize": f"`TF_StringEncodedSize` {_LAYOUT}; each element takes `sizeof(TF_TString)`, "
    "so allocate `n * sizeof(TF_TString)` bytes for `n` strings in `TF_AllocateTensor`.",
}


_NAMES = "|".join(REMOVED_STRING_FUNCTIONS)
_IDENTIFIER = re.compile(rf"\b({_NAMES})\b")


class CApiStringFunctions(Rule):
    """`TF_StringEncode`, `TF_StringDecode` and `TF_StringEncodedSize` were removed from the C API in
    TF 2.4.

    String tensors in the C API became contiguous arrays of `TF_TString`, handled with the
    `TF_TString_*` functions of `tensorflow/core/platform/ctstring.h`. Reported in C and C++ sources
    (`.c .cc .cpp .cxx .h .hpp`, code only: comments and string literals never count) and in
    Python files that reach the C API through ctypes or cffi: an attribute `lib.TF_StringEncode`,
    or the name in a string such as `ffi.cdef("...")` or `getattr(lib, "TF_StringDecode")`
    (docstrings and printed or logged text never count). Not rewritten: the memory layout changed.

    Reported: `size_t n = TF_StringEncode(src, len, dst, dst_len, status);`
    Write instead: `TF_TString_Init(&dst[0]); TF_TString_Copy(&dst[0], src, len);`

    Versions: the `TF_TString_*` functions are in tensorflow/include/tensorflow/core/platform/ctstring.h of
    the tensorflow-cpu 2.2.0 wheel (no such header in 2.1.0); `TF_StringEncode` and the others are declared in
    tensorflow/include/tensorflow/c/tf_tensor.h of the 2.3.0 wheel and gone from that header in 2.4.0.
    """

    code = "TF24701"
    name = "c-api-string-functions"
    new_since = "2.2"
    old_removed = "2.4"
    fix = None
    severity = Severity.ERROR
    # One look for their common prefix, absent from nearly every file, rather than one for each.
    triggers = (Pattern(_NAMES, "TF_String"),)
    c_identifiers = REMOVED_STRING_FUNCTIONS

    def leave_Attribute(
        self, ctx: RuleContext, original: cst.Attribute, updated: cst.Attribute
    ) -> cst.BaseExpression:
        message = REMOVED_STRING_FUNCTIONS.get(original.attr.value)
        if message is not None:
            ctx.report(original, message)
        return updated

    def leave_SimpleString(
        self, ctx: RuleContext, original: cst.SimpleString, updated: cst.SimpleString
    ) -> cst.BaseExpression:
        value = literal_value(original) or ""
        names = dict.fromkeys(_IDENTIFIER.findall(value))
        if names and not is_prose(ctx.ancestors, original):
            ctx.report(original, " ".join(REMOVED_STRING_FUNCTIONS[name] for name in names))
        return updated


RULES = (CApiStringFunctions(),)
