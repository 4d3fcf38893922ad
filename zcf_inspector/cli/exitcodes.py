"""The CLI's exit codes, in one place: scripts and CI depend on them."""

OK = 0  # every input valid / the command did what was asked
REFUSED = 1  # some input was refused (findings with severity error)
USAGE = 2  # a usage error or a file that could not be read
BROKEN_PIPE = 141  # stdout closed by the reader (`| head`), as a shell reports SIGPIPE
