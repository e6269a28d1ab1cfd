use framework::prelude::*;

struct Users;

#[controller("users")]
impl Users {
    #[typed_route::post("login", operation_id = "sign-in")]
    async fn login(&self) {}

    #[typed_route::post("logout", operation_id = "users.signOut")]
    async fn logout(&self) {}

    #[typed_route::get("me", operation_id = me)]
    async fn me(&self) {}

    #[typed_route::get("2fa", operation_id = "2fa")]
    async fn second_factor(&self) {}

    #[typed_route::get("", operation_id = "")]
    async fn list(&self) {}
}

fn main() {}
