"""Players' names in the order a Chinese tournament office lists them (按姓名拼音排序).

Pure Python. A name sorts by the pinyin of its characters (the surname first, as written),
then by the tones, then by the characters themselves, so that equal readings keep one
order on every station. A Latin name sorts by its letters among the pinyin. pypinyin reads
each character, a polyphone as its phrases read it.

>>> sorted(["王五", "张三", "李四", "安娜", "Zoe"], key=name_sort_key)
['安娜', '李四', '王五', '张三', 'Zoe']
"""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=4096)
def name_sort_key(name: str) -> tuple[tuple[str, ...], tuple[str, ...], str]:
    """(pinyin without tones, pinyin with tone numbers, the name) of ``name``."""
    from pypinyin import Style, lazy_pinyin

    text = name.strip()
    plain = lazy_pinyin(text, style=Style.NORMAL, errors="default") if text else []
    tones = lazy_pinyin(text, style=Style.TONE3, errors="default") if text else []
    return tuple(p.lower() for p in plain), tuple(t.lower() for t in tones), text
