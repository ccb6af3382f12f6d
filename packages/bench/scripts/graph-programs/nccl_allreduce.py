"""torch.distributed over NCCL at world size 1, with collectives between ordinary kernels, for
`kreplay capture` (graph-programs/run.sh, issue 41's acceptance): a kernel of a collective must be
counted as `collective` and never recorded, and the ordinary kernels around it still captured.

One process is the whole group (MASTER_ADDR 127.0.0.1, a free port, RANK 0, WORLD_SIZE 1). At one
rank NCCL takes shortcuts: an all_reduce with SUM in place does nothing on the device, one with AVG
runs NCCL's one-rank reduce kernel, and all_to_all_single sends to and receives from the rank itself
(NCCL's send/receive kernel). The program runs each, so that the capture shows which of them launch
a collective kernel. A warm-up step creates the communicator outside the measured region; the
measured steps run between cudaProfilerStart and cudaProfilerStop.

    python3 nccl_allreduce.py [--steps N] [--width D]
Prints one JSON line: the collectives run in the region, the result's checksums (its float sum, and
an exact checksum of its bits) and the wall seconds of the measured region.
"""
import argparse
import json
import os
import socket
import time

import torch
import torch.distributed as dist

from program_output import bits_checksum, require_gpu


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--width", type=int, default=1024)
    options = parser.parse_args()
    require_gpu("nccl_allreduce.py")
    if not dist.is_nccl_available():
        raise SystemExit("nccl_allreduce.py: this PyTorch has no NCCL backend (torch.distributed.is_nccl_available() is False)")
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(free_port())
    os.environ["RANK"] = "0"
    os.environ["WORLD_SIZE"] = "1"
    device = torch.device("cuda", 0)
    torch.cuda.set_device(device)
    dist.init_process_group(backend="nccl", device_id=device)
    torch.manual_seed(0)
    weight = torch.randn(options.width, options.width, device=device) / options.width**0.5
    x = torch.randn(64, options.width, device=device)
    exchanged = torch.empty_like(x)
    collectives = {"all_reduce_sum": 0, "all_reduce_avg": 0, "all_to_all_single": 0}

    def step(count):
        nonlocal x
        y = torch.relu(x @ weight)
        dist.all_reduce(y, op=dist.ReduceOp.SUM)
        y = torch.tanh(y) * 0.5
        dist.all_reduce(y, op=dist.ReduceOp.AVG)
        dist.all_to_all_single(exchanged, y)
        x = exchanged + 0.001 * y
        if count:
            for name in collectives:
                collectives[name] += 1

    step(False)  # creates the communicator and the kernels' first loads
    torch.cuda.synchronize()

    start = time.perf_counter()
    torch.cuda.profiler.start()
    for _ in range(options.steps):
        step(True)
    torch.cuda.synchronize()
    torch.cuda.profiler.stop()
    seconds = time.perf_counter() - start
    print(json.dumps({
        "program": "nccl_allreduce",
        "worldSize": dist.get_world_size(),
        "collectives": collectives,
        "outputSum": float(x.double().sum()),
        "outputChecksum": bits_checksum(x),
        "regionSeconds": seconds,
    }))
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
