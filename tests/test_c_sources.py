"""TF24701 in C and C++ sources: names in code are reported, comments and literals never are."""

from __future__ import annotations

import textwrap

import pytest
from command_line import run_in_process

from tf24migrate.catalogue.selection import select_rules
from tf24migrate.catalogue.settings import Settings
from tf24migrate.run.migrate_file import migrate_file
from tf24migrate.sources.c_sources import code_only, scan_c_source

RULES = select_rules("TF24701")

SOURCE = textwrap.dedent(
    """\
    #include "tensorflow/c/c_api.h"  // TF_StringEncode is gone
    /* TF_StringDecode(src, len, &dst, &dst_len, status);
       still a comment: TF_StringEncodedSize */
    static const char* kName = "TF_StringEncode";
    static const char* kRaw = R"doc(TF_StringDecode ")" TF_StringEncodedSize)doc";
    static const char kQuote = '"';
    static const int kBig = 1'000'000;

    size_t Encode(const char* src, size_t len, char* dst, size_t dst_len, TF_Status* status) {
      size_t needed = TF_StringEncodedSize(len);
      return TF_StringEncode(src, len, dst, dst_len, status);  // tf24migrate: ignore[TF24101]
    }
    int decoded = TF_StringDecode(a, b, c, d, e); // tf24migrate: ignore[TF24701]
    int TF_StringEncoder = 0;
    #define DECODE TF_StringDecode
    """
)


def test_code_only_blanks_comments_and_literals_keeping_offsets():
    code = code_only(SOURCE)
    assert len(code) == len(SOURCE)
    assert code.count("\n") == SOURCE.count("\n")
    kept = [line for line in code.splitlines() if "TF_String" in line]
    assert [line.strip() for line in kept] == [
        "size_t needed = TF_StringEncodedSize(len);",
        "return TF_StringEncode(src, len, dst, dst_len, status);",
        "int decoded = TF_StringDecode(a, b, c, d, e);",
        "int TF_StringEncoder = 0;",
        "#define DECODE TF_StringDecode",
    ]
    assert "1'000'000" in code  # a digit separator does not open a character literal


def test_scan_reports_code_uses_with_positions_and_replacements():
    result = scan_c_source(SOURCE, Settings(RULES), path="encode.cc")
    assert result.code == SOURCE and not result.changed
    located = [(f.line, f.column, f.end_column, f.code) for f in result.findings]
    assert located == [
        (10, 19, 39, "TF24701"),
        (11, 10, 25, "TF24701"),  # ignore[TF24101] names another code
        (15, 16, 31, "TF24701"),
    ]
    encode = result.findings[1]
    assert encode.path == "encode.cc" and encode.severity.value == "error" and not encode.applied
    assert "TF_TString_Init" in encode.details and "TF_TString_Copy" in encode.details
    assert "TF_TString_GetDataPointer" in result.findings[2].details
    assert "sizeof(TF_TString)" in result.findings[0].details


def test_scan_runs_only_selected_rules():
    assert scan_c_source(SOURCE, Settings(select_rules("TF24101")), path="encode.cc").findings == ()


def test_scan_handles_unterminated_comment_and_string():
    source = 'x = TF_StringEncode(a);\ny = "TF_StringDecode\nz = TF_StringDecode(b); /* TF_StringEncode'
    lines = [f.line for f in scan_c_source(source, Settings(RULES)).findings]
    assert lines == [1, 3]


@pytest.mark.parametrize("suffix", [".c", ".cc", ".cpp", ".cxx", ".h", ".hpp"])
def test_runner_dispatches_c_suffixes(tmp_path, suffix):
    path = tmp_path / f"ops{suffix}"
    path.write_text("void f() { TF_StringDecode(a, b, c, d, e); }\n")
    result = migrate_file(str(path), Settings(RULES), write=True)
    assert [(f.line, f.column) for f in result.findings] == [(1, 12)]
    assert path.read_text() == "void f() { TF_StringDecode(a, b, c, d, e); }\n"


def test_cli_walks_folders_for_c_sources(tmp_path):
    (tmp_path / "native").mkdir()
    (tmp_path / "native" / "strings.cc").write_text(SOURCE)
    result = run_in_process("--check", ".", cwd=tmp_path)
    assert result.returncode == 1  # unfixed errors
    assert "native/strings.cc:10:19: TF24701 error `TF_StringEncodedSize` was removed" in result.stdout
    assert "1 file scanned, 0 to change" in result.stderr


LATIN_1 = b"/* caf\xe9, \xa9 2020 */\n#include <x.h>\nsize_t n = TF_StringEncode(src, len, dst, cap, st);\n"


def test_a_c_source_that_is_not_utf_8_is_read_byte_for_byte(tmp_path):
    (tmp_path / "ops.cc").write_bytes(LATIN_1)  # a Latin-1 comment: compilers read it, so do we
    result = run_in_process("--write", "ops.cc", cwd=tmp_path)
    assert result.returncode == 1, result.stderr  # an unfixed error, not a file that failed
    assert "ops.cc:3:12: TF24701 error `TF_StringEncode` was removed" in result.stdout
    assert "cannot read" not in result.stderr and "encoding declaration" not in result.stderr
    assert (tmp_path / "ops.cc").read_bytes() == LATIN_1


def test_stdin_echoes_a_c_source_that_is_not_utf_8():
    result = run_in_process("--stdin-filename", "ops.cc", "-", stdin=LATIN_1, text=False)
    assert result.stdout == LATIN_1
    assert b"TF24701" in result.stderr and b"cannot read" not in result.stderr
