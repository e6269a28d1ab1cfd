//! Property tests of every BBS DTO: random values validate, and a value
//! with one constraint broken is refused with the issue at its path.

use bbs::dto::{
    ArticleCreate, ArticleErase, ArticleIndexRequest, ArticleSnapshot, ArticleSummary,
    ArticleUpdate, AttachmentFile, BbsArticle, Page,
};
use framework::testing::{check_broken_values, check_random_value};
use proptest::prelude::*;

macro_rules! properties {
    ($($ty:ty),*) => {
        proptest! {
            #![proptest_config(ProptestConfig::with_cases(48))]

            #[test]
            fn every_dto_random_value_validates(seed in any::<u64>()) {
                $(check_random_value::<$ty>(seed).map_err(TestCaseError::fail)?;)*
            }

            #[test]
            fn every_dto_broken_value_fails_at_its_path(seed in any::<u64>()) {
                $(check_broken_values::<$ty>(seed).map_err(TestCaseError::fail)?;)*
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
