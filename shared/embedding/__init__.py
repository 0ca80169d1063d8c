"""Embedders (the embedder port): texts to vectors, behind one protocol, chosen by
configuration (`Settings.embedder`). See `port.py` for the invariants."""
