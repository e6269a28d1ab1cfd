//! Route lookup with 1 and with 10,000 static routes beside one dynamic
//! route, through `App::route_for`: the framework's own router (a matchit
//! tree per method), built from the generated controllers of the `many` and
//! `one` route sets. Build with `--features routes-10k` for 10,000 routes
//! (100 otherwise).
//!
//! Run: `cargo bench -p bench --bench routing --features routes-10k`.

use std::hint::black_box;

use bench::scenario::{MANY_ROUTES, RouteSet};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use http::Method;

fn lookup(c: &mut Criterion) {
    let mut group = c.benchmark_group("route_lookup");
    for set in [RouteSet::One, RouteSet::Many] {
        let app = bench::peers::framework_app(set).expect("the bench's routes build");
        let routes = app.routes().len();
        let static_path = format!("/uuid/{MANY_ROUTES}");
        for (name, path) in [("static", static_path.as_str()), ("dynamic", "/zzz/abc")] {
            assert!(app.route_for(&Method::GET, path).is_some(), "{path}");
            group.bench_function(BenchmarkId::new(format!("{routes}_routes"), name), |b| {
                b.iter(|| {
                    app.route_for(black_box(&Method::GET), black_box(path))
                        .is_some()
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, lookup);
criterion_main!(benches);
