//! Query strings at their edges (issue 23, item 4): nothing is dropped
//! silently, and a value refused by its type is reported at its own path.

use std::collections::BTreeMap;

use framework::prelude::*;

#[dto]
#[derive(Debug)]
struct Query {
    #[optional]
    n: Option<u64>,
    #[optional]
    i: Option<i32>,
    #[optional]
    tree: Option<BTreeMap<String, serde_json::Value>>,
}

struct Echo;

#[controller("q")]
impl Echo {
    #[typed_route::get("")]
    async fn echo(&self, query: TypedQuery<Query>) -> String {
        format!("{:?}", query.into_inner())
    }
}

async fn get(query: &str) -> (u16, String) {
    let app = App::builder().controller(Echo).build().unwrap();
    let answer = app.test_client().get(&format!("/q?{query}")).send().await;
    (answer.status().as_u16(), answer.text())
}

/// The issues of a refused query, `(path, expected)`.
async fn refused(query: &str) -> Vec<(String, String)> {
    let app = App::builder().controller(Echo).build().unwrap();
    let answer = app.test_client().get(&format!("/q?{query}")).send().await;
    assert_eq!(answer.status(), 400, "{query}: {}", answer.text());
    let problem = answer.problem();
    assert_eq!(problem.code, "invalid_query", "{query}");
    problem
        .errors
        .iter()
        .map(|issue| (issue.path.clone(), issue.expected.clone()))
        .collect()
}

#[tokio::test]
async fn a_value_refused_by_its_type_is_reported_at_its_path() {
    let uint64 = r#"number & Type<"uint64">"#.to_owned();
    assert_eq!(
        refused("n=-0").await,
        [("$query.n".to_owned(), uint64.clone())]
    );
    assert_eq!(
        refused("n=1e3").await,
        [("$query.n".to_owned(), uint64.clone())]
    );
    assert_eq!(
        refused("i=1e3").await,
        [(
            "$query.i".to_owned(),
            r#"number & Type<"int32">"#.to_owned()
        )]
    );
    // A signed type reads `-0` as 0, as the parser does.
    assert_eq!(get("i=-0").await.0, 200);
    assert_eq!(get("n=0").await.0, 200);
}

#[tokio::test]
async fn a_key_nested_deeper_than_the_limit_is_refused_not_dropped() {
    let deep = "tree[a][b][c][d][e][f][g][h][i][j]=1";
    assert_eq!(
        refused(deep).await,
        [(
            "$query.tree.a.b.c.d.e.f.g.h.i".to_owned(),
            "a key nested at most 8 levels deep".to_owned()
        )]
    );
    // Percent-encoded brackets are brackets.
    let encoded = deep.replace('[', "%5B").replace(']', "%5D");
    assert_eq!(refused(&encoded).await.len(), 1);
    // Eight levels are read.
    let (status, text) = get("tree[a][b][c][d][e][f][g][h]=1").await;
    assert_eq!(status, 200, "{text}");
    assert!(text.contains(r#""h": String("1")"#), "{text}");
}
