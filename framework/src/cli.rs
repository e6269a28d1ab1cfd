//! The command line every app gets: `serve` (the default), `openapi` and
//! `manifest`.

use std::process::ExitCode;

use crate::app::App;

/// What the command line asks the app to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// Serve (the default).
    Serve,
    /// Print the OpenAPI document to stdout and exit.
    PrintOpenApi,
    /// Print the API manifest (what `sdk-gen` reads) to stdout and exit.
    PrintManifest,
}

impl Command {
    /// Whether the command prints a description of the app instead of
    /// serving it: the app can be built without its resources (a lazy
    /// database pool, say).
    pub fn describes(self) -> bool {
        self != Command::Serve
    }
}

impl Command {
    /// Reads the process's arguments. `--help` and mistakes print a message
    /// and exit, as command lines do.
    ///
    /// ```
    /// use framework::cli::Command;
    /// assert_eq!(Command::parse_from(["bbs"]), Command::Serve);
    /// assert_eq!(Command::parse_from(["bbs", "openapi"]), Command::PrintOpenApi);
    /// assert_eq!(Command::parse_from(["bbs", "manifest"]), Command::PrintManifest);
    /// ```
    pub fn from_args() -> Command {
        Self::parse_from(std::env::args_os())
    }

    /// Reads the given arguments (the first is the program's name).
    pub fn parse_from<I, T>(args: I) -> Command
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let matches = clap::Command::new("app")
            .about("Serves the app; `openapi` and `manifest` describe it instead.")
            .subcommand(clap::Command::new("serve").about("Serve the app (the default)"))
            .subcommand(
                clap::Command::new("openapi")
                    .about("Print the OpenAPI 3.1 document to stdout and exit"),
            )
            .subcommand(
                clap::Command::new("manifest")
                    .about("Print the API manifest that sdk-gen reads to stdout and exit"),
            )
            .get_matches_from(args);
        match matches.subcommand_name() {
            Some("openapi") => Command::PrintOpenApi,
            Some("manifest") => Command::PrintManifest,
            _ => Command::Serve,
        }
    }
}

/// Prints the app's OpenAPI document to stdout.
pub fn print_openapi(app: &App) -> ExitCode {
    print_document(&app.openapi_json())
}

/// Writes `text` and a newline to stdout: success, also when the reader
/// stopped early (`bbs openapi | head`: a closed pipe is no failure of
/// ours), else a message and failure.
fn print_document(text: &str) -> ExitCode {
    use std::io::Write;

    let mut out = std::io::stdout().lock();
    match writeln!(out, "{text}").and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("cannot write to stdout: {err}");
            ExitCode::FAILURE
        }
    }
}

/// Does what a describing `command` asks: prints the OpenAPI document or the
/// manifest. `Serve` prints nothing.
pub fn describe(app: &App, command: Command) -> ExitCode {
    match command {
        Command::PrintOpenApi => print_openapi(app),
        Command::PrintManifest => print_document(&app.manifest().to_json()),
        Command::Serve => ExitCode::SUCCESS,
    }
}
