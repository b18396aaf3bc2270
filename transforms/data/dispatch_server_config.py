"""TF24401 `dispatch-server-config`: `tf.data.experimental.service.DispatchServer(port, protocol, start)` takes a `DispatcherConfig` from TF 2.4."""

from __future__ import annotations

from ._server_config import _ServerConfig


class DispatchServerConfig(_ServerConfig):
    """`tf.data.experimental.service.DispatchServer(port, protocol, start)` takes a
    `DispatcherConfig` from TF 2.4.

    The TF 2.4 constructor is `DispatchServer(config=None, start=True)`. The old arguments move
    into `tf.data.experimental.service.DispatcherConfig`, always as keywords (its positional
    layout grew between releases), in the order `port`, `protocol` (in the call's order where both
    call functions, so that the calls run in the order they did; a `start=` calling one before
    them is reported); `None` arguments are dropped
    so the defaults apply; `start` stays on the server, as a keyword. The config class is named
    the way the file named the server: through the same module path or alias, or added to the
    same `from ... import` statement. A new call that would make its line longer than the file's
    longest line (at least 79 characters) is split over several lines; a call the user wrote over
    several lines keeps its layout and comments.

    Before: `tf.data.experimental.service.DispatchServer(5050, "grpc", start=False)`
    After:  `tf.data.experimental.service.DispatchServer(tf.data.experimental.service.DispatcherConfig(port=5050, protocol="grpc"), start=False)`

    Not rewritten: calls passing `*args` / `**kwargs` (reported: their values cannot be matched),
    and calls that already look like TF 2.4 (`config=`, a config built in the call, no arguments,
    a first argument named as a config (`DispatchServer(config)`, `self.dispatcher_cfg`), or a
    non-literal first argument in a file that already uses `DispatcherConfig`).
    `DispatchServer(0)` happens to run on TF 2.4 (`0` counts as no config) but is rewritten too.

    A `protocol` that is not a string written out (a variable that may hold None) becomes
    `protocol or "grpc"`: TF 2.3's server read None as `"grpc"`, while TF 2.4's `DispatcherConfig` passes
    None on, and the server then fails to start (executed on TF 2.3.0 and 2.4.0).

    Versions: `DispatcherConfig` is exported since TF 2.4 and `DispatchServer` takes it instead of `port`
    there (tensorflow/_api/v2/data/experimental/service/__init__.py and
    tensorflow/python/data/experimental/service/server_lib.py of the tensorflow-cpu 2.3.0 and 2.4.0 wheels).
    """

    code = "TF24401"
    name = "dispatch-server-config"
    new_since = "2.4"
    old_removed = "2.4"
    triggers = ("DispatchServer",)
    server = "DispatchServer"
    config = "DispatcherConfig"
    old_params = ("port", "protocol", "start")
    config_order = ("port", "protocol")
    required = ("port",)


RULES = (DispatchServerConfig(),)
