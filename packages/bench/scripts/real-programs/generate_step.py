"""Greedy generation with a Hugging Face transformers Llama-architecture model in bf16, for
`kreplay capture` and ncu side by side (real-programs/run.sh). The weights are random (made here from
a LlamaConfig, so nothing is downloaded); the kernels are the ones such a model runs: embedding,
RMSNorm, rotary embeddings, cuBLAS GEMMs, SDPA attention, SiLU MLP, sampling.

One warm-up generation runs first (cuBLAS handles, the caching allocator's pool); only the measured
generation runs between cudaProfilerStart and cudaProfilerStop, so `kreplay capture
--profile-from-start off` and `ncu --profile-from-start off` see the same launches.

    python3 generate_step.py [--layers L] [--width D] [--heads H] [--prompt P] [--new-tokens N] [--batch B]
Prints one JSON line: the tokens generated and the wall seconds of the measured generation.
"""
import argparse
import json
import time

import torch
from transformers import LlamaConfig, LlamaForCausalLM


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--width", type=int, default=1024)
    parser.add_argument("--heads", type=int, default=16)
    parser.add_argument("--vocabulary", type=int, default=32000)
    parser.add_argument("--prompt", type=int, default=64)
    parser.add_argument("--new-tokens", type=int, default=16)
    parser.add_argument("--batch", type=int, default=1)
    options = parser.parse_args()
    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=options.vocabulary,
        hidden_size=options.width,
        intermediate_size=4 * options.width,
        num_hidden_layers=options.layers,
        num_attention_heads=options.heads,
        num_key_value_heads=options.heads,
        max_position_embeddings=4096,
    )
    model = LlamaForCausalLM(config).to(device="cuda", dtype=torch.bfloat16).eval()
    prompt = torch.randint(0, options.vocabulary, (options.batch, options.prompt), device="cuda")

    def generate():
        with torch.no_grad():
            return model.generate(
                prompt,
                max_new_tokens=options.new_tokens,
                min_new_tokens=options.new_tokens,
                do_sample=False,
                pad_token_id=0,
            )

    generate()
    torch.cuda.synchronize()
    start = time.perf_counter()
    torch.cuda.profiler.start()
    tokens = generate()
    torch.cuda.synchronize()
    torch.cuda.profiler.stop()
    seconds = time.perf_counter() - start
    print(json.dumps({"tokens": tokens[0, options.prompt:].tolist(), "capturedStepSeconds": seconds}))


if __name__ == "__main__":
    main()
