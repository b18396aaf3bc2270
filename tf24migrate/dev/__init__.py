"""The developer command, for a clone of the repository: `python -m tf24migrate.dev regen` writes
what is generated from the rules (the trigger table, docs/rules.md, the fixture snapshots), and
`python -m tf24migrate.dev new-rule` writes a new rule, its fixtures and their snapshots. Nothing
here runs in the installed tool."""
