//! The end-to-end suite `sdk-gen e2e` generated for the BBS
//! (`sdk/typescript/e2e/`, committed, the BBS's own to edit), compiled with
//! the SDK's tests by `sdk_typescript` and run against its server: every
//! route passes (a random id is a documented 404), the load runner reports
//! them all, and a server answering a body of the wrong shape fails them.

use std::path::Path;

#[path = "../../../../sdk-gen/tests/fixture/e2e.rs"]
mod suite;

/// Runs the compiled suite (`lib-test/e2e/` under the SDK's folder
/// `sdk_dir`) against the BBS at `url`, whose moderators' token is
/// `moderator`.
pub fn generated_suite_passes(sdk_dir: &Path, url: &str, moderator: &str) {
    let compiled = sdk_dir.join("lib-test/e2e");
    let (routes, skipped) = suite::feature_routes(&sdk_dir.join("e2e"));
    assert_eq!(skipped, 0, "every BBS route has a generated test");
    let env = [
        ("E2E_HOST", url.to_owned()),
        ("E2E_MODERATOR", moderator.to_owned()),
    ];
    let ran = suite::node_tests(&compiled, &env, None);
    suite::assert_passed(&ran, routes.len(), 0);
    let ran = suite::bench(&compiled, &env, "1");
    suite::assert_bench_report(&ran, &routes);

    // Without the moderators' token, their route is skipped, saying why.
    let ran = suite::node_tests(&compiled, &env[..1], Some("moderation"));
    assert!(
        ran.success
            && ran
                .stdout
                .contains("# SKIP DELETE /bbs/moderation/articles/:section/:id needs a credential"),
        "{ran}"
    );

    let wrong = [
        ("E2E_HOST", format!("http://{}", suite::wrong_server())),
        ("E2E_MODERATOR", moderator.to_owned()),
    ];
    let ran = suite::node_tests(&compiled, &wrong, Some("test_api_bbs_articles_at"));
    assert!(!ran.success, "{ran}");
    for line in [
        "# fail 1\n",
        "GET /bbs/articles/:section/:id answered 200 with a body that is not of its type:",
        "$output.id: expected string & Format<\"uuid\">, got nothing",
    ] {
        assert!(ran.stdout.contains(line), "expected `{line}`:\n{ran}");
    }
    let ran = suite::bench(&compiled, &wrong, "1");
    assert!(
        !ran.success
            && ran
                .stdout
                .contains("POST /bbs/articles/:section answered 200, which it does not document")
            && !ran.stdout.contains("validation failures: 0\n"),
        "{ran}"
    );
}
