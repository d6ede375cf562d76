"""The desktop bundle's entry point (PyInstaller): the same command line as ``referee-app``."""

from referee_app.launcher import gui_script

raise SystemExit(gui_script())
