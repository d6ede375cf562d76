"""The printing layer: official forms (记分表, 申诉表, 判罚单) as PDF, and their signing.

Importing this package imports nothing heavy; reportlab, pyHanko and cryptography are
imported by the modules that need them (``render``, ``signing``), so ``referee-app judge``
never loads them. The render functions take plain data (:mod:`.data`), so the event store
and the GUI can fill them.
"""

from .quick_import import install as _install_quick_import

_install_quick_import()  # before any reportlab import: see quick_import
