"""The event store: an append-only, hash-chained record of an event.

Importing this package is cheap: SQLAlchemy is imported only by the modules that
need it (``models``, ``db``, ``service``, ``audit``), never by ``commands``'s
registration, so ``referee-app judge`` starts fast.
"""
