"""Builds the tinyaot C library with CMake (from the repository this folder
sits in) and ships libtinyaot.so inside the package:

    pip install ./python
    TINYAOT_BUILD_DIR=build pip install ./python   # the library of a configured build

Without TINYAOT_BUILD_DIR it configures a Release build in build-python; with
it, it builds the library target in that (already configured) folder, which
`make test` uses so that the compiler is not compiled a third time.
"""

import os
import pathlib
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent


class BuildWithLibrary(build_py):
    def run(self):
        named = os.environ.get("TINYAOT_BUILD_DIR")
        build = pathlib.Path(named).resolve() if named else REPO / "build-python"
        if not named:
            subprocess.run(["cmake", "-S", str(REPO), "-B", str(build),
                            "-DCMAKE_BUILD_TYPE=Release", "-DTINYAOT_CROSS_TESTS=OFF"],
                           check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["cmake", "--build", str(build), "--target", "tinyaot_shared", "-j", "2"],
                       check=True, stdout=subprocess.DEVNULL)
        shutil.copy2(build / "libtinyaot.so", HERE / "tinyaot" / "libtinyaot.so")
        super().run()


setup(cmdclass={"build_py": BuildWithLibrary})
