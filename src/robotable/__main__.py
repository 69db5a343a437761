"""`python -m robotable`: the same command line as the `robotable` script, for an environment whose
scripts folder is not on the PATH."""

from robotable.cli import main

main()
