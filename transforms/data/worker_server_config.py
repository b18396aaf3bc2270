"""TF24402 `worker-server-config`: `tf.data.experimental.service.WorkerServer(port, dispatcher_address,
worker_address, protocol, start)` takes a `WorkerConfig` from TF 2.4."""

from __future__ import annotations

import libcst as cst

from tf24migrate.rules.context import RuleContext

from ._server_config import _ServerConfig


class WorkerServerConfig(_ServerConfig):
    """`tf.data.experimental.service.WorkerServer(port, dispatcher_address, worker_address,
    protocol, start)` takes a `WorkerConfig` from TF 2.4.

    The TF 2.4 constructor is `WorkerServer(config, start=True)`. The old arguments move into
    `tf.data.experimental.service.WorkerConfig`, always as keywords, because its positional order
    differs from the old server's (`dispatcher_address` comes first). They are written in the
    order `dispatcher_address`, `port`, `worker_address`, `protocol` (the required address first;
    in the call's order where more than one calls a function, so that those calls run in the order
    they did, and a `start=` calling one before them is reported);
    `None` arguments are dropped so the defaults apply; `start` stays on the server, as a
    keyword. The config class is named the way the file named the server (same module path or
    alias, or added to the same `from ... import` statement). Long lines are split as for TF24401.

    Before: `tf.data.experimental.service.WorkerServer(0, dispatcher_address, start=True)`
    After:  `tf.data.experimental.service.WorkerServer(tf.data.experimental.service.WorkerConfig(dispatcher_address=dispatcher_address, port=0), start=True)`

    Not rewritten: calls passing `*args` / `**kwargs` or no dispatcher address (reported), and
    calls that already look like TF 2.4 (`config=`, a config built in the call, a single argument,
    or `(config, True/False)`).

    A `protocol` that is not a string written out (a variable that may hold None) becomes
    `protocol or "grpc"`: TF 2.3's server read None as `"grpc"`, while TF 2.4's `WorkerConfig` passes
    None on, and the server then fails to start (executed on TF 2.3.0 and 2.4.0).

    Versions: `WorkerConfig` is exported since TF 2.4 and `WorkerServer` takes it instead of `port` there
    (tensorflow/_api/v2/data/experimental/service/__init__.py and
    tensorflow/python/data/experimental/service/server_lib.py of the tensorflow-cpu 2.3.0 and 2.4.0 wheels).
    """

    code = "TF24402"
    name = "worker-server-config"
    new_since = "2.4"
    old_removed = "2.4"
    triggers = ("WorkerServer",)
    server = "WorkerServer"
    config = "WorkerConfig"
    old_params = ("port", "dispatcher_address", "worker_address", "protocol", "start")
    config_order = ("dispatcher_address", "port", "worker_address", "protocol")
    required = ("port", "dispatcher_address")

    def _already_migrated(self, ctx: RuleContext, call: cst.Call) -> bool:
        positional = [arg for arg in call.args if arg.keyword is None and not arg.star]
        keywords = {arg.keyword.value for arg in call.args if arg.keyword is not None}
        if len(positional) == 1 and not keywords - {"start"} and not any(arg.star for arg in call.args):
            return True  # WorkerServer(config[, start=S])
        return super()._already_migrated(ctx, call)


RULES = (WorkerServerConfig(),)
