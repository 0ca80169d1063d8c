"""The generated parts of the manual (`make docs`, `python -m shared.docs`).

Invariants:
- Generated text sits between markers; everything outside them is hand-written and never
  touched. `docs/tools.md` carries the tool reference from the catalog (`tool_reference`),
  every long page a table of contents (`toc`).
- `tests/unit/test_docs_generated.py` fails when a generated part is stale or an anchor a
  page links to does not exist: run `make docs` and commit the result.
"""
