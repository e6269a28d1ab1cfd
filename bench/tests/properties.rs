//! The benchmark payloads are real DTOs: random values validate, and one
//! broken constraint is refused at its path, as for the BBS DTOs.

use bench::{Attachment, Box3D, Boxes, Coordinates, Create, Point3D, Scene, SceneBox};
use framework::testing::{check_broken_values, check_random_value};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn random_values_validate(seed in any::<u64>()) {
        check_random_value::<Point3D>(seed).map_err(TestCaseError::fail)?;
        check_random_value::<Box3D>(seed).map_err(TestCaseError::fail)?;
        check_random_value::<Boxes>(seed).map_err(TestCaseError::fail)?;
        check_random_value::<Attachment>(seed).map_err(TestCaseError::fail)?;
        check_random_value::<Create>(seed).map_err(TestCaseError::fail)?;
        check_random_value::<Coordinates>(seed).map_err(TestCaseError::fail)?;
        check_random_value::<SceneBox>(seed).map_err(TestCaseError::fail)?;
        check_random_value::<Scene>(seed).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn broken_values_fail_at_their_path(seed in any::<u64>()) {
        check_broken_values::<Box3D>(seed).map_err(TestCaseError::fail)?;
        check_broken_values::<Create>(seed).map_err(TestCaseError::fail)?;
        check_broken_values::<SceneBox>(seed).map_err(TestCaseError::fail)?;
        check_broken_values::<Scene>(seed).map_err(TestCaseError::fail)?;
    }
}

#[test]
fn the_payloads_are_what_the_benchmarks_say() {
    let boxes: Boxes = framework::from_json(&bench::boxes_json()).unwrap();
    assert_eq!(boxes.data.len(), 100);
    let scene: Scene = framework::from_json(&bench::scene_json()).unwrap();
    assert_eq!(scene.data.len(), 100);
    let create: Create = framework::from_json(&bench::create_json()).unwrap();
    assert_eq!(create.files.len(), 3);
    let err = framework::from_json::<Create>(&bench::create_with_ten_errors_json()).unwrap_err();
    assert_eq!(err.issues().len(), 10);
}
