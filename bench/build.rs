//! Writes the framework's many-routes controllers: 10,000 static routes with
//! the `routes-10k` feature, 100 without (the runner's quick mode and CI).

use std::{env, fmt::Write, fs, path::Path};

const PER_CONTROLLER: usize = 100;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let routes: usize = if env::var_os("CARGO_FEATURE_ROUTES_10K").is_some() {
        10_000
    } else {
        100
    };
    let mut out = String::new();
    let controllers = routes.div_ceil(PER_CONTROLLER);
    for controller in 0..controllers {
        let _ = writeln!(
            out,
            "/// Static routes, generated.\npub struct ManyRoutes{controller};\n"
        );
        let _ = writeln!(
            out,
            "#[controller(\"uuid\")]\nimpl ManyRoutes{controller} {{"
        );
        let first = controller * PER_CONTROLLER + 1;
        let last = (first + PER_CONTROLLER - 1).min(routes);
        for route in first..=last {
            let _ = writeln!(
                out,
                "    #[typed_route::get(\"{route}\")]\n    async fn route{route}(&self) -> &'static str {{\n        \"{route}\"\n    }}"
            );
        }
        out.push_str("}\n\n");
    }
    let _ = writeln!(
        out,
        "/// The last static route alone.\npub struct OneStatic;\n\n#[controller(\"uuid\")]\nimpl OneStatic {{\n    #[typed_route::get(\"{routes}\")]\n    async fn only(&self) -> &'static str {{\n        \"{routes}\"\n    }}\n}}\n"
    );
    out.push_str("/// Adds every generated controller.\npub fn controllers(builder: AppBuilder) -> AppBuilder {\n    builder");
    for controller in 0..controllers {
        let _ = write!(out, "\n        .controller(ManyRoutes{controller})");
    }
    out.push_str("\n}\n");
    let path = Path::new(&env::var("OUT_DIR").unwrap_or_default()).join("many_routes.rs");
    if let Err(err) = fs::write(&path, out) {
        panic!("writing {}: {err}", path.display());
    }
}
