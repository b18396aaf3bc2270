"""`python -m tf24migrate`."""

from tf24migrate.cli import main

main()
