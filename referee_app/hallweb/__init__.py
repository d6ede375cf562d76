"""The hall web page (赛场信息网页): players read their table, the pairings, the standings,
the round clock and a knockout's bracket on their phones, from a QR code in the hall.

A read-only HTTP server (aiohttp) that the desk laptop runs on the hall's network, started
by the chief referee in the window or by ``referee-app hall-web``; off until then. It sits
with the window and the command line, above the application layer, and reads only
:func:`referee_app.app.hall_public.public_view` — what is published, never the store.
See docs/hall-web.md.
"""
