"""The desktop app (PySide6). It only orchestrates: rulings come from the core, records from
the store, through :mod:`referee_app.app.session`."""
