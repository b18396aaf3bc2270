"""The language server, `tf24migrate server`: each finding shown where it is in the editor, each fix
offered as a code action (the `server` extra: pygls and lsprotocol). `protocol` wires the LSP
messages; `checks` decides what is checked when, `worker` runs the migrations in a process of their
own, `diagnostics` and `actions` turn results into what the editor shows and applies, `documents`
and `notebooks` hold the texts, and `settings` the editor's settings and the files they come from.
"""
