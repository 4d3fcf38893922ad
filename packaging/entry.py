"""The frozen bundle's entry point: the same `main` as the `zcf-inspector` console script.

It lives outside the package so PyInstaller analyses `zcf_inspector` as an installed
package (from the bundle venv's site-packages, i.e. the wheel's contents) and not as loose
files next to the script.
"""

import sys

from zcf_inspector.cli import main

if __name__ == "__main__":
    sys.exit(main())
