"""What the graph programs share: refusing to run without a GPU, and an exact checksum of a result.

A capture must leave a program's results unchanged; run.sh's summary compares the checksum a
program prints alone with the one it prints under `kreplay capture`. The checksum is of the
result's bits (as float32), weighted by position, so that any changed bit or swapped element shows;
it is printed as a hex string, since JSON readers keep only 53 bits of a number.
"""
import sys

import torch


def require_gpu(program):
    """Exits with a message unless PyTorch sees a CUDA device."""
    if not torch.cuda.is_available():
        sys.exit(f"{program}: no CUDA device (torch.cuda.is_available() is False); run it on a machine with an NVIDIA GPU")


def bits_checksum(tensor):
    """sum over i of (i + 1) * bits(tensor[i]), exactly (each 32-bit pattern split in halves so no sum overflows), as hex."""
    bits = tensor.detach().float().contiguous().cpu().view(torch.int32).to(torch.int64).flatten() & 0xFFFFFFFF
    weights = torch.arange(1, bits.numel() + 1, dtype=torch.int64)
    low = int(((bits & 0xFFFF) * weights).sum())
    high = int(((bits >> 16) * weights).sum())
    return hex(high * 65536 + low)
