"""`ConfigError`: a setting that cannot be used, from pyproject.toml or a glob; apart from `run.config`
so that the modules `run.config` uses to check its keys (`run.globs`) can raise it too."""


class ConfigError(ValueError):
    """pyproject.toml's `[tool.tf24migrate]` table is not what we understand; the message says why."""
