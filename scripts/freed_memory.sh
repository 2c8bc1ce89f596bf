# Sourced by the launchers (start_nadine.sh, scripts/test.sh). Chroma's HNSW index writes the unused
# slots of a segment (data_level0.bin, length.bin) to disk as whatever bytes its allocation held, so
# a process's freed memory, a forgotten person's words and vectors among it, can outlive a forget in
# another person's index. glibc's perturb overwrites memory on free and on allocation, but not the
# small chunks its per-thread cache hands straight back; without that cache every chunk is
# overwritten (common/store/freed_memory.py turns perturb on for processes started otherwise).
export GLIBC_TUNABLES="${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.tcache_count=0:glibc.malloc.perturb=165"
