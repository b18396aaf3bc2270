"""The target: the oldest TensorFlow the migrated code must run on, and where that came from.

A fix whose new spelling is newer than the target is not applied (see `Target.allows`), and an old
spelling that stops working within the versions the project supports is an error. The target comes
from `--target-version`, from `target-version` in `[tool.tf24migrate]`, or from the project's own
metadata (`project_target`); when none of them names one, it is 2.4.

Versions are compared as `(major, minor)`: TensorFlow changes its API only in minor releases.
A rule's own versions reach the helpers here as a `Versions` value (`Rule.versions`), so this
module, the lowest layer's, imports nothing above it, not even for typing. It imports neither
LibCST nor the rules; `project_metadata` reads the metadata files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tf24migrate.model.errors import TF24MigrateError

if TYPE_CHECKING:
    from packaging.specifiers import SpecifierSet
    from packaging.version import Version as PackageVersion

    from tf24migrate.model.findings import Severity

Version = tuple[int, int]

# Every final TensorFlow 2 release on the package index (tensorflow, tensorflow-cpu and
# tensorflow-gpu share these numbers), as `pip index versions tensorflow` lists them for
# Python 3.7, 3.8 and 3.11. The lowest release a specifier allows is looked up here, so that
# `>2.3` means 2.3 (2.3.1 is allowed) while `>2.3.4` means 2.4 (2.3.4 was the last 2.3 release).
KNOWN_RELEASES = (
    *("1.15.0", "1.15.2", "1.15.3", "1.15.4", "1.15.5"),
    *("2.0.0", "2.0.1", "2.0.2", "2.0.3", "2.0.4"),
    *("2.1.0", "2.1.1", "2.1.2", "2.1.3", "2.1.4"),
    *("2.2.0", "2.2.1", "2.2.2", "2.2.3"),
    *("2.3.0", "2.3.1", "2.3.2", "2.3.3", "2.3.4"),
    *("2.4.0", "2.4.1", "2.4.2", "2.4.3", "2.4.4"),
    *("2.5.0", "2.5.1", "2.5.2", "2.5.3"),
    *("2.6.0", "2.6.1", "2.6.2", "2.6.3", "2.6.4", "2.6.5"),
    *("2.7.0", "2.7.1", "2.7.2", "2.7.3", "2.7.4"),
    *("2.8.0", "2.8.1", "2.8.2", "2.8.3", "2.8.4"),
    *("2.9.0", "2.9.1", "2.9.2", "2.9.3"),
    *("2.10.0", "2.10.1", "2.11.0", "2.11.1", "2.12.0", "2.12.1", "2.13.0", "2.13.1"),
    *("2.14.0", "2.14.1", "2.15.0", "2.15.1", "2.16.1", "2.16.2", "2.17.0", "2.17.1"),
    *("2.18.0", "2.18.1", "2.19.0", "2.19.1", "2.20.0", "2.21.0"),
)
# The newest minor release of those: the facts (`KNOWN_RELEASES`, the rules' versions) reach no
# further. A later target is taken as given (`Target.describe` says the facts stop here).
NEWEST_KNOWN: Version = (int(KNOWN_RELEASES[-1].split(".")[0]), int(KNOWN_RELEASES[-1].split(".")[1]))
# The minor releases after `NEWEST_KNOWN` a specifier that allows no known release is read against
# (`tensorflow>=2.25`): the first and the last patch release each might have.
_FUTURE = tuple(
    f"{major}.{minor}.{patch}"
    for major in range(2, 5)
    for minor in range(100)
    if (major, minor) > NEWEST_KNOWN
    for patch in (0, 99)
)
# The distributions whose version is TensorFlow's.
TENSORFLOW_DISTRIBUTIONS = frozenset({"tensorflow", "tensorflow-cpu", "tensorflow-gpu", "tf-nightly"})
DEFAULT_VERSION: Version = (2, 4)
TF1_TARGET: Version = (1, 15)  # the TF 1 release a project that still supports TF 1 runs on

_VERSION = re.compile(r"^\s*(\d{1,9})\.(\d{1,9})\s*$")  # no release has a longer number


class TargetVersionError(TF24MigrateError, ValueError):
    """A target version that is not `X.Y`; the message says what was given and where."""


def parse_version(text: str, where: str) -> Version:
    """`"2.3"` as `(2, 3)`; anything else raises `TargetVersionError` naming `where`."""
    match = _VERSION.match(text) if isinstance(text, str) else None
    if match is None:
        raise TargetVersionError(
            f"{where}: the target version must be a TensorFlow version as X.Y (such as 2.3), not {text!r}"
        )
    return int(match[1]), int(match[2])


def format_version(version: Version | None) -> str | None:
    return None if version is None else f"{version[0]}.{version[1]}"


@dataclass(frozen=True)
class Versions:
    """A rule's TensorFlow versions ("X.Y", checked in the released wheels): the facts the helpers
    below judge a finding by. `new_since`: the first release with the spelling the fix writes;
    `old_removed`: the first release where the old spelling fails (None: it still works);
    `changed_in`: the release whose change of behaviour the rule reports."""

    new_since: str | None = None
    old_removed: str | None = None
    changed_in: str | None = None


@dataclass(frozen=True)
class Target:
    """The oldest TensorFlow to support (`version`), where that came from (`source`: a flag, a
    file, or how the default was reached) and the newest minor release to support (`newest`; None:
    the project's requirement allows every later release). A target named without a requirement
    (the default, the flag, the `target-version` key) supports up to the later of itself and
    TF 2.4, the release being migrated to (`named`): an old spelling that stops working only in a
    later release is then a warning, as nothing says the project runs there."""

    version: Version = DEFAULT_VERSION
    source: str = "default"
    newest: Version | None = None

    def allows(self, new_since: str | None) -> bool:
        """Whether code written with a spelling that first exists in `new_since` runs on the target."""
        return new_since is None or self.version >= parse_version(new_since, "rule data")

    def supports(self, version: str) -> bool:
        """Whether `version` is within the supported range (the target and what follows, up to
        `newest`)."""
        return self.newest is None or parse_version(version, "rule data") <= self.newest

    def breaks_due(self, removed: str) -> bool:
        """Whether a spelling that stops working in `removed` breaks where the migration is due:
        on TF 2.4 (the release migrated to), on the target itself, or on a later release the
        project names as its newest (an upper bound, or the target named without a requirement)."""
        bound = max(self.version, DEFAULT_VERSION, self.newest or DEFAULT_VERSION)
        return parse_version(removed, "rule data") <= bound

    def allows_later(self, removed: str) -> bool:
        """Whether a spelling that stops working in `removed` breaks only on a release after those
        due (`breaks_due`) that the project's open range (no upper bound) allows."""
        return self.newest is None and not self.breaks_due(removed)

    @property
    def describe(self) -> str:
        """`TensorFlow 2.3 (from requirements.txt)`, as in the summary line and in findings; a
        target newer than every release tf24migrate knows says so."""
        beyond = ""
        if self.version > NEWEST_KNOWN:
            beyond = f"; newer than {format_version(NEWEST_KNOWN)}, the last release tf24migrate knows"
        return f"TensorFlow {format_version(self.version)} ({self.source}{beyond})"


def named(version: Version, source: str) -> Target:
    """A target named without a TensorFlow requirement (see `Target`)."""
    return Target(version, source, max(version, DEFAULT_VERSION))


DEFAULT_TARGET = named(DEFAULT_VERSION, "default")


def target_of(version: str | Target | None, source: str) -> Target:
    """A `Target` from an `X.Y` string given by `source` (a flag, a key, an argument). A version
    before TensorFlow 2 (1.15) raises `TargetVersionError`; one after every release tf24migrate
    knows (`NEWEST_KNOWN`) is taken as given: a later release may come, and what the rules know
    of it, they say (`Target.describe` says where that knowledge ends)."""
    if version is None:
        return DEFAULT_TARGET
    if isinstance(version, Target):
        return version
    parsed = parse_version(version, source)
    if parsed < (2, 0):
        raise TargetVersionError(
            f"{source}: {version} is not a TensorFlow 2 release: the target is the oldest TensorFlow 2 "
            "the code must run on, 2.0 or later"
        )
    return named(parsed, f"from {source}")


def lowest_and_newest(specifiers: list[str]) -> tuple[Version, Version | None] | None:
    """The lowest TensorFlow minor release each specifier allows, the lowest of these, and the
    newest minor release any allows (None when one of them allows the newest known release); None when no
    specifier constrains the version (a bare `tensorflow`) or none allows a release. A specifier
    that allows no known release but a later one (`>=2.25`) is read against the minor releases
    that may follow (`_FUTURE`), open when it allows the last of them."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet
    from packaging.version import Version as PackageVersion

    lowest: list[Version] = []
    newest: list[Version | None] = []
    releases = [PackageVersion(text) for text in KNOWN_RELEASES]
    for text in specifiers:
        try:
            specifier = SpecifierSet(text)
            if not len(specifier):
                continue
            allowed = [release for release in releases if specifier.contains(release, prereleases=False)]
            last = releases[-1]
            if not allowed:
                allowed = _pinned_prerelease(specifier)
            if not allowed:
                future = [PackageVersion(release) for release in _FUTURE]
                allowed, last = [release for release in future if specifier.contains(release)], future[-1]
        except (InvalidSpecifier, ValueError):  # also a version of thousands of digits
            continue
        if not allowed:
            continue
        lowest.append(_minor(allowed[0]))
        newest.append(None if allowed[-1] == last else _minor(allowed[-1]))
    if not lowest:
        return None
    top = None if any(version is None for version in newest) else max(v for v in newest if v is not None)
    return min(lowest), top


def _pinned_prerelease(specifier: SpecifierSet) -> list[PackageVersion]:
    """The release an exact pin of a pre-release names (`==2.3.0rc0`, `==2.0.0a0`), which the
    final releases do not match: a pre-release of X.Y is X.Y's API. Empty for anything else."""
    from packaging.version import Version as PackageVersion

    pinned = []
    for item in specifier:
        if item.operator in ("==", "===") and "*" not in item.version:
            release = PackageVersion(item.version)
            if release.is_prerelease and specifier.contains(release, prereleases=True):
                pinned.append(release)
    return pinned


def _minor(release: PackageVersion) -> Version:
    major, minor = release.release[:2]
    return major, minor


def severity_for(versions: Versions, target: Target, *, severity: Severity, fixable: bool) -> Severity:
    """The severity for `target` of a rule with these `versions`, its own `severity` and a fix
    (`fixable`), measured against the migration: an old spelling that stops working on TF 2.4,
    on the target, or on a later release the project names as its newest is an error
    (`Target.breaks_due`); one that stops working in a later release that an open range allows,
    or after the newest release the project allows, is a warning; an old spelling that keeps
    working everywhere, with no change of behaviour either (`changed_in`), is a note, fixable or
    not: nothing is due. A fix that the target withholds (its new spelling is newer) while the old
    spelling works across the whole supported range is a note too. A rule reporting a change of
    behaviour keeps its own severity."""
    from tf24migrate.model.findings import Severity

    removed = versions.old_removed
    if removed is not None and target.breaks_due(removed):
        return Severity.ERROR
    later = removed is not None and target.allows_later(removed)
    if fixable and not target.allows(versions.new_since) and not later:
        return Severity.INFO
    if removed is None:
        return Severity.INFO if versions.changed_in is None else severity
    return Severity.WARNING


def first_line_versions(
    versions: Versions, target: Target, *, too_new: bool, fixed: bool, fixable: bool
) -> str | None:
    """What a finding's first line adds, in parentheses, about the versions: the release after
    TF 2.4 in which the old spelling breaks, whenever that break is what makes the finding an error
    or a warning (`severity_for`), fixed or not (a fixed one is tagged so: the release alone), and
    why the fix was not applied (`too_new`: its new spelling is newer than the target; `fixable`:
    there was a fix). None: nothing to add.

    `stops working in TensorFlow 2.9, which the requirement allows; not fixed: needs TensorFlow
    2.4, the target is 2.3`; `stops working in TensorFlow 2.9` (fixed)."""
    parts = []
    removed = versions.old_removed
    # A break on TF 2.4 itself is what the finding's own words say; a later one is named, unless
    # it lies beyond the supported range and the fix is withheld (a note: nothing is due).
    if (
        removed is not None
        and parse_version(removed, "rule data") > DEFAULT_VERSION
        and (target.breaks_due(removed) or target.allows_later(removed) or not (fixable and too_new))
    ):
        if target.allows_later(removed) and not fixed:
            parts.append(f"stops working in TensorFlow {removed}, which the requirement allows")
        else:
            parts.append(f"stops working in TensorFlow {removed}")
    if too_new:
        needs = f"needs TensorFlow {versions.new_since}, the target is {format_version(target.version)}"
        parts.append(f"{'not fixed: ' if fixable else ''}{needs}")
    return "; ".join(parts) or None


def too_new_note(versions: Versions, target: Target, *, fixable: bool) -> str:
    """What a finding whose new spelling needs a newer TensorFlow than the target says, and what
    to do; `fixable`: the finding had a fix, which is therefore not applied."""
    new, removed = versions.new_since, versions.old_removed
    keep = "keep the old spelling until then"
    if removed is not None and target.supports(removed):
        keep = f"keep the old spelling behind a version check (it stops working in TensorFlow {removed})"
    return (
        f"{'Not fixed: the' if fixable else 'The'} new spelling needs TensorFlow {new}, and the target "
        f"is {target.describe}: "
        f"raise the oldest supported TensorFlow to {new}, or {keep}."
    )


def versions_line(versions: Versions) -> str:
    """A rule's versions in words, for `--explain`, the rule reference and a finding's details."""
    parts = [
        f"new spelling since {versions.new_since}" if versions.new_since else "no new spelling (report only)",
        f"old spelling stops working in {versions.old_removed}"
        if versions.old_removed
        else "old spelling still works",
    ]
    if versions.changed_in:
        parts.append(f"behaviour changed in {versions.changed_in}")
    return "; ".join(parts) + "."
