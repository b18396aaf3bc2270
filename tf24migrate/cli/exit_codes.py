"""The command's exit codes: 0 nothing due, 1 changes or findings due, 2 an error, 130 interrupted."""

EXIT_OK, EXIT_DUE, EXIT_ERROR = 0, 1, 2
EXIT_INTERRUPTED = 130
