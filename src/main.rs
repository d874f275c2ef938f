//! The `boggle` binary: all behaviour lives in the library's `cli` module.

fn main() -> std::process::ExitCode {
    boggle::cli::main()
}
