"""Text for people (TF248xx): old TensorFlow names mentioned in comments and docstrings.

The old -> new pairs are the rename rules' own data (`RenameSymbol`, `RenameMethod`,
`RenameKeyword` rows and the renames structural rules hold), so this rule follows them.
"""
