//! Parse + validate, against serde_json alone, bare simd-json, `validator`
//! and `garde`, on nestia's `{ data: IBox3D[100] }` and the BBS `ICreate`;
//! the `assert` route's constrained `Scene` (1,200 floats, 100 e-mail
//! addresses) against serde_json alone and `validator`; and the time to
//! list every error of an input with ten.
//!
//! Run: `cargo bench -p bench --bench validation`.

use std::hint::black_box;

use bench::{
    Boxes, Create, Scene, boxes_json, create_json, create_with_ten_errors_json, scene_json,
    with_garde, with_validator,
};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use framework::Validate;

fn parse_and_validate(c: &mut Criterion) {
    let payloads: [(&str, Vec<u8>); 2] =
        [("box3d_x100", boxes_json()), ("bbs_create", create_json())];
    for (name, json) in payloads {
        let mut group = c.benchmark_group(format!("parse_validate/{name}"));
        group.throughput(Throughput::Bytes(json.len() as u64));
        let boxes = name == "box3d_x100";

        group.bench_function(BenchmarkId::new("framework", "simd+generated"), |b| {
            if boxes {
                b.iter(|| framework::from_json::<Boxes>(black_box(&json)).is_ok())
            } else {
                b.iter(|| framework::from_json::<Create>(black_box(&json)).is_ok())
            }
        });
        group.bench_function(
            BenchmarkId::new("simd_json", "parse only, reused buffers"),
            |b| {
                let mut buffers = simd_json::Buffers::new(json.len());
                let mut scratch = Vec::with_capacity(json.len());
                if boxes {
                    b.iter(|| {
                        scratch.clear();
                        scratch.extend_from_slice(black_box(&json));
                        simd_json::serde::from_slice_with_buffers::<Boxes>(
                            &mut scratch,
                            &mut buffers,
                        )
                        .is_ok()
                    })
                } else {
                    b.iter(|| {
                        scratch.clear();
                        scratch.extend_from_slice(black_box(&json));
                        simd_json::serde::from_slice_with_buffers::<Create>(
                            &mut scratch,
                            &mut buffers,
                        )
                        .is_ok()
                    })
                }
            },
        );
        group.bench_function(BenchmarkId::new("serde_json", "parse only"), |b| {
            if boxes {
                b.iter(|| serde_json::from_slice::<Boxes>(black_box(&json)).is_ok())
            } else {
                b.iter(|| serde_json::from_slice::<Create>(black_box(&json)).is_ok())
            }
        });
        group.bench_function(
            BenchmarkId::new("serde_json+generated", "parse then is_valid"),
            |b| {
                if boxes {
                    b.iter(|| {
                        serde_json::from_slice::<Boxes>(black_box(&json))
                            .is_ok_and(|v| v.is_valid())
                    })
                } else {
                    b.iter(|| {
                        serde_json::from_slice::<Create>(black_box(&json))
                            .is_ok_and(|v| v.is_valid())
                    })
                }
            },
        );
        group.bench_function(
            BenchmarkId::new("validator", "serde_json then validate"),
            |b| {
                use validator::Validate as _;
                if boxes {
                    b.iter(|| {
                        serde_json::from_slice::<with_validator::Boxes>(black_box(&json))
                            .is_ok_and(|v| v.validate().is_ok())
                    })
                } else {
                    b.iter(|| {
                        serde_json::from_slice::<with_validator::Create>(black_box(&json))
                            .is_ok_and(|v| v.validate().is_ok())
                    })
                }
            },
        );
        group.bench_function(BenchmarkId::new("garde", "serde_json then validate"), |b| {
            use garde::Validate as _;
            if boxes {
                b.iter(|| {
                    serde_json::from_slice::<with_garde::Boxes>(black_box(&json))
                        .is_ok_and(|v| v.validate().is_ok())
                })
            } else {
                b.iter(|| {
                    serde_json::from_slice::<with_garde::Create>(black_box(&json))
                        .is_ok_and(|v| v.validate().is_ok())
                })
            }
        });
        group.finish();
    }
}

/// The `assert` route's body, as the framework and the raw hyper peer
/// (serde_json then `validator`) read it.
fn scene(c: &mut Criterion) {
    let json = scene_json();
    let mut group = c.benchmark_group("parse_validate/scene");
    group.throughput(Throughput::Bytes(json.len() as u64));
    group.bench_function(BenchmarkId::new("framework", "generated decoder"), |b| {
        b.iter(|| framework::from_json::<Scene>(black_box(&json)).is_ok())
    });
    group.bench_function(BenchmarkId::new("serde_json", "parse only"), |b| {
        b.iter(|| serde_json::from_slice::<with_validator::Scene>(black_box(&json)).is_ok())
    });
    group.bench_function(
        BenchmarkId::new("validator", "serde_json then validate"),
        |b| {
            use validator::Validate as _;
            b.iter(|| {
                serde_json::from_slice::<with_validator::Scene>(black_box(&json))
                    .is_ok_and(|v| v.validate().is_ok())
            })
        },
    );
    group.finish();
}

fn invalid_input(c: &mut Criterion) {
    let json = create_with_ten_errors_json();
    let errors = framework::from_json::<Create>(&json)
        .err()
        .map_or(0, |err| err.issues().len());
    assert_eq!(errors, 10, "the payload has ten errors");
    let mut group = c.benchmark_group("invalid/bbs_create_10_errors");
    group.bench_function("framework: full error list", |b| {
        b.iter(|| {
            framework::from_json::<Create>(black_box(&json))
                .err()
                .map(|err| err.issues().len())
        })
    });
    group.bench_function("serde_json: first error only", |b| {
        b.iter(|| {
            serde_json::from_slice::<Create>(black_box(&json))
                .err()
                .map(|err| err.line())
        })
    });
    group.finish();
}

criterion_group!(benches, parse_and_validate, scene, invalid_input);
criterion_main!(benches);
