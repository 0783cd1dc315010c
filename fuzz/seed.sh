#!/usr/bin/env bash
# Seeds the shader fuzz corpora (fuzz/corpus/, not committed) from the
# project's own test shaders (the assembler vectors in tests/) and, when it
# is beside the repo, the fxc conformance set (read, never copied into git).
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p corpus/shader_decode corpus/shader_asm
fxc=../../shared/conformance/fxc
if [ -d "$fxc" ]; then
    for f in "$fxc"/*.bin; do cp -n "$f" corpus/shader_decode/ 2>/dev/null || true; done
    for f in "$fxc"/*.asm.txt; do cp -n "$f" corpus/shader_asm/ 2>/dev/null || true; done
fi
# The assembly texts embedded in the tests (one file per `assemble("...")` string literal).
n=0
grep -ho 'assemble("[^"]*")' ../tests/*.rs ../examples/*.rs 2>/dev/null | sed 's/^assemble("//; s/")$//' | while IFS= read -r text; do
    n=$((n + 1))
    printf '%b' "$text" > "corpus/shader_asm/test_$n.asm"
done
echo "corpus: $(ls corpus/shader_decode | wc -l) bytecode seeds, $(ls corpus/shader_asm | wc -l) text seeds"
