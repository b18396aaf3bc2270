"""`python -m tf24migrate`."""

from tf24migrate.cli.command import main

main()
