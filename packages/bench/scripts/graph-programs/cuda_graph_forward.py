"""A small PyTorch transformer's forward pass captured in a CUDA graph and replayed, for `kreplay
capture` and ncu side by side (graph-programs/run.sh, issue 41's acceptance).

The model (torch.nn.TransformerEncoder, fixed seed, deterministic input) runs a few warm-up passes
on a side stream, as PyTorch's documentation asks before a capture; its forward pass is then
captured into a torch.cuda.CUDAGraph and replayed once outside the measured region. Only the
measured replays run between cudaProfilerStart and cudaProfilerStop, so `kreplay capture
--profile-from-start off` and `ncu --profile-from-start off` see the same graph launches and
nothing else.

    python3 cuda_graph_forward.py [--replays R] [--layers L] [--width D] [--heads H] [--sequence S] [--batch B]
Prints one JSON line: the replays, the output's checksums (its float sum, and an exact checksum of
its bits, which a capture must leave unchanged) and the wall seconds of the measured region.
"""
import argparse
import json
import time

import torch
import torch.nn as nn

from program_output import bits_checksum, require_gpu


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--replays", type=int, default=3)
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--width", type=int, default=256)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--sequence", type=int, default=128)
    parser.add_argument("--batch", type=int, default=8)
    options = parser.parse_args()
    require_gpu("cuda_graph_forward.py")
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(options.width, options.heads, dim_feedforward=4 * options.width, dropout=0.0, batch_first=True)
    model = nn.TransformerEncoder(layer, options.layers, enable_nested_tensor=False).cuda().eval()
    generator = torch.Generator(device="cpu").manual_seed(1)
    static_input = torch.randn(options.batch, options.sequence, options.width, generator=generator).cuda()

    with torch.no_grad():
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(3):
                model(static_input)
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            static_output = model(static_input)
    graph.replay()  # the first launch of an executable graph uploads it: outside the region
    torch.cuda.synchronize()

    start = time.perf_counter()
    torch.cuda.profiler.start()
    for _ in range(options.replays):
        graph.replay()
    torch.cuda.synchronize()
    torch.cuda.profiler.stop()
    seconds = time.perf_counter() - start
    print(json.dumps({
        "program": "cuda_graph_forward",
        "replays": options.replays,
        "outputSum": float(static_output.double().sum()),
        "outputChecksum": bits_checksum(static_output),
        "regionSeconds": seconds,
    }))


if __name__ == "__main__":
    main()
