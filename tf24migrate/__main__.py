"""`python -m tf24migrate`."""

from tf24migrate.cli.command import entry_point

entry_point()
