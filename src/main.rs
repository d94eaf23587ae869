use std::process::ExitCode;

// The system allocator, deliberately: measured against mimalloc it starts faster (the shipped
// catalogue's whole run is about 20 ms) and holds far less memory on large catalogues, at a
// modest cost in throughput at 10,000 checks and more (see BENCHMARKS.md).
fn main() -> ExitCode {
    auditbook::cli::main()
}
