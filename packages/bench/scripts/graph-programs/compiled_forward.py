"""A small model under torch.compile(mode="reduce-overhead"), for `kreplay capture` and ncu side by
side (graph-programs/run.sh, issue 41's acceptance).

reduce-overhead runs the compiled model through CUDA graphs (PyTorch's cudagraph trees): its first
calls compile it (Triton kernels), run it once and record the graph; later calls replay the graph.
Those warm-up calls run first; only the measured calls run between cudaProfilerStart and
cudaProfilerStop, so `kreplay capture --profile-from-start off` and `ncu --profile-from-start off`
see the same graph launches. The input is marked static (as parameters are), so that each call is
the graph launch alone, without a copy of the input into the graph's memory before it.

    python3 compiled_forward.py [--calls N] [--warmup W] [--layers L] [--width D] [--sequence S] [--batch B]
Prints one JSON line: the calls, the last output's checksums (its float sum, and an exact checksum of
its bits, which a capture must leave unchanged) and the wall seconds of the measured region.
"""
import argparse
import json
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

from program_output import bits_checksum, require_gpu


class Block(nn.Module):
    def __init__(self, width: int):
        super().__init__()
        self.norm1 = nn.LayerNorm(width)
        self.mix = nn.Linear(width, width)
        self.norm2 = nn.LayerNorm(width)
        self.up = nn.Linear(width, 4 * width)
        self.down = nn.Linear(4 * width, width)

    def forward(self, x):
        x = x + torch.tanh(self.mix(self.norm1(x)))
        return x + self.down(F.gelu(self.up(self.norm2(x))))


class Model(nn.Module):
    def __init__(self, width: int, layers: int):
        super().__init__()
        self.blocks = nn.ModuleList(Block(width) for _ in range(layers))
        self.norm = nn.LayerNorm(width)

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return self.norm(x).softmax(dim=-1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--layers", type=int, default=6)
    parser.add_argument("--width", type=int, default=256)
    parser.add_argument("--sequence", type=int, default=128)
    parser.add_argument("--batch", type=int, default=8)
    options = parser.parse_args()
    require_gpu("compiled_forward.py")
    torch.manual_seed(0)
    model = Model(options.width, options.layers).cuda().eval()
    compiled = torch.compile(model, mode="reduce-overhead")
    generator = torch.Generator(device="cpu").manual_seed(1)
    x = torch.randn(options.batch, options.sequence, options.width, generator=generator).cuda()
    torch._dynamo.mark_static_address(x)

    def call():
        torch.compiler.cudagraph_mark_step_begin()
        with torch.no_grad():
            return compiled(x)

    for _ in range(options.warmup):
        call()
    torch.cuda.synchronize()

    start = time.perf_counter()
    torch.cuda.profiler.start()
    for _ in range(options.calls):
        output = call()
    torch.cuda.synchronize()
    torch.cuda.profiler.stop()
    seconds = time.perf_counter() - start
    print(json.dumps({
        "program": "compiled_forward",
        "calls": options.calls,
        "outputSum": float(output.double().sum()),
        "outputChecksum": bits_checksum(output),
        "regionSeconds": seconds,
    }))


if __name__ == "__main__":
    main()
