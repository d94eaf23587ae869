use std::process::ExitCode;

fn main() -> ExitCode {
    auditbook::cli::main()
}
