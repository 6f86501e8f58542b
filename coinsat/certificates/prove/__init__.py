"""Finders and builders of certificates: the screens, closed sets, DRAT proofs, search layers.

Everything here may use the engines (``coinsat.search``) and the theory; what it
writes is judged only by :mod:`coinsat.certificates.check`, which imports
nothing from here.  :func:`~.make.certify` writes the certificate of a solve
result and checks it.
"""
