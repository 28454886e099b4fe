"""One module per operator family; importing a module registers its variants.
Every module of this folder is one (tests/gen/variants.py imports them all),
so a new family is a new file and nothing else."""

import pathlib

MODULES = sorted(p.stem for p in pathlib.Path(__file__).parent.glob("*.py")
                 if p.stem != "__init__")
