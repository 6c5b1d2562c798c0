//! The `mainline` command. It lives in the library ([`mainline::cli::main`]), where it
//! reaches the modules a library user does not see.

fn main() -> std::process::ExitCode {
    mainline::cli::main()
}
