"""Usage errors: each is one line, `tf24migrate: error: ...` on stderr, exit 2, those of the
option parser too (an unknown option with "did you mean"), so that they read as the others."""

from __future__ import annotations

import difflib

import typer
from typer.core import TyperCommand

from tf24migrate.cli.exit_codes import EXIT_ERROR

# Options users bring from other tools, and ours that do the same.
_SAME_AS = {
    "--fix": "--write",
    "--fix-only": "--write",
    "--in-place": "--write",
    "--dry-run": "--diff",
    "--extend-ignore": "--ignore",
    "--format": "--output-format",
}


# How alike an unknown option and ours must be for "did you mean" (difflib's ratio): `--wirte`
# and `--selct` are typos of `--write` and `--select`; `--bogus` is no typo of `--jobs` (0.67).
_CLOSE_ENOUGH = 0.75


def split_values(value: list[str] | None) -> tuple[str, ...] | None:
    """A repeatable option's values, each also comma-separated; None when not given."""
    if value is None:
        return None
    return tuple(part.strip() for item in value for part in item.split(",") if part.strip())


def fail(message: str) -> typer.Exit:
    from tf24migrate.cli.output import printable

    typer.echo(printable(f"tf24migrate: error: {message}"), err=True)
    return typer.Exit(EXIT_ERROR)


def usage_message(error: Exception, options: list[str]) -> str:
    """A usage error of the option parser as one line, with "did you mean" for an unknown option
    (`options`: every option the command takes)."""
    from typer._click.exceptions import NoSuchOption

    if isinstance(error, NoSuchOption):
        name = error.option_name
        close = difflib.get_close_matches(name, options, n=1, cutoff=_CLOSE_ENOUGH)
        guess = _SAME_AS.get(name) or next(iter(close), None)
        hint = f": did you mean {guess}?" if guess else ""
        return f"no such option {name}{hint} (`tf24migrate --help` lists the options)"
    message = error.format_message().rstrip(".")  # type: ignore[attr-defined]
    return message[:1].lower() + message[1:]


class UsageErrorsInOneLine(TyperCommand):
    """The command, with usage errors in the `tf24migrate: error: ...` form of every other error."""

    def make_context(self, info_name, args, parent=None, **extra):
        from typer._click.exceptions import UsageError

        try:
            return super().make_context(info_name, args, parent, **extra)
        except UsageError as error:
            options = [name for param in self.params for name in param.opts if name.startswith("--")]
            raise fail(usage_message(error, options)) from None
