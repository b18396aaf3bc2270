"""The README's editor snippets ("In your editor"): each starts the command the end-to-end tests
start (`tf24migrate server`) with settings the server takes; the Neovim one runs in a real Neovim
(0.10 or newer, when one is on PATH) against the real server, down to a fix applied."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tf24migrate.run.config import toml_parser
from tf24migrate.server.settings import read_settings

README = Path(__file__).resolve().parent.parent / "README.md"


def snippet(language: str) -> str:
    section = README.read_text(encoding="utf-8").split("## In your editor\n")[1].split("\n## ")[0]
    (code,) = re.findall(rf"```{language}\n(.*?)```", section, re.DOTALL)
    return code


def accepted(settings: object) -> bool:
    return read_settings(settings)[1] == []


def test_vs_code():
    settings = json.loads(snippet("json"))
    assert settings["glspc.server.command"] == "tf24migrate"
    assert settings["glspc.server.commandArguments"] == ["server"]
    assert settings["glspc.server.languageId"] == ["python"]
    assert accepted(settings["glspc.server.initializationOptions"])
    assert list(settings["editor.codeActionsOnSave"]) == ["source.fixAll.tf24migrate"]


def test_helix():
    config = toml_parser().loads(snippet("toml"))
    server = config["language-server"]["tf24migrate"]
    assert [server["command"], *server["args"]] == ["tf24migrate", "server"]
    assert accepted(server["config"])  # Helix sends `config` as the initialization options
    (python,) = config["language"]
    assert python["name"] == "python" and "tf24migrate" in python["language-servers"]


def _neovim() -> str | None:
    found = shutil.which("nvim")
    if found is None:
        return None
    version = subprocess.run([found, "--version"], capture_output=True, text=True, check=False).stdout
    match = re.match(r"NVIM v(\d+)\.(\d+)", version)
    return found if match and (int(match.group(1)), int(match.group(2))) >= (0, 10) else None


HARNESS = """
function RunCheck(out)
  vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 50)
  local lines = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    table.insert(lines, string.format("%s %d:%d", d.code, d.lnum, d.col))
  end
  vim.lsp.buf.code_action({ context = { only = { "source.fixAll.tf24migrate" } }, apply = true })
  vim.wait(10000, function() return vim.api.nvim_buf_get_lines(0, 1, 2, false)[1] == "strategy.run(step_fn)" end, 50)
  vim.list_extend(lines, vim.api.nvim_buf_get_lines(0, 0, -1, false))
  vim.fn.writefile(lines, out)
  vim.cmd("qa!")
end
"""


@pytest.mark.skipif(_neovim() is None, reason="needs Neovim 0.10 or newer on PATH")
def test_neovim_runs_the_server_and_applies_a_fix(tmp_path):
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    train = project / "train.py"
    train.write_text("import tensorflow as tf\nstrategy.experimental_run_v2(step_fn)\n")
    init = tmp_path / "init.lua"
    init.write_text(snippet("lua") + HARNESS)
    out = tmp_path / "out.txt"
    environment = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    subprocess.run(
        [_neovim(), "--headless", "-u", str(init), str(train), "-c", f"lua RunCheck('{out}')"],
        env=environment,
        cwd=project,
        timeout=120,
        capture_output=True,
        check=False,
    )
    assert out.read_text().splitlines() == ["TF24101 1:0", "import tensorflow as tf", "strategy.run(step_fn)"]
