"""`tf24migrate server` end to end: a real LSP client (pytest-lsp) starts the command over stdio,
opens and edits documents and notebooks, asks for code actions, applies their edits, changes the
configuration and shuts the server down. One server serves every test of this module."""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tf24migrate import migrate_source

pytestmark = pytest.mark.asyncio(loop_scope="module")

SOURCE = """\
import tensorflow as tf
strategy = tf.distribute.MirroredStrategy()
strategy.experimental_run_v2(step_fn, args=(batch,))
hints = tf.distribute.experimental.CollectiveHints(bytes_per_pack=0)
class Ops:
    def reduce_implementation(self, op, value, destinations, experimental_hints):
        return value
"""
SERVER = [sys.executable, "-m", "tf24migrate", "server"]


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("project")
    (folder / ".git").mkdir()
    return folder


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, project: Path):
    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        lsp_client.registrations = params.registrations

    capabilities = types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(
            configuration=True,
            did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True),
        ),
        notebook_document=types.NotebookDocumentClientCapabilities(
            synchronization=types.NotebookDocumentSyncClientCapabilities()
        ),
    )
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=capabilities, root_uri=project.as_uri(), workspace_folders=None)
    )
    yield
    await lsp_client.shutdown_session()
    assert lsp_client._server.returncode == 0  # shut down and exited as asked, not killed


async def diagnostics_of(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    """The diagnostics the server publishes next for `uri` (call `forget` before the change)."""
    for _ in range(3000):
        if uri in client.diagnostics:
            return list(client.diagnostics[uri])
        await asyncio.sleep(0.01)
    raise AssertionError(f"no diagnostics published for {uri} in 30 s")


def forget(client: LanguageClient, *uris: str) -> None:
    for uri in uris:
        client.diagnostics.pop(uri, None)


def open_document(client: LanguageClient, path: Path, text: str, language: str = "python") -> str:
    uri = path.as_uri()
    forget(client, uri)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)
        )
    )
    return uri


def open_notebook(
    client: LanguageClient, uri: str, sources: list[tuple[str, types.NotebookCellKind, str]]
) -> list[str]:
    """Open a notebook of cells `(language, kind, text)`; the cells' uris."""
    cells = [f"{uri}#cell{n}" for n in range(1, len(sources) + 1)]
    forget(client, *cells)
    client.notebook_document_did_open(
        types.DidOpenNotebookDocumentParams(
            notebook_document=types.NotebookDocument(
                uri=uri,
                notebook_type="jupyter-notebook",
                version=1,
                cells=[
                    types.NotebookCell(kind=kind, document=cell)
                    for cell, (_, kind, _) in zip(cells, sources, strict=True)
                ],
            ),
            cell_text_documents=[
                types.TextDocumentItem(uri=cell, language_id=language, version=1, text=text)
                for cell, (language, _, text) in zip(cells, sources, strict=True)
            ],
        )
    )
    return cells


async def test_open_publishes_each_finding(client: LanguageClient, project: Path):
    uri = open_document(client, project / "train.py", SOURCE)
    diagnostics = await diagnostics_of(client, uri)
    by_code = {d.code: d for d in diagnostics}
    assert sorted(by_code) == ["TF24101", "TF24104", "TF24109"]
    run = by_code["TF24101"]
    assert run.range == types.Range(start=types.Position(2, 0), end=types.Position(2, 28))
    assert run.severity == types.DiagnosticSeverity.Error
    assert run.source == "tf24migrate"
    assert run.message.startswith("experimental-run-v2: [fixable] `experimental_run_v2` was removed")
    page = Path(run.code_description.href.removeprefix("file://"))
    assert page.read_text(encoding="utf-8").startswith("TF24101 experimental-run-v2\n")
    # The old name still works on every release, with the same behaviour: nothing is due, a note.
    assert by_code["TF24104"].severity == types.DiagnosticSeverity.Information
    assert by_code["TF24109"].message.startswith("hints-parameter-override: `reduce_implementation`")
    forget(client, uri)
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))
    assert await diagnostics_of(client, uri) == []


def change(client: LanguageClient, uri: str, version: int, *changes) -> None:
    """Send `changes`: (range, text) pairs, or a whole text."""
    forget(client, uri)
    events = [
        types.TextDocumentContentChangeWholeDocument(text=c)
        if isinstance(c, str)
        else types.TextDocumentContentChangePartial(range=c[0], text=c[1])
        for c in changes
    ]
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=events,
        )
    )


def span(line: int, start: int, end: int) -> types.Range:
    return types.Range(start=types.Position(line, start), end=types.Position(line, end))


def applied(text: str, edits: list[types.TextEdit]) -> str:
    """`text` with `edits` applied as an editor applies them (ASCII text: characters are units)."""
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))

    def offset(position: types.Position) -> int:
        return starts[position.line] + position.character if position.line < len(starts) else len(text)

    for edit in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]
    return text


async def actions_at(
    client: LanguageClient, uri: str, where: types.Range, only=None
) -> dict[str, types.CodeAction]:
    found = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=where,
            context=types.CodeActionContext(diagnostics=[], only=only),
        )
    )
    return {action.title: action for action in found or []}


async def test_change_then_fix_one_finding_then_all(client: LanguageClient, project: Path):
    uri = open_document(client, project / "fix.py", SOURCE)
    assert len(await diagnostics_of(client, uri)) == 3
    # An incremental change: the class goes, so TF24109 goes with it.
    change(client, uri, 2, (types.Range(start=types.Position(4, 0), end=types.Position(7, 0)), ""))
    text = SOURCE.split("class Ops")[0]
    assert sorted(d.code for d in await diagnostics_of(client, uri)) == ["TF24101", "TF24104"]
    actions = await actions_at(client, uri, span(2, 3, 3))
    assert sorted(actions) == [
        "tf24migrate: apply all safe fixes in this file",
        "tf24migrate: fix TF24101 (experimental-run-v2)",
        "tf24migrate: suppress TF24101 on this line",
    ]
    fix = actions["tf24migrate: fix TF24101 (experimental-run-v2)"]
    assert fix.kind == types.CodeActionKind.QuickFix and fix.is_preferred
    fixed = applied(text, fix.edit.changes[uri])
    assert fixed == text.replace("experimental_run_v2", "run")  # that fix alone
    change(client, uri, 3, fixed)
    assert [d.code for d in await diagnostics_of(client, uri)] == ["TF24104"]
    (fix_all,) = (await actions_at(client, uri, span(0, 0, 0), only=["source.fixAll"])).values()
    assert fix_all.kind == "source.fixAll.tf24migrate"
    assert applied(fixed, fix_all.edit.changes[uri]) == migrate_source(text).code


async def test_a_range_with_many_fixes_offers_them_all_at_once(client: LanguageClient, project: Path):
    text = "import tensorflow as tf\n" + "s.experimental_run_v2(f)\n" * 11
    uri = open_document(client, project / "many.py", text)
    assert len(await diagnostics_of(client, uri)) == 11
    everything = types.Range(start=types.Position(0, 0), end=types.Position(12, 0))
    found = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=everything,
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    titles = sorted(action.title for action in found)
    assert titles == ["tf24migrate: apply all safe fixes in this file"] + 11 * [
        "tf24migrate: suppress TF24101 on this line"
    ]
    ten = await actions_at(client, uri, types.Range(start=types.Position(2, 0), end=types.Position(11, 0)))
    assert "tf24migrate: fix TF24101 (experimental-run-v2)" in ten


async def test_suppress_on_this_line(client: LanguageClient, project: Path):
    text = 'import tensorflow as tf\nx = """a\nb""" + s.experimental_run_v2(f)  # why\n'
    uri = open_document(client, project / "quiet.py", text)
    (finding,) = await diagnostics_of(client, uri)
    assert finding.range.start.line == 2  # the call, after the string's line break
    actions = await actions_at(client, uri, finding.range, only=[types.CodeActionKind.QuickFix])
    quiet = applied(text, actions["tf24migrate: suppress TF24101 on this line"].edit.changes[uri])
    assert quiet == text.replace("# why\n", "# why  # tf24migrate: ignore[TF24101]\n")
    change(client, uri, 2, quiet)
    assert await diagnostics_of(client, uri) == []


async def test_notebook_cells_numbered_as_the_command_numbers_them(client: LanguageClient, project: Path):
    notebook_uri = (project / "train.ipynb").as_uri()
    sources = [
        ("markdown", types.NotebookCellKind.Markup, "# Training\n"),
        (
            "python",
            types.NotebookCellKind.Code,
            "import tensorflow as tf\n%matplotlib inline\ns.experimental_run_v2(f)\n",
        ),
        ("python", types.NotebookCellKind.Code, "h = tf.distribute.experimental.CollectiveHints()\n"),
        ("python", types.NotebookCellKind.Code, "def f(:\n"),
    ]
    cells = open_notebook(client, notebook_uri, sources)
    assert await diagnostics_of(client, cells[0]) == []
    (run,) = await diagnostics_of(client, cells[1])
    (hints,) = await diagnostics_of(client, cells[2])
    assert (run.code, run.range) == ("TF24101", span(2, 0, 21))
    assert (hints.code, hints.range.start) == ("TF24104", types.Position(0, 4))
    (broken,) = await diagnostics_of(client, cells[3])  # a note: a hint
    assert (broken.code, broken.severity) == ("TF24001", types.DiagnosticSeverity.Hint)
    (fix_all,) = (await actions_at(client, cells[2], span(0, 0, 0), only=["source.fixAll"])).values()
    edits = fix_all.edit.changes
    assert sorted(edits) == cells[1:3]
    assert applied(sources[1][2], edits[cells[1]]) == sources[1][2].replace("experimental_run_v2", "run")
    assert applied(sources[2][2], edits[cells[2]]) == sources[2][2].replace(
        "CollectiveHints", "CommunicationOptions"
    )
    # A change to one cell: the notebook is checked again as a whole.
    forget(client, *cells)
    client.notebook_document_did_change(
        types.DidChangeNotebookDocumentParams(
            notebook_document=types.VersionedNotebookDocumentIdentifier(uri=notebook_uri, version=2),
            change=types.NotebookDocumentChangeEvent(
                cells=types.NotebookDocumentCellChanges(
                    text_content=[
                        types.NotebookDocumentCellContentChanges(
                            document=types.VersionedTextDocumentIdentifier(uri=cells[1], version=2),
                            changes=[
                                types.TextDocumentContentChangePartial(range=span(2, 0, 21), text="s.run")
                            ],
                        )
                    ]
                )
            ),
        )
    )
    assert await diagnostics_of(client, cells[1]) == []
    assert [d.code for d in await diagnostics_of(client, cells[2])] == ["TF24104"]
    forget(client, *cells)
    client.notebook_document_did_close(
        types.DidCloseNotebookDocumentParams(
            notebook_document=types.NotebookDocumentIdentifier(uri=notebook_uri),
            cell_text_documents=[types.TextDocumentIdentifier(uri=uri) for uri in cells],
        )
    )
    assert await diagnostics_of(client, cells[3]) == []


async def test_configuration_files_and_settings_reload(client: LanguageClient, project: Path):
    uri = open_document(client, project / "configured.py", SOURCE)
    assert len(await diagnostics_of(client, uri)) == 3
    assert [r.method for r in client.registrations] == [types.WORKSPACE_DID_CHANGE_WATCHED_FILES]
    pyproject = project / "pyproject.toml"
    pyproject.write_text('[tool.tf24migrate]\nignore = ["TF24104"]\n')
    forget(client, uri)
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=pyproject.as_uri(), type=types.FileChangeType.Created)]
        )
    )
    assert sorted(d.code for d in await diagnostics_of(client, uri)) == ["TF24101", "TF24109"]
    client.set_configuration({"select": ["TF24101"]}, section="tf24migrate")
    forget(client, uri)
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    assert [d.code for d in await diagnostics_of(client, uri)] == ["TF24101"]
    pyproject.write_text('[tool.tf24migrate]\nselec = ["TF24104"]\n')
    forget(client, uri)
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=pyproject.as_uri(), type=types.FileChangeType.Changed)]
        )
    )
    (problem,) = await diagnostics_of(client, uri)
    assert "unknown key 'selec'" in problem.message and problem.range.start.line == 0
    pyproject.unlink()
    requirements = project / "requirements.txt"
    requirements.write_text("tensorflow>=2.1,<2.5\n")  # saved in the editor: the target is read again
    forget(client, uri)
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(requirements.as_uri()))
    )
    (run,) = await diagnostics_of(client, uri)
    assert re.search(
        r"the target is TensorFlow 2\.1 \(from \S*requirements\.txt: tensorflow>=2\.1,<2\.5\)", run.message
    )
    requirements.unlink()
    client.set_configuration({}, section="tf24migrate")
    forget(client, uri)
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    assert len(await diagnostics_of(client, uri)) == 3


async def test_each_document_takes_its_own_project_s_target(client: LanguageClient, project: Path):
    # A repository folder requiring TF 1 holding a subproject of its own: each document's target
    # is its nearest project's, as the command reads it for each file.
    (project / "mono" / "sub").mkdir(parents=True)
    (project / "mono" / "requirements.txt").write_text("tensorflow==1.15.5\n")
    (project / "mono" / "sub" / "requirements.txt").write_text("tensorflow>=2.3.0\n")
    for folder, target in (
        ("mono/sub", r"2\.3 \(from \S*requirements\.txt: tensorflow>=2\.3\.0\)"),
        ("mono", r"1\.15 \(from \S*requirements\.txt: tensorflow==1\.15\.5\)"),
    ):
        uri = open_document(client, project / folder / "train.py", SOURCE)
        hints = [d for d in await diagnostics_of(client, uri) if d.code == "TF24104"]
        assert len(hints) == 1 and re.search(f"the target is TensorFlow {target}", hints[0].message), hints


async def test_per_file_ignores_leave_out_what_the_command_leaves_out(client: LanguageClient, project: Path):
    # The command reads `per-file-ignores` for each file; the editor shows what the command would.
    folder = project / "ignoring"
    (folder / "legacy").mkdir(parents=True)
    (folder / "pyproject.toml").write_text(
        '[tool.tf24migrate.per-file-ignores]\n"legacy/*" = ["TF24104"]\n"*_test.py" = ["TF24101", "TF24109"]\n'
    )
    expected = {
        "legacy/old.py": ["TF24101", "TF24109"],
        "new_test.py": ["TF24104"],
        "kept.py": ["TF24101", "TF24104", "TF24109"],
    }
    for name, codes in expected.items():
        uri = open_document(client, folder / name, SOURCE)
        assert sorted(d.code for d in await diagnostics_of(client, uri)) == codes, name


async def test_a_big_document_beyond_the_plane_keeps_its_characters(client: LanguageClient, project: Path):
    """A document over a million characters holding emoji is migrated with stand-ins for them
    (`server.narrowing`): positions, messages and the fixes' text are the document's own, and a
    name beyond the plane (which the stand-ins cannot spell) is migrated from the text itself."""
    filler = "# 😀 padding " + "a" * 60 + "\n"
    call = 's.experimental_run_v2(lambda: "😀")  # 😀\n'
    for name, head in (("wide.py", 'x = "😀"; '), ("wide_name.py", '𝑥 = "😀"; ')):
        text = "import tensorflow as tf\n" + filler * 15000 + head + call
        uri = open_document(client, project / name, text)
        (found,) = await diagnostics_of(client, uri)
        assert found.range == span(15001, 10 if name == "wide.py" else 11, 31 if name == "wide.py" else 32)
        actions = await actions_at(client, uri, found.range)
        fix = actions["tf24migrate: fix TF24101 (experimental-run-v2)"]
        assert applied(text, fix.edit.changes[uri]) == text.replace("experimental_run_v2", "run")
        assert not any("\ue000" <= character <= "\uf8ff" for character in found.message)
        forget(client, uri)


async def test_a_name_another_file_imports_is_kept_as_the_command_keeps_it(
    client: LanguageClient, project: Path
):
    utils = (
        "from tensorflow.keras.mixed_precision import experimental as mp\n\nmp.set_policy('mixed_float16')\n"
    )
    (project / "mp_utils.py").write_text(utils)
    (project / "mp_train.py").write_text("from mp_utils import mp\n\nopt = mp.LossScaleOptimizer(opt, 128)\n")
    uri = open_document(client, project / "mp_utils.py", utils)
    (kept,) = [d for d in await diagnostics_of(client, uri) if d.code == "TF24301"]
    assert "`mp` is imported by `mp_train.py` (line 1)" in kept.message
    (fix_all,) = (await actions_at(client, uri, span(0, 0, 0), only=["source.fixAll"])).values()
    fixed = applied(utils, fix_all.edit.changes[uri])
    assert fixed.startswith("from tensorflow.keras.mixed_precision import experimental as mp\n")
    assert "set_global_policy('mixed_float16')" in fixed
