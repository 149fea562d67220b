"""Reading recorded games (Tenhou mjlog XML, tenhou.net/6 JSON).

So far: :mod:`jantaku.records.tenhou_meld` decodes the bit-packed meld codes of Tenhou's mjlog format, and
:mod:`jantaku.records.errors` holds :class:`~jantaku.records.errors.RecordError`, raised for records that
cannot be read.
"""
