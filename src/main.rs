//! The `mainline` command: parse arguments, dispatch, print the error chain, map exit codes.
//!
//! Exit codes: 0 success, 1 some input or output failed, 2 usage error (from clap, or
//! options found not to go together after parsing).
//! Writing into a closed pipe (`mainline filter page.html | head`) ends quietly with 0.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => code,
        Err(err) if cli::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) if err.downcast_ref::<cli::UsageError>().is_some() => {
            eprintln!("error: {err:#}\n\nFor more information, try '--help'.");
            ExitCode::from(2)
        }
        Err(err) => {
            eprintln!("mainline: {err:#}");
            ExitCode::from(1)
        }
    }
}
