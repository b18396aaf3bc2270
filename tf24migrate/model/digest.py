"""`blake2b`, as `hashlib` defines it, without `hashlib` loading OpenSSL (twice the start-up): a
warm run digests the rules' sources and each file before all else. The catalogue's digest of the
rules' sources, the cache's digests of files and the names of temporary files all take it here."""

try:  # hashlib's own blake2b
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - not CPython
    from hashlib import blake2b

__all__ = ["blake2b"]
