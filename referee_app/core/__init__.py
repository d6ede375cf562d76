"""The domain core: seats, levels, rulebooks, the ruling engine. No Qt, no database.

Each part is imported from its own module (:mod:`.engine`, :mod:`.rulebook`, :mod:`.errors`,
:mod:`.case`, …): importing the package imports none of them, so the window paints before
the engine loads and ``referee-app judge`` loads only what it uses.

>>> from referee_app.core.engine import judge
>>> decision = judge({"event": "bhg-2011", "first_dealer": "E", "finished": "open",
...                   "hands": [{"defender_points": 60}]}, lang="en")
>>> decision["hands"][0]["levels_after"]
{'NS': '2', 'EW': '3'}
"""
