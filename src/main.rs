use std::process::ExitCode;

// Loading allocates many small strings per file; mimalloc serves that pattern markedly faster
// than the system allocator (see BENCHMARKS.md).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    auditbook::cli::main()
}
