"""The application layer: every use case the window and the command line share.

The window (``gui``) and the command line (``cli``) reach the store and the printing code
only through this package; the core stays pure (no Qt, no database, no reportlab)."""
