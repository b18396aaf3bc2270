"""Names other files import (`run.importers`): a fix that renames, removes or rebinds a
module-level name of one file is right for that file's uses and wrong for another module's `from
utils import mp`. The command finds the files of the project that import such a name and keeps
it, reporting the fix instead; with no such file, the fix is applied as before.

The case behind it, run on TF 2.4.0: `utils.py` imports `experimental as mp`, `train.py` does
`from utils import mp` and `mp.LossScaleOptimizer(opt, 128)`; with `mp` moved to the stable
module, `train.py` raises `TypeError: "dynamic" argument to LossScaleOptimizer.__init__ must be a
bool, but got: 128`.
"""

from __future__ import annotations

import json
import textwrap
import warnings

import pytest
from command_line import run_in_process

from tf24migrate import migrate_paths
from tf24migrate.catalogue.selection import select_rules
from tf24migrate.catalogue.settings import Settings
from tf24migrate.run.importers import Importers, rebound
from tf24migrate.sources.notebook import migrate_notebook

UTILS = textwrap.dedent(
    """\
    import tensorflow as tf
    from tensorflow.keras.mixed_precision import experimental as mp
    from tensorflow.distribute.experimental import CollectiveHints

    mp.set_policy("mixed_float16")
    hints = CollectiveHints(bytes_per_pack=1)
    """
)
TRAIN = textwrap.dedent(
    """\
    import tensorflow as tf
    from pkg.utils import mp

    opt = mp.LossScaleOptimizer(tf.keras.optimizers.SGD(), 128)
    """
)


def tree(root, files: dict[str, str]):
    """`files` (path: text) under `root`, a project's folder (it holds `setup.py`)."""
    (root / "setup.py").write_text(
        "from setuptools import setup\nsetup(install_requires=['tensorflow>=2.4'])\n"
    )
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


# ----------------------------------------------------------------- what a migration rebinds


@pytest.mark.parametrize(
    "source, code, expected",
    [
        ("from a import B\n", "from a import C\n", ("B",)),  # renamed
        ("from a import B\nx = 1\n", "x = 1\n", ("B",)),  # no longer imported
        ("from a import B\n", "from a import C as B\n", ("B",)),  # another object
        ("from a.x import m as mp\n", "from a import m as mp\n", ("mp",)),
        ("import a.x as mp\n", "import a as mp\n", ("mp",)),
        ("mp = tf.a.x\n", "mp = tf.a\n", ("mp",)),  # a module alias
        (
            "try:\n    from a import B\nexcept ImportError:\n    B = None\n",
            "try:\n    from a import C\nexcept ImportError:\n    B = None\n",
            ("B",),
        ),
        ("import a.x\n", "import a.y\n", ()),  # binds `a` either way
        (
            "from a import B\ny = f(1)\n",
            "from a import B\ny = f(2)\n",
            (),
        ),  # a call's arguments: not compared
        ("p = a.x.Policy('m')\n", "p = a.Policy('m')\n", ("p",)),  # another callable's value
        ("p: P = a.x.Policy(\n    'm',\n)\n", "p: P = a.Policy(\n    'm',\n)\n", ("p",)),
        ("p = f(a=1)\nq = g(\n    b=1)\n", "p = f(b=1)\nq = g(\n    c=1)\n", ()),
        ("from a.x import P\np = P('m')\nq = f(1)\n", "from a import P\np = P('m')\nq = f(1)\n", ("P", "p")),
        ("def f():\n    from a import B\n", "def f():\n    from a import C\n", ("B",)),  # a superset
        # a function's local assigned a call: not the module's (a search of the repository each)
        ("def f():\n    p = a.x.Policy('m')\n", "def f():\n    p = a.Policy('m')\n", ()),
        (
            "from a.x import P\ndef f():\n    p = P('m')\n",
            "from a import P\ndef f():\n    p = P('m')\n",
            ("P",),
        ),
        (
            "try: from a import B\nexcept ImportError: B = None\n",
            "try: from a import C\nexcept ImportError: B = None\n",
            ("B",),
        ),
        ("from a import (\n    B,  # (\n    D,\n)\n", "from a import (\n    C,  # (\n    D,\n)\n", ("B",)),
        ("from a \\\n    import B\n", "from a \\\n    import C\n", ("B",)),
        (
            '"""We import B from a."""\nfrom a import B\n',
            '"""We import C from a."""\nfrom a import B\n',
            (),
        ),  # prose
    ],
)
def test_rebound_names_the_module_level_bindings_the_code_changes(source, code, expected):
    assert rebound(source, code) == expected


# ----------------------------------------------------------------- who imports them


@pytest.mark.parametrize(
    "importer, line",
    [
        ("from pkg.utils import mp\n", 1),
        ("import os\nfrom utils import mp as m\n", 2),  # a source folder on the path
        ("from pkg.utils import *\n", 1),
        ("import pkg.utils as u\n\nu.mp.set_policy('float32')\n", 3),
        ("from pkg import utils\nutils.mp\n", 2),
        ("import pkg.utils\npkg.utils.mp\n", 2),
        ("import os, pkg\n\npkg.utils.mp.set_policy('float32')\n", 3),  # `pkg` imports `utils`
    ],
)
def test_importers_find_each_way_another_file_reads_the_name(tmp_path, importer, line):
    tree(tmp_path, {"pkg/__init__.py": "", "pkg/utils.py": UTILS, "scripts/train.py": importer})
    assert Importers().of(str(tmp_path / "pkg" / "utils.py"), ["mp"]) == {
        "mp": f"`scripts/train.py` (line {line})"
    }


@pytest.mark.parametrize(
    "path, importer",
    [
        ("pkg/train.py", "from .utils import mp\n"),
        ("pkg/sub/train.py", "from ..utils import mp\n"),
        ("pkg/train.py", "from . import utils\nutils.mp\n"),
        ("pkg/sub/__init__.py", "from ..utils import mp\n"),
    ],
)
def test_importers_resolve_relative_imports(tmp_path, path, importer):
    tree(tmp_path, {"pkg/__init__.py": "", "pkg/utils.py": UTILS, "pkg/sub/__init__.py": "", path: importer})
    assert set(Importers().of(str(tmp_path / "pkg" / "utils.py"), ["mp"])) == {"mp"}


@pytest.mark.parametrize(
    "importer",
    [
        "from pkg.other import mp\n",  # another module's `mp`
        "from .utils import mp\n",  # relative to another package: `scripts.utils`
        "from pkg.utils import hints\n",  # another name
        "from pkg.utils import *\n",  # a star import brings no private name
        "mp = 1\nutils = None\nutils.mp\n",  # `utils` is no import here
        "import pkg\npkg.other.mp\n",  # another module of the package
        "import pkg as p\nimport utils as pkg\npkg.utils.mp\n",  # `pkg` is another module
    ],
)
def test_importers_leave_out_files_that_import_no_such_name(tmp_path, importer):
    wanted = ["_mp"] if "*" in importer else ["mp"]
    tree(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/utils.py": UTILS, "pkg/other.py": "", "scripts/train.py": importer},
    )
    assert Importers().of(str(tmp_path / "pkg" / "utils.py"), wanted) == {}


def test_a_package_s_init_is_imported_by_the_package_s_name(tmp_path):
    tree(tmp_path, {"pkg/__init__.py": UTILS, "train.py": "from pkg import mp\n"})
    assert Importers().of(str(tmp_path / "pkg" / "__init__.py"), ["mp"]) == {"mp": "`train.py` (line 1)"}


def test_importers_search_the_project_not_a_virtual_environment_in_it(tmp_path):
    tree(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/utils.py": UTILS, ".venv/lib/x.py": "from pkg.utils import mp\n"},
    )
    (tmp_path / ".venv" / "pyvenv.cfg").write_text("home = /usr\n")
    assert Importers().of(str(tmp_path / "pkg" / "utils.py"), ["mp"]) == {}


def test_without_metadata_the_repository_is_searched(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "utils.py").write_text(UTILS)
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "train.py").write_text("from utils import mp\n")
    assert Importers().of(str(tmp_path / "src" / "utils.py"), ["mp"]) == {"mp": "`scripts/train.py` (line 1)"}


def test_a_loose_folder_is_searched_with_its_packages_only(tmp_path):
    folder = tmp_path / "home"  # no metadata, no repository: perhaps a home folder
    (folder / "pkg").mkdir(parents=True)
    (folder / "pkg" / "__init__.py").write_text("")
    (folder / "pkg" / "train.py").write_text("from utils import mp\n")
    (folder / "downloads").mkdir()
    (folder / "downloads" / "other.py").write_text("from utils import mp\n")
    (folder / "utils.py").write_text(UTILS)
    (folder / "run.py").write_text("import utils\nutils.mp\n")
    assert Importers().of(str(folder / "utils.py"), ["mp"]) == {
        "mp": "`pkg/train.py` (line 1)"
    }  # first by path
    (folder / "pkg" / "train.py").unlink()
    assert Importers().of(str(folder / "utils.py"), ["mp"]) == {"mp": "`run.py` (line 2)"}
    (folder / "run.py").unlink()
    assert Importers().of(str(folder / "utils.py"), ["mp"]) == {}  # `downloads/` is not a package


def _notebook(cells: list[str], language: str = "python") -> str:
    return json.dumps(
        {
            "cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "source": c} for c in cells],
            "metadata": {"kernelspec": {"name": language, "display_name": language, "language": language}},
            "nbformat": 4,
            "nbformat_minor": 5,
        }
    )


def test_a_notebook_beside_the_module_is_an_importer(tmp_path):
    """A notebook runs `from utils import mp` as a script does, and breaks the same way on TF 2.4.0
    when `utils.py` alone is migrated; its cells are read as one module, IPython lines masked."""
    cells = [
        "%matplotlib inline\nimport utils\n",
        "this does not parse(\n",
        "!ls\nx = 1\nutils.mp.set_policy('float32')\n",
    ]
    (tmp_path / "utils.py").write_text(UTILS)
    (tmp_path / "train.ipynb").write_text(_notebook(cells))
    assert Importers().of(str(tmp_path / "utils.py"), ["mp"]) == {"mp": "`train.ipynb` (cell 3, line 3)"}
    (tmp_path / "train.ipynb").write_text(_notebook(cells, "R"))  # not Python: imports nothing
    (tmp_path / "notes.ipynb").write_text("{not json")
    assert Importers().of(str(tmp_path / "utils.py"), ["mp"]) == {}


@pytest.mark.parametrize(
    "run",
    [
        "%run utils.py",
        "%run -i ./utils.py",
        "%run -m utils",
        "%run -t utils.py 1",
        '%run "utils.py"',
        "%run -i 'my notebooks/utils.py' --epochs 2",
    ],
)
def test_a_notebook_running_the_module_is_an_importer(tmp_path, run):
    """`%run` runs the module in the notebook's namespace: its names are the notebook's."""
    (tmp_path / "utils.py").write_text(UTILS)
    (tmp_path / "train.ipynb").write_text(_notebook(["x = 1\n", f"y = 2\nif y:\n    {run}\n"]))
    assert Importers().of(str(tmp_path / "utils.py"), ["mp"]) == {"mp": "`train.ipynb` (cell 2, line 3)"}
    (tmp_path / "train.ipynb").write_text(_notebook([run.replace("utils", "other")]))
    assert Importers().of(str(tmp_path / "utils.py"), ["mp"]) == {}


@pytest.mark.parametrize(
    "importer, kept",
    [
        ("from utils import mp\nmp.LossScaleOptimizer(tf.keras.optimizers.SGD(), 128)\n", True),
        ("%run utils.py\nmp.LossScaleOptimizer(tf.keras.optimizers.SGD(), 128)\n", True),
        ("from other import mp\n", False),
    ],
)
def test_a_notebook_importing_the_file_it_writes_keeps_its_names(importer, kept):
    """Run on TF 2.4.0, the notebook writes `utils.py` with `mp` the experimental module and its
    next cell works; with `mp` moved to the stable module there, it raises TypeError."""
    writes = "%%writefile utils.py\nfrom tensorflow.keras.mixed_precision import experimental as mp\n"
    text = _notebook([writes, f"import tensorflow as tf\n{importer}"])
    result = migrate_notebook(text, Settings(select_rules(None, None)), path="train.ipynb")
    assert (json.loads(result.code)["cells"][0]["source"] == writes) is kept
    messages = " ".join(f.message for f in result.findings)
    assert ("`mp` is imported by `train.ipynb` (cell 2, line 2)" in messages) is kept


def test_the_whole_repository_is_searched_not_only_the_project(tmp_path):
    """`liba/` and `appb/` each have their own requirements; `appb` imports from `liba`."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "liba").mkdir()
    (tmp_path / "appb").mkdir()
    tree(tmp_path / "liba", {"liba/__init__.py": "", "liba/utils.py": UTILS})
    tree(tmp_path / "appb", {"train.py": TRAIN.replace("pkg.utils", "liba.utils")})
    assert Importers().of(str(tmp_path / "liba" / "liba" / "utils.py"), ["mp"]) == {
        "mp": "`appb/train.py` (line 2)"
    }


def test_a_source_on_stdin_keeps_the_names_the_file_named_exports(tmp_path):
    """`--stdin-filename` (an editor piping the file through the command) is checked as the file is."""
    tree(tmp_path, {"pkg/__init__.py": "", "pkg/utils.py": UTILS, "train.py": TRAIN})
    result = run_in_process("-", "--stdin-filename", "pkg/utils.py", cwd=tmp_path, stdin=UTILS)
    assert result.returncode == 0, result.stderr
    assert "from tensorflow.keras.mixed_precision import experimental as mp\n" in result.stdout
    assert "`mp` is imported by `train.py` (line 2)" in result.stderr


# ----------------------------------------------------------------- the command and the library


def test_a_name_another_file_imports_is_kept_and_the_fix_reported(tmp_path):
    tree(tmp_path, {"pkg/__init__.py": "", "pkg/utils.py": UTILS, "train.py": TRAIN})
    result = run_in_process("--write", "pkg/utils.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    written = (tmp_path / "pkg" / "utils.py").read_text()
    assert "from tensorflow.keras.mixed_precision import experimental as mp\n" in written
    assert 'tf.keras.mixed_precision.set_global_policy("mixed_float16")' in written  # not through `mp`
    assert "CommunicationOptions(bytes_per_pack=1)" in written  # `CollectiveHints` is not imported elsewhere
    assert (
        "pkg/utils.py:2:46: TF24301 warning `tf.keras.mixed_precision.experimental` is "
        "`tf.keras.mixed_precision` from TF 2.4. The import stays as it is: `mp` is imported by "
        "`train.py` (line 2), whose uses of it this file cannot see; migrate them first"
    ) in result.stdout


@pytest.mark.parametrize(
    "construction, train",
    [
        (  # AttributeError on TF 2.4.0 once `policy` is of the stable class
            'policy = tf.keras.mixed_precision.experimental.Policy("mixed_float16")\n',
            "from utils import policy\nprint(policy.loss_scale)\n",
        ),
        (  # False on TF 2.4.0 once `opt` is of the stable class
            "opt = tf.keras.mixed_precision.experimental.LossScaleOptimizer(tf.keras.optimizers.SGD(), 'dynamic')\n",
            "import tensorflow as tf\nimport utils\n"
            "print(isinstance(utils.opt, tf.keras.mixed_precision.experimental.LossScaleOptimizer))\n",
        ),
    ],
)
def test_a_construction_another_file_imports_stays_experimental(tmp_path, construction, train):
    """Run on TF 2.4.0, `train.py` works with `utils.py` as it is, and not once it builds its
    object from the stable class."""
    utils = f"import tensorflow as tf\n\n{construction}"
    tree(tmp_path, {"utils.py": utils, "train.py": train})
    result = run_in_process("--write", "utils.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "utils.py").read_text() == utils
    assert (
        f"not rewritten, since `{construction.partition(' ')[0]}` is imported by `train.py` (line"
        in result.stdout
    )
    (tmp_path / "train.py").unlink()
    assert run_in_process("--write", "utils.py", cwd=tmp_path).returncode == 0
    assert "experimental" not in (tmp_path / "utils.py").read_text()


@pytest.mark.parametrize(
    "train",
    [
        "from utils import policy\nprint(policy.loss_scale)\n",  # AttributeError on TF 2.4.0
        "from utils import Policy\nPolicy('mixed_float16', loss_scale=128)\n",  # TypeError there
    ],
)
def test_a_moved_module_whose_class_changed_stays_where_another_file_uses_it(tmp_path, train):
    """TF24508 moves `...experimental.policy` to `...mixed_precision.policy`, whose `Policy` is
    the stable class, where the file itself passes or reads no loss scale: another file may."""
    utils = (
        "from tensorflow.python.keras.mixed_precision.experimental.policy import Policy\n\n"
        'policy = Policy("mixed_float16")\n'
    )
    tree(tmp_path, {"utils.py": utils, "train.py": train})
    result = run_in_process("--write", "utils.py", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert (tmp_path / "utils.py").read_text() == utils
    assert (
        "whose `Policy` is defined anew, with other parameters (TF 2.3's is its `PolicyV1`)" in result.stdout
    )
    imported = train.partition("import ")[2].partition("\n")[0]
    assert f"`{imported}` is imported by `train.py` (line 1), whose uses" in result.stdout
    (tmp_path / "train.py").unlink()
    run_in_process("--write", "utils.py", cwd=tmp_path)
    assert "import Policy\n" in (tmp_path / "utils.py").read_text()
    assert ".experimental" not in (tmp_path / "utils.py").read_text()


def test_a_moved_class_imported_under_an_alias_stays_where_another_file_uses_it(tmp_path):
    """Run on TF 2.4.0 with `utils.py`'s import moved to `...mixed_precision.policy`, `train.py`
    raises TypeError (`__init__() got an unexpected keyword argument 'loss_scale'`): the stable
    `Policy` is what `P` binds there."""
    moved = "from tensorflow.python.keras.mixed_precision.experimental.policy import Policy as P\n"
    tree(
        tmp_path, {"utils.py": moved, "train.py": "from utils import P\nP('mixed_float16', loss_scale=128)\n"}
    )
    result = run_in_process("--write", "utils.py", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert (tmp_path / "utils.py").read_text() == moved
    assert "`P` is imported by `train.py` (line 1), whose uses of it this file cannot see" in result.stdout
    (tmp_path / "train.py").unlink()
    run_in_process("--write", "utils.py", cwd=tmp_path)
    assert (tmp_path / "utils.py").read_text() == moved.replace(".experimental", "")


def test_a_moved_module_another_file_reads_through_stays(tmp_path):
    """`from utils import pol`, then `pol.Policy("mixed_float16", loss_scale=128)`: TypeError on
    TF 2.4.0 with `pol` moved to the module whose `Policy` is the stable class."""
    utils = "from tensorflow.python.keras.mixed_precision.experimental import policy as pol\n"
    train = "from utils import pol\np = pol.Policy('mixed_float16', loss_scale=128)\n"
    tree(tmp_path, {"utils.py": utils, "train.py": train})
    result = run_in_process("--write", "utils.py", cwd=tmp_path)
    assert (tmp_path / "utils.py").read_text() == utils, result.stdout
    assert (
        "whose `Policy` is defined anew, with other parameters (TF 2.3's is its `PolicyV1`)" in result.stdout
    )
    (tmp_path / "train.py").unlink()
    run_in_process("--write", "utils.py", cwd=tmp_path)
    assert (tmp_path / "utils.py").read_text() == utils.replace(".experimental", "")


def test_an_imported_name_renamed_keeps_its_old_name(tmp_path):
    tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/utils.py": UTILS,
            "train.py": "from pkg import utils\nutils.CollectiveHints\n",
        },
    )
    result = run_in_process("--write", ".", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    written = (tmp_path / "pkg" / "utils.py").read_text()
    assert (
        "from tensorflow.distribute.experimental import CommunicationOptions as CollectiveHints\n" in written
    )
    assert "from tensorflow.keras import mixed_precision as mp\n" in written  # `mp` is not imported elsewhere


def test_an_import_no_use_needs_any_more_stays_where_another_file_imports_it(tmp_path):
    source = textwrap.dedent(
        """\
        import tensorflow as tf
        from tensorflow.keras.mixed_precision.experimental import get_layer_policy

        policy = get_layer_policy(tf.keras.layers.Dense(1))
        """
    )
    tree(tmp_path, {"layers.py": source, "train.py": "from layers import get_layer_policy\n"})
    result = run_in_process("--write", "layers.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    written = (tmp_path / "layers.py").read_text()
    assert "policy = tf.keras.layers.Dense(1).dtype_policy\n" in written  # the file's own use
    assert "import get_layer_policy\n" in written
    assert "`get_layer_policy` is imported by `train.py` (line 1)" in result.stdout


def test_without_an_importer_the_fixes_are_applied(tmp_path):
    tree(tmp_path, {"pkg/__init__.py": "", "pkg/utils.py": UTILS, "train.py": "import pkg.utils\n"})
    result = run_in_process("--write", ".", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    written = (tmp_path / "pkg" / "utils.py").read_text()
    assert "from tensorflow.keras import mixed_precision as mp\n" in written
    assert "import CommunicationOptions\n" in written


def test_a_cached_result_is_checked_again_on_each_run(tmp_path):
    tree(tmp_path, {"pkg/__init__.py": "", "pkg/utils.py": UTILS})
    first = run_in_process("--check", ".", cwd=tmp_path)
    assert "(3 fixable, 0 left to you)" in first.stderr
    (tmp_path / "train.py").write_text(TRAIN)  # utils.py is unchanged: its result is cached
    second = run_in_process("--check", ".", cwd=tmp_path)
    assert "(2 fixable, 1 left to you)" in second.stderr
    assert "`mp` is imported by `train.py` (line 2)" in second.stdout


def test_the_library_keeps_them_too(tmp_path):
    tree(tmp_path, {"pkg/__init__.py": "", "pkg/utils.py": UTILS, "train.py": TRAIN})
    (result,) = [r for r in migrate_paths([str(tmp_path / "pkg")]) if r.path.endswith("utils.py")]
    assert "experimental as mp" in (result.code or "")
    assert [f.code for f in result.findings if f.applied] == ["TF24104", "TF24302"]


def test_a_name_on_a_continuation_line_of_an_import_is_found(tmp_path):
    source = (
        "from tensorflow.distribute.experimental import (\n    CollectiveHints,\n)\n\nCollectiveHints()\n"
    )
    tree(tmp_path, {"hints.py": source, "train.py": "from hints import CollectiveHints\n"})
    result = run_in_process("--diff", "hints.py", cwd=tmp_path)
    assert "+    CommunicationOptions as CollectiveHints,\n" in result.stdout
    (tmp_path / "train.py").unlink()
    assert "+    CommunicationOptions,\n" in run_in_process("--diff", "hints.py", cwd=tmp_path).stdout


def test_an_importer_s_own_warnings_are_not_raised_nor_printed(tmp_path, recwarn):
    """Its text is the user's, parsed silently as the engine parses it: an invalid escape warns
    on Python 3.12 (SyntaxWarning), and under `-W error` was an error that hid the import."""
    tree(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/utils.py": UTILS, "train.py": "from pkg.utils import mp\nz = '\\d'\n"},
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert Importers().of(str(tmp_path / "pkg" / "utils.py"), ["mp"]) == {"mp": "`train.py` (line 1)"}
    assert not recwarn.list
