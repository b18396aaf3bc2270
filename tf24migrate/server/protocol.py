"""The language server's wiring (`tf24migrate server`, over stdio, on pygls): which LSP messages
it answers and what each one does with the documents, the checks, the settings and the actions.

The server reads its messages itself (`wire`): each bounded in size, each it cannot read answered
with an error, its log one line an entry. It answers every request, after `shutdown` too (with
InvalidRequest, as LSP says); `exit` without `shutdown`, or an input that ends without either,
ends it with code 1; SIGTERM ends it as `exit` does, its worker and its temporary folder removed.

Documents checked: Python files (`.py`, `.pyi`, or any document the editor calls `python`), C and
C++ sources (report-only, as on the command line) and Jupyter notebooks synced as notebook
documents. Diagnostics are published on open, change and save; the configuration is reloaded when
a project file it is read from changes (`workspace/didChangeWatchedFiles`, or a save of one in the
editor) and when the editor's settings change (`workspace/didChangeConfiguration`).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.protocol import JsonRPCProtocol, LanguageServerProtocol
from pygls.protocol.language_server import lsp_method
from pygls.uris import to_fs_path

from tf24migrate import __version__
from tf24migrate.model.notes import NOTES_BY_CODE
from tf24migrate.server import actions, sigterm
from tf24migrate.server.checks import Checks, Subject, notebook_subject, overlaps
from tf24migrate.server.diagnostics import diagnostic, failure_diagnostic
from tf24migrate.server.documents import apply_change, decode, encode
from tf24migrate.server.notebooks import NOTEBOOK_SYNC, Cell
from tf24migrate.server.settings import WATCHED_GLOBS, EditorSettings, is_config_file, read_settings
from tf24migrate.server.wire import INVALID_REQUEST, SERVER_NOT_INITIALIZED, Reader, handed_over, log_one_line
from tf24migrate.server.worker import Job, Outcome, Worker
from tf24migrate.sources.kinds import C_SOURCE, PYTHON, kind_of

logger = logging.getLogger("tf24migrate.server")
SECTION = "tf24migrate"  # the section of the editor's configuration the settings are in


class _Protocol(LanguageServerProtocol):
    """pygls's protocol, with the client's text documents kept by the server alone (`documents`):
    pygls would keep a copy of each (twice the memory of a big file) and apply changes to it,
    clamping their positions in place where its line splitting disagrees with the client's. A
    notebook's changes are given to the server as they were sent, after pygls applied a copy of
    them to its own notebooks (which the server reads the cells' order from)."""

    initialized = False  # whether `initialize` came

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams):
        yield from self._server_only(types.TEXT_DOCUMENT_DID_OPEN, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        yield from self._server_only(types.TEXT_DOCUMENT_DID_CHANGE, params)

    def _server_only(self, method: str, params: Any) -> Any:
        handler = self.fm.features.get(method)
        if handler is not None:
            yield handler, (params,), None

    @lsp_method(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def lsp_notebook_document__did_change(self, params: types.DidChangeNotebookDocumentParams):
        if self.workspace.get_notebook_document(notebook_uri=params.notebook_document.uri) is None:
            logger.warning(
                "a change of the notebook %s, which is not open: ignored", params.notebook_document.uri
            )
            return
        yield from self._ours_after(
            super().lsp_notebook_document__did_change, params, types.NOTEBOOK_DOCUMENT_DID_CHANGE
        )

    def _ours_after(self, builtin: Any, params: Any, method: str) -> Any:
        """pygls's handler `builtin` applied to a copy of `params` (its own workspace's copy of
        the documents), then the server's handler given `params` as they were sent. A change
        pygls cannot apply to its copy (a document it does not have, a cell out of range) is
        logged on one line; the server's own handler still decides."""
        try:
            found = list(builtin(copy.deepcopy(params)))
        except (KeyError, IndexError, ValueError, TypeError) as error:
            logger.warning("%s: not applied to pygls's copy (%s: %s)", method, type(error).__name__, error)
            handler = self.fm.features.get(method)
            found = [(handler, None, None)] if handler is not None else []
        for handler, _, kwargs in found:
            yield handler, (params,), kwargs

    def handle_message(self, message: Any) -> None:
        """pygls's, but a request after `shutdown` is answered: InvalidRequest (pygls drops it);
        before `initialize`, one is answered ServerNotInitialized and a notification dropped (but
        `exit`), as LSP says."""
        method = getattr(message, "method", None)
        request = method is not None and getattr(message, "id", None) is not None
        if method == types.INITIALIZE:
            self.initialized = True
        elif not self.initialized and method not in (None, types.EXIT):
            if request:
                self.reply_error(message.id, SERVER_NOT_INITIALIZED, f"{method} before initialize: not done")
            return
        if self._shutdown and method != types.EXIT and request:
            self.reply_error(
                message.id, INVALID_REQUEST, f"the server is shut down: {method} not done; only exit is"
            )
            return
        super().handle_message(message)

    def reply_error(self, number: Any, code: int, message: str) -> None:
        """Answer request `number` (None: a message whose id is not known) with an error."""
        self._send_data(
            {"jsonrpc": JsonRPCProtocol.VERSION, "id": number, "error": {"code": code, "message": message}}
        )


class MigrationServer(LanguageServer):
    """The server's state: the texts of the open documents (`documents.apply_change` keeps them),
    the notebooks open, the editor's settings and the configuration's generation."""

    def __init__(self, worker: Worker | None = None) -> None:
        super().__init__(
            "tf24migrate",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            notebook_document_sync=NOTEBOOK_SYNC,
            protocol_cls=_Protocol,
        )
        # uri: text as UTF-8 (`documents.encode`), of the documents and notebook cells open
        self.texts: dict[str, bytes] = {}
        self.languages: dict[str, str] = {}
        self.versions: dict[str, int] = {}
        self.notebooks: set[str] = set()
        self.settings = EditorSettings()
        self.initial_settings: object = None  # the client's `initializationOptions`
        self.generation = 0
        self.pages: str | None = None  # the rules' pages' temporary folder, made by `serve`
        self.worker = worker or Worker()
        self.checks = Checks(self.worker, self.subject, self.job, self.publish)

    def units(self, text: str) -> int:
        return self.workspace.position_codec.client_num_units(text)

    def path_of(self, uri: str, notebook: bool = False) -> str:
        """The path whose settings apply to `uri`: its own, or (a document not saved yet) one in
        the workspace's root folder named after it; a notebook's ends in `.ipynb`, its kind."""
        if uri.startswith("file:"):
            path = to_fs_path(uri) or uri
        else:
            name = os.path.basename(uri.rstrip("/").split(":")[-1]) or "untitled"
            path = os.path.join(self.workspace.root_path or os.getcwd(), name)
        return path + ".ipynb" if notebook and not path.lower().endswith(".ipynb") else path

    def subject(self, key: str) -> Subject | None:
        if key in self.notebooks:
            notebook = self.workspace.get_notebook_document(notebook_uri=key)
            if notebook is None:
                return None
            cells = [
                Cell(
                    cell.document,
                    cell.kind,
                    self.languages.get(cell.document, "python"),
                    decode(self.texts.get(cell.document, b"")),
                )
                for cell in notebook.cells
            ]
            return notebook_subject(key, self.path_of(key, notebook=True), cells, self.units)
        if key not in self.texts:
            return None
        return Subject(key, self.path_of(key), self.texts[key], self.units, version=self.versions.get(key))

    def job(self, subject: Subject, declined=None) -> Job:
        return Job(subject.path, "", self.settings, self.generation, declined, self.pages, subject.data)

    def publish(self, subject: Subject, outcome: Outcome) -> None:
        documents = subject.documents()
        shown: dict[str, list[types.Diagnostic]] = {uri: [] for uri in documents}
        for finding in outcome.findings:
            uri = subject.where(finding)
            shown[uri].append(diagnostic(finding, documents[uri], self.pages))
        if outcome.failure is not None and not outcome.findings:
            uri = next(iter(documents))
            shown[uri].append(failure_diagnostic(outcome.failure, documents[uri], outcome.failure_code))
        for uri, diagnostics in shown.items():
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=subject.version)
            )

    def clear(self, uris) -> None:
        for uri in uris:
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def use_settings(self, value: object) -> None:
        """Take the editor's settings `value` over its `initializationOptions`, say what is wrong
        in them, and check everything again. (A client answers with an empty object, or nothing,
        for a section it does not know: the initialization options stay.)"""
        if isinstance(value, dict) and isinstance(self.initial_settings, dict):
            value = {**self.initial_settings, **value}
        self.settings, problems = read_settings(value if value is not None else self.initial_settings)
        for problem in problems:
            self.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=problem))
        self.reload()

    def reload(self) -> None:
        """The configuration may have changed: read it again for every subject, and check them."""
        self.generation += 1
        self.checks.changed_all()

    def handles(self, uri: str, language: str) -> bool:
        suffix = os.path.splitext(self.path_of(uri))[1].lower()
        if suffix == ".ipynb":
            return False  # the notebook's JSON text: notebooks are checked as notebook documents
        return language == "python" or suffix in (".pyi", *PYTHON.suffixes, *C_SOURCE.suffixes)

    def comment(self, subject: Subject) -> str:
        return "//" if kind_of(subject.path) is C_SOURCE else "#"

    def stop(self) -> None:
        try:
            self.worker.close()
        finally:
            if self.pages is not None:
                shutil.rmtree(self.pages, ignore_errors=True)

    def serve(self, stdin: Any, stdout: Any) -> int:
        """Read the client's messages from `stdin` (`wire.Reader`) and answer on `stdout` until
        `exit`, the end of the input or SIGTERM; the exit code: 0 after `shutdown`, else 1."""
        protocol = self.protocol
        assert isinstance(protocol, _Protocol)
        protocol.set_writer(_Writer(stdout))
        ended = asyncio.Event()

        def deliver(message: dict) -> None:
            handed_over(message, protocol.structure_message, protocol.handle_message, reply)

        def reply(number: Any, code: int, message: str) -> None:
            protocol.reply_error(number, code, message)

        async def main() -> None:
            loop = asyncio.get_running_loop()
            sigterm.when_running(lambda: loop.call_soon_threadsafe(ended.set))
            # made once SIGTERM ends the loop: a SIGTERM before cannot leave it behind
            self.pages = tempfile.mkdtemp(prefix="tf24migrate-rules-")
            Reader(stdin, loop, deliver, reply, ended.set).start()
            await ended.wait()

        try:
            asyncio.run(main())
        except SystemExit as exit_:  # `exit` (pygls's handler decides its code)
            return exit_.code if isinstance(exit_.code, int) else 1
        except KeyboardInterrupt:
            return 1
        finally:
            sigterm.when_running(None)  # the server is ending anyway
        return 0 if protocol._shutdown else 1


class _Writer:
    """Writes the server's messages; once the client has gone, drops them (one line logged)."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.gone = False

    def close(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.stream.close()

    def write(self, data: bytes) -> None:
        if self.gone:
            return
        try:
            self.stream.write(data)
            self.stream.flush()
        except (OSError, ValueError):
            self.gone = True
            logger.warning("the client no longer reads: messages dropped")


def _wanted(kind: str, only: Sequence[str] | None) -> bool:
    """Whether the client asks for actions of `kind` (a kind matches itself and its parents)."""
    return only is None or any(kind == wanted or kind.startswith(wanted + ".") for wanted in only)


def build_server(worker: Worker | None = None) -> MigrationServer:
    """The server, every message it answers registered; its `worker`, if already started."""
    server = MigrationServer(worker)

    @server.feature(types.INITIALIZE)
    def initialize(ls: MigrationServer, params: types.InitializeParams) -> None:
        ls.initial_settings = params.initialization_options
        ls.worker.start()  # warm by the first document
        ls.use_settings(None)

    @server.feature(types.INITIALIZED)
    async def initialized(ls: MigrationServer, params: types.InitializedParams) -> None:
        workspace = ls.client_capabilities.workspace
        watched = workspace and workspace.did_change_watched_files
        if watched and watched.dynamic_registration:
            watchers = [types.FileSystemWatcher(glob_pattern=glob) for glob in WATCHED_GLOBS]
            registration = types.Registration(
                id="tf24migrate-config-files",
                method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
            )
            with contextlib.suppress(Exception):  # a client that refuses: saves in the editor still reload
                await ls.client_register_capability_async(
                    types.RegistrationParams(registrations=[registration])
                )
        if workspace and workspace.configuration:
            await _pull_settings(ls)

    async def _pull_settings(ls: MigrationServer) -> None:
        params = types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)])
        try:
            (value,) = await ls.workspace_configuration_async(params)
        except Exception:  # a client that cannot answer: the settings stay as they are
            return
        ls.use_settings(value)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(
        ls: MigrationServer, params: types.DidChangeConfigurationParams
    ) -> None:
        workspace = ls.client_capabilities.workspace
        if isinstance(params.settings, dict) and SECTION in params.settings:
            ls.use_settings(params.settings[SECTION])
        elif workspace and workspace.configuration:
            await _pull_settings(ls)
        else:
            ls.reload()

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls: MigrationServer, params: types.DidChangeWatchedFilesParams) -> None:
        if any(is_config_file(ls.path_of(change.uri)) for change in params.changes):
            ls.reload()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: MigrationServer, params: types.DidOpenTextDocumentParams) -> None:
        document = params.text_document
        if not ls.handles(document.uri, document.language_id):
            return
        ls.texts[document.uri] = encode(document.text)
        ls.languages[document.uri] = document.language_id
        ls.versions[document.uri] = document.version
        ls.checks.changed(document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: MigrationServer, params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        if uri not in ls.texts:
            return
        for change in params.content_changes:
            ls.texts[uri] = apply_change(ls.texts[uri], change, ls.units)
        ls.versions[uri] = params.text_document.version
        ls.checks.changed(uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: MigrationServer, params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        if is_config_file(ls.path_of(uri)):
            ls.reload()
        elif uri in ls.texts:
            ls.checks.changed(uri)  # the cache may now hold it

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: MigrationServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        if ls.texts.pop(uri, None) is not None:
            ls.versions.pop(uri, None)
            ls.checks.closed(uri)
            ls.clear([uri])

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    def notebook_did_open(ls: MigrationServer, params: types.DidOpenNotebookDocumentParams) -> None:
        for cell in params.cell_text_documents:
            ls.texts[cell.uri] = encode(cell.text)
            ls.languages[cell.uri] = cell.language_id
        ls.notebooks.add(params.notebook_document.uri)
        ls.checks.changed(params.notebook_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def notebook_did_change(ls: MigrationServer, params: types.DidChangeNotebookDocumentParams) -> None:
        cells = params.change.cells
        structure = cells and cells.structure
        for cell in (structure and structure.did_open) or []:
            ls.texts[cell.uri] = encode(cell.text)
            ls.languages[cell.uri] = cell.language_id
        closed = [cell.uri for cell in (structure and structure.did_close) or []]
        for uri in closed:
            ls.texts.pop(uri, None)
            ls.languages.pop(uri, None)
        ls.clear(closed)
        for content in (cells and cells.text_content) or []:
            for change in content.changes:
                ls.texts[content.document.uri] = apply_change(
                    ls.texts.get(content.document.uri, b""), change, ls.units
                )
        ls.checks.changed(params.notebook_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
    def notebook_did_save(ls: MigrationServer, params: types.DidSaveNotebookDocumentParams) -> None:
        ls.checks.changed(params.notebook_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    def notebook_did_close(ls: MigrationServer, params: types.DidCloseNotebookDocumentParams) -> None:
        uris = [cell.uri for cell in params.cell_text_documents]
        for uri in uris:
            ls.texts.pop(uri, None)
            ls.languages.pop(uri, None)
        ls.notebooks.discard(params.notebook_document.uri)
        ls.checks.closed(params.notebook_document.uri)
        ls.clear(uris)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, actions.FIX_ALL]),
    )
    async def code_action(
        ls: MigrationServer, params: types.CodeActionParams
    ) -> list[types.CodeAction] | None:
        uri = params.text_document.uri
        notebook = ls.workspace.get_notebook_document(cell_uri=uri)
        key = notebook.uri if notebook is not None and notebook.uri in ls.notebooks else uri
        current = await ls.checks.current(key)
        if current is None:
            return None
        subject, outcome = current
        migrated = outcome.migrated_data()
        if migrated is None:
            return []
        only = params.context.only
        documents = subject.documents()
        found = []
        if _wanted(types.CodeActionKind.QuickFix, only):
            for finding in outcome.findings:
                if subject.where(finding) == uri:
                    shown = diagnostic(finding, documents[uri], ls.pages)
                    if overlaps(shown, params.range):
                        found.append((finding, shown))
        result = []
        applied = [finding for finding in outcome.findings if finding.applied]
        one_by_one = sum(finding.applied for finding, _ in found) <= actions.MOST_QUICK_FIXES
        for finding, shown in found:
            if finding.applied and one_by_one:
                code: bytes | None = migrated
                if len(applied) > 1:  # this fix alone: the others declined
                    others = tuple(other for other in applied if other is not finding)
                    code = (await ls.worker.run(ls.job(subject, others))).migrated_data()
                if code is not None and code != subject.data:
                    result.append(actions.quick_fix(finding, shown, subject.edits(code)))
            if finding.code not in NOTES_BY_CODE:
                silence = actions.suppress(finding, shown, uri, documents[uri], ls.comment(subject))
                if silence is not None:
                    result.append(silence)
        if _wanted(actions.FIX_ALL, only) and migrated != subject.data:
            result.append(actions.fix_all(subject.edits(migrated), outcome.unsafe_fixes))
        if not ls.checks.is_current(key, subject):
            return None  # the text changed meanwhile: these edits are for an older one
        return result

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: MigrationServer, params: None) -> None:
        ls.stop()

    return server


def serve(worker: Worker | None = None) -> None:
    """Run the server over stdin and stdout until the editor ends it; exit with its code. A
    `worker` started before this module was imported warms up while pygls and lsprotocol load."""
    log_one_line()
    server = build_server(worker)
    try:
        code = server.serve(sys.stdin.buffer, sys.stdout.buffer)
    finally:
        server.stop()
    sys.exit(code)
