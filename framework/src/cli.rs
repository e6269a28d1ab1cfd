//! The command line every app gets: `serve` (the default), `openapi` and
//! `manifest`.

use std::process::ExitCode;

use crate::{ApiVersion, app::App};

/// What the command line asks the app to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// Serve (the default).
    Serve,
    /// Print the OpenAPI document to stdout and exit: of one version of
    /// the API (`openapi --version 1.0.0`), else the default version's.
    PrintOpenApi(Option<ApiVersion>),
    /// Print the API manifest (what `sdk-gen` reads) to stdout and exit:
    /// of one version (`manifest --version 1.0.0`), else the default's.
    PrintManifest(Option<ApiVersion>),
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
    /// assert_eq!(Command::parse_from(["bbs", "openapi"]), Command::PrintOpenApi(None));
    /// assert_eq!(
    ///     Command::parse_from(["bbs", "manifest", "--version", "1.0.0"]),
    ///     Command::PrintManifest(Some(framework::ApiVersion::new(1, 0, 0)))
    /// );
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
        let version = || {
            clap::Arg::new("version")
                .long("version")
                .value_name("MAJOR.MINOR.PATCH")
                .value_parser(|text: &str| text.parse::<ApiVersion>())
                .help("Describe this version of the API (default: the one served without the version header)")
        };
        let matches = clap::Command::new("app")
            .about("Serves the app; `openapi` and `manifest` describe it instead.")
            .subcommand(clap::Command::new("serve").about("Serve the app (the default)"))
            .subcommand(
                clap::Command::new("openapi")
                    .about("Print the OpenAPI 3.1 document to stdout and exit")
                    .arg(version()),
            )
            .subcommand(
                clap::Command::new("manifest")
                    .about("Print the API manifest that sdk-gen reads to stdout and exit")
                    .arg(version()),
            )
            .get_matches_from(args);
        let version_of = |sub: &clap::ArgMatches| sub.get_one::<ApiVersion>("version").copied();
        match matches.subcommand() {
            Some(("openapi", sub)) => Command::PrintOpenApi(version_of(sub)),
            Some(("manifest", sub)) => Command::PrintManifest(version_of(sub)),
            _ => Command::Serve,
        }
    }
}

/// Prints the app's OpenAPI document to stdout.
pub fn print_openapi(app: &App) -> ExitCode {
    print_document(&app.openapi_json())
}

/// Prints the document (or, with `manifest`, the manifest) of `version`,
/// or says which versions the app serves.
fn print_version(app: &App, version: ApiVersion, manifest: bool) -> ExitCode {
    let text = if manifest {
        app.manifest_for(version).map(|manifest| manifest.to_json())
    } else {
        app.openapi_json_for(version)
    };
    match text {
        Some(text) => print_document(&text),
        None => {
            eprintln!(
                "the app does not serve version {version}; it serves {}",
                crate::versions::list(app.versions())
            );
            ExitCode::FAILURE
        }
    }
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
        Command::PrintOpenApi(None) => print_openapi(app),
        Command::PrintManifest(None) => print_document(&app.manifest().to_json()),
        Command::PrintOpenApi(Some(version)) => print_version(app, version, false),
        Command::PrintManifest(Some(version)) => print_version(app, version, true),
        Command::Serve => ExitCode::SUCCESS,
    }
}
