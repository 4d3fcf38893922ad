import sys

from zcf_inspector.cli import main

sys.exit(main())
