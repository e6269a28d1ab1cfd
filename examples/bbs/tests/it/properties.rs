//! Property tests of every BBS DTO: random values validate, and a value
//! with one constraint broken is refused with the issue at its path.

use bbs::dto::{
    ArticleCreate, ArticleErase, ArticleIndexRequest, ArticleSnapshot, ArticleSummary,
    ArticleUpdate, AttachmentFile, BbsArticle, Page,
};
use framework::{Dto, Random, testing::broken_variants};
use proptest::prelude::*;
use rand::{SeedableRng, rngs::StdRng};

fn random_values_validate<T: Dto + std::fmt::Debug + PartialEq>(
    seed: u64,
) -> Result<(), TestCaseError> {
    let value = T::random_with(&mut StdRng::seed_from_u64(seed));
    prop_assert!(value.is_valid(), "{value:?}");
    let json = serde_json::to_vec(&value).unwrap();
    let decoded = framework::from_json::<T>(&json);
    prop_assert!(
        decoded.is_ok(),
        "{:?}",
        decoded.err().map(|err| err.issues().to_vec())
    );
    prop_assert_eq!(decoded.unwrap(), value);
    Ok(())
}

fn broken_values_fail<T: Dto + std::fmt::Debug>(seed: u64) -> Result<(), TestCaseError> {
    let value = T::random_with(&mut StdRng::seed_from_u64(seed));
    for case in broken_variants(&value) {
        let json = case.value.to_string();
        match framework::from_json::<T>(json.as_bytes()) {
            Ok(accepted) => prop_assert!(
                false,
                "{} at {} accepted: {accepted:?}",
                case.what,
                case.path
            ),
            Err(err) => {
                let paths: Vec<&str> = err
                    .issues()
                    .iter()
                    .map(|issue| issue.path.as_str())
                    .collect();
                prop_assert!(
                    !paths.is_empty() && paths.iter().all(|path| *path == case.path),
                    "{} at {}: {paths:?}",
                    case.what,
                    case.path
                );
            }
        }
    }
    Ok(())
}

macro_rules! properties {
    ($($ty:ty),*) => {
        proptest! {
            #![proptest_config(ProptestConfig::with_cases(48))]

            #[test]
            fn every_dto_random_value_validates(seed in any::<u64>()) {
                $(random_values_validate::<$ty>(seed)?;)*
            }

            #[test]
            fn every_dto_broken_value_fails_at_its_path(seed in any::<u64>()) {
                $(broken_values_fail::<$ty>(seed)?;)*
            }
        }
    };
}

properties!(
    ArticleCreate,
    ArticleUpdate,
    ArticleErase,
    ArticleIndexRequest,
    AttachmentFile,
    ArticleSnapshot,
    ArticleSummary,
    BbsArticle,
    Page<ArticleSummary>
);
