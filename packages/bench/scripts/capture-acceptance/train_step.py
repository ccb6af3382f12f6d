"""One training step of a small PyTorch transformer, for `kreplay capture` (issue 16's acceptance).

bf16 autocast, AdamW, attention through scaled_dot_product_attention (cuDNN or flash kernels), cuBLAS
matmuls, and a torch.compile'd function (Triton kernels). Warm-up steps run first (they compile and
fill the caching allocator); only the last step runs between cudaProfilerStart and cudaProfilerStop,
so `kreplay capture --profile-from-start off` and `ncu --profile-from-start off` see the same step.

    python3 train_step.py [--warmup N] [--layers L] [--width D] [--sequence S] [--batch B] [--pad-mib M]
Prints one JSON line: the loss of each step and the wall seconds of the captured step. --pad-mib
holds M MiB of device memory from the start, so that the program's memory lies on other physical
pages (the same kernels, the same launches).
"""
import argparse
import json
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, width: int, heads: int):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(width)
        self.qkv = nn.Linear(width, 3 * width)
        self.out = nn.Linear(width, width)
        self.norm2 = nn.LayerNorm(width)
        self.up = nn.Linear(width, 4 * width)
        self.down = nn.Linear(4 * width, width)

    def forward(self, x):
        batch, sequence, width = x.shape
        q, k, v = self.qkv(self.norm1(x)).view(batch, sequence, 3, self.heads, width // self.heads).permute(2, 0, 3, 1, 4)
        attention = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.out(attention.transpose(1, 2).reshape(batch, sequence, width))
        return x + self.down(scaled_gelu(self.up(self.norm2(x))))


@torch.compile
def scaled_gelu(x):
    return F.gelu(x) * 1.0001 + 0.0001 * torch.tanh(x)


class Model(nn.Module):
    def __init__(self, vocabulary: int, width: int, layers: int, heads: int):
        super().__init__()
        self.embed = nn.Embedding(vocabulary, width)
        self.blocks = nn.ModuleList(Block(width, heads) for _ in range(layers))
        self.norm = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocabulary)

    def forward(self, tokens):
        x = self.embed(tokens)
        for block in self.blocks:
            x = block(x)
        return self.head(self.norm(x))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--width", type=int, default=256)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--sequence", type=int, default=128)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--vocabulary", type=int, default=4096)
    parser.add_argument("--pad-mib", type=int, default=0)
    options = parser.parse_args()
    torch.manual_seed(0)
    device = torch.device("cuda")
    pad = torch.empty(options.pad_mib << 20, dtype=torch.uint8, device=device) if options.pad_mib > 0 else None
    model = Model(options.vocabulary, options.width, options.layers, options.heads).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    tokens = torch.randint(0, options.vocabulary, (options.batch, options.sequence + 1), device=device)

    def step():
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            logits = model(tokens[:, :-1])
            loss = F.cross_entropy(logits.float().view(-1, options.vocabulary), tokens[:, 1:].reshape(-1))
        loss.backward()
        optimizer.step()
        return loss

    losses = [float(step()) for _ in range(options.warmup)]
    torch.cuda.synchronize()
    start = time.perf_counter()
    torch.cuda.profiler.start()
    loss = step()
    torch.cuda.synchronize()
    torch.cuda.profiler.stop()
    seconds = time.perf_counter() - start
    losses.append(float(loss))
    print(json.dumps({"losses": losses, "capturedStepSeconds": seconds}))


if __name__ == "__main__":
    main()
