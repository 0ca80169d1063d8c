"""A BERT encoder (Hugging Face `BertModel` weights) as an ONNX graph, for ONNX Runtime.

Sentence-embedding models in the sentence-transformers layout ship `model.safetensors`
(the `BertModel` weights), `config.json`, `tokenizer.json` and a pooling config, but no
ONNX file. This module writes the standard BERT forward pass (embeddings + LayerNorm; per
layer: multi-head self-attention, residual + LayerNorm, GELU feed-forward, residual +
LayerNorm), followed by the model's pooling (mean over the attention mask, or CLS) and L2
normalisation, as one ONNX graph over those weights, so that ONNX Runtime runs it on the
CPU without PyTorch. Invariants: the graph computes what `transformers`' BertModel +
sentence-transformers' Pooling + Normalize compute (tests compare with vectors made by
sentence-transformers); inputs `input_ids`, `attention_mask`, `token_type_ids`
(int64, batch x sequence); output `embedding` (float32, batch x hidden), unit length.
Supported: `model_type` bert (absolute positions), `hidden_act` gelu; others are refused.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17  # LayerNormalization


class UnsupportedModel(ValueError):
    """The weights are not a BERT encoder this builder writes."""


def build(config: Mapping[str, Any], weights: Mapping[str, np.ndarray], pooling: str) -> bytes:
    """The serialised ONNX model of `weights` (names as `BertModel.state_dict()`, with or
    without the `bert.` prefix); `pooling` is "mean" or "cls"."""
    if config.get("model_type") not in ("bert",) or config.get("hidden_act") != "gelu":
        raise UnsupportedModel(
            f"model_type {config.get('model_type')!r} / hidden_act {config.get('hidden_act')!r}"
        )
    if config.get("position_embedding_type", "absolute") != "absolute":
        raise UnsupportedModel("only absolute position embeddings")
    if pooling not in ("mean", "cls"):
        raise UnsupportedModel(f"pooling {pooling!r}")
    w = {k.removeprefix("bert."): v for k, v in weights.items()}
    hidden = int(config["hidden_size"])
    heads = int(config["num_attention_heads"])
    layers = int(config["num_hidden_layers"])
    eps = float(config.get("layer_norm_eps", 1e-12))
    head_dim = hidden // heads
    g = _Graph()

    ids, mask, types = "input_ids", "attention_mask", "token_type_ids"
    # Embeddings: word + position (0..S-1) + token type, then LayerNorm.
    word = g.gather(g.const("emb.word", w["embeddings.word_embeddings.weight"]), ids)
    seq_len = g.op("Gather", g.op("Shape", ids), g.const("one_i", np.array(1, np.int64)))
    positions = g.op(
        "Range",
        g.const("zero_i", np.array(0, np.int64)),
        seq_len,
        g.const("step_i", np.array(1, np.int64)),
    )
    pos = g.gather(g.const("emb.pos", w["embeddings.position_embeddings.weight"]), positions)
    typ = g.gather(g.const("emb.type", w["embeddings.token_type_embeddings.weight"]), types)
    x = g.op("Add", g.op("Add", word, pos), typ)
    x = g.layer_norm(x, w, "embeddings.LayerNorm", eps)

    # Attention bias: 0 where the mask is 1, a large negative number where it is 0.
    mask_f = g.op("Cast", mask, to=TensorProto.FLOAT)
    bias = g.op(
        "Mul",
        g.op("Sub", g.const("one_f", np.array(1.0, np.float32)), mask_f),
        g.const("neg_f", np.array(-1e9, np.float32)),
    )
    bias = g.op("Unsqueeze", bias, g.const("axes_1_2", np.array([1, 2], np.int64)))
    split_shape = g.const("split_shape", np.array([0, 0, heads, head_dim], np.int64))
    merge_shape = g.const("merge_shape", np.array([0, 0, hidden], np.int64))
    scale = g.const("scale", np.array(1.0 / math.sqrt(head_dim), np.float32))

    for i in range(layers):
        p = f"encoder.layer.{i}."

        def heads_of(name: str, source: str = x, prefix: str = p) -> str:
            projected = g.linear(source, w, prefix + f"attention.self.{name}")
            shaped = g.op("Reshape", projected, split_shape)
            return g.op("Transpose", shaped, perm=[0, 2, 1, 3])

        q, k, v = heads_of("query"), heads_of("key"), heads_of("value")
        scores = g.op("Mul", g.op("MatMul", q, g.op("Transpose", k, perm=[0, 1, 3, 2])), scale)
        probs = g.op("Softmax", g.op("Add", scores, bias), axis=-1)
        context = g.op("Transpose", g.op("MatMul", probs, v), perm=[0, 2, 1, 3])
        context = g.op("Reshape", context, merge_shape)
        attended = g.linear(context, w, p + "attention.output.dense")
        x = g.layer_norm(g.op("Add", attended, x), w, p + "attention.output.LayerNorm", eps)
        inner = g.gelu(g.linear(x, w, p + "intermediate.dense"))
        out = g.linear(inner, w, p + "output.dense")
        x = g.layer_norm(g.op("Add", out, x), w, p + "output.LayerNorm", eps)

    if pooling == "cls":
        pooled = g.op("Gather", x, g.const("zero_i2", np.array(0, np.int64)), axis=1)
    else:
        weights_3d = g.op("Unsqueeze", mask_f, g.const("axes_2", np.array([2], np.int64)))
        axis_1 = g.const("axes_1", np.array([1]))
        summed = g.op("ReduceSum", g.op("Mul", x, weights_3d), axis_1, keepdims=0)
        count = g.op("ReduceSum", weights_3d, axis_1, keepdims=0)
        count = g.op("Max", count, g.const("tiny", np.array(1e-9, np.float32)))
        pooled = g.op("Div", summed, count)
    last = g.const("axes_last", np.array([-1]))
    squares = g.op("ReduceSum", g.op("Mul", pooled, pooled), last, keepdims=1)
    norm = g.op("Sqrt", squares)
    norm = g.op("Max", norm, g.const("tiny_n", np.array(1e-12, np.float32)))
    g.op("Div", pooled, norm, output="embedding")

    dims = ["batch", "sequence"]
    inputs = [helper.make_tensor_value_info(n, TensorProto.INT64, dims) for n in (ids, mask, types)]
    output = helper.make_tensor_value_info("embedding", TensorProto.FLOAT, ["batch", hidden])
    graph = helper.make_graph(g.nodes, "bert_sentence_encoder", inputs, [output], g.initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = 8
    return bytes(model.SerializeToString())


class _Graph:
    def __init__(self) -> None:
        self.nodes: list[onnx.NodeProto] = []
        self.initializers: list[onnx.TensorProto] = []
        self._count = 0

    def const(self, name: str, value: np.ndarray) -> str:
        array = np.asarray(value)
        if array.dtype == np.float64 or array.dtype == np.float16:
            array = array.astype(np.float32)
        self.initializers.append(numpy_helper.from_array(array, name))
        return name

    def op(self, kind: str, *inputs: str, output: str | None = None, **attrs: Any) -> str:
        self._count += 1
        name = output or f"{kind.lower()}_{self._count}"
        self.nodes.append(helper.make_node(kind, list(inputs), [name], **attrs))
        return name

    def gather(self, table: str, indices: str) -> str:
        return self.op("Gather", table, indices, axis=0)

    def linear(self, x: str, w: Mapping[str, np.ndarray], prefix: str) -> str:
        weight = self.const(prefix + ".wt", np.ascontiguousarray(w[prefix + ".weight"].T))
        bias = self.const(prefix + ".b", w[prefix + ".bias"])
        return self.op("Add", self.op("MatMul", x, weight), bias)

    def layer_norm(self, x: str, w: Mapping[str, np.ndarray], prefix: str, eps: float) -> str:
        scale = self.const(prefix + ".g", w[prefix + ".weight"])
        bias = self.const(prefix + ".b", w[prefix + ".bias"])
        return self.op("LayerNormalization", x, scale, bias, axis=-1, epsilon=eps)

    def gelu(self, x: str) -> str:
        """Exact GELU: x * 0.5 * (1 + erf(x / sqrt(2)))."""
        if not hasattr(self, "_gelu_consts"):
            self._gelu_consts = (
                self.const("gelu_rsqrt2", np.array(1.0 / math.sqrt(2.0), np.float32)),
                self.const("gelu_one", np.array(1.0, np.float32)),
                self.const("gelu_half", np.array(0.5, np.float32)),
            )
        rsqrt2, one, half = self._gelu_consts
        erf = self.op("Erf", self.op("Mul", x, rsqrt2))
        return self.op("Mul", self.op("Mul", x, half), self.op("Add", erf, one))
