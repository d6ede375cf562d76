"""Addresses on the hall web page (赛场信息网页) that paper prints as QR codes: the pages a
player's phone opens from a table card. Kept apart from :mod:`.hall_public` (what the page
shows), which reads the pairing: the pairing sheet names these addresses without a cycle."""

from __future__ import annotations


def pair_page_url(web_url: str, number: str) -> str:
    """A pair's own page on the hall web page at ``web_url`` (its /pair/N, 本对页面): what
    the pair's QR on its table card opens."""
    from urllib.parse import quote, urlsplit, urlunsplit

    parts = urlsplit(web_url)
    path = parts.path if parts.path.endswith("/") else parts.path + "/"
    return urlunsplit((parts.scheme, parts.netloc, f"{path}pair/{quote(str(number), safe='')}", "", ""))
