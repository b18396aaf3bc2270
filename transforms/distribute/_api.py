"""Qualified names of the `tf.distribute` API shared by the family's rules."""

from __future__ import annotations

EXPERIMENTAL = "tensorflow.distribute.experimental"
