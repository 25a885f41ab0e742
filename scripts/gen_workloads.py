#!/usr/bin/env python3
"""Writes the built-in training-step workloads of `ccforge plan` (specs/workloads/*.json).

Derived from the architectures (shapes below); gradient tensors are fp32 parameter bytes, so a
model's parameter count is the sum of its tensor bytes / 4. Times are first-order roofline
estimates (docs/plan.md, "Built-in models"): matmul/conv ops at EFF FLOP/s, element-wise ops at
MEM_BW bytes/s, each plus one kernel launch. Run from the repository root; output is deterministic.
"""
import json
import sys

EFF = 50e12        # FLOP/s (A100 AMP class, docs/plan.md)
MEM_BW = 1.5e12    # bytes/s for element-wise ops
LAUNCH_US = 5.0    # per kernel
ACT = 2            # bytes per activation element (fp16)
GRAD = 4           # bytes per gradient element (fp32)


class Builder:
    def __init__(self, name, description, units):
        self.name, self.description, self.units = name, description, units
        self.fwd = []      # forward ops in order
        self.tensors = []  # (name, bytes) in forward (parameter) order
        self.index = {}

    def tensor(self, name, elements):
        self.tensors.append((name, elements * GRAD))
        return name

    def op(self, name, kind, macs=0.0, act_in=0.0, act_out=0.0, weight_elems=0, inputs=(), params=(),
           ew_passes=0):
        """One forward op. macs: multiply-adds for the whole step; act_in/act_out: elements."""
        if kind == "elementwise":
            fbytes = (ew_passes or 2) * act_out * ACT
            fflops = 4.0 * act_out
            bbytes = ((ew_passes or 2) + 1) * act_out * ACT
            bflops = 8.0 * act_out
        else:
            fbytes = (act_in + act_out + weight_elems) * ACT
            fflops = 2.0 * macs
            bbytes = 2 * fbytes
            bflops = 4.0 * macs
        self.fwd.append(dict(name=name, kind=kind, fflops=fflops, fbytes=fbytes, bflops=bflops, bbytes=bbytes,
                             out=act_out * ACT, inputs=list(inputs), params=list(params)))
        self.index[name] = len(self.fwd) - 1
        return name

    @staticmethod
    def time(flops, nbytes, kind):
        t = nbytes / MEM_BW if kind == "elementwise" else max(flops / EFF, nbytes / MEM_BW)
        return round(t * 1e6 + LAUNCH_US, 3)

    def write(self, path, extra_grad_ops=()):
        consumers = {o["name"]: [] for o in self.fwd}
        for o in self.fwd:
            for i in o["inputs"]:
                consumers[i].append(o["name"])
        ops = []
        for o in self.fwd:
            ops.append({"name": o["name"] + ".fwd", "phase": "forward", "kind": o["kind"],
                        "time_us": self.time(o["fflops"], o["fbytes"], o["kind"]),
                        "flops": round(o["fflops"]), "bytes": round(o["fbytes"]), "output_bytes": round(o["out"]),
                        "inputs": [i + ".fwd" for i in o["inputs"]]})
        for o in reversed(self.fwd):
            grads = list(o["params"]) + [t for (op, t) in extra_grad_ops if op == o["name"]]
            if not o["inputs"] and not grads:
                continue  # a data input: nothing to differentiate
            # The gradients this op passes back: one per input activation, except data inputs'.
            ins = [c + ".bwd" for c in consumers[o["name"]]] + [i + ".fwd" for i in o["inputs"]]
            if o["kind"] == "elementwise":
                ins.append(o["name"] + ".fwd")
            ops.append({"name": o["name"] + ".bwd", "phase": "backward", "kind": o["kind"],
                        "time_us": self.time(o["bflops"], o["bbytes"], o["kind"]),
                        "flops": round(o["bflops"]), "bytes": round(o["bbytes"]),
                        "output_bytes": round(sum(self.fwd[self.index[i]]["out"] for i in o["inputs"]
                                                  if self.fwd[self.index[i]]["inputs"] or self.fwd[self.index[i]]["params"])),
                        "inputs": ins, "gradients": grads})
        doc = {"format": "ccforge-workload/1", "name": self.name, "description": self.description,
               "units": self.units, "ops": ops,
               "tensors": [{"name": n, "bytes": b} for n, b in self.tensors]}
        with open(path, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        return sum(b for _, b in self.tensors) // GRAD


def resnet50(batch=32):
    b = Builder("resnet50", "ResNet-50 v1.5 (torchvision), batch 32 images per worker, fp16 activations, "
                "fp32 gradients", "32 images")
    def conv(name, cin, cout, k, hw_out, inp, bias=False):
        b.tensor(name + ".weight", k * k * cin * cout)
        params = [name + ".weight"]
        return b.op(name, "conv", macs=k * k * cin * cout * hw_out * hw_out * batch, act_in=0,
                    act_out=cout * hw_out * hw_out * batch, weight_elems=k * k * cin * cout, inputs=[inp],
                    params=params)
    def bn(name, c, hw, inputs, passes=2):
        b.tensor(name + ".weight", c)
        b.tensor(name + ".bias", c)
        return b.op(name, "elementwise", act_out=c * hw * hw * batch, inputs=inputs,
                    params=[name + ".weight", name + ".bias"], ew_passes=passes)
    x = b.op("input", "elementwise", act_out=3 * 224 * 224 * batch)
    x = conv("conv1", 3, 64, 7, 112, x)
    x = bn("bn1", 64, 112, [x])
    x = b.op("maxpool", "elementwise", act_out=64 * 56 * 56 * batch, inputs=[x])
    cin, hw = 64, 56
    for li, (blocks, width) in enumerate([(3, 64), (4, 128), (6, 256), (3, 512)], start=1):
        for bi in range(blocks):
            stride = 2 if (bi == 0 and li > 1) else 1
            out_hw = hw // stride
            p = f"layer{li}.{bi}"
            y = conv(p + ".conv1", cin, width, 1, hw, x)
            y = bn(p + ".bn1", width, hw, [y])
            y = conv(p + ".conv2", width, width, 3, out_hw, y)
            y = bn(p + ".bn2", width, out_hw, [y])
            y = conv(p + ".conv3", width, width * 4, 1, out_hw, y)
            skip = x
            if bi == 0:
                d = conv(p + ".downsample.0", cin, width * 4, 1, out_hw, x)
                skip = bn(p + ".downsample.1", width * 4, out_hw, [d])
            x = bn(p + ".bn3", width * 4, out_hw, [y, skip], passes=3)  # + residual add and ReLU
            cin, hw = width * 4, out_hw
    x = b.op("avgpool", "elementwise", act_out=2048 * batch, inputs=[x])
    b.tensor("fc.weight", 2048 * 1000)
    x = b.op("fc", "matmul", macs=2048 * 1000 * batch, act_out=1000 * batch, weight_elems=2048 * 1000,
             inputs=[x], params=["fc.weight"])
    b.tensor("fc.bias", 1000)
    b.op("fc.bias_add", "elementwise", act_out=1000 * batch, inputs=[x], params=["fc.bias"])
    return b


def vgg19(batch=32):
    b = Builder("vgg19", "VGG-19 (torchvision, no batch norm), batch 32 images per worker", "32 images")
    x = b.op("input", "elementwise", act_out=3 * 224 * 224 * batch)
    cin, hw, n = 3, 224, 0
    for v in [64, 64, "M", 128, 128, "M", 256, 256, 256, 256, "M", 512, 512, 512, 512, "M", 512, 512, 512, 512, "M"]:
        if v == "M":
            hw //= 2
            x = b.op(f"pool{hw}", "elementwise", act_out=cin * hw * hw * batch, inputs=[x])
            continue
        n += 1
        name = f"features.conv{n}"
        b.tensor(name + ".weight", 9 * cin * v)
        x = b.op(name, "conv", macs=9 * cin * v * hw * hw * batch, act_out=v * hw * hw * batch,
                 weight_elems=9 * cin * v, inputs=[x], params=[name + ".weight"])
        b.tensor(name + ".bias", v)
        x = b.op(name + ".bias_relu", "elementwise", act_out=v * hw * hw * batch, inputs=[x], params=[name + ".bias"])
        cin = v
    fin = 512 * 7 * 7
    for i, (fi, fo) in enumerate([(fin, 4096), (4096, 4096), (4096, 1000)]):
        name = f"classifier.fc{6 + i}"
        b.tensor(name + ".weight", fi * fo)
        x = b.op(name, "matmul", macs=fi * fo * batch, act_out=fo * batch, weight_elems=fi * fo, inputs=[x],
                 params=[name + ".weight"])
        b.tensor(name + ".bias", fo)
        x = b.op(name + ".bias_relu", "elementwise", act_out=fo * batch, inputs=[x], params=[name + ".bias"])
    return b


def linear(b, name, din, dout, tokens, inp, epilogue_inputs=(), passes=2):
    b.tensor(name + ".weight", din * dout)
    y = b.op(name, "matmul", macs=din * dout * tokens, act_in=din * tokens, act_out=dout * tokens,
             weight_elems=din * dout, inputs=[inp], params=[name + ".weight"])
    b.tensor(name + ".bias", dout)
    return b.op(name + ".bias", "elementwise", act_out=dout * tokens, inputs=[y] + list(epilogue_inputs),
                params=[name + ".bias"], ew_passes=passes)


def layernorm(b, name, d, tokens, inp):
    b.tensor(name + ".weight", d)
    b.tensor(name + ".bias", d)
    return b.op(name, "elementwise", act_out=d * tokens, inputs=[inp], params=[name + ".weight", name + ".bias"],
                ew_passes=3)


def attention(b, name, d, heads, seq, tokens, q_in, kv_in=None):
    if kv_in is None:
        qkv = linear(b, name + ".qkv", d, 3 * d, tokens, q_in)
        deps = [qkv]
    else:
        q = linear(b, name + ".q", d, d, tokens, q_in)
        kv = linear(b, name + ".kv", d, 2 * d, tokens, kv_in)
        deps = [q, kv]
    scores = b.op(name + ".scores", "matmul", macs=seq * d * tokens, act_in=3 * d * tokens,
                  act_out=heads * seq * tokens, inputs=deps)
    probs = b.op(name + ".softmax", "elementwise", act_out=heads * seq * tokens, inputs=[scores])
    ctx = b.op(name + ".context", "matmul", macs=seq * d * tokens, act_in=heads * seq * tokens,
               act_out=d * tokens, inputs=[probs] + deps)
    return linear(b, name + ".out", d, d, tokens, ctx, epilogue_inputs=[q_in], passes=3)


def bert_base():
    tokens, seq, d, ffn, heads = 32 * 128, 128, 768, 3072, 12
    b = Builder("bert-base", "BERT-base encoder (BertModel with pooler), 32 sequences of 128 tokens per worker",
                "4096 tokens")
    e = b.op("input", "elementwise", act_out=tokens)
    names = []
    for n, rows in [("embeddings.word_embeddings", 30522), ("embeddings.position_embeddings", 512),
                    ("embeddings.token_type_embeddings", 2)]:
        b.tensor(n + ".weight", rows * d)
        names.append(n + ".weight")
    e = b.op("embeddings", "elementwise", act_out=d * tokens, inputs=[e], params=names, ew_passes=4)
    x = layernorm(b, "embeddings.LayerNorm", d, tokens, e)
    for i in range(12):
        p = f"encoder.layer{i}"
        a = attention(b, p + ".attention", d, heads, seq, tokens, x)
        a = layernorm(b, p + ".attention.LayerNorm", d, tokens, a)
        h = linear(b, p + ".intermediate", d, ffn, tokens, a)  # + GELU
        h = linear(b, p + ".output", ffn, d, tokens, h, epilogue_inputs=[a], passes=3)
        x = layernorm(b, p + ".output.LayerNorm", d, tokens, h)
    linear(b, "pooler", d, d, 32, x)  # + tanh, on the 32 [CLS] tokens
    return b


def gpt2_small():
    tokens, seq, d, ffn, heads, vocab = 8 * 1024, 1024, 768, 3072, 12, 50257
    b = Builder("gpt2-small", "GPT-2 small, 8 sequences of 1024 tokens per worker; LM head tied to wte "
                "(its gradient is complete only at the end of backward)", "8192 tokens")
    b.tensor("wte.weight", vocab * d)
    b.tensor("wpe.weight", 1024 * d)
    x = b.op("input", "elementwise", act_out=tokens)
    x = b.op("embeddings", "elementwise", act_out=d * tokens, inputs=[x], params=["wte.weight", "wpe.weight"],
             ew_passes=3)
    for i in range(12):
        p = f"h{i}"
        y = layernorm(b, p + ".ln_1", d, tokens, x)
        y = attention(b, p + ".attn", d, heads, seq, tokens, y)
        x = y
        y = layernorm(b, p + ".ln_2", d, tokens, x)
        y = linear(b, p + ".mlp.c_fc", d, ffn, tokens, y)  # + GELU
        x = linear(b, p + ".mlp.c_proj", ffn, d, tokens, y, epilogue_inputs=[x], passes=3)
    x = layernorm(b, "ln_f", d, tokens, x)
    b.op("lm_head", "matmul", macs=d * vocab * tokens, act_in=d * tokens, act_out=vocab * tokens,
         weight_elems=d * vocab, inputs=[x])
    return b, [("lm_head", "wte.weight")]


def transformer_base():
    tokens, d, ffn, heads, vocab, seq = 4096, 512, 2048, 8, 37000, 32
    b = Builder("transformer", "Transformer base (Vaswani et al. 2017; post-LN, 6+6 layers, d=512, shared "
                "37,000-token embedding tied with the output projection), 4096 source and 4096 target tokens "
                "per worker", "4096+4096 tokens")
    b.tensor("shared_embedding.weight", vocab * d)
    src = b.op("src_input", "elementwise", act_out=tokens)
    x = b.op("src_embed", "elementwise", act_out=d * tokens, inputs=[src], params=["shared_embedding.weight"])
    for i in range(6):
        p = f"encoder.{i}"
        a = attention(b, p + ".self_attn", d, heads, seq, tokens, x)
        a = layernorm(b, p + ".ln1", d, tokens, a)
        h = linear(b, p + ".ffn.in", d, ffn, tokens, a)
        h = linear(b, p + ".ffn.out", ffn, d, tokens, h, epilogue_inputs=[a], passes=3)
        x = layernorm(b, p + ".ln2", d, tokens, h)
    memory = x
    tgt = b.op("tgt_input", "elementwise", act_out=tokens)
    y = b.op("tgt_embed", "elementwise", act_out=d * tokens, inputs=[tgt])
    for i in range(6):
        p = f"decoder.{i}"
        a = attention(b, p + ".self_attn", d, heads, seq, tokens, y)
        a = layernorm(b, p + ".ln1", d, tokens, a)
        c = attention(b, p + ".cross_attn", d, heads, seq, tokens, a, kv_in=memory)
        c = layernorm(b, p + ".ln2", d, tokens, c)
        h = linear(b, p + ".ffn.in", d, ffn, tokens, c)
        h = linear(b, p + ".ffn.out", ffn, d, tokens, h, epilogue_inputs=[c], passes=3)
        y = layernorm(b, p + ".ln3", d, tokens, h)
    b.op("generator", "matmul", macs=d * vocab * tokens, act_in=d * tokens, act_out=vocab * tokens,
         weight_elems=d * vocab, inputs=[y])
    return b, [("generator", "shared_embedding.weight"), ("tgt_embed", "shared_embedding.weight")]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "specs/workloads"
    for make in [resnet50, vgg19, bert_base, gpt2_small, transformer_base]:
        r = make()
        b, extra = r if isinstance(r, tuple) else (r, ())
        n = b.write(f"{out}/{b.name}.json", extra)
        print(f"{b.name}: {n} parameters, {len(b.fwd)} forward ops, {len(b.tensors)} tensors")


if __name__ == "__main__":
    main()
