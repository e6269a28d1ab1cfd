//! Writing nestia's `{ data: IBox3D[100] }` as JSON: serde_json (what the
//! framework answers with), simd-json and sonic-rs.
//!
//! Run: `cargo bench -p bench --bench serialize`.

use std::hint::black_box;

use bench::{Boxes, boxes_json};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

fn serialize(c: &mut Criterion) {
    let boxes: Boxes = serde_json::from_slice(&boxes_json()).expect("the payload is valid");
    let size = serde_json::to_vec(&boxes)
        .map(|json| json.len())
        .unwrap_or(0);
    let mut group = c.benchmark_group("serialize/box3d_x100");
    group.throughput(Throughput::Bytes(size as u64));
    group.bench_function(BenchmarkId::new("serde_json", "to_vec"), |b| {
        b.iter(|| serde_json::to_vec(black_box(&boxes)).map(|json| json.len()))
    });
    group.bench_function(BenchmarkId::new("simd_json", "to_vec"), |b| {
        b.iter(|| simd_json::to_vec(black_box(&boxes)).map(|json| json.len()))
    });
    group.bench_function(BenchmarkId::new("sonic_rs", "to_vec"), |b| {
        b.iter(|| sonic_rs::to_vec(black_box(&boxes)).map(|json| json.len()))
    });
    group.finish();
}

criterion_group!(benches, serialize);
criterion_main!(benches);
