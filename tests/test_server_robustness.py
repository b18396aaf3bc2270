"""`tf24migrate server` under stress, end to end through a real LSP client: the torture inputs of
the command line, a migration over its time limit, changes faster than the checks, positions in
UTF-16 and lines holding what `str.splitlines` would split, unsafe fixes allowed by the settings,
and the command's result cache. One server serves every test of this module."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
import pytest_lsp
from hostile_inputs import BROKEN, CALL, CELL_CODE, DEEP, ENCODED, HEAD, NEWER
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient
from test_server import SERVER, actions_at, change, diagnostics_of, forget, open_document, open_notebook, span

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.asyncio(loop_scope="module")

# The command's own cache location (the project's), not the one conftest sets for each test.
ENVIRONMENT = {name: value for name, value in os.environ.items() if name != "TF24MIGRATE_CACHE_DIR"}


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("project")
    (folder / ".git").mkdir()
    return folder


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER, server_env=ENVIRONMENT))
async def client(lsp_client: LanguageClient, project: Path):
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            root_uri=project.as_uri(),
            initialization_options={"target-version": "2.1"},  # settings given later come on top
        )
    )
    yield
    await lsp_client.shutdown_session()


def close(client: LanguageClient, *uris: str) -> None:
    for uri in uris:
        client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))


def settings(client: LanguageClient, value: dict) -> None:
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"tf24migrate": value})
    )


@pytest.mark.slow  # every torture input through a server
async def test_torture_inputs_each_get_findings_or_one_clear_diagnostic(
    client: LanguageClient, project: Path
):
    inputs = {name: data for name, (data, _) in ENCODED.items()}
    inputs |= {
        f"deep-{name}": HEAD + statement + b"\n" + CALL + b"\n" for name, (statement, _) in DEEP.items()
    }
    inputs |= {f"newer-{name}": HEAD + statement + CALL + b"\n" for name, statement in NEWER.items()}
    inputs |= {f"broken-{name}": data for name, data in BROKEN.items()}
    uris = {
        name: open_document(client, project / f"{name}.py", data.decode("utf-8", "replace"))
        for name, data in inputs.items()
    }
    for name, uri in uris.items():
        shown = await diagnostics_of(client, uri)
        failures = [d for d in shown if d.message.startswith("tf24migrate: ")]
        if failures:
            (failure,) = shown
            assert failure.message.startswith("tf24migrate: cannot parse"), (name, failure.message)
            assert failure.code == "TF24005", name  # the syntax error's note: its page, its code
        elif name.startswith(("broken-", "newer-")) or DEEP.get(name.removeprefix("deep-"), (0, False))[1]:
            pytest.fail(f"{name}: no diagnostic that it cannot be parsed: {shown}")
        elif "experimental_run_v2" in inputs[name].decode("utf-8", "replace").split("#")[0]:
            assert "TF24101" in {d.code for d in shown}, name
    assert client.messages == []  # no "Error in server"
    close(client, *uris.values())


async def test_torture_notebooks_findings_in_their_cells(client: LanguageClient, project: Path):
    code = "".join(CELL_CODE)
    notebooks = {
        "magics": ["%matplotlib inline\n!ls\n" + code + "x = !pwd\n"],
        "crlf-in-source": ["import tensorflow as tf\r\ns.experimental_run_v2(f)\r\n"],
        "broken-cell": ["def f(:\n", code],
        "many-cells": [code] * 300,
    }
    for held in ("__tf24m_cell_1__\n", "x = 1\n__tf24m_cell_7__ = 2\n", "%time x\n__tf24m_ipython_0__\n"):
        notebooks[f"marker-{held[:8]}"] = [code, held, "s.experimental_run_v2(g)\n"]
    for odd in ("\u2028", "\f", "\x1c", "\x85"):
        notebooks[f"odd-{odd!r}"] = [
            f"import tensorflow as tf\nlabel = 'a{odd}b'\ns.experimental_run_v2(f)\n"
        ]
    opened = {
        name: open_notebook(
            client,
            (project / f"nb{n}.ipynb").as_uri(),
            [("python", types.NotebookCellKind.Code, t) for t in sources],
        )
        for n, (name, sources) in enumerate(notebooks.items())
    }
    for name, cells in opened.items():
        for cell, source in zip(cells, notebooks[name], strict=True):
            shown = await diagnostics_of(client, cell)
            expected = [
                ("TF24101", number)
                for number, line in enumerate(source.replace("\r\n", "\n").split("\n"))
                if "experimental_run_v2" in line
            ]
            if source.startswith("def f(:"):
                expected = [("TF24001", 0)]
            assert [(d.code, d.range.start.line) for d in shown] == expected, (name, source)
    assert client.messages == []
    for n, cells in enumerate(opened.values()):
        client.notebook_document_did_close(
            types.DidCloseNotebookDocumentParams(
                notebook_document=types.NotebookDocumentIdentifier(uri=(project / f"nb{n}.ipynb").as_uri()),
                cell_text_documents=[types.TextDocumentIdentifier(uri=cell) for cell in cells],
            )
        )


async def test_a_migration_over_the_time_limit_gives_one_diagnostic(client: LanguageClient, project: Path):
    slow = (HEAD + DEEP["dict-100000"][0] + b"\n" + CALL + b"\n").decode()
    settings(client, {"timeout": 0.2})
    uri = open_document(client, project / "slow.py", slow)
    (late,) = await diagnostics_of(client, uri)
    assert "took longer than 0.2 s" in late.message
    close(client, uri)
    settings(client, {})
    uri = open_document(client, project / "quick.py", (HEAD + CALL).decode())
    assert [d.code for d in await diagnostics_of(client, uri)] == ["TF24101"]
    close(client, uri)


async def test_a_text_that_changed_meanwhile_is_not_published(client: LanguageClient, project: Path):
    features = client.protocol.fm.features
    show = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]
    published = []

    def record(params: types.PublishDiagnosticsParams) -> None:
        published.append((params.uri, params.version, len(params.diagnostics)))
        show(params)

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = record
    try:  # each text takes the worker a while (300 findings): the changes come while it works
        texts = ["import tensorflow as tf\n" + "s.experimental_run_v2(f)\n" * (300 + n) for n in range(5)]
        uri = open_document(client, project / "typing.py", texts[0])
        for version, text in enumerate(texts[1:], start=2):
            change(client, uri, version, text)
        await diagnostics_of(client, uri)
    finally:
        features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = show
    assert [p for p in published if p[0] == uri] == [(uri, 5, 304)]  # the newest text's findings, once
    close(client, uri)


async def test_positions_in_utf16_and_lines_as_lsp_splits_them(client: LanguageClient, project: Path):
    text = "import tensorflow as tf\nx = 'a\u2028b\x0cc\x1c'\f\ny = '😀'; s.experimental_run_v2(f)\n"
    uri = open_document(client, project / "odd_lines.py", text)
    (found,) = await diagnostics_of(client, uri)
    assert found.range == span(2, 10, 31)  # the emoji is two UTF-16 units
    assert "the target is TensorFlow 2.1" in found.message  # the initialization options
    change(client, uri, 2, (span(2, 12, 31), "run"))  # an incremental change after the odd characters
    assert await diagnostics_of(client, uri) == []
    change(client, uri, 3, (span(2, 12, 15), "experimental_run_v2"))
    (again,) = await diagnostics_of(client, uri)
    assert again.range == span(2, 10, 31)
    close(client, uri)


async def test_unsafe_fixes_only_when_the_settings_allow_them(client: LanguageClient, project: Path):
    text = (ROOT / "fixtures" / "TF24108-parameter-server-strategy" / "basic.py").read_text()
    text += "strategy.experimental_run_v2(f)\n"
    uri = open_document(client, project / "ps.py", text)
    first = (await diagnostics_of(client, uri))[0]
    assert "[unsafe fix: --unsafe-fixes]" in first.message
    titles = sorted(await actions_at(client, uri, first.range))
    assert titles == ["tf24migrate: suppress TF24108 on this line"]
    forget(client, uri)
    settings(client, {"unsafe-fixes": True})
    shown = await diagnostics_of(client, uri)
    first = shown[0]
    assert "[fixable]" in first.message
    (run,) = [d for d in shown if d.code == "TF24101"]
    assert "the target is TensorFlow 2.1" in run.message  # the initialization options still apply
    actions = await actions_at(client, uri, first.range)
    fix = actions["tf24migrate: fix TF24108 (parameter-server-strategy) - unsafe fix: may change behaviour"]
    assert not fix.is_preferred
    assert "tf24migrate: apply all safe and unsafe fixes (unsafe-fixes is on) in this file" in actions
    forget(client, uri)
    settings(client, {})
    await diagnostics_of(client, uri)
    close(client, uri)


async def test_the_command_cache_is_shared_for_saved_texts_only(client: LanguageClient, project: Path):
    train = project / "cached.py"
    train.write_text((HEAD + CALL + b"\n").decode())
    results = project / ".tf24migrate_cache" / "results"
    uri = open_document(client, train, train.read_text())
    await diagnostics_of(client, uri)
    assert not results.exists()  # the server creates no cache folder of its own
    (project / "other.py").write_text("x = 1\n")
    command = [*SERVER[:-1], "--check", "--output-format", "json"]
    subprocess.run([*command, "other.py"], env=ENVIRONMENT, cwd=project, capture_output=True, check=True)
    before = set(results.iterdir())  # the command made the folder
    change(client, uri, 2, train.read_text() + "x = 1\n")  # unsaved: not cached
    await diagnostics_of(client, uri)
    assert set(results.iterdir()) == before
    change(client, uri, 3, train.read_text())  # as on disk: cached under the command's key
    await diagnostics_of(client, uri)
    (entry,) = set(results.iterdir()) - before
    # The command finds it (and stores nothing new) for the path spelled as the editor spells it.
    check = subprocess.run(
        [*command, "--target-version", "2.1", str(train)],  # as the initialization options say
        env=ENVIRONMENT,
        cwd=project,
        capture_output=True,
        check=False,
    )
    assert check.returncode == 1
    assert set(results.iterdir()) == {*before, entry}
    close(client, uri)


async def test_a_result_the_server_caches_is_written_as_the_command_would(
    client: LanguageClient, project: Path
):
    """A file in Latin-1 (its cookie says so), open in the editor as it is on disk: the server
    migrates the editor's text, but the result it caches for the command is the file's, with its
    encoding (an editor's text not on disk is UTF-8); `--write` then writes it back in Latin-1."""
    settings(client, {"targetVersion": "2.4"})  # the command's default: its fix applies
    (project / "other.py").write_text("x = 1\n")
    command = SERVER[:-1]
    subprocess.run([*command, "--check", "other.py"], env=ENVIRONMENT, cwd=project, capture_output=True)
    results = project / ".tf24migrate_cache" / "results"
    before = set(results.iterdir())
    latin = project / "latin.py"
    latin.write_bytes(b"# -*- coding: latin-1 -*-\n" + HEAD + b"name = 'caf\xe9'\n" + CALL + b"\n")
    uri = open_document(client, latin, latin.read_text(encoding="latin-1"))
    await diagnostics_of(client, uri)
    (entry,) = set(results.iterdir()) - before  # the server's, for the command's runs to read
    assert b'"encoding": "iso-8859-1"' in entry.read_bytes()
    write = subprocess.run(
        [*command, "--write", str(latin)], env=ENVIRONMENT, cwd=project, capture_output=True, text=True
    )
    assert write.returncode == 0, write.stdout + write.stderr
    assert latin.read_bytes() == (
        b"# -*- coding: latin-1 -*-\n"
        + HEAD
        + b"name = 'caf\xe9'\n"
        + CALL.replace(b"experimental_run_v2", b"run")
        + b"\n"
    )
    close(client, uri)
    settings(client, {})
