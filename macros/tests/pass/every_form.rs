//! Every accepted handler form.

use framework::prelude::*;

#[dto]
struct Input {
    name: String,
}

#[dto]
struct Filter {
    #[optional]
    page: Option<u32>,
}

#[dto]
#[serde(rename_all = "kebab-case")]
struct Auth {
    authorization: String,
}

type ApiResult<T> = Result<T, ApiError>;

/// A user's own error type, converted into `ApiError` for the answer.
struct ShopError;

impl From<ShopError> for ApiError {
    fn from(_: ShopError) -> Self {
        ApiError::conflict("shop closed")
    }
}

type ShopResult<T> = Result<T, ShopError>;

struct Items {
    prefix: String,
}

#[controller("shops/:shop/items")]
impl Items {
    /// All of them.
    #[typed_route::get("")]
    async fn list(&self, #[param] shop: u32, filter: TypedQuery<Filter>) -> Vec<String> {
        vec![format!("{}{shop}{:?}", self.prefix, filter.page)]
    }

    #[typed_route::post("")]
    async fn create(&self, #[param] shop: u32, body: TypedBody<Input>) -> ApiResult<Input> {
        let _ = shop;
        Ok(body.into_inner())
    }

    #[typed_route::put(":id", status = 202, operation_id = "replaceItem")]
    async fn replace(&self, #[param] shop: u32, #[param] id: uuid::Uuid, auth: TypedHeaders<Auth>) {
        let _ = (shop, id, auth.authorization.len());
    }

    #[typed_route::patch(":id")]
    fn touch(&self, #[param("shop")] _shop: u32, #[param] id: String) -> Result<(), ApiError> {
        let _ = id;
        Ok(())
    }

    #[typed_route::delete(":id")]
    async fn remove(#[param] shop: u32, #[param] id: String, raw: http::HeaderMap) -> ShopResult<String> {
        Ok(format!("{shop}{id}{}", raw.len()))
    }

    /// Not a route: left alone.
    fn helper(&self) -> usize {
        self.prefix.len()
    }
}

struct Root;

#[controller("")]
impl Root {
    #[typed_route::get("")]
    async fn index(&self) -> &'static str {
        "root"
    }
}

fn main() {
    let app = App::builder()
        .controller(Items { prefix: String::new() })
        .controller(Root)
        .build()
        .unwrap();
    assert_eq!(app.routes().len(), 6);
    assert_eq!(app.routes()[2].status, 202);
    assert_eq!(app.routes()[2].operation_id, Some("replaceItem"));
    assert_eq!(app.routes()[1].operation_id, None);
    assert_eq!(app.routes()[5].path, "/");
    let _ = Items { prefix: "x".into() }.helper();
}
