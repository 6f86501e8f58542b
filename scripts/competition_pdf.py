"""The SAT Competition description as a PDF in the proceedings' style: encodings/competition-description.pdf.
(the study: ``lab.studies.competition_pdf``, whose docstring says what it does).

The study is lab/studies/competition_pdf.py; this file starts it, with the repository
root appended to sys.path (the laboratory is not installed; appended, so that
coinsat stays the one PYTHONPATH or the install gives, a baseline's included).
"""

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))

from lab.studies.competition_pdf import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
