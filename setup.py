"""Packages are found, not listed: `tf24migrate/` installs as is, and `transforms/` (the rules, at
the top of the repository so that engine and rules read apart) as `tf24migrate.transforms`, with
every family package under it (`package-dir` in pyproject.toml maps the folder)."""

from setuptools import find_packages, setup

setup(
    packages=[
        *find_packages(include=["tf24migrate", "tf24migrate.*"]),
        *(f"tf24migrate.{name}" for name in find_packages(include=["transforms", "transforms.*"])),
    ]
)
