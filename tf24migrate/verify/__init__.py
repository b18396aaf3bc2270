"""`tf24migrate verify`: the project's own check run on real TensorFlow 2.3.0 as the code is, and on
TensorFlow 2.4.0 after the migration, each in a scratch copy (`command` parses, `scratch` copies
and migrates, `runtimes` and `environments` make the interpreters, `runs` runs the check, `report`
compares). It runs the user's code, and only when `verify` is asked for. Above `cli`, whose
settings per folder (`cli.groups`) it migrates with. The `runtimes` module is standard library
only: `scripts/runtimes.py` uses it before the package is installed.
"""
